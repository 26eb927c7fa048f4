/// Per-endpoint hints for the runtime's retry, timeout and circuit breaker.
///
/// Every field is optional: `nil` means "use the client's configuration".
public struct ResilienceHints: Hashable, Sendable {
    /// The header that carries a per-call idempotency key, if the endpoint sends one. Sending a
    /// key makes retrying a non-idempotent method safe.
    public var idempotencyKey: IdempotencyKeySpec?
    /// The time limit of one attempt, in seconds.
    public var timeout: Double?
    /// A retry override.
    public var retry: RetryOverride?
    /// A circuit breaker override.
    public var breaker: BreakerOverride?

    /// Creates hints.
    public init(idempotencyKey: IdempotencyKeySpec? = nil, timeout: Double? = nil, retry: RetryOverride? = nil,
                breaker: BreakerOverride? = nil) {
        self.idempotencyKey = idempotencyKey
        self.timeout = timeout
        self.retry = retry
        self.breaker = breaker
    }

    /// These hints, with every field left `nil` taken from `defaults`.
    public func merged(withDefaults defaults: ResilienceHints) -> ResilienceHints {
        ResilienceHints(
            idempotencyKey: idempotencyKey ?? defaults.idempotencyKey,
            timeout: timeout ?? defaults.timeout,
            retry: retry ?? defaults.retry,
            breaker: breaker ?? defaults.breaker
        )
    }
}

/// Sends a fresh idempotency key with each logical call (the same key on each retry of it).
public struct IdempotencyKeySpec: Hashable, Sendable {
    /// The header that carries the key; `Idempotency-Key` unless the spec says otherwise.
    public var headerName: String

    /// Creates a hint that sends the key in `headerName`.
    public init(headerName: String = "Idempotency-Key") {
        self.headerName = headerName
    }
}

/// How an endpoint overrides the client's retry policy.
public enum RetryOverride: Hashable, Sendable {
    /// Never retry this endpoint.
    case disabled
    /// Retry with these settings; `nil` fields keep the client's.
    case custom(RetryPolicySpec)
}

/// Retry settings written in a spec.
public struct RetryPolicySpec: Hashable, Sendable {
    /// The most attempts, counting the first.
    public var maxAttempts: Int?
    /// The delay before the first retry, in seconds; later delays grow exponentially.
    public var baseDelay: Double?
    /// The longest delay between attempts, in seconds.
    public var maxDelay: Double?
    /// Whether a non-idempotent method (POST, PATCH) may be retried without an idempotency key.
    public var retriesNonIdempotent: Bool

    /// Creates retry settings.
    public init(maxAttempts: Int? = nil, baseDelay: Double? = nil, maxDelay: Double? = nil,
                retriesNonIdempotent: Bool = false) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retriesNonIdempotent = retriesNonIdempotent
    }
}

/// How an endpoint overrides the client's circuit breaker.
public enum BreakerOverride: Hashable, Sendable {
    /// Calls to this endpoint bypass the breaker.
    case disabled
    /// Use these settings; `nil` fields keep the client's.
    case custom(BreakerPolicySpec)
}

/// Circuit breaker settings written in a spec.
public struct BreakerPolicySpec: Hashable, Sendable {
    /// Consecutive failures that open the breaker.
    public var failureThreshold: Int?
    /// Seconds the breaker stays open before letting a trial call through.
    public var resetAfter: Double?

    /// Creates breaker settings.
    public init(failureThreshold: Int? = nil, resetAfter: Double? = nil) {
        self.failureThreshold = failureThreshold
        self.resetAfter = resetAfter
    }
}
