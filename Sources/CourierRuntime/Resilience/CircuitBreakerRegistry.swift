/// Hands out one ``CircuitBreaker`` per ``CircuitBreakerKey``, never one for everything, so
/// that an outage of one host never cuts off another.
public final class CircuitBreakerRegistry: Sendable {
    /// The configuration of breakers created without one of their own.
    public let configuration: CircuitBreaker.Configuration
    private let clock: any Clock<Duration>
    private let jitter: Jitter
    private let onTransition: (@Sendable (CircuitBreaker.Transition) -> Void)?
    private let breakers = Locked<[CircuitBreakerKey: CircuitBreaker]>([:])

    /// Creates an empty registry.
    ///
    /// - Parameters:
    ///   - configuration: The default configuration of its breakers.
    ///   - clock: Where every breaker measures time.
    ///   - jitter: Where every breaker draws its break jitter.
    ///   - onTransition: Receives every breaker's state changes; see
    ///     ``CircuitBreaker/init(key:configuration:clock:jitter:onTransition:)``.
    public init(
        configuration: CircuitBreaker.Configuration = .default,
        clock: any Clock<Duration> = ContinuousClock(),
        jitter: Jitter = .system,
        onTransition: (@Sendable (CircuitBreaker.Transition) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.clock = clock
        self.jitter = jitter
        self.onTransition = onTransition
    }

    /// The breaker for `key`, created closed on first use.
    ///
    /// - Parameter configuration: The configuration to create it with, overriding the
    ///   registry's (for an endpoint the spec configures differently). It only takes effect
    ///   when this call creates the breaker.
    public func breaker(for key: CircuitBreakerKey, configuration: CircuitBreaker.Configuration? = nil) -> CircuitBreaker {
        breakers.withLock { breakers in
            if let breaker = breakers[key] {
                return breaker
            }
            let breaker = CircuitBreaker(
                key: key,
                configuration: configuration ?? self.configuration,
                clock: clock,
                jitter: jitter,
                onTransition: onTransition
            )
            breakers[key] = breaker
            return breaker
        }
    }

    /// Resets every breaker created so far; see ``CircuitBreaker/reset()``.
    public func resetAll() {
        breakers.withLock { Array($0.values) }.forEach { $0.reset() }
    }
}
