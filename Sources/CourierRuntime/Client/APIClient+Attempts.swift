import CourierLocking
import Foundation
import HTTPTypes

/// Attempts: one logical call (auth and the 401 replay), the retry loop around the attempts,
/// one attempt through the transport with its backstop, and mapping what came back.
extension APIClient {
    // MARK: - One logical call

    /// One logical call whose final response `interpret` turns into the caller's result; the
    /// streamed body, for a call that streams, comes along with the head.
    func run<Request: APIRequest, Output>(
        _ request: Request,
        prepared: PreparedRequest,
        overrides: EndpointResilience,
        stopwatch: Stopwatch,
        interpret: (RawResponse, HTTPBody?) -> Result<Output, APIError<Request.Failure>>
    ) async -> Result<Output, APIError<Request.Failure>> {
        var replayed = false
        var attemptNumber = 1
        // The 401 that led to a replay: if the breaker refuses the replay, this is the real
        // answer the caller is owed.
        var answerBeforeReplay: RawResponse?
        // The endpoint's choice among the client's schemes; `nil` for a public endpoint, which
        // sends no credentials whatever the client holds.
        // `Authentication.none` adds nothing, so its scheme is not called (an async call and a
        // copy of the header fields per attempt for nothing).
        let scheme = configuration.auth.scheme(for: request.authentication).flatMap { $0.isNone ? nil : $0 }
        logMissingCredentials(of: request, summary: prepared.summary)
        while true {
            var call = prepared
            // Credentials go on a copy for this send only (a query key included), so the prepared
            // request, which the client may describe, never holds them.
            var secrets: [String] = []
            do {
                if let scheme {
                    secrets = try await scheme.apply(&call.head)
                }
            } catch let error as CredentialError {
                return .failure(.invalidRequest(InvalidRequest(.invalidCredentials(error.message), operationName: prepared.summary.operationName)))
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
                // A transport's error may quote the URL it was sent to, query key and all.
                return .failure(.transport(CredentialRedaction.redact(error, secrets: secrets)))
            case .circuitOpen(let open):
                if let answerBeforeReplay {
                    return interpret(answerBeforeReplay, nil)
                }
                return .failure(.circuitOpen(open))
            case .middlewareFailure(let reason):
                // A middleware's description may quote what it was handed, credentials included.
                let redacted = CredentialRedaction.redact(reason, secrets: secrets)
                return .failure(.invalidRequest(InvalidRequest(.middlewareFailed(redacted), operationName: prepared.summary.operationName)))
            case .response(let response):
                let raw = RawResponse(status: response.head.status, headerFields: response.head.headerFields, body: response.body,
                                      coding: configuration.coding, rateLimitFields: configuration.rateLimitFields)
                // A body that can be read only once has been read: it cannot be replayed.
                if raw.status.code == 401, !replayed, prepared.body?.isRepeatable ?? true, let onUnauthorized = scheme?.onUnauthorized {
                    let action = await onUnauthorized(Authentication.UnauthorizedContext(request: prepared.summary, response: raw))
                    if action == .replay {
                        replayed = true
                        answerBeforeReplay = raw
                        continue
                    }
                }
                return interpret(raw, response.streamedBody)
            }
        }
    }

    static func interpret<Request: APIRequest>(
        _ raw: RawResponse,
        for request: Request
    ) -> Result<APIResponse<Request.Response>, APIError<Request.Failure>> {
        guard request.successStatuses.contains(raw.status) else {
            return interpretFailure(raw, for: request)
        }
        if let failure = Request.Failure.mapSuccess(raw) {
            // A failure inside a success status (Slack's `"ok": false`), before any decoding.
            return .failure(.endpoint(failure, raw))
        }
        do throws(DecodingFailure) {
            return .success(APIResponse(value: try Request.decodeResponse(from: raw), raw: raw))
        } catch {
            return .failure(.decoding(error))
        }
    }

    /// A failed status, mapped to the endpoint's documented failure when it has one.
    static func interpretFailure<Request: APIRequest, Output>(
        _ raw: RawResponse,
        for request: Request
    ) -> Result<Output, APIError<Request.Failure>> {
        if let failure = Request.Failure.map(raw) {
            return .failure(.endpoint(failure, raw))
        }
        return .failure(.undocumentedStatus(raw))
    }

    // MARK: - The resilience seam

    /// Sends a prepared call through the retry loop and reports what came back, before any
    /// endpoint-specific interpretation.
    ///
    /// Retry sits outside the breaker: the loop asks the call's breaker for a permit before
    /// every attempt, the first included. A refused first attempt ends the call with
    /// `.circuitOpen` without touching the transport; a refused retry ends it with the last
    /// real attempt's outcome, which did reach the server. Each failed attempt is classified
    /// (status and parsed `Retry-After`, or transport error kind and `requestMayHaveBeenSent`)
    /// and repeated when the policy, the host's budget and the remaining time allow. The call's Idempotency-Key
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
        if call.body?.isRepeatable == false {
            // The first attempt reads a single-use body; there is nothing left to send again.
            policy.maxAttempts = 1
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
        func runLoop() async -> (AttemptOutcome, attempts: Int) {
            var attemptsMade = 0
            return await loop.run(
                traits,
                attemptTimeout: call.attemptTimeout,
                overallTimeout: remaining,
                assess: { outcome in Self.assess(outcome, of: call, coding: configuration.coding, rateLimitFields: configuration.rateLimitFields) },
                interrupted: { interruption in interrupted(interruption, call: call, number: firstAttempt + attemptsMade) },
                onEvent: { event in report(event, call: call, firstAttempt: firstAttempt) },
                attempt: { attempt in
                    attemptsMade = attempt.number
                    return await self.attempt(call, number: firstAttempt + attempt.number - 1, timeout: attempt.timeout)
                }
            )
        }
        // Only the loop's breaker changes state during the loop, on this task; without one, or
        // with nobody to hear a change, the observer (a closure holding the client and the call)
        // and its task-local binding would be made for nothing on every call.
        guard loop.breaker != nil, hearsTransitions(during: call) else {
            let (outcome, attempts) = await runLoop()
            recordRetryBudget(of: loop, for: call)
            return (outcome, attempts)
        }
        let observer = TransitionObserver { [self] transition in
            report(transition, during: call)
        }
        let (outcome, attempts) = await TransitionObservation.$observer.withValue(observer) {
            await runLoop()
        }
        recordRetryBudget(of: loop, for: call)
        return (outcome, attempts)
    }

    /// Whether a breaker transition during `call` reaches anyone: the event hook, the call's
    /// observation (an instrument's), or a logger that writes `.info`, the level transitions are
    /// logged at. The default logger writes nothing.
    private func hearsTransitions(during call: PreparedRequest) -> Bool {
        configuration.onEvent != nil || call.observation != nil || configuration.logger.logLevel <= .info
    }

    /// Tells the call's observation, if any, how many retries its host's budget allows now.
    private func recordRetryBudget(of loop: RetryLoop, for call: PreparedRequest) {
        if let observation = call.observation, let budget = loop.budget, let host = call.hostKey {
            observation.recordRetryBudget(budget.availableRetries, host: host)
        }
    }

    /// Describes an attempt's outcome to the retry loop: `nil` for a success status.
    ///
    /// A failed status is mapped to the endpoint's documented failure here already, once per
    /// failed attempt, because that failure may say whether it is worth repeating.
    static func assess(_ outcome: AttemptOutcome, of call: PreparedRequest, coding: JSONCoding,
                       rateLimitFields: RateLimit.Fields = .standard) -> RetryPolicy.AttemptFailure? {
        switch outcome {
        case .response(let response):
            let status = response.head.status
            guard !call.successStatuses.contains(status) else { return nil }
            let retryable = call.failureRetryability.flatMap { retryability in
                retryability(RawResponse(status: status, headerFields: response.head.headerFields, body: response.body, coding: coding,
                                         rateLimitFields: rateLimitFields))
            }
            let demand = retryAfter(in: response.head) ?? rateLimitFields.bodyRetryDelay(in: response.body)
            return .status(status, retryAfter: demand, retryable: retryable)
        case .transportFailure(let error):
            return RetryPolicy.AttemptFailure(error)
        case .circuitOpen:
            // The loop consults the breaker itself and never hands this back.
            return .invalidRequest
        case .middlewareFailure:
            // The client's own code failed: another attempt would run it again, and the
            // server's health is not in question, so neither a retry nor the breaker counts it.
            return .invalidRequest
        }
    }

    /// The server's `Retry-After` demand in either form, or `nil` when it sent none or garbage.
    /// (A service's body field, ``RateLimit/Fields/retryAfterField``, is read by `assess` only
    /// when this is `nil`.)
    ///
    /// An HTTP-date is measured from the response's own `Date` field when it has one, so a
    /// client whose clock is off still waits as long as the server meant; otherwise from now.
    static func retryAfter(in head: HTTPResponse) -> Duration? {
        guard let value = head.headerFields[.retryAfter], let retryAfter = RateLimit.RetryAfter(headerValue: value) else {
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

    /// One attempt: bounded by `timeout` (the loop's, already cut to the time left before the
    /// deadline), logged, reported as events, and abandoned promptly when the calling task is
    /// cancelled.
    func attempt(_ call: PreparedRequest, number: Int, timeout: Duration) async -> AttemptOutcome {
        guard let observation = call.observation else {
            return await sendAttempt(call, number: number, timeout: timeout)
        }
        return await observation.withAttempt(number: number, headerFields: call.head.headerFields) { fields in
            var call = call
            call.head.headerFields = fields
            return await sendAttempt(call, number: number, timeout: timeout)
        }
    }

    private func sendAttempt(_ call: PreparedRequest, number: Int, timeout: Duration) async -> AttemptOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        emit(.attemptStarted(call.summary, attempt: number), to: call.observation)
        logHeaders(call)
        let outcome: AttemptOutcome
        if Task.isCancelled {
            outcome = .transportFailure(TransportError(.cancelled, requestMayHaveBeenSent: false))
        } else {
            // A test's clock (anything but ContinuousClock) times the whole call, and real time
            // is not the call's time there: a backstop on real time fired while a loaded
            // machine ran the test's manual clock slowly, ending attempts the test never timed
            // out. The transport's own timeout (StubTransport's on the same clock) still holds.
            let backstop = configuration.resilience.clock is ContinuousClock
            // No middlewares, no chain: the attempt calls the transport as it always did.
            let middlewares = configuration.middlewares.isEmpty ? nil : (
                configuration.middlewares,
                MiddlewareContext(request: call.summary, attempt: number, streamsResponse: call.streamsResponse)
            )
            switch await Self.send(call, timeout: timeout, through: transport, middlewares: middlewares, backstop: backstop) {
            case .success(let response): outcome = .response(response)
            case .failure(let error):
                if let failure = error.underlying as? MiddlewareFailure {
                    outcome = .middlewareFailure(failure.description)
                } else {
                    outcome = .transportFailure(error)
                }
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
    /// Cancelling the calling task cancels the transport's task at once. Without `backstop`,
    /// only the transport's own timeout ends the attempt.
    private static func send(
        _ call: PreparedRequest,
        timeout: Duration,
        through transport: any HTTPTransport,
        middlewares: ([any ClientMiddleware], MiddlewareContext)?,
        backstop armsBackstop: Bool
    ) async -> Result<TransportResponse, TransportError> {
        let timedOut = Locked(false)
        let running = Locked<Task<Result<TransportResponse, TransportError>, Never>?>(nil)
        let limit = timeout + .seconds(1)
        let work = Task { () async -> Result<TransportResponse, TransportError> in
            // Timed from when the transport starts, so time spent waiting for a thread on a
            // busy executor is not charged to the server.
            let backstop = armsBackstop ? Backstops.shared.arm(at: .now + limit) {
                timedOut.withLock { $0 = true }
                running.withLock { $0 }?.cancel()
            } : nil
            defer { backstop.map(Backstops.shared.disarm) }
            do throws(TransportError) {
                if let (middlewares, context) = middlewares {
                    return .success(try await attempt(call, timeout: timeout, through: transport, middlewares: middlewares, context: context))
                }
                guard call.streamsResponse else {
                    return .success(try await transport.send(call.head, body: call.body, timeout: timeout))
                }
                return .success(try await streamedAttempt(call, timeout: timeout, through: transport))
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
            // The transport knows best whether anything left: one cancelled while the request
            // still waited for a connection says nothing was sent, so the attempt may be retried
            // whatever its method. (On a starved machine the backstop can fire before the
            // transport's own timer for that wait.)
            if case .failure(let error) = result, !error.requestMayHaveBeenSent {
                return .failure(TransportError(.timedOut, requestMayHaveBeenSent: false))
            }
            return .failure(TransportError(.timedOut))
        }
        return result
    }

    /// The largest error body a streamed call reads to map a failed status; the success body
    /// streams without a limit.
    static let streamedErrorBodyLimit = 4 * 1024 * 1024

    /// One attempt of a call that streams its response: a success status hands its body on
    /// unread; any other status is read to the end (within the attempt's time and
    /// ``streamedErrorBodyLimit``), so that retries, the breaker and the failure mapping see
    /// it as they see a buffered call's.
    private static func streamedAttempt(
        _ call: PreparedRequest,
        timeout: Duration,
        through transport: any HTTPTransport
    ) async throws(TransportError) -> TransportResponse {
        let response = try await transport.stream(call.head, body: call.body, timeout: timeout)
        return try await delivered(response.head, body: response.body, of: call)
    }

    /// What a streamed attempt hands on: the success body unread, any other read to the end.
    private static func delivered(_ head: HTTPResponse, body: HTTPBody, of call: PreparedRequest) async throws(TransportError) -> TransportResponse {
        guard call.successStatuses.contains(head.status) else {
            return TransportResponse(head: head, body: try await collect(body, upTo: streamedErrorBodyLimit))
        }
        var delivered = TransportResponse(head: head)
        delivered.streamedBody = body
        return delivered
    }

    /// Reads a response body to the end, its failures as transport errors.
    private static func collect(_ body: HTTPBody, upTo limit: Int) async throws(TransportError) -> Data {
        do {
            return try await body.collect(upTo: limit)
        } catch let error as TransportError {
            throw error
        } catch HTTPBody.ReadError.tooLarge {
            throw TransportError(.responseTooLarge)
        } catch {
            throw TransportError(Task.isCancelled ? .cancelled : .other, underlying: Unreadable(description: String(describing: error)))
        }
    }

    /// One attempt through the configured middlewares, the transport innermost: buffered or
    /// streamed as the call asks, and what the middlewares return brought back to the shape a
    /// buffered or streamed attempt has without them.
    private static func attempt(
        _ call: PreparedRequest,
        timeout: Duration,
        through transport: any HTTPTransport,
        middlewares: [any ClientMiddleware],
        context: MiddlewareContext
    ) async throws(TransportError) -> TransportResponse {
        let streams = call.streamsResponse
        let chain = MiddlewareChain(middlewares: middlewares, context: context) { request, body throws(TransportError) in
            guard streams else {
                let response = try await transport.send(request, body: body, timeout: timeout)
                // Data in, Data out: a buffered body costs no copy either way.
                return (response.head, HTTPBody(response.body))
            }
            let response = try await transport.stream(request, body: body, timeout: timeout)
            return (response.head, response.body)
        }
        let (head, body) = try await chain.exchange(call.head, body: call.body)
        guard streams else {
            guard let body else { return TransportResponse(head: head) }
            if let data = body.bufferedData {
                return TransportResponse(head: head, body: data)
            }
            return TransportResponse(head: head, body: try await collect(body, upTo: MiddlewareChain.madeBodyLimit))
        }
        return try await delivered(head, body: body ?? HTTPBody(Data()), of: call)
    }

    struct Unreadable: Error, Sendable, CustomStringConvertible {
        var description: String
    }
}

/// What one attempt produced, before any endpoint-specific interpretation: the input to
/// retry decisions and breaker bookkeeping.
enum AttemptOutcome: Sendable {
    /// A complete response, of any status.
    case response(TransportResponse)
    /// No complete response.
    case transportFailure(TransportError)
    /// The breaker refused the call's first attempt; the transport was not called.
    case circuitOpen(CircuitBreaker.Refusal)
    /// A middleware threw an error of its own; its description.
    case middlewareFailure(String)
}
