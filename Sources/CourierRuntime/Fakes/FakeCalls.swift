import CourierLocking
import Foundation
import HTTPTypes

/// What a generated fake answers one endpoint's calls with: set it per method, such as
/// `fake.createOrder = .failure(.outOfStock(body))`.
public enum FakeResult<Request: APIRequest>: Sendable {
    /// The call returns `response`; an endpoint without a body returns `NoContent()`.
    case success(Request.Response)
    /// The call throws the endpoint's documented `failure` as `APIError.endpoint`, with an empty
    /// response of `status` standing in for the server's (400 unless you say).
    case failure(Request.Failure, status: HTTPResponse.Status = .badRequest)
    /// The call throws `error`, any `APIError`, such as `.transport(TransportError(.notConnected))`.
    case error(APIError<Request.Failure>)

    /// The value the call returns, or the error it throws.
    func get() throws(APIError<Request.Failure>) -> Request.Response {
        switch self {
        case .success(let response): return response
        case .failure(let failure, let status): throw .endpoint(failure, RawResponse(status: status))
        case .error(let error): throw error
        }
    }
}

/// The calls a generated fake received, in order, and the result each of its methods answers
/// with.
///
/// Generated `<Service>Fake` classes keep one each as `calls`; their per-method properties read
/// and write the results here, so that a fake is one line per endpoint. The lock makes the fake
/// `Sendable` without an actor, so its methods are called exactly as the client's are.
public final class FakeCalls: Sendable {
    private struct State {
        var results: [ObjectIdentifier: any Sendable] = [:]
        var requests: [any APIRequest] = []
    }

    private let fake: String
    private let state = Locked(State())

    /// An empty record for the fake named `fake`, which its messages name.
    @_spi(Generated) public init(fake: String) {
        self.fake = fake
    }

    /// Every request the fake received, oldest first, whichever method sent it.
    public var requests: [any APIRequest] {
        state.withLock { $0.requests }
    }

    /// The requests of one type the fake received, oldest first, such as
    /// `fake.calls.requests(of: CreateOrderRequest.self)`: each holds its method's arguments.
    public func requests<Request: APIRequest>(of type: Request.Type) -> [Request] {
        state.withLock { $0.requests.compactMap { $0 as? Request } }
    }

    /// The result set for the requests of type `Request`, or `nil`.
    @_spi(Generated) public func result<Request: APIRequest>() -> FakeResult<Request>? {
        state.withLock { $0.results[ObjectIdentifier(Request.self)] as? FakeResult<Request> }
    }

    /// Sets the result for the requests of type `Request`; `nil` unsets it.
    @_spi(Generated) public func set<Request: APIRequest>(_ result: FakeResult<Request>?) {
        state.withLock { $0.results[ObjectIdentifier(Request.self)] = result }
    }

    /// Records `request` and answers with the result set for its type.
    @_spi(Generated) public func answer<Request: APIRequest>(_ request: Request) throws(APIError<Request.Failure>) -> Request.Response {
        let result: FakeResult<Request>? = state.withLock { state in
            state.requests.append(request)
            return state.results[ObjectIdentifier(Request.self)] as? FakeResult<Request>
        }
        guard let result else {
            // A programmer error, never a transport one: code under test that treats
            // `.transport` as "offline" would otherwise take its offline branch and hide the
            // mistake. It is thrown rather than trapped, so that the test fails with the
            // sentence naming the property to set and the call is still recorded.
            throw .invalidRequest(InvalidRequest(.fakeResultNotSet(fake: fake), operationName: request.operationName))
        }
        return try result.get()
    }
}
