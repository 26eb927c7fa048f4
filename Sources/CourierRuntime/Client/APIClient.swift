import CourierLocking
import Foundation

/// Sends ``APIRequest`` values and turns what comes back into typed results and errors.
///
/// Generated `<Service>Client` facades wrap one of these; it can also be used directly:
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://api.example.com/v1")!)
/// let user = try await client.send(GetUser(id: 42))
/// ```
public struct APIClient: Sendable {
    /// The URL that request paths are appended to.
    public let baseURL: URL
    /// What sends the bytes.
    public let transport: any HTTPTransport
    /// Everything else.
    public var configuration: Configuration

    let base: Result<BaseAddress, InvalidReason>
    /// Whether the client has logged a call sent without the credentials its service expects
    /// (``Configuration/expectsAuthentication``): once per client, shared by its copies.
    let missingCredentialsLogged = Locked(false)

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: Where requests go; a path such as `/v1` is kept in front of every request path.
    ///     A URL without scheme or host makes every call fail with ``InvalidRequest``.
    ///   - transport: What sends the bytes; `URLSessionTransport()` by default.
    ///   - configuration: Coding, headers, auth, logging, events and timeouts.
    public init(baseURL: URL, transport: any HTTPTransport = URLSessionTransport(), configuration: Configuration = Configuration()) {
        self.baseURL = baseURL
        self.transport = transport
        self.configuration = configuration
        do throws(InvalidReason) {
            base = Result<BaseAddress, InvalidReason>.success(try BaseAddress(baseURL))
        } catch {
            base = Result<BaseAddress, InvalidReason>.failure(error)
        }
    }

    /// Sends a request and returns its decoded response.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - resilience: This call's own retry and breaker choices, over the request's
    ///     ``APIRequest/resilience``; for example ``EndpointResilience/safeToRepeat`` to let a
    ///     POST be retried.
    public func send<Request: APIRequest>(
        _ request: Request,
        resilience: EndpointResilience? = nil
    ) async throws(APIError<Request.Failure>) -> Request.Response {
        try await response(for: request, resilience: resilience).value
    }

    /// Sends a request and returns its decoded response together with the status, header
    /// fields and rate-limit information.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - resilience: This call's own retry and breaker choices, over the request's
    ///     ``APIRequest/resilience``.
    public func response<Request: APIRequest>(
        for request: Request,
        resilience: EndpointResilience? = nil
    ) async throws(APIError<Request.Failure>) -> APIResponse<Request.Response> {
        try await perform(request, resilience: resilience, adjust: { _ in }, interpret: { raw, _ in Self.interpret(raw, for: request) },
                          status: { ($0.status, $0.rateLimit) })
    }

    /// One call from start to finish: the request prepared (and adjusted: streamed, a header
    /// added, a page's target), the started and finished events, the attempts, and the final
    /// response turned into `Output` by `interpret`.
    func perform<Request: APIRequest, Output>(
        _ request: Request,
        resilience: EndpointResilience?,
        adjust: (inout PreparedRequest) throws(InvalidRequest) -> Void,
        interpret: (RawResponse, HTTPBody?) -> Result<Output, APIError<Request.Failure>>,
        status: (Output) -> (HTTPResponse.Status, RateLimit)
    ) async throws(APIError<Request.Failure>) -> Output {
        let clock = ContinuousClock()
        let start = clock.now
        // Decisions (the deadline) use the injected clock; reported durations are real time.
        let stopwatch = Stopwatch(configuration.resilience.clock)
        var building: PreparedRequest
        do throws(InvalidRequest) {
            let base = try self.base.mapError { InvalidRequest($0.reason, operationName: request.operationName) }.get()
            building = try RequestBuilder.prepare(request, base: base, configuration: configuration)
            try adjust(&building)
        } catch {
            let failure = APIError<Request.Failure>.invalidRequest(error)
            log(failure: failure, operationName: request.operationName, method: request.method, pathTemplate: request.path.template)
            throw failure
        }
        let overrides = request.resilience.overridden(by: resilience ?? .inherited)
        building.observation = configuration.instrument?.observe(building.summary)
        // A constant from here: `call` captures it, and a captured variable would be boxed on
        // the heap for every call.
        let prepared = building
        func call() async -> Result<Output, APIError<Request.Failure>> {
            emit(.started(prepared.summary), to: prepared.observation)
            let result = await run(request, prepared: prepared, overrides: overrides, stopwatch: stopwatch, interpret: interpret)
            switch result {
            case .success(let output):
                // `status` reads the rate-limit fields, a dozen header look-ups: inside the
                // event, so that a call nobody listens to never pays for them.
                emit(.finished(prepared.summary, result: Self.success(status(output)), duration: clock.now - start), to: prepared.observation)
            case .failure(let error):
                emit(.finished(prepared.summary, result: .failure(ClientEvent.FailureSummary(error)), duration: clock.now - start), to: prepared.observation)
            }
            return result
        }
        guard let observation = prepared.observation else {
            return try await call().get()
        }
        return try await observation.withCall { await call() }.get()
    }

    /// A successful call's result for its `finished` event, from what `perform`'s `status` reads.
    private static func success(_ status: (HTTPResponse.Status, RateLimit)) -> ClientEvent.CallResult {
        .success(status.0, status.1)
    }

    /// Resets every circuit breaker this client's ``Configuration/resilience`` has handed out
    /// to closed (with process-wide breakers, other clients of the same hosts see it too),
    /// reporting each change as a ``ClientEvent/circuitBreakerChanged(_:request:)`` and in
    /// the log.
    public func resetCircuitBreakers() {
        let observer = TransitionObserver { [self] transition in
            report(transition, during: nil)
        }
        TransitionObservation.$observer.withValue(observer) {
            configuration.resilience.circuitBreakers.resetAll()
        }
    }
}
