import CourierLocking
/// Hands out one ``CircuitBreaker`` per ``CircuitBreaker/Key`` and breaker configuration, never
/// one for everything, so that an outage of one host never cuts off another.
///
/// Breakers are kept per (key, configuration): a client that asks for a host's breaker with a
/// different configuration gets a breaker of its own rather than one that trips, silently, by
/// another client's rules.
///
/// ``Resilience`` uses a process-wide store by default, so that clients made per call still
/// share their host's breaker; a registry created with
/// ``init(configuration:clock:jitter:onTransition:)`` has breakers of its own, shared only by
/// whoever holds it.
package final class CircuitBreakerRegistry: Sendable {
    /// The configuration of breakers asked for without one of their own.
    package let configuration: CircuitBreaker.Configuration
    private let store: BreakerStore
    private let subscription: BreakerStore.Subscription?
    /// The breakers this registry has handed out, which ``resetAll()`` resets. Every call asks
    /// for its breaker, so this also answers first: usually with one comparison against the
    /// last key asked for, where the store hashes the key and the whole configuration.
    private let handedOut = Locked(HandedOut<BreakerStore.Key, CircuitBreaker>())

    /// Creates a registry with breakers of its own.
    ///
    /// - Parameters:
    ///   - configuration: The default configuration of its breakers.
    ///   - clock: Where every breaker measures time.
    ///   - jitter: Where every breaker draws its break jitter.
    ///   - onTransition: Receives every state change of its breakers; see
    ///     ``CircuitBreaker/init(key:configuration:clock:jitter:onTransition:)``.
    package init(
        configuration: CircuitBreaker.Configuration = .default,
        clock: any Clock<Duration> = ContinuousClock(),
        jitter: Resilience.Jitter = .system,
        onTransition: (@Sendable (CircuitBreaker.Transition) -> Void)? = nil
    ) {
        let store = BreakerStore(clock: clock, jitter: jitter)
        self.configuration = configuration
        self.store = store
        subscription = onTransition.map { store.subscribe($0) }
    }

    private init(configuration: CircuitBreaker.Configuration, store: BreakerStore, onTransition: (@Sendable (CircuitBreaker.Transition) -> Void)?) {
        self.configuration = configuration
        self.store = store
        subscription = onTransition.map { store.subscribe($0) }
    }

    /// A view of the process-wide breakers, which run on `ContinuousClock` with
    /// ``Resilience/Jitter/system``: every registry made this way hands out the same breaker for the same
    /// key and configuration. `onTransition` hears every change of every process-wide breaker
    /// for as long as the registry (or a copy of the ``Resilience`` holding it) lives.
    static func processWide(
        configuration: CircuitBreaker.Configuration,
        onTransition: (@Sendable (CircuitBreaker.Transition) -> Void)?
    ) -> CircuitBreakerRegistry {
        CircuitBreakerRegistry(configuration: configuration, store: BreakerStore.processWide, onTransition: onTransition)
    }

    /// The breaker for `key`, created closed on first use.
    ///
    /// - Parameters:
    ///   - key: The host or endpoint the breaker guards.
    ///   - configuration: The configuration of the breaker wanted, overriding the
    ///     registry's (for an endpoint the spec configures differently). A different
    ///     configuration for the same key is a different breaker.
    package func breaker(for key: CircuitBreaker.Key, configuration: CircuitBreaker.Configuration? = nil) -> CircuitBreaker {
        let storeKey = BreakerStore.Key(key: key, configuration: configuration ?? self.configuration)
        if let breaker = handedOut.withLock({ $0.value(for: storeKey) }) {
            return breaker
        }
        let breaker = store.breaker(for: storeKey)
        handedOut.withLock { $0.insert(breaker, for: storeKey) }
        return breaker
    }

    /// Resets every breaker this registry has handed out; see ``CircuitBreaker/reset()``.
    /// With process-wide breakers, that is every breaker this registry's clients have used,
    /// which other clients of the same hosts share.
    package func resetAll() {
        let breakers = handedOut.withLock { $0.values }
        breakers.forEach { $0.reset() }
    }
}

/// Breakers by key and configuration, with the listeners of their state changes; shared by every
/// `CircuitBreakerRegistry` that holds it.
final class BreakerStore: Sendable {
    struct Key: Hashable {
        var key: CircuitBreaker.Key
        var configuration: CircuitBreaker.Configuration
    }

    /// Removes its listener when the last holder lets it go.
    final class Subscription: Sendable {
        private let store: BreakerStore
        private let id: UInt64

        init(store: BreakerStore, id: UInt64) {
            self.store = store
            self.id = id
        }

        deinit {
            store.unsubscribe(id)
        }
    }

    private struct Listeners {
        var nextID: UInt64 = 0
        var byID: [UInt64: @Sendable (CircuitBreaker.Transition) -> Void] = [:]
    }

    static let processWide = BreakerStore(clock: ContinuousClock(), jitter: .system)

    private let clock: any Clock<Duration>
    private let jitter: Resilience.Jitter
    private let breakers = Locked<[Key: CircuitBreaker]>([:])
    private let listeners = Locked(Listeners())

    init(clock: any Clock<Duration>, jitter: Resilience.Jitter) {
        self.clock = clock
        self.jitter = jitter
    }

    func breaker(for key: Key) -> CircuitBreaker {
        breakers.withLock { breakers in
            if let breaker = breakers[key] {
                return breaker
            }
            // Weak, because the store owns the breaker: a store of one client's own goes away
            // with the client.
            let breaker = CircuitBreaker(
                key: key.key,
                configuration: key.configuration,
                clock: clock,
                jitter: jitter,
                onTransition: { [weak self] transition in self?.broadcast(transition) }
            )
            breakers[key] = breaker
            return breaker
        }
    }

    func subscribe(_ listener: @escaping @Sendable (CircuitBreaker.Transition) -> Void) -> Subscription {
        let id = listeners.withLock { listeners in
            let id = listeners.nextID
            listeners.nextID += 1
            listeners.byID[id] = listener
            return id
        }
        return Subscription(store: self, id: id)
    }

    private func unsubscribe(_ id: UInt64) {
        listeners.withLock { _ = $0.byID.removeValue(forKey: id) }
    }

    private func broadcast(_ transition: CircuitBreaker.Transition) {
        // Called outside the lock, so that a listener may look at breakers or subscribe.
        let current = listeners.withLock { listeners in
            listeners.byID.sorted { left, right in left.key < right.key }.map(\.value)
        }
        current.forEach { $0(transition) }
    }
}
