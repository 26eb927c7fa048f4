import CourierRuntime
import CourierTesting
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
        #expect(loop.budget?.availableTokens == 500)
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
        #expect(loop.breaker?.key == CircuitBreakerKey(host: .hostA, endpoint: "upload"))
        #expect(loop.breaker?.configuration == .consecutiveFailures(3))
        #expect(resilience.retryLoop(for: .hostA).breaker == nil)
    }

    @Test func breakerTransitionsReachTheObserverAndCallsFailFast() async {
        let clock = ManualClock()
        let transitions = Guarded<[CircuitBreaker.Transition]>([])
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
        let open = CircuitOpen(key: CircuitBreakerKey(host: .hostA), state: .open, retryAfter: .seconds(60))
        #expect(await resilience.retryLoop(for: .hostA).run(Self.get, attempts: refused) == .failure(.interrupted(.circuitOpen(open))))
        #expect(refused.attempts.isEmpty)
        #expect(transitions.current == [CircuitBreaker.Transition(key: CircuitBreakerKey(host: .hostA), from: .closed, to: .open, breakDuration: .seconds(60))])
    }
}
