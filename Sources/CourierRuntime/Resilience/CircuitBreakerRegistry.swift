/// Identifies one circuit breaker: a host, and optionally one endpoint on it.
///
/// By default a client keeps one breaker per host. An endpoint that fails independently of
/// the rest of its host (a slow report, a flaky upstream behind one path) can get its own
/// breaker by naming it, so that its failures do not cut off the host's healthy endpoints.
public struct CircuitBreakerKey: Sendable, Hashable, CustomStringConvertible {
    /// The server the breaker guards.
    public var host: HostKey
    /// The endpoint, when the breaker guards one endpoint rather than the whole host.
    public var endpoint: String?

    /// Creates a key for a whole host, or for one endpoint on it.
    public init(host: HostKey, endpoint: String? = nil) {
        self.host = host
        self.endpoint = endpoint
    }

    /// `host` or `host endpoint`, for log lines.
    public var description: String {
        endpoint.map { "\(host) \($0)" } ?? host.description
    }
}

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
