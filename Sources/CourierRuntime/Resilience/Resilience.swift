/// A client's retry and circuit-breaker setup: the policy, the shared per-host budgets and
/// breakers, and the clock and jitter they run on.
///
/// A client keeps one value for its lifetime and asks it for a ``RetryLoop`` per call, so that
/// every call to a host draws from that host's budget and passes that host's breaker.
///
/// ```swift
/// var resilience = Resilience()                     // retries on, breakers off
/// resilience.circuitBreakerScope = .host            // opt in to one breaker per host
/// let client = APIClient(baseURL: url, configuration: APIClient.Configuration(resilience: resilience))
/// ```
public struct Resilience: Sendable {
    /// The retry policy of calls that do not bring their own. Default ``RetryPolicy/default``.
    public var retryPolicy: RetryPolicy
    /// The per-host retry budgets, or `nil` to retry without a budget.
    public var retryBudgets: RetryBudgetRegistry?
    /// The breakers, created on first use. They exist even while ``circuitBreakerScope`` is
    /// ``CircuitBreakerScope/off`` so that single endpoints can still opt in.
    public var circuitBreakers: CircuitBreakerRegistry
    /// Which breaker calls pass by default. ``CircuitBreakerScope/off`` unless the client
    /// opts in: a breaker changes what callers see during an outage, so nobody gets one by
    /// surprise.
    public var circuitBreakerScope: CircuitBreakerScope
    /// Where backoff and deadlines are measured; the breakers `init` creates share it.
    public var clock: any Clock<Duration>
    /// Where backoff jitter is drawn from.
    public var jitter: Jitter

    /// Creates a setup.
    ///
    /// - Parameters:
    ///   - retryPolicy: The default retry policy.
    ///   - retryBudget: The size of each host's budget, or `nil` for no budget.
    ///   - circuitBreaker: The default breaker configuration.
    ///   - circuitBreakerScope: Which breaker calls pass by default; off unless set.
    ///   - clock: The clock of backoff, deadlines and breakers.
    ///   - jitter: The jitter of backoff and breaker breaks.
    ///   - onCircuitBreakerTransition: Receives every breaker's state changes, whoever caused
    ///     them. A client reports the changes its own calls cause on its event stream and in
    ///     its log without this.
    public init(
        retryPolicy: RetryPolicy = .default,
        retryBudget: RetryBudget.Configuration? = .default,
        circuitBreaker: CircuitBreaker.Configuration = .default,
        circuitBreakerScope: CircuitBreakerScope = .off,
        clock: any Clock<Duration> = ContinuousClock(),
        jitter: Jitter = .system,
        onCircuitBreakerTransition: (@Sendable (CircuitBreaker.Transition) -> Void)? = nil
    ) {
        self.retryPolicy = retryPolicy
        self.retryBudgets = retryBudget.map { RetryBudgetRegistry(configuration: $0) }
        self.circuitBreakers = CircuitBreakerRegistry(
            configuration: circuitBreaker,
            clock: clock,
            jitter: jitter,
            onTransition: onCircuitBreakerTransition
        )
        self.circuitBreakerScope = circuitBreakerScope
        self.clock = clock
        self.jitter = jitter
    }

    /// The retry loop for one call to `host`.
    ///
    /// - Parameters:
    ///   - host: The server the call goes to; its budget and breaker are used.
    ///   - policy: The endpoint's own retry policy, overriding ``retryPolicy``.
    ///   - scope: The endpoint's own choice of breaker, overriding ``circuitBreakerScope``.
    ///   - breakerConfiguration: The endpoint's own breaker configuration; applies when the
    ///     breaker is created, so give it only with an ``CircuitBreakerScope/endpoint(_:)``
    ///     scope, or every endpoint of the host would race to configure the host's breaker.
    public func retryLoop(
        for host: HostKey,
        policy: RetryPolicy? = nil,
        breaker scope: CircuitBreakerScope? = nil,
        breakerConfiguration: CircuitBreaker.Configuration? = nil
    ) -> RetryLoop {
        let breaker: CircuitBreaker?
        switch scope ?? circuitBreakerScope {
        case .off:
            breaker = nil
        case .host:
            breaker = circuitBreakers.breaker(for: CircuitBreakerKey(host: host), configuration: breakerConfiguration)
        case .endpoint(let name):
            breaker = circuitBreakers.breaker(for: CircuitBreakerKey(host: host, endpoint: name), configuration: breakerConfiguration)
        }
        return RetryLoop(
            policy: policy ?? retryPolicy,
            budget: retryBudgets?.budget(for: host),
            breaker: breaker,
            clock: clock,
            jitter: jitter
        )
    }
}

/// Which circuit breaker a call passes.
public enum CircuitBreakerScope: Sendable, Hashable {
    /// None: calls are never cut off.
    case off
    /// The breaker shared by every endpoint of the call's host.
    case host
    /// A breaker of the endpoint's own on the call's host, named by `endpoint`, so that its
    /// failures do not cut off the host's other endpoints.
    case endpoint(String)
}
