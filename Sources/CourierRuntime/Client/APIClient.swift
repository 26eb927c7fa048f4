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
        /// Retry policy, per-host retry budgets and circuit breakers, and the clock and jitter
        /// they run on. Retries are on with the ``RetryPolicy/default`` policy and a
        /// ``RetryBudget`` per host; circuit breakers are off until
        /// ``Resilience/circuitBreakerScope`` opts in.
        ///
        /// The budgets and breakers live in this value and are shared by its copies, so
        /// clients made from one configuration share them, as they share the hosts they call.
        /// The overall deadline is measured on ``Resilience/clock`` too.
        public var resilience: Resilience

        /// Creates a configuration; every parameter has a sensible default.
        public init(
            coding: JSONCoding = JSONCoding(),
            query: QueryEncoding = QueryEncoding(),
            defaultHeaderFields: HTTPFields = HTTPFields(),
            auth: Authentication = .none,
            logger: Logger = Logger(label: "courier"),
            logLevel: Logger.Level = .debug,
            onEvent: (@Sendable (ClientEvent) -> Void)? = nil,
            timeouts: Timeouts = Timeouts(),
            resilience: Resilience = Resilience()
        ) {
            self.coding = coding
            self.query = query
            self.defaultHeaderFields = defaultHeaderFields
            self.auth = auth
            self.logger = logger
            self.logLevel = logLevel
            self.onEvent = onEvent
            self.timeouts = timeouts
            self.resilience = resilience
        }
    }

    /// How long calls may take.
    public struct Timeouts: Sendable, Hashable {
        /// How long one attempt may take; a request's own ``APIRequest/timeout`` overrides it.
        public var attempt: Duration
        /// How long a whole call may take, across retries, backoffs and an auth replay; `nil`
        /// for no limit. Each attempt's timeout is cut to the time left, and a retry that could
        /// not start before the deadline is not made. Measured on the client's
        /// ``Resilience/clock``.
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
        let clock = ContinuousClock()
        let start = clock.now
        // Decisions (the deadline) use the injected clock; reported durations are real time.
        let stopwatch = Stopwatch(configuration.resilience.clock)
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
        let overrides = request.resilience.overridden(by: resilience ?? .inherited)
        let result = await run(request, prepared: prepared, overrides: overrides, stopwatch: stopwatch)
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
        overrides: EndpointResilience,
        stopwatch: Stopwatch
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
            let remaining = configuration.timeouts.deadline.map { $0 - stopwatch.elapsed }
            let (outcome, attemptsMade) = await execute(call, overrides: overrides, firstAttempt: attemptNumber, remaining: remaining)
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

    /// Sends a prepared call through the retry loop and reports what came back, before any
    /// endpoint-specific interpretation.
    ///
    /// Retry sits outside the breaker: the loop asks the call's breaker for a permit before
    /// every attempt, the first included, and a refusal ends the call with `.circuitOpen`
    /// without touching the transport. Each failed attempt is classified (status and parsed
    /// `Retry-After`, or transport error kind and `requestMayHaveBeenSent`) and repeated when
    /// the policy, the host's budget and the remaining time allow. The call's Idempotency-Key
    /// was made once, when the call was prepared, and goes out unchanged on every attempt.
    ///
    /// - Returns: The last outcome and how many attempts reached the transport.
    func execute(
        _ call: PreparedRequest,
        overrides: EndpointResilience,
        firstAttempt: Int,
        remaining: Duration?
    ) async -> (AttemptOutcome, attempts: Int) {
        let setup = configuration.resilience
        let method = call.head.method
        var policy = overrides.policy(over: setup.retryPolicy)
        if !call.isIdempotent {
            // A request that declares itself unsafe to repeat is not repeated for its method.
            policy.idempotentMethods.remove(method)
        }
        let traits = RetryTraits(
            method: method,
            hasIdempotencyKey: call.idempotencyKey != nil,
            callerOptedIn: call.isIdempotent || overrides.isSafeToRepeat == true
        )
        let loop: RetryLoop
        if let host = call.hostKey {
            loop = setup.retryLoop(
                for: host,
                policy: policy,
                breaker: overrides.circuitBreaker,
                breakerConfiguration: overrides.circuitBreakerConfiguration
            )
        } else {
            loop = RetryLoop(policy: policy, clock: setup.clock, jitter: setup.jitter)
        }
        let observer = TransitionObserver { [self] transition in
            report(transition, during: call.summary)
        }
        let (outcome, attempts) = await TransitionObservation.$observer.withValue(observer) {
            var attemptsMade = 0
            return await loop.run(
                traits,
                attemptTimeout: call.attemptTimeout,
                overallTimeout: remaining,
                assess: { outcome in Self.assess(outcome, of: call) },
                interrupted: { interruption in interrupted(interruption, call: call, number: firstAttempt + attemptsMade) },
                onEvent: { event in report(event, call: call, firstAttempt: firstAttempt) },
                attempt: { attempt in
                    attemptsMade = attempt.number
                    return await self.attempt(call, number: firstAttempt + attempt.number - 1, timeout: attempt.timeout)
                }
            )
        }
        return (outcome, attempts)
    }

    /// Describes an attempt's outcome to the retry loop: `nil` for a success status.
    static func assess(_ outcome: AttemptOutcome, of call: PreparedRequest) -> AttemptFailure? {
        switch outcome {
        case .response(let response):
            let status = response.head.status
            guard !call.successStatuses.contains(status) else { return nil }
            return .status(status, retryAfter: retryAfter(in: response.head))
        case .transportFailure(let error):
            return AttemptFailure(error)
        case .circuitOpen:
            // The loop consults the breaker itself and never hands this back.
            return .invalidRequest
        }
    }

    /// The server's `Retry-After` demand in either form, or `nil` when it sent none or garbage.
    ///
    /// An HTTP-date is measured from the response's own `Date` field when it has one, so a
    /// client whose clock is off still waits as long as the server meant; otherwise from now.
    static func retryAfter(in head: HTTPResponse) -> Duration? {
        guard let value = head.headerFields[.retryAfter], let retryAfter = RetryAfter(headerValue: value) else {
            return nil
        }
        let reference = head.headerFields[.date].flatMap(HTTPDate.parse) ?? Date()
        return retryAfter.delay(from: reference)
    }

    private func interrupted(_ interruption: RetryLoop.Interruption, call: PreparedRequest, number: Int) -> AttemptOutcome {
        switch interruption {
        case .circuitOpen(let open):
            let outcome = AttemptOutcome.circuitOpen(open)
            finishAttempt(call, number: number, outcome: outcome, duration: .zero)
            return outcome
        case .cancelled:
            return .transportFailure(TransportError(.cancelled, requestMayHaveBeenSent: false))
        case .deadlineExceeded:
            // The deadline passed before this attempt could start: nothing was sent.
            return .transportFailure(TransportError(.timedOut, requestMayHaveBeenSent: false))
        }
    }

    /// Resets every circuit breaker of this client's ``Configuration/resilience`` to closed,
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

    /// One attempt: bounded by `timeout` (the loop's, already cut to the time left before the
    /// deadline), logged, reported as events, and abandoned promptly when the calling task is
    /// cancelled.
    func attempt(_ call: PreparedRequest, number: Int, timeout: Duration) async -> AttemptOutcome {
        let clock = ContinuousClock()
        let start = clock.now
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
    /// The backstop fires a second after the timeout, so a transport that honours its
    /// timeout reports its own, better-classified error (for example a refused
    /// connection that AsyncHTTPClient kept retrying until the deadline) even on a loaded
    /// machine, where a shorter grace let the backstop win the race. When it fires, the
    /// transport's task is cancelled and the attempt reports a timeout once that task ends.
    /// Cancelling the calling task cancels the transport's task at once.
    private static func send(
        _ head: HTTPRequest,
        body: Data?,
        timeout: Duration,
        through transport: any HTTPTransport
    ) async -> Result<TransportResponse, TransportError> {
        let timedOut = Locked(false)
        let running = Locked<Task<Result<TransportResponse, TransportError>, Never>?>(nil)
        let limit = timeout + .seconds(1)
        let work = Task { () async -> Result<TransportResponse, TransportError> in
            // Timed from when the transport starts, so time spent waiting for a thread on a
            // busy executor is not charged to the server.
            let backstop = Backstops.shared.arm(at: .now + limit) {
                timedOut.withLock { $0 = true }
                running.withLock { $0 }?.cancel()
            }
            defer { Backstops.shared.disarm(backstop) }
            do throws(TransportError) {
                return .success(try await transport.send(head, body: body, timeout: timeout))
            } catch {
                return .failure(error)
            }
        }
        running.withLock { $0 = work }
        if timedOut.withLock({ $0 }) {
            // The backstop fired before the task was on record to cancel.
            work.cancel()
        }
        let result = await withTaskCancellationHandler {
            await work.value
        } onCancel: {
            work.cancel()
        }
        if timedOut.withLock({ $0 }) {
            return .failure(TransportError(.timedOut))
        }
        return result
    }

    // MARK: - Observability

    /// Builds the event only when someone listens: most clients set no hook.
    private func emit(_ event: @autoclosure () -> ClientEvent) {
        configuration.onEvent?(event())
    }

    private func report(_ event: RetryLoop.Event, call: PreparedRequest, firstAttempt: Int) {
        let summary = call.summary
        var metadata: Logger.Metadata {
            [
                "courier.operation": .string(summary.operationName),
                "http.method": .string(summary.method.rawValue),
                "http.path_template": .string(summary.pathTemplate),
            ]
        }
        switch event {
        case .retrying(let attempt, let failure, let delay):
            let number = firstAttempt + attempt - 1
            emit(.retryScheduled(summary, attempt: number, failure: failure, delay: delay))
            configuration.logger.log(
                level: configuration.logLevel,
                "\(summary.method.rawValue) \(summary.pathTemplate) retrying after \(Self.text(failure)) in \(Self.milliseconds(delay)) ms, attempt \(number + 1)",
                metadata: metadata.merging([
                    "courier.attempt": .string(String(number)),
                    "courier.retry_delay_ms": .string(String(Self.milliseconds(delay))),
                ]) { _, new in new }
            )
        case .stopped(let reason, let attempts):
            emit(.retryStopped(summary, reason: reason, attempts: attempts))
            switch reason {
            case .notRetryable, .cancelled:
                // The common case of a plain failure; the attempt's own line says enough.
                return
            case .attemptsExhausted where attempts <= 1:
                // Retries are off for this call; there is nothing to explain.
                return
            default:
                configuration.logger.log(
                    level: configuration.logLevel,
                    "\(summary.method.rawValue) \(summary.pathTemplate) not retried: \(Self.text(reason)) after \(attempts) attempt\(attempts == 1 ? "" : "s")",
                    metadata: metadata.merging(["courier.retry_stop": .string(Self.text(reason))]) { _, new in new }
                )
            }
        }
    }

    /// Breaker changes are rare and matter to whoever runs the app, so they are logged at
    /// `info` whatever the per-attempt level.
    private func report(_ transition: CircuitBreaker.Transition, during request: RequestSummary?) {
        emit(.circuitBreakerChanged(transition, request: request))
        var text = "circuit breaker for \(transition.key) \(transition.from) -> \(transition.to)"
        var metadata: Logger.Metadata = [
            "courier.breaker": .string(transition.key.description),
            "courier.breaker_state": .string(transition.to.description),
        ]
        if let length = transition.breakDuration {
            text += " for \(Self.milliseconds(length)) ms"
            metadata["courier.break_ms"] = .string(String(Self.milliseconds(length)))
        }
        configuration.logger.info("\(text)", metadata: metadata)
    }

    private static func text(_ failure: AttemptFailure) -> String {
        switch failure {
        case .status(let status, _): String(status.code)
        case .transport(let kind, _): kind.rawValue
        case .decodingFailed: "decodingFailed"
        case .invalidRequest: "invalidRequest"
        }
    }

    private static func text(_ reason: RetryStopReason) -> String {
        switch reason {
        case .notRetryable: "not retryable"
        case .notIdempotent: "not idempotent"
        case .attemptsExhausted: "attempts exhausted"
        case .retryAfterBeyondLimit(let demand): "Retry-After \(demand.components.seconds) s beyond the limit"
        case .beyondDeadline: "beyond the deadline"
        case .budgetExhausted: "retry budget exhausted"
        case .circuitOpen: "circuit open"
        case .cancelled: "cancelled"
        }
    }

    private func finishAttempt(_ call: PreparedRequest, number: Int, outcome: AttemptOutcome, duration: Duration) {
        let result: AttemptResult
        switch outcome {
        case .response(let response): result = .response(response.head.status)
        case .transportFailure(let error): result = .transportFailure(error.kind)
        case .circuitOpen: result = .circuitOpen
        }
        if isLogging(at: configuration.logLevel) {
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
                metadata["http.status"] = .string(String(response.head.status.code))
                outcomeText = String(response.head.status.code)
            case .transportFailure(let error):
                metadata["courier.error"] = .string(error.kind.rawValue)
                outcomeText = error.kind.rawValue
            case .circuitOpen:
                metadata["courier.error"] = "circuitOpen"
                outcomeText = "circuitOpen"
            }
            configuration.logger.log(
                level: configuration.logLevel,
                "\(call.summary.method.rawValue) \(call.summary.pathTemplate) \(outcomeText) \(Self.milliseconds(duration)) ms attempt \(number)",
                metadata: metadata
            )
        }
        emit(.attemptFinished(call.summary, attempt: number, result: result, duration: duration))
    }

    /// Whether a line at `level` would be written. `Logger` checks this itself, but only after
    /// the caller has built the metadata and message, which are wasted when it is filtered out.
    private func isLogging(at level: Logger.Level) -> Bool {
        configuration.logger.logLevel <= level
    }

    /// At trace level only, the header names and values, with credentials (whichever field
    /// the authentication writes them into), cookies and spec-marked secrets redacted. The filled-in path and query are never logged.
    private func logHeaders(_ call: PreparedRequest) {
        guard configuration.logger.logLevel <= .trace else { return }
        let redacted = RawResponse.redactedHeaderNames
            .union(call.secretHeaderNames)
            .union(configuration.auth.credentialHeaderNames)
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
