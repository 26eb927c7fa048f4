import CourierLocking
import CourierRuntime
import Foundation
import HTTPTypes

/// A transport for tests that answers from a script instead of the network.
///
/// It answers by method and path, records every request it receives, and plays scripted
/// sequences of responses, delays and failures. It replaces the hand-written mock
/// `URLSession` that app tests usually carry.
///
/// ```swift
/// let stub = StubTransport()
/// stub.on(.get, "/users/{id}", .json(#"{"id": 1, "name": "Ada"}"#))
/// stub.on(.post, "/orders", .status(503), .status(503), .json(#"{"id": 7}"#, status: 201))
/// let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: stub)
/// ```
///
/// Each route plays its replies in order and then keeps repeating the last one.
///
/// It comes with the `CourierTesting` product: add that to the test target and
/// `import CourierTesting` next to `import CourierRuntime`.
public final class StubTransport: HTTPTransport, Sendable {
    /// One scripted answer.
    public struct Reply: Sendable {
        indirect enum Action: Sendable {
            case respond(HTTPResponse.Status, HTTPFields, Data)
            case fail(TransportError)
            case delayed(Duration, Action)
            case compute(@Sendable (RecordedRequest) -> Reply)
        }

        let action: Action

        /// A response with the given status, header fields and body.
        public static func status(_ code: Int, headers: [String: String] = [:], body: Data = Data()) -> Reply {
            Reply(action: .respond(HTTPResponse.Status(code: code), Self.fields(headers), body))
        }

        /// A response with a JSON body given as text.
        public static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Reply {
            var headers = headers
            if headers.keys.allSatisfy({ $0.lowercased() != "content-type" }) {
                headers["Content-Type"] = "application/json"
            }
            return .status(status, headers: headers, body: Data(text.utf8))
        }

        /// A response with a value encoded as JSON.
        public static func json(
            encoding value: some Encodable,
            status: Int = 200,
            headers: [String: String] = [:],
            coding: JSONCoding = JSONCoding()
        ) throws -> Reply {
            let body = try coding.makeEncoder().encode(value)
            return .json(String(decoding: body, as: UTF8.self), status: status, headers: headers)
        }

        /// A transport failure, such as `.failure(.timedOut)`.
        public static func failure(_ kind: TransportError.Kind, requestMayHaveBeenSent: Bool = true) -> Reply {
            Reply(action: .fail(TransportError(kind, requestMayHaveBeenSent: requestMayHaveBeenSent)))
        }

        /// A given transport failure.
        public static func failure(_ error: TransportError) -> Reply {
            Reply(action: .fail(error))
        }

        /// An answer computed from the request, for echoing or for counting.
        public static func respond(_ body: @escaping @Sendable (RecordedRequest) -> Reply) -> Reply {
            Reply(action: .compute(body))
        }

        /// This answer after a delay. A delay as long as the attempt's timeout ends the
        /// attempt with `TransportError.Kind.timedOut` instead, as a real server would.
        public func delayed(by delay: Duration) -> Reply {
            Reply(action: .delayed(delay, action))
        }

        private static func fields(_ headers: [String: String]) -> HTTPFields {
            var fields = HTTPFields()
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                if let fieldName = HTTPField.Name(name) {
                    fields.append(HTTPField(name: fieldName, value: value))
                }
            }
            return fields
        }
    }

    /// A request as the stub received it.
    public struct RecordedRequest: Sendable {
        /// The request head: method, path with query, header fields.
        public var head: HTTPRequest
        /// The body, if any.
        public var body: Data?
        /// The timeout the client gave this attempt.
        public var timeout: Duration

        /// The method.
        public var method: HTTPRequest.Method { head.method }
        /// The path without the query, as sent (percent-encoded).
        public var path: String {
            let full = head.path ?? ""
            return full.firstIndex(of: "?").map { String(full[..<$0]) } ?? full
        }
        /// The query string without `?`, as sent; empty when there is none.
        public var query: String {
            let full = head.path ?? ""
            return full.firstIndex(of: "?").map { String(full[full.index(after: $0)...]) } ?? ""
        }
        /// A header field's value.
        public func header(_ name: String) -> String? {
            HTTPField.Name(name).flatMap { head.headerFields[$0] }
        }
        /// The body decoded as JSON.
        public func decodeBody<T: Decodable>(_ type: T.Type, coding: JSONCoding = JSONCoding()) throws -> T {
            try coding.makeDecoder().decode(T.self, from: body ?? Data())
        }
    }

    /// The request body could not be read, so nothing was recorded or answered.
    struct BodyUnreadable: Error, Sendable {
        var reason: String
    }

    /// The error a request gets when no route matches it.
    public struct NoRoute: Error, Sendable, CustomStringConvertible {
        /// The request's method.
        public var method: HTTPRequest.Method
        /// The request's path.
        public var path: String
        /// Names the unmatched request.
        public var description: String { "StubTransport has no route for \(method.rawValue) \(path)" }
    }

    private struct Route {
        var method: HTTPRequest.Method
        var segments: [Substring]
        var replies: [Reply]
        var played = 0
    }

    private struct Waiter {
        var id: UInt64
        var count: Int
        var continuation: CheckedContinuation<[RecordedRequest], Never>
    }

    private struct State {
        var routes: [Route] = []
        var received: [RecordedRequest] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
    }

    private let state = Locked(State())
    private let clock: any Clock<Duration>

    /// Creates a stub with no routes.
    ///
    /// - Parameter clock: The clock delays run on; tests of time-based behaviour can pass
    ///   their own.
    public init(clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
    }

    /// Scripts the answers to `method` on `path`.
    ///
    /// - Parameters:
    ///   - method: The method to answer.
    ///   - path: The path as sent, without the query; `{name}` matches any one segment.
    ///   - replies: Played in order; the last repeats. A later route for the same method
    ///     and path replaces an earlier one.
    public func on(_ method: HTTPRequest.Method, _ path: String, _ replies: Reply...) {
        on(method, path, replies: replies)
    }

    /// Scripts the answers to `method` on `path` from an array.
    public func on(_ method: HTTPRequest.Method, _ path: String, replies: [Reply]) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        state.withLock { state in
            state.routes.removeAll { $0.method == method && $0.segments == segments }
            state.routes.append(Route(method: method, segments: segments, replies: replies))
        }
    }

    /// Every request received, in order.
    public var receivedRequests: [RecordedRequest] {
        state.withLock { $0.received }
    }

    /// The requests received for `method` on a path matching `path`.
    public func requests(_ method: HTTPRequest.Method, _ path: String) -> [RecordedRequest] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return receivedRequests.filter { $0.method == method && Self.matches(segments, $0.path) }
    }

    /// Waits until the stub has received at least `count` requests, and returns every request
    /// received so far.
    ///
    /// Lets a test act the moment a call is in flight (cancel it, advance a ``ManualClock``)
    /// without polling or sleeping, which holds on a busy machine where a spawned task can take
    /// seconds to start. Returns at once, with what has arrived, when the waiting task is cancelled.
    public func waitForRequests(count: Int = 1) async -> [RecordedRequest] {
        let id: UInt64 = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[RecordedRequest], Never>) in
                let ready: [RecordedRequest]? = state.withLock { state in
                    if state.received.count >= count || Task.isCancelled { return state.received }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let cancelled: (Waiter, [RecordedRequest])? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return (state.waiters.remove(at: index), state.received)
            }
            if let (waiter, received) = cancelled { waiter.continuation.resume(returning: received) }
        }
    }

    /// Forgets all routes and recorded requests.
    public func reset() {
        // Waiters stay: they wait for requests still to come.
        state.withLock { state in
            state.routes = []
            state.received = []
        }
    }

    /// Records the request and plays the next scripted answer for it.
    ///
    /// A streamed request body is read to the end first, so that ``RecordedRequest/body``
    /// holds every byte the client sent.
    public func send(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse {
        var bytes: Data?
        if let body {
            do {
                bytes = try await body.collect(upTo: .max)
            } catch {
                throw TransportError(Task.isCancelled ? .cancelled : .other, requestMayHaveBeenSent: false, underlying: BodyUnreadable(reason: String(describing: error)))
            }
        }
        let recorded = RecordedRequest(head: request, body: bytes, timeout: timeout)
        let (reply, woken, received): (Reply?, [Waiter], [RecordedRequest]) = state.withLock { state in
            state.received.append(recorded)
            let woken = state.waiters.filter { $0.count <= state.received.count }
            state.waiters.removeAll { $0.count <= state.received.count }
            guard let index = state.routes.lastIndex(where: { $0.method == request.method && Self.matches($0.segments, recorded.path) }),
                  !state.routes[index].replies.isEmpty
            else { return (nil, woken, state.received) }
            let route = state.routes[index]
            state.routes[index].played += 1
            return (route.replies[min(route.played, route.replies.count - 1)], woken, state.received)
        }
        for waiter in woken { waiter.continuation.resume(returning: received) }
        guard let reply else {
            throw TransportError(.other, requestMayHaveBeenSent: false, underlying: NoRoute(method: request.method, path: recorded.path))
        }
        return try await play(reply.action, for: recorded, timeout: timeout)
    }

    private func play(_ action: Reply.Action, for request: RecordedRequest, timeout: Duration) async throws(TransportError) -> TransportResponse {
        switch action {
        case .respond(let status, let fields, let body):
            return TransportResponse(head: HTTPResponse(status: status, headerFields: fields), body: body)
        case .fail(let error):
            throw error
        case .compute(let body):
            return try await play(body(request).action, for: request, timeout: timeout)
        case .delayed(let delay, let next):
            do {
                try await clock.sleep(for: min(delay, timeout), tolerance: nil)
            } catch {
                throw TransportError(.cancelled)
            }
            if delay >= timeout {
                throw TransportError(.timedOut)
            }
            return try await play(next, for: request, timeout: timeout)
        }
    }

    private static func matches(_ pattern: [Substring], _ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == pattern.count else { return false }
        return zip(pattern, segments).allSatisfy { expected, actual in
            (expected.hasPrefix("{") && expected.hasSuffix("}") && !actual.isEmpty) || expected == actual
        }
    }
}
