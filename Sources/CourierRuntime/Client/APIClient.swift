import Foundation
import HTTPTypes
import Logging

/// Sends ``APIRequest`` values and turns what comes back into typed results and errors.
///
/// Generated `<Service>Client` facades wrap one of these; it can also be used directly:
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://api.example.com/v1")!)
/// let user = try await client.send(GetUser(id: 42))
/// ```
public struct APIClient: Sendable {
    /// Everything about a client except where it sends requests and how.
    public struct Configuration: Sendable {
        /// How JSON keys and dates are spelled.
        public var coding: JSONCoding
        /// How arrays and booleans are spelled in queries and form bodies.
        public var query: QueryEncoding
        /// Header fields added to every request before the request's own.
        public var defaultHeaderFields: HTTPFields
        /// Credentials and the 401 hook.
        public var auth: Authentication
        /// Where the one line per attempt goes.
        public var logger: Logger
        /// The level of the per-attempt line; `.debug` by default, so an app's `.info`
        /// logs stay quiet until asked.
        public var logLevel: Logger.Level
        /// Called for every ``ClientEvent``.
        public var onEvent: (@Sendable (ClientEvent) -> Void)?
        /// The per-attempt timeout and the overall deadline.
        public var timeouts: Timeouts

        /// Creates a configuration; every parameter has a sensible default.
        public init(
            coding: JSONCoding = JSONCoding(),
            query: QueryEncoding = QueryEncoding(),
            defaultHeaderFields: HTTPFields = HTTPFields(),
            auth: Authentication = .none,
            logger: Logger = Logger(label: "courier"),
            logLevel: Logger.Level = .debug,
            onEvent: (@Sendable (ClientEvent) -> Void)? = nil,
            timeouts: Timeouts = Timeouts()
        ) {
            self.coding = coding
            self.query = query
            self.defaultHeaderFields = defaultHeaderFields
            self.auth = auth
            self.logger = logger
            self.logLevel = logLevel
            self.onEvent = onEvent
            self.timeouts = timeouts
        }
    }

    /// How long calls may take.
    public struct Timeouts: Sendable, Hashable {
        /// How long one attempt may take; a request's own ``APIRequest/timeout`` overrides it.
        public var attempt: Duration
        /// How long a whole call may take, across an auth replay (and retries); `nil` for no limit.
        public var deadline: Duration?

        /// Creates timeouts: 30 seconds per attempt and no overall deadline by default.
        public init(attempt: Duration = .seconds(30), deadline: Duration? = nil) {
            self.attempt = attempt
            self.deadline = deadline
        }
    }

    /// The URL that request paths are appended to.
    public let baseURL: URL
    /// What sends the bytes.
    public let transport: any HTTPTransport
    /// Everything else.
    public var configuration: Configuration

    private let base: Result<BaseAddress, InvalidReason>

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
    public func send<Request: APIRequest>(_ request: Request) async throws(APIError<Request.Failure>) -> Request.Response {
        try await response(for: request).value
    }

    /// Sends a request and returns its decoded response together with the status, header
    /// fields and rate-limit information.
    public func response<Request: APIRequest>(
        for request: Request
    ) async throws(APIError<Request.Failure>) -> APIResponse<Request.Response> {
        let clock = ContinuousClock()
        let start = clock.now
        let prepared: PreparedRequest
        do throws(InvalidRequest) {
            let base = try self.base.mapError { InvalidRequest($0.reason, operationName: request.operationName) }.get()
            prepared = try RequestBuilder.prepare(request, base: base, configuration: configuration)
        } catch {
            let failure = APIError<Request.Failure>.invalidRequest(error)
            log(failure: failure, operationName: request.operationName, method: request.method, pathTemplate: request.path.template)
            throw failure
        }
        emit(.started(prepared.summary))
        let deadline = configuration.timeouts.deadline.map { start + $0 }
        let result = await run(request, prepared: prepared, deadline: deadline)
        switch result {
        case .success(let response):
            emit(.finished(prepared.summary, result: .success(response.status, response.rateLimit), duration: clock.now - start))
        case .failure(let error):
            emit(.finished(prepared.summary, result: .failure(FailureSummary(error)), duration: clock.now - start))
        }
        return try result.get()
    }

    // MARK: - One logical call

    private func run<Request: APIRequest>(
        _ request: Request,
        prepared: PreparedRequest,
        deadline: ContinuousClock.Instant?
    ) async -> Result<APIResponse<Request.Response>, APIError<Request.Failure>> {
        var replayed = false
        var attemptNumber = 1
        while true {
            var call = prepared
            do {
                try await configuration.auth.apply(&call.head.headerFields)
            } catch {
                // A token refresh abandoned because the caller cancelled is a cancellation,
                // not a broken request.
                if error is CancellationError || Task.isCancelled {
                    return .failure(.transport(TransportError(.cancelled, requestMayHaveBeenSent: false)))
                }
                return .failure(.invalidRequest(InvalidRequest(.authorizationFailed(String(describing: error)), operationName: prepared.summary.operationName)))
            }
            let (outcome, attemptsMade) = await execute(call, firstAttempt: attemptNumber, deadline: deadline)
            attemptNumber += attemptsMade
            switch outcome {
            case .transportFailure(let error):
                return .failure(.transport(error))
            case .circuitOpen(let open):
                return .failure(.circuitOpen(open))
            case .response(let response):
                let raw = RawResponse(status: response.head.status, headerFields: response.head.headerFields, body: response.body, coding: configuration.coding)
                if raw.status.code == 401, !replayed, let onUnauthorized = configuration.auth.onUnauthorized {
                    let action = await onUnauthorized(Authentication.UnauthorizedContext(request: prepared.summary, response: raw))
                    if action == .replay {
                        replayed = true
                        continue
                    }
                }
                return Self.interpret(raw, for: request)
            }
        }
    }

    static func interpret<Request: APIRequest>(
        _ raw: RawResponse,
        for request: Request
    ) -> Result<APIResponse<Request.Response>, APIError<Request.Failure>> {
        guard request.successStatuses.contains(raw.status) else {
            if let failure = Request.Failure.map(raw) {
                return .failure(.endpoint(failure, raw))
            }
            return .failure(.undocumentedStatus(raw))
        }
        if let empty = NoContent() as? Request.Response {
            return .success(APIResponse(value: empty, raw: raw))
        }
        if let bytes = raw.body as? Request.Response {
            return .success(APIResponse(value: bytes, raw: raw))
        }
        guard !raw.body.isEmpty else {
            return .failure(.decoding(DecodingFailure(codingPath: "", reason: "The body is empty; expected \(Request.Response.self).", response: raw)))
        }
        do {
            let value = try raw.coding.makeDecoder().decode(Request.Response.self, from: raw.body)
            return .success(APIResponse(value: value, raw: raw))
        } catch {
            return .failure(.decoding(DecodingFailure(error, response: raw)))
        }
    }

    // MARK: - The resilience seam

    /// Sends a prepared call through the attempt pipeline and reports what came back,
    /// before any endpoint-specific interpretation.
    ///
    /// This is where retry and the circuit breaker plug in: a retry loop wraps the calls
    /// to ``attempt(_:number:deadline:)``, deciding from each ``AttemptOutcome`` (status,
    /// `Retry-After`, transport error kind, `requestMayHaveBeenSent`, the call's
    /// idempotency and key) whether to go again; a breaker gates each attempt and answers
    /// `.circuitOpen` without touching the transport. It returns the last outcome and how
    /// many attempts were made.
    func execute(
        _ call: PreparedRequest,
        firstAttempt: Int,
        deadline: ContinuousClock.Instant?
    ) async -> (AttemptOutcome, attempts: Int) {
        (await attempt(call, number: firstAttempt, deadline: deadline), 1)
    }

    /// One attempt: bounded by the attempt timeout and the call's deadline, logged,
    /// reported as events, and abandoned promptly when the calling task is cancelled.
    func attempt(_ call: PreparedRequest, number: Int, deadline: ContinuousClock.Instant?) async -> AttemptOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        var timeout = call.attemptTimeout
        if let deadline {
            let remaining = deadline - start
            guard remaining > .zero else {
                // The deadline passed before this attempt could start: nothing is sent.
                return .transportFailure(TransportError(.timedOut, requestMayHaveBeenSent: false))
            }
            timeout = min(timeout, remaining)
        }
        emit(.attemptStarted(call.summary, attempt: number))
        logHeaders(call)
        let outcome: AttemptOutcome
        if Task.isCancelled {
            outcome = .transportFailure(TransportError(.cancelled, requestMayHaveBeenSent: false))
        } else {
            switch await Self.send(call.head, body: call.body, timeout: timeout, through: transport) {
            case .success(let response): outcome = .response(response)
            case .failure(let error): outcome = .transportFailure(error)
            }
        }
        finishAttempt(call, number: number, outcome: outcome, duration: clock.now - start)
        return outcome
    }

    /// Sends through the transport and enforces the timeout here too, so a transport
    /// whose own timeout is an idle timeout (URLSession's) still ends on time.
    ///
    /// The backstop fires a little after the timeout, so a transport that honours its
    /// timeout reports its own, better-classified error (for example a refused
    /// connection that AsyncHTTPClient kept retrying until the deadline).
    private static func send(
        _ head: HTTPRequest,
        body: Data?,
        timeout: Duration,
        through transport: any HTTPTransport
    ) async -> Result<TransportResponse, TransportError> {
        await withTaskGroup(of: Result<TransportResponse, TransportError>?.self) { group in
            group.addTask {
                do throws(TransportError) {
                    return .success(try await transport.send(head, body: body, timeout: timeout))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout + min(.milliseconds(100) + timeout / 10, .seconds(1)))
                } catch {
                    return nil
                }
                return .failure(TransportError(.timedOut))
            }
            while let next = await group.next() {
                if let result = next {
                    group.cancelAll()
                    return result
                }
            }
            return .failure(TransportError(.cancelled))
        }
    }

    // MARK: - Observability

    private func emit(_ event: ClientEvent) {
        configuration.onEvent?(event)
    }

    private func finishAttempt(_ call: PreparedRequest, number: Int, outcome: AttemptOutcome, duration: Duration) {
        let result: AttemptResult
        var metadata: Logger.Metadata = [
            "courier.operation": .string(call.summary.operationName),
            "http.method": .string(call.summary.method.rawValue),
            "http.path_template": .string(call.summary.pathTemplate),
            "courier.attempt": .string(String(number)),
            "courier.duration_ms": .string(String(Self.milliseconds(duration))),
        ]
        let outcomeText: String
        switch outcome {
        case .response(let response):
            result = .response(response.head.status)
            metadata["http.status"] = .string(String(response.head.status.code))
            outcomeText = String(response.head.status.code)
        case .transportFailure(let error):
            result = .transportFailure(error.kind)
            metadata["courier.error"] = .string(error.kind.rawValue)
            outcomeText = error.kind.rawValue
        case .circuitOpen:
            result = .circuitOpen
            metadata["courier.error"] = "circuitOpen"
            outcomeText = "circuitOpen"
        }
        configuration.logger.log(
            level: configuration.logLevel,
            "\(call.summary.method.rawValue) \(call.summary.pathTemplate) \(outcomeText) \(Self.milliseconds(duration)) ms attempt \(number)",
            metadata: metadata
        )
        emit(.attemptFinished(call.summary, attempt: number, result: result, duration: duration))
    }

    /// At trace level only, the header names and values, with credentials, cookies and
    /// spec-marked secrets redacted. The filled-in path and query are never logged.
    private func logHeaders(_ call: PreparedRequest) {
        guard configuration.logger.logLevel <= .trace else { return }
        let redacted = RawResponse.redactedHeaderNames.union(call.secretHeaderNames)
        let headers = call.head.headerFields.map { field in
            "\(field.name.rawName): \(redacted.contains(field.name.canonicalName) ? "<redacted>" : field.value)"
        }
        configuration.logger.trace(
            "\(call.summary.method.rawValue) \(call.summary.pathTemplate) request headers",
            metadata: ["http.request_headers": .array(headers.map { .string($0) })]
        )
    }

    private func log<Failure>(failure: APIError<Failure>, operationName: String, method: HTTPRequest.Method, pathTemplate: String) {
        configuration.logger.log(
            level: configuration.logLevel,
            "\(method.rawValue) \(pathTemplate) not sent: \(failure.failureReason ?? "invalid request")",
            metadata: ["courier.operation": .string(operationName), "http.path_template": .string(pathTemplate)]
        )
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

/// What one attempt produced, before any endpoint-specific interpretation: the input to
/// retry decisions and breaker bookkeeping.
enum AttemptOutcome: Sendable {
    /// A complete response, of any status.
    case response(TransportResponse)
    /// No complete response.
    case transportFailure(TransportError)
    /// The breaker refused the attempt; the transport was not called.
    case circuitOpen(CircuitOpen)
}
