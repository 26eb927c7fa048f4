import CourierLocking
import CourierRuntime
import CourierTesting
import HTTPTypes
import Testing

/// A breaker on a manual clock that remembers its transitions.
struct BreakerHarness {
    let clock = ManualClock()
    let transitions = Locked<[CircuitBreaker.Transition]>([])
    let breaker: CircuitBreaker

    init(_ configuration: CircuitBreaker.Configuration = .default, jitter: Double = 0, key: CircuitBreaker.Key = CircuitBreaker.Key(host: .hostA)) {
        let transitions = transitions
        breaker = CircuitBreaker(
            key: key,
            configuration: configuration,
            clock: clock,
            jitter: .constant(jitter),
            onTransition: { transition in transitions.withLock { $0.append(transition) } }
        )
    }

    /// Acquires a permit and records `outcome` on it at once.
    func call(_ outcome: CircuitBreaker.Outcome) throws(CircuitBreaker.Refusal) {
        try breaker.acquirePermit().record(outcome)
    }

    func calls(_ outcome: CircuitBreaker.Outcome, times: Int) throws(CircuitBreaker.Refusal) {
        for _ in 0..<times {
            try call(outcome)
        }
    }

    var states: [CircuitBreaker.State] {
        transitions.value.map(\.to)
    }

    var breakDurations: [Duration] {
        transitions.value.compactMap(\.breakDuration)
    }

    /// The error the next acquisition fails with, or `nil` if it succeeds.
    func rejection() -> CircuitBreaker.Refusal? {
        do {
            _ = try breaker.acquirePermit()
            return nil
        } catch {
            return error
        }
    }
}

@Suite struct CircuitBreakerTests {
    @Test func itOpensAtTwentyCallsWithHalfFailed() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 9)
        try harness.calls(.success, times: 10)
        #expect(harness.breaker.state == .closed)
        try harness.call(.failure)
        #expect(harness.breaker.state == .open)
        #expect(harness.transitions.value == [
            CircuitBreaker.Transition(key: CircuitBreaker.Key(host: .hostA), from: .closed, to: .open, breakDuration: .seconds(5)),
        ])
    }

    @Test func fewerThanTwentyCallsNeverOpenIt() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 19)
        #expect(harness.breaker.state == .closed)
    }

    @Test func theSuccessThatMakesTwentyCallsCanOpenIt() throws {
        // Nineteen failures are too few calls; the twentieth call is a success, but 19 of 20
        // failed, so the rate is judged on that success too.
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 19)
        try harness.call(.success)
        #expect(harness.breaker.state == .open)
    }

    @Test func successesAfterTheFailuresLeftTheWindowKeepItClosed() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 19)
        harness.clock.advance(by: .seconds(31))
        try harness.calls(.success, times: 40)
        #expect(harness.breaker.state == .closed)
        // The window now holds only successes; one failure among them changes nothing.
        try harness.call(.failure)
        #expect(harness.breaker.state == .closed)
    }

    @Test func lessThanHalfFailedKeepsItClosed() throws {
        let harness = BreakerHarness()
        try harness.calls(.success, times: 11)
        try harness.calls(.failure, times: 9)
        try harness.calls(.success, times: 30)
        #expect(harness.breaker.state == .closed)
    }

    @Test func callsOlderThanTheWindowAreForgotten() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 15)
        harness.clock.advance(by: .seconds(31))
        try harness.calls(.failure, times: 5)
        #expect(harness.breaker.state == .closed)
        harness.clock.advance(by: .seconds(20))
        // 5 failures from 20 s ago are still in the window: 5 + 15 = 20 calls, all failed.
        try harness.calls(.failure, times: 15)
        #expect(harness.breaker.state == .open)
    }

    @Test func theClassicBreakerOpensOnFiveFailuresInARow() throws {
        let harness = BreakerHarness(.consecutiveFailures(), jitter: 1)
        try harness.calls(.failure, times: 4)
        try harness.call(.success)
        try harness.calls(.failure, times: 4)
        #expect(harness.breaker.state == .closed)
        try harness.call(.failure)
        #expect(harness.breaker.state == .open)
        // A fixed 60 s, without jitter, however many breaks.
        #expect(harness.breakDurations == [.seconds(60)])
        harness.clock.advance(by: .seconds(59))
        #expect(harness.rejection()?.retryAfter == .seconds(1))
        harness.clock.advance(by: .seconds(1))
        try harness.call(.success)
        #expect(harness.breaker.state == .halfOpen)
        try harness.call(.success)
        #expect(harness.breaker.state == .closed)
        #expect(harness.states == [.open, .halfOpen, .closed])
    }

    @Test func theClassicBreakerReopensForTheSameSixtySeconds() throws {
        let harness = BreakerHarness(.consecutiveFailures())
        try harness.calls(.failure, times: 5)
        harness.clock.advance(by: .seconds(60))
        try harness.call(.success)
        try harness.call(.failure)
        #expect(harness.breakDurations == [.seconds(60), .seconds(60)])
        #expect(harness.rejection()?.retryAfter == .seconds(60))
    }

    @Test func whileOpenItFailsFastWithTheTimeUntilTheProbe() throws {
        let harness = BreakerHarness(.consecutiveFailures(1, successesToClose: 1, openDuration: .seconds(5)))
        try harness.call(.failure)
        harness.clock.advance(by: .seconds(2))
        let rejection = try #require(harness.rejection())
        #expect(rejection == CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: .hostA), state: .open, retryAfter: .seconds(3)))
        #expect(rejection.description == "circuit breaker for http://127.0.0.1:8081 is open; next probe in 3.0 seconds")
    }

    @Test func failedProbesDoubleTheBreakUpToSixtySeconds() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 20)
        for _ in 0..<6 {
            let wait = try #require(harness.rejection()).retryAfter
            harness.clock.advance(by: wait)
            let probe = try harness.breaker.acquirePermit()
            #expect(probe.isProbe)
            probe.record(.failure)
        }
        #expect(harness.breakDurations == [.seconds(5), .seconds(10), .seconds(20), .seconds(40), .seconds(60), .seconds(60), .seconds(60)])
    }

    @Test func breakJitterShortensTheBreakByAtMostItsFraction() throws {
        let harness = BreakerHarness(jitter: 1)
        try harness.calls(.failure, times: 20)
        #expect(harness.breakDurations == [.seconds(4)])
        let schedule = CircuitBreaker.Configuration.default.breakDuration
        #expect(schedule.length(forBreak: 0, draw: 0) == .seconds(5))
        #expect(schedule.length(forBreak: 0, draw: 0.5) == .milliseconds(4500))
        #expect(schedule.length(forBreak: 10, draw: 1) == .seconds(48))
        #expect(schedule.nominal(forBreak: Int.max) == .seconds(60))
    }

    @Test func aSuccessfulProbeClosesItAndTheNextBreakStartsShortAgain() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 20)
        harness.clock.advance(by: .seconds(5))
        let probe = try harness.breaker.acquirePermit()
        probe.record(.failure)
        harness.clock.advance(by: .seconds(10))
        try harness.call(.success)
        #expect(harness.breaker.state == .closed)
        // The window starts empty after closing: 19 more failures do not open it.
        try harness.calls(.failure, times: 19)
        #expect(harness.breaker.state == .closed)
        try harness.call(.failure)
        #expect(harness.breakDurations == [.seconds(5), .seconds(10), .seconds(5)])
        #expect(harness.states == [.open, .halfOpen, .open, .halfOpen, .closed, .open])
    }

    @Test func halfOpenAdmitsExactlyTheConfiguredProbes() throws {
        var configuration = CircuitBreaker.Configuration.consecutiveFailures(1, successesToClose: 3, openDuration: .seconds(1))
        configuration.halfOpenProbes = 3
        let harness = BreakerHarness(configuration)
        try harness.call(.failure)
        harness.clock.advance(by: .seconds(1))
        let probes = try (0..<3).map { _ in try harness.breaker.acquirePermit() }
        #expect(probes.allSatisfy { $0.isProbe })
        // A failed probe would start a second 1 s break: that is the wait the refusal gives.
        #expect(harness.rejection() == CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: .hostA), state: .halfOpen, retryAfter: .seconds(1)))
        probes.forEach { $0.record(.success) }
        #expect(harness.breaker.state == .closed)
    }

    @Test func aRefusalBetweenProbesSaysAProbeIsInFlightAndGivesAnHonestWait() throws {
        let configuration = CircuitBreaker.Configuration(
            trip: .consecutiveFailures(1),
            breakDuration: .init(initial: .seconds(5), multiplier: 2, maximum: .seconds(60), jitter: 0)
        )
        let harness = BreakerHarness(configuration)
        try harness.call(.failure)
        harness.clock.advance(by: .seconds(5))
        let probe = try harness.breaker.acquirePermit()
        let refusal = try #require(harness.rejection())
        #expect(refusal.state == .halfOpen)
        // Should the probe fail, the next break is 10 s: a caller told to come back sooner
        // would only be turned away again, and "now" would invite a busy loop.
        #expect(refusal.retryAfter == .seconds(10))
        #expect(refusal.description == "circuit breaker for http://127.0.0.1:8081 is half-open with a probe in flight; try again in 10.0 seconds")
        let error = APIError<Never>.circuitOpen(refusal)
        #expect(error.failureReason == "Recent requests to the service failed; a test request is checking whether it has recovered.")
        #expect(error.recoverySuggestion == "Try again in 10 seconds.")

        // The probe fails at once: the break it starts ends exactly when the refused caller was told.
        probe.record(.failure)
        #expect(harness.rejection() == CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: .hostA), state: .open, retryAfter: .seconds(10)))
    }

    @Test func aCancelledProbeGivesItsPermitBack() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 20)
        harness.clock.advance(by: .seconds(5))
        let probe = try harness.breaker.acquirePermit()
        #expect(harness.rejection() != nil)
        probe.record(.cancelled)
        #expect(harness.breaker.state == .halfOpen)
        let next = try harness.breaker.acquirePermit()
        #expect(next.isProbe)
        next.record(.success)
        #expect(harness.breaker.state == .closed)
    }

    @Test func aProbeDroppedWithoutAnOutcomeGivesItsPermitBack() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 20)
        harness.clock.advance(by: .seconds(5))
        do {
            let probe = try harness.breaker.acquirePermit()
            #expect(probe.isProbe)
        }
        #expect(harness.rejection() == nil)
    }

    @Test func onlyTheFirstOutcomeOfAPermitCounts() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 20)
        harness.clock.advance(by: .seconds(5))
        let probe = try harness.breaker.acquirePermit()
        probe.record(.failure)
        probe.record(.success)
        #expect(harness.breaker.state == .open)
    }

    @Test func outcomesFromBeforeAStateChangeAreIgnored() throws {
        let harness = BreakerHarness(.consecutiveFailures(1, successesToClose: 1, openDuration: .seconds(1)))
        let early = try harness.breaker.acquirePermit()
        let late = try harness.breaker.acquirePermit()
        early.record(.failure)
        harness.clock.advance(by: .seconds(1))
        #expect(harness.breaker.state == .halfOpen)
        late.record(.success)
        #expect(harness.breaker.state == .halfOpen)
        let probe = try harness.breaker.acquirePermit()
        #expect(probe.isProbe)
    }

    @Test(arguments: [
        (RetryPolicy.AttemptFailure.status(500), CircuitBreaker.Outcome.failure),
        (.status(503, retryAfter: .seconds(1)), .failure),
        (.status(599), .failure),
        (.status(404), .success),
        (.status(429), .success),
        (.status(409), .success),
        (.status(302), .success),
        (.transport(.timedOut), .failure),
        (.transport(.connectionRefused, requestMayHaveBeenSent: false), .failure),
        (.transport(.tls), .failure),
        (.transport(.cancelled), .cancelled),
        (.decodingFailed, .success),
        (.invalidRequest, .cancelled),
    ])
    func attemptOutcomesCountAsTheServersHealth(attempt: RetryPolicy.AttemptFailure, expected: CircuitBreaker.Outcome) {
        #expect(CircuitBreaker.Outcome(attempt) == expected)
    }

    @Test func clientErrorsThrottlingAndCancellationNeverOpenIt() throws {
        let harness = BreakerHarness(.consecutiveFailures(1, successesToClose: 1, openDuration: .seconds(1)))
        for outcome: RetryPolicy.AttemptFailure in [.status(400), .status(404), .status(429), .transport(.cancelled)] {
            try harness.call(CircuitBreaker.Outcome(outcome))
        }
        #expect(harness.breaker.state == .closed)
        try harness.call(CircuitBreaker.Outcome(.status(502)))
        #expect(harness.breaker.state == .open)
    }

    @Test func resetClosesItAndForgetsOutstandingProbes() throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 20)
        harness.clock.advance(by: .seconds(5))
        let probe = try harness.breaker.acquirePermit()
        harness.breaker.reset()
        #expect(harness.breaker.state == .closed)
        probe.record(.failure)
        #expect(harness.breaker.state == .closed)
        #expect(harness.states == [.open, .halfOpen, .closed])
        harness.breaker.reset()
        #expect(harness.states.count == 3)
    }

    @Test func anObserverMayCallBackIntoTheBreaker() throws {
        let seen = Locked<[CircuitBreaker.State]>([])
        let slot = Locked<CircuitBreaker?>(nil)
        let breaker = CircuitBreaker(
            key: CircuitBreaker.Key(host: .hostA),
            configuration: .consecutiveFailures(1, successesToClose: 1, openDuration: .seconds(1)),
            clock: ManualClock(),
            jitter: .constant(0),
            onTransition: { _ in
                // Deadlocks if transitions were delivered while the breaker holds its lock.
                if let state = slot.value?.state {
                    seen.withLock { $0.append(state) }
                }
            }
        )
        slot.withLock { $0 = breaker }
        try breaker.acquirePermit().record(.failure)
        breaker.reset()
        #expect(seen.value == [.open, .closed])
    }

    @Test func fiftyConcurrentCallersAtHalfOpenGetExactlyOneProbe() async throws {
        let harness = BreakerHarness()
        try harness.calls(.failure, times: 20)
        harness.clock.advance(by: .seconds(5))
        let breaker = harness.breaker
        let permits = await withTaskGroup(of: CircuitBreaker.Permit?.self) { group in
            for _ in 0..<50 {
                group.addTask { try? breaker.acquirePermit() }
            }
            return await group.reduce(into: [CircuitBreaker.Permit]()) { permits, permit in
                if let permit { permits.append(permit) }
            }
        }
        #expect(permits.count == 1)
        #expect(permits.first?.isProbe == true)
    }
}

@Suite struct CircuitBreakerRegistryTests {
    @Test func oneBreakerPerHostAndPerEndpoint() {
        let registry = CircuitBreakerRegistry(clock: ManualClock())
        let hostA = registry.breaker(for: CircuitBreaker.Key(host: .hostA))
        #expect(registry.breaker(for: CircuitBreaker.Key(host: Resilience.Host(scheme: "http", host: "127.0.0.1", port: 8081))) === hostA)
        #expect(registry.breaker(for: CircuitBreaker.Key(host: .hostB)) !== hostA)
        let endpoint = registry.breaker(for: CircuitBreaker.Key(host: .hostA, endpoint: "listReports"))
        #expect(endpoint !== hostA)
        #expect(endpoint.key.description == "http://127.0.0.1:8081 listReports")
    }

    @Test func hostAFailuresDoNotOpenHostB() throws {
        let transitions = Locked<[CircuitBreaker.Transition]>([])
        let registry = CircuitBreakerRegistry(
            configuration: .consecutiveFailures(),
            clock: ManualClock(),
            onTransition: { transition in transitions.withLock { $0.append(transition) } }
        )
        let hostA = registry.breaker(for: CircuitBreaker.Key(host: .hostA))
        for _ in 0..<5 {
            try hostA.acquirePermit().record(.failure)
        }
        #expect(hostA.state == .open)
        #expect(registry.breaker(for: CircuitBreaker.Key(host: .hostB)).state == .closed)
        #expect(registry.breaker(for: CircuitBreaker.Key(host: .hostA, endpoint: "health")).state == .closed)
        #expect(transitions.value.map(\.key) == [CircuitBreaker.Key(host: .hostA)])
    }

    @Test func anEndpointCanBeConfiguredOnItsOwn() {
        let registry = CircuitBreakerRegistry(clock: ManualClock())
        let key = CircuitBreaker.Key(host: .hostA, endpoint: "upload")
        let breaker = registry.breaker(for: key, configuration: .consecutiveFailures(2))
        #expect(breaker.configuration == .consecutiveFailures(2))
        #expect(registry.breaker(for: key, configuration: .consecutiveFailures(2)) === breaker)
        // Kept per (key, configuration): asking with another configuration never hands out a
        // breaker that counts by different rules.
        let other = registry.breaker(for: key, configuration: .default)
        #expect(other !== breaker)
        #expect(other.configuration == .default)
        #expect(registry.breaker(for: CircuitBreaker.Key(host: .hostA)).configuration == .default)
    }

    @Test func resetAllClosesEveryBreaker() throws {
        let registry = CircuitBreakerRegistry(configuration: .consecutiveFailures(1), clock: ManualClock())
        let breakers = [CircuitBreaker.Key(host: .hostA), CircuitBreaker.Key(host: .hostB)].map { registry.breaker(for: $0) }
        for breaker in breakers {
            try breaker.acquirePermit().record(.failure)
        }
        #expect(breakers.allSatisfy { $0.state == .open })
        registry.resetAll()
        #expect(breakers.allSatisfy { $0.state == .closed })
    }
}
