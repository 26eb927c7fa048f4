import HTTPTypes
import Logging

/// Observability: the log lines and ``ClientEvent``s of calls, attempts, retries and breakers.
extension APIClient {
    /// Builds the event only when someone listens: most clients set no hook, and an
    /// instrument listens only to the calls it observes.
    func emit(_ event: @autoclosure () -> ClientEvent, to observation: (any CallObservation)?) {
        guard configuration.onEvent != nil || observation != nil else { return }
        let event = event()
        configuration.onEvent?(event)
        observation?.record(event)
    }

    func report(_ event: RetryLoop.Event, call: PreparedRequest, firstAttempt: Int) {
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
            emit(.retryScheduled(summary, attempt: number, failure: failure, delay: delay), to: call.observation)
            configuration.logger.log(
                level: configuration.logLevel,
                "\(summary.method.rawValue) \(summary.pathTemplate) retrying after \(Self.text(failure)) in \(Self.milliseconds(delay)) ms, attempt \(number + 1)",
                metadata: metadata.merging([
                    "courier.attempt": .string(String(number)),
                    "courier.retry_delay_ms": .string(String(Self.milliseconds(delay))),
                ]) { _, new in new }
            )
        case .stopped(let reason, let attempts):
            emit(.retryStopped(summary, reason: reason, attempts: attempts), to: call.observation)
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
    func report(_ transition: CircuitBreaker.Transition, during call: PreparedRequest?) {
        if let call {
            emit(.circuitBreakerChanged(transition, request: call.summary), to: call.observation)
        } else {
            // A reset belongs to no call, so no observation: the instrument hears it itself.
            let event = ClientEvent.circuitBreakerChanged(transition, request: nil)
            configuration.onEvent?(event)
            configuration.instrument?.record(event)
        }
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

    private static func text(_ failure: RetryPolicy.AttemptFailure) -> String {
        switch failure {
        case .status(let status, _, _): String(status.code)
        case .transport(let kind, _): kind.rawValue
        case .decodingFailed: "decodingFailed"
        case .invalidRequest: "invalidRequest"
        }
    }

    private static func text(_ reason: RetryPolicy.StopReason) -> String {
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

    func finishAttempt(_ call: PreparedRequest, number: Int, outcome: AttemptOutcome, duration: Duration) {
        let result: ClientEvent.AttemptResult
        switch outcome {
        case .response(let response): result = .response(response.head.status)
        case .transportFailure(let error): result = .transportFailure(error.kind)
        case .circuitOpen: result = .circuitOpen
        case .middlewareFailure: result = .middlewareFailed
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
            case .middlewareFailure:
                metadata["courier.error"] = "middlewareFailed"
                outcomeText = "middlewareFailed"
            }
            configuration.logger.log(
                level: configuration.logLevel,
                "\(call.summary.method.rawValue) \(call.summary.pathTemplate) \(outcomeText) \(Self.milliseconds(duration)) ms attempt \(number)",
                metadata: metadata
            )
        }
        emit(.attemptFinished(call.summary, attempt: number, result: result, duration: duration), to: call.observation)
    }

    /// Whether a line at `level` would be written. `Logger` checks this itself, but only after
    /// the caller has built the metadata and message, which are wasted when it is filtered out.
    private func isLogging(at level: Logger.Level) -> Bool {
        configuration.logger.logLevel <= level
    }

    /// At trace level only, the header names and values, with credentials (whichever field
    /// the authentication writes them into), cookies and spec-marked secrets redacted. The filled-in path and query are never logged.
    func logHeaders(_ call: PreparedRequest) {
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

    func log<Failure>(failure: APIError<Failure>, operationName: String, method: HTTPRequest.Method, pathTemplate: String) {
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
