/// Per-endpoint hints for the runtime's retry, timeout and circuit breaker.
///
/// Every field is optional: `nil` means "use the client's configuration".
struct ResilienceHints: Hashable, Sendable {
    /// The header that carries a per-call idempotency key, if the endpoint sends one. Sending a
    /// key makes retrying a non-idempotent method safe.
    var idempotencyKey: IdempotencyKeySpec?
    /// The time limit of one attempt, in seconds.
    var timeout: Double?
    /// A retry override.
    var retry: RetryOverride?
    /// A circuit breaker override.
    var breaker: BreakerOverride?

    /// Creates hints.
    init(idempotencyKey: IdempotencyKeySpec? = nil, timeout: Double? = nil, retry: RetryOverride? = nil,
                breaker: BreakerOverride? = nil) {
        self.idempotencyKey = idempotencyKey
        self.timeout = timeout
        self.retry = retry
        self.breaker = breaker
    }

    /// These hints, with every field left `nil` taken from `defaults`.
    func merged(withDefaults defaults: ResilienceHints) -> ResilienceHints {
        ResilienceHints(
            idempotencyKey: idempotencyKey ?? defaults.idempotencyKey,
            timeout: timeout ?? defaults.timeout,
            retry: retry ?? defaults.retry,
            breaker: breaker ?? defaults.breaker
        )
    }
}

/// Sends a fresh idempotency key with each logical call (the same key on each retry of it).
struct IdempotencyKeySpec: Hashable, Sendable {
    /// The header that carries the key; `Idempotency-Key` unless the spec says otherwise.
    var headerName: String

    /// Creates a hint that sends the key in `headerName`.
    init(headerName: String = "Idempotency-Key") {
        self.headerName = headerName
    }
}

/// How an endpoint overrides the client's retry policy.
enum RetryOverride: Hashable, Sendable {
    /// Never retry this endpoint.
    case disabled
    /// Retry with these settings; `nil` fields keep the client's.
    case custom(RetryPolicySpec)
}

/// Retry settings written in a spec.
struct RetryPolicySpec: Hashable, Sendable {
    /// The most attempts, counting the first.
    var maxAttempts: Int?
    /// The delay before the first retry, in seconds; later delays grow exponentially.
    var baseDelay: Double?
    /// The longest delay between attempts, in seconds.
    var maxDelay: Double?
    /// Whether a non-idempotent method (POST, PATCH) may be retried without an idempotency key.
    var retriesNonIdempotent: Bool

    /// Creates retry settings.
    init(maxAttempts: Int? = nil, baseDelay: Double? = nil, maxDelay: Double? = nil,
                retriesNonIdempotent: Bool = false) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retriesNonIdempotent = retriesNonIdempotent
    }
}

/// How an endpoint overrides the client's circuit breaker.
enum BreakerOverride: Hashable, Sendable {
    /// Calls to this endpoint bypass the breaker.
    case disabled
    /// Use these settings; `nil` fields keep the client's.
    case custom(BreakerPolicySpec)
}

/// Circuit breaker settings written in a spec.
///
/// The keys choose the breaker's model: `failureThreshold` the classic one (consecutive
/// failures); `failureRate`, `minimumCalls` or `window` the client's default one (a failure
/// rate within a sliding window); with neither, only `resetAfter` and `successesToClose`,
/// the default model too. The parser rejects a mapping that names both.
struct BreakerPolicySpec: Hashable, Sendable {
    /// Consecutive failures that open the breaker; selects the consecutive-failures model.
    var failureThreshold: Int?
    /// The fraction of calls (greater than 0, at most 1) that must fail within ``window`` to
    /// open the breaker; selects the failure-rate model.
    var failureRate: Double?
    /// The calls that must be made within ``window`` before the rate counts.
    var minimumCalls: Int?
    /// The sliding window of the failure-rate model, in seconds.
    var window: Double?
    /// Seconds the breaker stays open before letting a trial call through: the fixed break of
    /// the consecutive-failures model, the first break of the failure-rate model.
    var resetAfter: Double?
    /// Trial calls in a row that must succeed before the breaker closes again.
    var successesToClose: Int?

    /// Creates breaker settings.
    init(failureThreshold: Int? = nil, failureRate: Double? = nil, minimumCalls: Int? = nil, window: Double? = nil,
                resetAfter: Double? = nil, successesToClose: Int? = nil) {
        self.failureThreshold = failureThreshold
        self.failureRate = failureRate
        self.minimumCalls = minimumCalls
        self.window = window
        self.resetAfter = resetAfter
        self.successesToClose = successesToClose
    }

    /// Whether the settings select the consecutive-failures model rather than the failure rate.
    var isConsecutiveFailures: Bool { failureThreshold != nil }

    /// Whether the settings say anything beyond "use a breaker".
    var isEmpty: Bool {
        self == BreakerPolicySpec()
    }
}
