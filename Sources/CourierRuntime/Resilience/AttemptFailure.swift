import HTTPTypes

extension RetryPolicy {
    /// How one attempt of a call failed, in the terms that retry and circuit-breaker decisions
    /// need.
    ///
    /// The executor classifies its own error into one of these; the retry policy, the retry
    /// budget and the circuit breaker never see the error itself.
    public enum AttemptFailure: Sendable, Hashable {
        /// The server answered with a status the endpoint does not treat as success.
        ///
        /// - Parameters:
        ///   - status: The response status.
        ///   - retryAfter: The server's `Retry-After` demand, already parsed from either form
        ///     (delay-seconds or HTTP-date), or else the service's body field
        ///     (``RateLimit/Fields/retryAfterField``); `nil` when neither says.
        ///   - retryable: What the endpoint's documented failure for this response says
        ///     (``EndpointFailure/isRetryable``), which the policy follows over its status rule;
        ///     `nil` when it says nothing.
        case status(HTTPResponse.Status, retryAfter: Duration? = nil, retryable: Bool? = nil)

        /// No complete response arrived.
        ///
        /// - Parameters:
        ///   - kind: The class of transport failure.
        ///   - requestMayHaveBeenSent: `false` only when no byte of the request left the process,
        ///     which makes even a POST safe to repeat.
        case transport(TransportError.Kind, requestMayHaveBeenSent: Bool = true)

        /// The server answered, but the body could not be decoded. Repeating the request would
        /// only fetch the same body again.
        case decodingFailed

        /// The request could not be built, so it never reached the server.
        case invalidRequest

        /// Creates the failure a transport error describes.
        package init(_ error: TransportError) {
            self = .transport(error.kind, requestMayHaveBeenSent: error.requestMayHaveBeenSent)
        }
    }
}

/// What a retry decision needs to know about the request itself.
package struct RetryTraits: Sendable, Hashable {
    /// The request method; idempotent methods may be repeated freely.
    package var method: HTTPRequest.Method
    /// Whether the request carries an `Idempotency-Key` header, the same one on every
    /// attempt, so that the server can drop duplicates.
    package var hasIdempotencyKey: Bool
    /// Whether the caller declared this call safe to repeat although its method is not
    /// idempotent.
    package var callerOptedIn: Bool

    /// Creates the traits of a request.
    package init(method: HTTPRequest.Method, hasIdempotencyKey: Bool = false, callerOptedIn: Bool = false) {
        self.method = method
        self.hasIdempotencyKey = hasIdempotencyKey
        self.callerOptedIn = callerOptedIn
    }
}

/// What to do after a failed attempt.
package enum RetryDecision: Sendable, Hashable {
    /// Make another attempt once `delay` has passed.
    case retry(after: Duration)
    /// Make no further attempt; the caller gets the last attempt's error.
    case stop(RetryPolicy.StopReason)
}

extension RetryPolicy {
    /// Why a call was not retried (further).
    public enum StopReason: Sendable, Hashable {
        /// The failure is of a kind that repeating cannot fix or must not repeat: a 4xx other
        /// than those configured, a documented failure that says it is not retryable, a
        /// decoding failure, cancellation, a TLS failure.
        case notRetryable
        /// The failure would be retryable, but the request is a POST or PATCH with no
        /// Idempotency-Key and no opt-in, and it may have reached the server.
        case notIdempotent
        /// The call has used all of its attempts.
        case attemptsExhausted
        /// The server asked to wait longer than the policy's ``RetryPolicy/retryAfterLimit``;
        /// the payload is its demand, rounded up to whole seconds.
        case retryAfterBeyondLimit(Duration)
        /// The next attempt would start at or after the call's overall deadline.
        case beyondDeadline
        /// The host's retry budget has no tokens left, a sign that many calls are failing.
        case budgetExhausted
        /// The circuit breaker refused the next attempt.
        case circuitOpen
        /// The calling task was cancelled.
        case cancelled
    }
}
