/// How one endpoint, or one call, departs from its client's retry and circuit-breaker setup.
///
/// Generated request types set ``APIRequest/resilience`` from the spec's per-endpoint
/// resilience hints; a caller can layer a per-call override on top with
/// ``APIClient/send(_:resilience:)``. Every property is optional, and `nil` means "as the
/// layer below says": the call's override wins over the endpoint's, which wins over the
/// client's ``APIClient/Configuration/resilience``.
///
/// ```swift
/// struct RunReport: APIRequest {
///     // ...
///     var resilience: EndpointResilience {
///         EndpointResilience(maxAttempts: 1, circuitBreaker: .endpoint("runReport"))
///     }
/// }
///
/// // This POST is deduplicated by the server in a way the spec does not say: allow retries.
/// try await client.send(CreateOrder(order), resilience: .safeToRepeat)
/// ```
public struct EndpointResilience: Sendable, Hashable {
    /// A retry policy replacing the client's for this endpoint; `nil` keeps the client's.
    public var retryPolicy: RetryPolicy?
    /// Attempts in all, the first included, applied on top of whichever policy is in force;
    /// `1` turns retries off. `nil` keeps the policy's.
    public var maxAttempts: Int?
    /// The base of every backoff, applied on top of whichever policy is in force: the
    /// transient backoff's (``RetryPolicy/transientBackoff``) and the throttling backoff's
    /// after a 429 or 503 without `Retry-After` (``RetryPolicy/throttlingBackoff``), so that
    /// the spec's `retry.baseDelay` is the first delay whatever the failure. `nil` keeps the
    /// policy's bases (100 ms and 1 s by default). A server's `Retry-After` is not a backoff
    /// and still decides the delay when sent.
    public var backoffBase: Duration?
    /// The longest backoff delay, applied as the cap of both the transient and the throttling
    /// backoff of whichever policy is in force; `nil` keeps the policy's caps. A server's
    /// `Retry-After` is not a backoff and stays bounded by ``RetryPolicy/retryAfterLimit``.
    public var backoffCap: Duration?
    /// The caller's opt-in: `true` declares the call harmless to repeat although its method
    /// (POST, PATCH) is not idempotent and it carries no Idempotency-Key, so it is retried
    /// like a GET. `false` withdraws an opt-in made by a lower layer; `nil` keeps it.
    public var isSafeToRepeat: Bool?
    /// Which circuit breaker the call passes: none, the host's, or one of the endpoint's own.
    /// `nil` keeps the client's ``Resilience/circuitBreakerScope``.
    public var circuitBreaker: CircuitBreaker.Scope?
    /// The configuration of the endpoint's own breaker. It takes effect when that breaker is
    /// created, so give it together with ``CircuitBreaker/Scope/endpoint(_:)``; `nil` keeps the
    /// client's breaker configuration.
    public var circuitBreakerConfiguration: CircuitBreaker.Configuration?

    /// Creates an override; every argument defaults to "no change".
    public init(
        retryPolicy: RetryPolicy? = nil,
        maxAttempts: Int? = nil,
        backoffBase: Duration? = nil,
        backoffCap: Duration? = nil,
        isSafeToRepeat: Bool? = nil,
        circuitBreaker: CircuitBreaker.Scope? = nil,
        circuitBreakerConfiguration: CircuitBreaker.Configuration? = nil
    ) {
        self.retryPolicy = retryPolicy
        self.maxAttempts = maxAttempts
        self.backoffBase = backoffBase
        self.backoffCap = backoffCap
        self.isSafeToRepeat = isSafeToRepeat
        self.circuitBreaker = circuitBreaker
        self.circuitBreakerConfiguration = circuitBreakerConfiguration
    }

    /// No override: the client's setup applies unchanged. The default of every request.
    public static let inherited = EndpointResilience()

    /// A single attempt, never retried.
    public static let noRetries = EndpointResilience(maxAttempts: 1)

    /// The caller's opt-in to retrying a POST or PATCH; see ``isSafeToRepeat``.
    public static let safeToRepeat = EndpointResilience(isSafeToRepeat: true)

    /// This override with every property that `other` sets replaced by `other`'s.
    public func overridden(by other: EndpointResilience) -> EndpointResilience {
        EndpointResilience(
            retryPolicy: other.retryPolicy ?? retryPolicy,
            maxAttempts: other.maxAttempts ?? maxAttempts,
            backoffBase: other.backoffBase ?? backoffBase,
            backoffCap: other.backoffCap ?? backoffCap,
            isSafeToRepeat: other.isSafeToRepeat ?? isSafeToRepeat,
            circuitBreaker: other.circuitBreaker ?? circuitBreaker,
            circuitBreakerConfiguration: other.circuitBreakerConfiguration ?? circuitBreakerConfiguration
        )
    }

    /// The policy in force under this override, given the client's: ``retryPolicy`` or the
    /// client's, with ``maxAttempts``, ``backoffBase`` and ``backoffCap`` applied on top.
    public func policy(over clientPolicy: RetryPolicy) -> RetryPolicy {
        var policy = retryPolicy ?? clientPolicy
        if let maxAttempts {
            policy.maxAttempts = maxAttempts
        }
        if let backoffBase {
            policy.transientBackoff.base = backoffBase
            policy.throttlingBackoff.base = backoffBase
        }
        if let backoffCap {
            policy.transientBackoff.cap = backoffCap
            policy.throttlingBackoff.cap = backoffCap
        }
        return policy
    }
}
