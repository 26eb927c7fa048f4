import CourierLocking
import CourierRuntime
import CourierTesting
import Foundation
import Testing

@Suite struct ResilienceTests {
    static let get = RetryTraits(method: .get)

    @Test func byDefaultCallsRetryWithABudgetAndPassNoBreaker() {
        let resilience = Resilience(clock: ManualClock())
        let loop = resilience.retryLoop(for: .hostA)
        #expect(loop.policy == .default)
        #expect(loop.breaker == nil)
        #expect(loop.budget === resilience.retryLoop(for: .hostA).budget)
        #expect(loop.budget !== resilience.retryLoop(for: .hostB).budget)
        #expect(loop.budget?.availableRetries == 100)
    }

    @Test func retriesCanRunWithoutABudget() {
        let resilience = Resilience(retryBudget: nil, clock: ManualClock())
        #expect(resilience.retryLoop(for: .hostA).budget == nil)
    }

    @Test func anEndpointCanBringItsOwnPolicy() {
        let resilience = Resilience(clock: ManualClock())
        #expect(resilience.retryLoop(for: .hostA, policy: .never).policy == .never)
    }

    @Test func optingInGivesOneBreakerPerHost() {
        let resilience = Resilience(circuitBreakerScope: .host, clock: ManualClock())
        let breaker = resilience.retryLoop(for: .hostA).breaker
        #expect(breaker != nil)
        #expect(resilience.retryLoop(for: .hostA).breaker === breaker)
        #expect(resilience.retryLoop(for: .hostB).breaker !== breaker)
        #expect(resilience.retryLoop(for: .hostA, breaker: .off).breaker == nil)
    }

    @Test func anEndpointCanOptInToABreakerOfItsOwn() {
        let resilience = Resilience(clock: ManualClock())
        let loop = resilience.retryLoop(for: .hostA, breaker: .endpoint("upload"), breakerConfiguration: .consecutiveFailures(3))
        #expect(loop.breaker?.key == CircuitBreaker.Key(host: .hostA, endpoint: "upload"))
        #expect(loop.breaker?.configuration == .consecutiveFailures(3))
        #expect(resilience.retryLoop(for: .hostA).breaker == nil)
    }

    @Test func breakerTransitionsReachTheObserverAndCallsFailFast() async {
        let clock = ManualClock()
        let transitions = Locked<[CircuitBreaker.Transition]>([])
        let resilience = Resilience(
            retryPolicy: .never,
            circuitBreaker: .consecutiveFailures(2),
            circuitBreakerScope: .host,
            clock: clock,
            jitter: .constant(0),
            onCircuitBreakerTransition: { transition in transitions.withLock { $0.append(transition) } }
        )
        for _ in 0..<2 {
            #expect(await resilience.retryLoop(for: .hostA).run(Self.get, attempts: ScriptedAttempts([.fail(.status(500))])) == .failure(.status(500)))
        }
        let refused = ScriptedAttempts([.succeed])
        let open = CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: .hostA), state: .open, retryAfter: .seconds(60))
        #expect(await resilience.retryLoop(for: .hostA).run(Self.get, attempts: refused) == .failure(.interrupted(.circuitOpen(open))))
        #expect(refused.attempts.isEmpty)
        #expect(transitions.value == [CircuitBreaker.Transition(key: CircuitBreaker.Key(host: .hostA), from: .closed, to: .open, breakDuration: .seconds(60))])
    }
}

/// Where budgets and breakers live: process-wide per (host, configuration) by default, apart
/// when isolated or on an injected clock (issue 16).
@Suite struct ResilienceSharingTests {
    /// A host of the test's own, so that process-wide state from other tests never meets it.
    static func freshHost() -> Resilience.Host {
        Resilience.Host(scheme: "https", host: "sharing-\(UUID().uuidString).test")
    }

    @Test func byDefaultSeparateValuesShareAHostsBudgetAndBreaker() throws {
        let host = Self.freshHost()
        let first = Resilience(circuitBreakerScope: .host)
        let second = Resilience(circuitBreakerScope: .host)
        #expect(first.sharing == .processWide)
        let budget = try #require(first.retryLoop(for: host).budget)
        #expect(second.retryLoop(for: host).budget === budget)
        #expect(second.retryLoop(for: host).breaker === first.retryLoop(for: host).breaker)
        _ = budget.withdraw(forRetryAfter: .status(503))
        #expect(second.retryLoop(for: host).budget?.availableRetries == 99)
        #expect(first.retryLoop(for: Self.freshHost()).budget !== budget, "hosts stay apart")
    }

    /// A registry remembers what it handed out by host, the last host apart from the rest:
    /// switching hosts must still give each the one budget and breaker the store holds for it.
    @Test func alternatingHostsKeepTheirOwnBudgetAndBreaker() {
        let (one, two) = (Self.freshHost(), Self.freshHost())
        let resilience = Resilience(circuitBreakerScope: .host)
        let other = Resilience(circuitBreakerScope: .host)
        for host in [one, two, one, one, two, one] {
            #expect(resilience.retryLoop(for: host).budget === other.retryLoop(for: host).budget)
            #expect(resilience.retryLoop(for: host).breaker === other.retryLoop(for: host).breaker)
        }
        #expect(resilience.retryLoop(for: one).budget !== resilience.retryLoop(for: two).budget)
        #expect(resilience.retryLoop(for: one).breaker !== resilience.retryLoop(for: two).breaker)
        // An endpoint's own configuration is a breaker apart, before and after the host's.
        let own = resilience.retryLoop(for: one, breakerConfiguration: .consecutiveFailures(2)).breaker
        #expect(own !== resilience.retryLoop(for: one).breaker)
        #expect(own?.configuration == .consecutiveFailures(2))
        #expect(resilience.retryLoop(for: one).breaker?.configuration == .default)
    }

    @Test func aDifferentConfigurationGetsABudgetAndBreakerOfItsOwn() {
        let host = Self.freshHost()
        let standard = Resilience(circuitBreakerScope: .host)
        let stingy = Resilience(retryBudget: .init(retryPercent: 5), circuitBreaker: .consecutiveFailures(3), circuitBreakerScope: .host)
        #expect(stingy.retryLoop(for: host).budget !== standard.retryLoop(for: host).budget)
        #expect(stingy.retryLoop(for: host).budget?.configuration.retryPercent == 5)
        #expect(stingy.retryLoop(for: host).breaker !== standard.retryLoop(for: host).breaker)
        #expect(stingy.retryLoop(for: host).breaker?.configuration == .consecutiveFailures(3))
        #expect(standard.retryLoop(for: host).breaker?.configuration == .default)
    }

    @Test func isolatedValuesShareOnlyWithTheirCopies() {
        let host = Self.freshHost()
        let shared = Resilience(circuitBreakerScope: .host)
        let apart = Resilience(circuitBreakerScope: .host, sharing: .isolated)
        let copy = apart
        #expect(apart.sharing == .isolated)
        #expect(apart.retryLoop(for: host).budget !== shared.retryLoop(for: host).budget)
        #expect(apart.retryLoop(for: host).breaker !== shared.retryLoop(for: host).breaker)
        #expect(copy.retryLoop(for: host).budget === apart.retryLoop(for: host).budget)
        #expect(copy.retryLoop(for: host).breaker === apart.retryLoop(for: host).breaker)
        let otherApart = Resilience(circuitBreakerScope: .host, sharing: .isolated)
        #expect(otherApart.retryLoop(for: host).budget !== apart.retryLoop(for: host).budget)
    }

    /// A breaker timed on a test's clock must never decide for real-time clients.
    @Test func anInjectedClockIsNeverShared() throws {
        let host = Self.freshHost()
        let clock = ManualClock()
        let onTestClock = Resilience(circuitBreaker: .consecutiveFailures(1), circuitBreakerScope: .host, clock: clock)
        let alsoOnTestClock = Resilience(circuitBreaker: .consecutiveFailures(1), circuitBreakerScope: .host, clock: clock)
        let onRealClock = Resilience(circuitBreaker: .consecutiveFailures(1), circuitBreakerScope: .host)
        #expect(onTestClock.sharing == .isolated)
        let testBreaker = try #require(onTestClock.retryLoop(for: host).breaker)
        try testBreaker.acquirePermit().record(.failure)
        #expect(testBreaker.state == .open)
        #expect(onRealClock.retryLoop(for: host).breaker?.state == .closed)
        #expect(alsoOnTestClock.retryLoop(for: host).breaker !== testBreaker, "share a value to share state on a test clock")
        #expect(onRealClock.retryLoop(for: host).budget !== onTestClock.retryLoop(for: host).budget)
    }

    @Test func aTransitionCallbackHearsSharedBreakersUntilItsValueIsGone() throws {
        let host = Self.freshHost()
        let heard = Locked<[CircuitBreaker.Transition]>([])
        let other = Resilience(circuitBreaker: .consecutiveFailures(1), circuitBreakerScope: .host)
        do {
            let listening = Resilience(
                circuitBreaker: .consecutiveFailures(1),
                circuitBreakerScope: .host,
                onCircuitBreakerTransition: { transition in heard.withLock { $0.append(transition) } }
            )
            // Another value's breaker for the same host and configuration is the same breaker.
            try #require(other.retryLoop(for: host).breaker).acquirePermit().record(.failure)
            #expect(heard.value.map(\.to) == [.open])
            withExtendedLifetime(listening) {}
        }
        try #require(other.retryLoop(for: host).breaker).reset()
        #expect(heard.value.map(\.to) == [.open], "the listener went with its value")
    }

    @Test func resettingResetsOnlyTheBreakersThisValueUsed() throws {
        let used = Self.freshHost()
        let notUsed = Self.freshHost()
        let mine = Resilience(circuitBreaker: .consecutiveFailures(1), circuitBreakerScope: .host)
        let theirs = Resilience(circuitBreaker: .consecutiveFailures(1), circuitBreakerScope: .host)
        try #require(mine.retryLoop(for: used).breaker).acquirePermit().record(.failure)
        try #require(theirs.retryLoop(for: notUsed).breaker).acquirePermit().record(.failure)
        mine.circuitBreakers.resetAll()
        #expect(theirs.retryLoop(for: used).breaker?.state == .closed, "shared, so reset for everyone")
        #expect(theirs.retryLoop(for: notUsed).breaker?.state == .open, "never used by `mine`")
    }
}
