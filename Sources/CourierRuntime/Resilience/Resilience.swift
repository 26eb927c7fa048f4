/// A client's retry and circuit-breaker setup: the policy, the per-host budgets and breakers,
/// and the clock and jitter they run on.
///
/// A client keeps one value for its lifetime and asks it for a `RetryLoop` per call, so that
/// every call to a host draws from that host's budget and passes that host's breaker.
///
/// **Sharing.** By default (``Sharing/processWide``) budgets and breakers are process-wide:
/// every client in the process that calls the same host with the same budget configuration
/// draws from one budget, and with the same breaker configuration passes one breaker, however
/// many `Resilience` values and clients were made. An app that makes a client per call thus
/// keeps its retry storms bounded and its breakers informed. Budgets and breakers are kept per
/// (host, configuration), so a client configured differently never silently uses a budget or
/// breaker that counts by another client's rules.
///
/// ``Sharing/isolated`` gives a value budgets and breakers of its own, shared only by its copies
/// (and so by the clients made from it). A clock other than `ContinuousClock`, such as a test's
/// `ManualClock`, always gets isolated ones: a breaker timed on a test's clock must never decide
/// for clients on real time, nor a real-time breaker for a test. To share state between a few
/// clients only, make one isolated value and give it to all of them.
///
/// ```swift
/// var resilience = Resilience()                     // retries on, breakers off, process-wide
/// resilience.circuitBreakerScope = .host            // opt in to one breaker per host
/// let client = APIClient(baseURL: url, configuration: APIClient.Configuration(resilience: resilience))
///
/// let apart = Resilience(sharing: .isolated)        // budgets and breakers of its own
/// ```
public struct Resilience: Sendable {
    /// Where a ``Resilience`` value's budgets and breakers live.
    public enum Sharing: Sendable, Hashable {
        /// In the process-wide store on `ContinuousClock`, shared by every client in the
        /// process per (host, configuration). The default.
        case processWide
        /// In a store of the value's own, shared only by its copies.
        case isolated
    }

    /// The retry policy of calls that do not bring their own. Default ``RetryPolicy/default``.
    public var retryPolicy: RetryPolicy
    /// The per-host retry budgets, or `nil` to retry without a budget.
    package var retryBudgets: RetryBudgetRegistry?
    /// The breakers, created on first use. They exist even while ``circuitBreakerScope`` is
    /// ``CircuitBreaker/Scope/off`` so that single endpoints can still opt in.
    package var circuitBreakers: CircuitBreakerRegistry
    /// Which breaker calls pass by default. ``CircuitBreaker/Scope/off`` unless the client
    /// opts in: a breaker changes what callers see during an outage, so nobody gets one by
    /// surprise.
    public var circuitBreakerScope: CircuitBreaker.Scope
    /// Where backoff and deadlines are measured; the budgets and breakers `init` creates share
    /// it.
    ///
    /// With any clock but `ContinuousClock`, an attempt's timeout is the transport's alone:
    /// the client's backstop, which ends an attempt whose transport overruns its timeout in
    /// real time, is off, because real time is not the call's time on a test's clock.
    public var clock: any Clock<Duration>
    /// Where backoff jitter is drawn from. Isolated breakers draw their break jitter here too;
    /// process-wide breakers draw from ``Resilience/Jitter/system``.
    public var jitter: Resilience.Jitter
    /// Where `init` put the budgets and breakers: ``Sharing/isolated`` when asked, or when the
    /// clock is not `ContinuousClock`; ``Sharing/processWide`` otherwise.
    public let sharing: Sharing

    /// Creates a setup.
    ///
    /// - Parameters:
    ///   - retryPolicy: The default retry policy.
    ///   - retryBudget: The configuration of each host's budget, or `nil` for no budget.
    ///   - circuitBreaker: The default breaker configuration.
    ///   - circuitBreakerScope: Which breaker calls pass by default; off unless set.
    ///   - clock: The clock of backoff, deadlines, budgets and breakers. Any clock but
    ///     `ContinuousClock` makes the budgets and breakers isolated.
    ///   - jitter: The jitter of backoff, and of isolated breakers' breaks.
    ///   - onCircuitBreakerTransition: Receives every state change of the breakers this value
    ///     can use, whoever caused them: with process-wide sharing, those of every process-wide
    ///     breaker, for as long as this value or a copy lives. A client reports the changes its
    ///     own calls cause on its event stream and in its log without this.
    ///   - sharing: Whether budgets and breakers are process-wide (the default) or the value's
    ///     own; see the type's documentation.
    public init(
        retryPolicy: RetryPolicy = .default,
        retryBudget: RetryBudget.Configuration? = .default,
        circuitBreaker: CircuitBreaker.Configuration = .default,
        circuitBreakerScope: CircuitBreaker.Scope = .off,
        clock: any Clock<Duration> = ContinuousClock(),
        jitter: Resilience.Jitter = .system,
        onCircuitBreakerTransition: (@Sendable (CircuitBreaker.Transition) -> Void)? = nil,
        sharing: Sharing = .processWide
    ) {
        let shared = sharing == .processWide && clock is ContinuousClock
        self.retryPolicy = retryPolicy
        if shared {
            retryBudgets = retryBudget.map { RetryBudgetRegistry.processWide(configuration: $0) }
            circuitBreakers = CircuitBreakerRegistry.processWide(configuration: circuitBreaker, onTransition: onCircuitBreakerTransition)
        } else {
            retryBudgets = retryBudget.map { RetryBudgetRegistry(configuration: $0, clock: clock) }
            circuitBreakers = CircuitBreakerRegistry(
                configuration: circuitBreaker,
                clock: clock,
                jitter: jitter,
                onTransition: onCircuitBreakerTransition
            )
        }
        self.circuitBreakerScope = circuitBreakerScope
        self.clock = clock
        self.jitter = jitter
        self.sharing = shared ? .processWide : .isolated
    }

    /// The retry loop for one call to `host`.
    ///
    /// - Parameters:
    ///   - host: The server the call goes to; its budget and breaker are used.
    ///   - policy: The endpoint's own retry policy, overriding ``retryPolicy``.
    ///   - scope: The endpoint's own choice of breaker, overriding ``circuitBreakerScope``.
    ///   - breakerConfiguration: The endpoint's own breaker configuration. Breakers are kept
    ///     per (key, configuration), so with the ``CircuitBreaker/Scope/host`` scope it selects
    ///     a host breaker of that configuration, apart from the host's default one.
    package func retryLoop(
        for host: Resilience.Host,
        policy: RetryPolicy? = nil,
        breaker scope: CircuitBreaker.Scope? = nil,
        breakerConfiguration: CircuitBreaker.Configuration? = nil
    ) -> RetryLoop {
        let breaker: CircuitBreaker?
        switch scope ?? circuitBreakerScope {
        case .off:
            breaker = nil
        case .host:
            breaker = circuitBreakers.breaker(for: CircuitBreaker.Key(host: host), configuration: breakerConfiguration)
        case .endpoint(let name):
            breaker = circuitBreakers.breaker(for: CircuitBreaker.Key(host: host, endpoint: name), configuration: breakerConfiguration)
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

extension CircuitBreaker {
    /// Which circuit breaker a call passes.
    public enum Scope: Sendable, Hashable {
        /// None: calls are never cut off.
        case off
        /// The breaker shared by every endpoint of the call's host.
        case host
        /// A breaker of the endpoint's own on the call's host, named by `endpoint`, so that its
        /// failures do not cut off the host's other endpoints.
        case endpoint(String)
    }
}
