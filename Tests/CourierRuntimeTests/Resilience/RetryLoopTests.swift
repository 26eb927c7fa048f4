import CourierRuntime
import CourierTesting
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(1))) struct RetryLoopTests {
    static let get = RetryTraits(method: .get)

    @Test func fiveHundredTwiceThenSuccessAtJitterOne() async throws {
        let clock = ManualClock()
        let budget = RetryBudget()
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .succeed])
        let loop = RetryLoop(budget: budget, clock: clock, jitter: .constant(1))
        let call = Task { await loop.run(Self.get, events: events, attempts: attempts) }

        await clock.waitForSleepers()
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .milliseconds(100))])
        #expect(budget.availableTokens == 495)
        clock.advance(by: .milliseconds(100))

        await clock.waitForSleepers()
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .milliseconds(300))])
        #expect(budget.availableTokens == 490)
        clock.advance(by: .milliseconds(200))

        #expect(await call.value == .success("ok #3"))
        #expect(budget.availableTokens == 495)
        #expect(attempts.attempts.map(\.number) == [1, 2, 3])
        #expect(events.current == [
            .retrying(attempt: 1, failure: .status(500), delay: .milliseconds(100)),
            .retrying(attempt: 2, failure: .status(500), delay: .milliseconds(200)),
        ])
    }

    @Test func fiveHundredTwiceThenSuccessAtJitterZero() async {
        let clock = ManualClock()
        let budget = RetryBudget()
        let tokensAtEachAttempt = Guarded<[Int]>([])
        let attempts = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .succeed])
        let loop = RetryLoop(budget: budget, clock: clock, jitter: .constant(0))
        let result: Result<String, ScriptedFailure>
        do throws(ScriptedFailure) {
            result = .success(try await loop.run(
                Self.get,
                attemptTimeout: .seconds(10),
                classify: { (failure: ScriptedFailure) in failure.outcome },
                interrupted: { ScriptedFailure.interrupted($0) },
                attempt: { attempt throws(ScriptedFailure) in
                    tokensAtEachAttempt.withLock { $0.append(budget.availableTokens) }
                    return try await attempts(attempt)
                }
            ))
        } catch {
            result = .failure(error)
        }
        #expect(result == .success("ok #3"))
        #expect(tokensAtEachAttempt.current == [500, 495, 490])
        #expect(budget.availableTokens == 495)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }

    @Test func aFirstTrySuccessAddsAToken() async throws {
        let budget = RetryBudget()
        _ = try #require(budget.withdraw(forRetryAfter: .status(500)))
        let loop = RetryLoop(budget: budget, clock: ManualClock())
        #expect(await loop.run(Self.get, attempts: ScriptedAttempts([.succeed])) == .success("ok #1"))
        #expect(budget.availableTokens == 496)
    }

    @Test func exhaustedAttemptsSurfaceTheLastRealError() async {
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(503)), .fail(.transport(.connectionLost)), .fail(.status(502))])
        let loop = RetryLoop(budget: RetryBudget(), clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.status(502)))
        #expect(attempts.attempts.count == 3)
        #expect(events.current.last == .stopped(.attemptsExhausted, attempts: 3))
    }

    @Test func theBudgetRunningOutStopsPartWay() async {
        let budget = RetryBudget(configuration: .init(capacity: 7))
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(500)), .fail(.status(504)), .succeed])
        let loop = RetryLoop(budget: budget, clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.status(504)))
        #expect(attempts.attempts.count == 2)
        #expect(budget.availableTokens == 2)
        #expect(events.current.last == .stopped(.budgetExhausted, attempts: 2))
    }

    @Test func aTimeoutCostsTenTokens() async {
        let budget = RetryBudget(configuration: .init(capacity: 9))
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.transport(.timedOut)), .succeed])
        let loop = RetryLoop(budget: budget, clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.transport(.timedOut)))
        #expect(events.current == [.stopped(.budgetExhausted, attempts: 1)])
        #expect(budget.availableTokens == 9)
    }

    @Test func callersOfOneHostShareABudgetAndOtherHostsKeepTheirs() async {
        let budgets = RetryBudgetRegistry(configuration: .init(capacity: 10))
        func loop(_ host: HostKey) -> RetryLoop {
            RetryLoop(budget: budgets.budget(for: host), clock: ManualClock(), jitter: .constant(0))
        }
        let drain = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .fail(.status(500))])
        #expect(await loop(.hostA).run(Self.get, attempts: drain) == .failure(.status(500)))
        #expect(budgets.budget(for: .hostA).availableTokens == 0)

        let sameHost = ScriptedAttempts([.fail(.status(503)), .succeed])
        let events = Guarded<[RetryLoop.Event]>([])
        #expect(await loop(.hostA).run(Self.get, events: events, attempts: sameHost) == .failure(.status(503)))
        #expect(events.current == [.stopped(.budgetExhausted, attempts: 1)])

        let otherHost = ScriptedAttempts([.fail(.status(503)), .succeed])
        #expect(await loop(.hostB).run(Self.get, attempts: otherHost) == .success("ok #2"))
        #expect(budgets.budget(for: .hostB).availableTokens == 10)
    }

    @Test func aHundredCallersDuringAnOutageSpendTheBudgetNotTripleTheLoad() async {
        let budget = RetryBudget()
        let loop = RetryLoop(budget: budget, clock: ManualClock(), jitter: .constant(0))
        let attemptsMade = Guarded(0)
        let results = await withTaskGroup(of: Result<String, ScriptedFailure>.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    do throws(ScriptedFailure) {
                        return .success(try await loop.run(
                            Self.get,
                            attemptTimeout: .seconds(10),
                            classify: { (failure: ScriptedFailure) in failure.outcome },
                            interrupted: { ScriptedFailure.interrupted($0) },
                            attempt: { _ throws(ScriptedFailure) in
                                attemptsMade.withLock { $0 += 1 }
                                throw .status(503)
                            }
                        ))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: [Result<String, ScriptedFailure>]()) { $0.append($1) }
        }
        // 100 first attempts, plus the 100 retries that 500 tokens at 5 apiece pay for.
        #expect(attemptsMade.current == 200)
        #expect(results.count == 100)
        #expect(results.allSatisfy { $0 == .failure(.status(503)) })
        #expect(budget.availableTokens == 0)
    }

    @Test func seededJitterReplaysTheSameDelaysWithinTheirCeilings() async {
        func delays(seed: UInt64) async -> [Duration] {
            let events = Guarded<[RetryLoop.Event]>([])
            let policy = RetryPolicy(maxAttempts: 6)
            let loop = RetryLoop(policy: policy, clock: ManualClock(), jitter: .seeded(seed))
            let script = ScriptedAttempts(Array(repeating: .fail(.status(500)), count: 6))
            let clock = loop.clock as? ManualClock
            let call = Task { await loop.run(Self.get, events: events, attempts: script) }
            for _ in 0..<5 {
                await clock?.waitForSleepers()
                clock?.advance(by: .seconds(20))
            }
            _ = await call.value
            return events.current.compactMap { event in
                if case .retrying(_, _, let delay) = event { return delay }
                return nil
            }
        }
        let first = await delays(seed: 2024)
        #expect(first.count == 5)
        #expect(await delays(seed: 2024) == first)
        #expect(await delays(seed: 2025) != first)
        let ceilings: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600)]
        for (delay, ceiling) in zip(first, ceilings) {
            #expect(delay >= .zero && delay <= ceiling)
        }
    }

    @Test func aPostThatTimesOutIsNotRetriedWithoutAKey() async {
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.transport(.timedOut)), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(RetryTraits(method: .post), events: events, attempts: attempts) == .failure(.transport(.timedOut)))
        #expect(attempts.attempts.count == 1)
        #expect(events.current == [.stopped(.notIdempotent, attempts: 1)])
    }

    @Test func aPostThatTimesOutIsRetriedWithAKey() async {
        let attempts = ScriptedAttempts([.fail(.transport(.timedOut)), .succeed])
        let loop = RetryLoop(budget: RetryBudget(), clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(RetryTraits(method: .post, hasIdempotencyKey: true), attempts: attempts) == .success("ok #2"))
        #expect(attempts.attempts.count == 2)
    }

    @Test func conflictIsRetriedWithAKeyAndUnprocessableIsNot() async {
        let withKey = RetryTraits(method: .post, hasIdempotencyKey: true)
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        let conflict = ScriptedAttempts([.fail(.status(409)), .succeed])
        #expect(await loop.run(withKey, attempts: conflict) == .success("ok #2"))
        let unprocessable = ScriptedAttempts([.fail(.status(422)), .succeed])
        #expect(await loop.run(withKey, attempts: unprocessable) == .failure(.status(422)))
        #expect(unprocessable.attempts.count == 1)
    }

    @Test func aRefusedConnectionOnAPostIsRetried() async {
        let attempts = ScriptedAttempts([.fail(.transport(.connectionRefused, sent: false)), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(RetryTraits(method: .post), attempts: attempts) == .success("ok #2"))
    }

    @Test func retryAfterSetsTheDelay() async {
        let clock = ManualClock()
        let attempts = ScriptedAttempts([.fail(.status(429, retryAfter: .milliseconds(1500))), .succeed])
        let loop = RetryLoop(clock: clock, jitter: .constant(0))
        let call = Task { await loop.run(Self.get, attempts: attempts) }
        await clock.waitForSleepers()
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(2))])
        clock.advance(by: .seconds(2))
        #expect(await call.value == .success("ok #2"))
    }

    @Test func aRetryAfterBeyondTheDeadlineSurfacesTheError() async {
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(503, retryAfter: .seconds(30))), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        let result = await loop.run(Self.get, overallTimeout: .seconds(20), events: events, attempts: attempts)
        #expect(result == .failure(.status(503, retryAfter: .seconds(30))))
        #expect(events.current == [.stopped(.beyondDeadline, attempts: 1)])
    }

    @Test func aRetryAfterBeyondTheClampSurfacesTheError() async {
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(429, retryAfter: .seconds(3600))), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.status(429, retryAfter: .seconds(3600))))
        #expect(events.current == [.stopped(.retryAfterBeyondLimit(.seconds(3600)), attempts: 1)])
    }

    @Test func cancellingDuringBackoffReturnsAtOnceWithoutAnotherAttempt() async {
        let clock = ManualClock()
        let budget = RetryBudget()
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(503)), .succeed])
        let loop = RetryLoop(budget: budget, clock: clock, jitter: .constant(1))
        let call = Task { await loop.run(Self.get, events: events, attempts: attempts) }
        await clock.waitForSleepers()
        #expect(budget.availableTokens == 495)
        call.cancel()
        #expect(await call.value == .failure(.interrupted(.cancelled)))
        #expect(attempts.attempts.count == 1)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        #expect(clock.sleeperDeadlines.isEmpty)
        #expect(budget.availableTokens == 500)
        #expect(events.current.last == .stopped(.cancelled, attempts: 1))
    }

    @Test func aCancelledTaskMakesNoAttemptAtAll() async {
        let attempts = ScriptedAttempts([.succeed])
        let loop = RetryLoop(clock: ManualClock())
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await loop.run(Self.get, attempts: attempts)
        }
        #expect(await call.value == .failure(.interrupted(.cancelled)))
        #expect(attempts.attempts.isEmpty)
    }

    @Test func aCancelledAttemptIsNotRetried() async {
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.transport(.cancelled)), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.transport(.cancelled)))
        #expect(events.current == [.stopped(.cancelled, attempts: 1)])
    }

    @Test func aDeadlineShorterThanTheBackoffSkipsTheRetry() async {
        let clock = ManualClock()
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(503)), .succeed])
        let loop = RetryLoop(clock: clock, jitter: .constant(1))
        let result = await loop.run(Self.get, overallTimeout: .milliseconds(800), events: events, attempts: attempts)
        #expect(result == .failure(.status(503)))
        #expect(attempts.attempts.count == 1)
        #expect(events.current == [.stopped(.beyondDeadline, attempts: 1)])
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }

    @Test func eachAttemptGetsAtMostTheTimeLeft() async {
        let clock = ManualClock()
        let attempts = ScriptedAttempts([.failAfter(.seconds(8), .status(500)), .succeed], clock: clock)
        let loop = RetryLoop(clock: clock, jitter: .constant(0))
        let result = await loop.run(Self.get, attemptTimeout: .seconds(10), overallTimeout: .seconds(15), attempts: attempts)
        #expect(result == .success("ok #2"))
        #expect(attempts.attempts.map(\.timeout) == [.seconds(10), .seconds(7)])
    }

    @Test func aRetryThatWouldStartPastTheDeadlineReturnsTheLastRealError() async {
        let clock = ManualClock()
        let events = Guarded<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(500)), .succeed])
        let loop = RetryLoop(clock: clock, jitter: .constant(1))
        let call = Task { await loop.run(Self.get, overallTimeout: .seconds(1), events: events, attempts: attempts) }
        await clock.waitForSleepers()
        // The sleep overshoots, as a real one can on a busy machine.
        clock.advance(by: .seconds(2))
        #expect(await call.value == .failure(.status(500)))
        #expect(attempts.attempts.count == 1)
        #expect(events.current.last == .stopped(.beyondDeadline, attempts: 1))
    }

    @Test func aDeadlineThatHasAlreadyPassedMakesNoAttempt() async {
        let attempts = ScriptedAttempts([.succeed])
        let loop = RetryLoop(clock: ManualClock())
        #expect(await loop.run(Self.get, overallTimeout: .zero, attempts: attempts) == .failure(.interrupted(.deadlineExceeded)))
        #expect(attempts.attempts.isEmpty)
    }

    @Test func anOpenBreakerFailsFastWithoutAnyAttempt() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreaker(key: CircuitBreakerKey(host: .hostA), configuration: .consecutiveFailures(), clock: clock, jitter: .constant(0))
        let budget = RetryBudget()
        let loop = RetryLoop(budget: budget, breaker: breaker, clock: clock, jitter: .constant(0))

        let first = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .fail(.status(500))])
        #expect(await loop.run(Self.get, attempts: first) == .failure(.status(500)))
        let events = Guarded<[RetryLoop.Event]>([])
        let second = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .succeed])
        let opened = CircuitOpen(key: CircuitBreakerKey(host: .hostA), state: .open, retryAfter: .seconds(60))
        #expect(await loop.run(Self.get, events: events, attempts: second) == .failure(.interrupted(.circuitOpen(opened))))
        #expect(second.attempts.count == 2)
        #expect(events.current.last == .stopped(.circuitOpen, attempts: 2))
        // Two retries of the first call and one of the second were sent; the refused one was refunded.
        #expect(budget.availableTokens == 485)

        let third = ScriptedAttempts([.succeed])
        clock.advance(by: .seconds(10))
        let later = CircuitOpen(key: CircuitBreakerKey(host: .hostA), state: .open, retryAfter: .seconds(50))
        #expect(await loop.run(Self.get, attempts: third) == .failure(.interrupted(.circuitOpen(later))))
        #expect(third.attempts.isEmpty)
    }

    @Test func fiftyConcurrentCallersAtHalfOpenLetExactlyOneAttemptThrough() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreaker(key: CircuitBreakerKey(host: .hostA), configuration: .consecutiveFailures(1, successesToClose: 1), clock: clock, jitter: .constant(0))
        try breaker.acquirePermit().record(.failure)
        clock.advance(by: .seconds(60))
        let loop = RetryLoop(breaker: breaker, clock: clock, jitter: .constant(0))
        let attemptCalls = Guarded(0)
        let finished = Guarded(0)

        let results = await withTaskGroup(of: Result<String, ScriptedFailure>.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let result: Result<String, ScriptedFailure>
                    do throws(ScriptedFailure) {
                        result = .success(try await loop.run(
                            Self.get,
                            attemptTimeout: .seconds(10),
                            classify: { (failure: ScriptedFailure) in failure.outcome },
                            interrupted: { ScriptedFailure.interrupted($0) },
                            attempt: { attempt throws(ScriptedFailure) in
                                attemptCalls.withLock { $0 += 1 }
                                // The probe stays in flight until the test lets it finish.
                                do {
                                    try await clock.sleep(for: .seconds(1))
                                } catch {
                                    throw .transport(.cancelled)
                                }
                                return "probe"
                            }
                        ))
                    } catch {
                        result = .failure(error)
                    }
                    finished.withLock { $0 += 1 }
                    return result
                }
            }
            group.addTask {
                // Wait for the probe to be in flight and everyone else to be turned away.
                await clock.waitForSleepers()
                while finished.current < 49 {
                    await Task.yield()
                }
                clock.advance(by: .seconds(1))
                return .success("driver")
            }
            return await group.reduce(into: [Result<String, ScriptedFailure>]()) { $0.append($1) }
        }
        #expect(attemptCalls.current == 1)
        #expect(results.filter { $0 == .success("probe") }.count == 1)
        let turnedAway = CircuitOpen(key: CircuitBreakerKey(host: .hostA), state: .halfOpen, retryAfter: .zero)
        #expect(results.filter { $0 == .failure(.interrupted(.circuitOpen(turnedAway))) }.count == 49)
        #expect(breaker.state == .closed)
    }

    @Test func aFailingProbeReopensForLongerAndASucceedingProbeCloses() async throws {
        let clock = ManualClock()
        let transitions = Guarded<[CircuitBreaker.Transition]>([])
        let configuration = CircuitBreaker.Configuration(trip: .consecutiveFailures(3))
        let breaker = CircuitBreaker(
            key: CircuitBreakerKey(host: .hostA), configuration: configuration, clock: clock, jitter: .constant(0),
            onTransition: { transition in transitions.withLock { $0.append(transition) } }
        )
        let loop = RetryLoop(breaker: breaker, clock: clock, jitter: .constant(0))

        let failing = ScriptedAttempts([.fail(.status(500)), .fail(.status(502)), .fail(.status(503))])
        #expect(await loop.run(Self.get, attempts: failing) == .failure(.status(503)))
        #expect(breaker.state == .open)

        clock.advance(by: .seconds(5))
        let failedProbe = ScriptedAttempts([.fail(.transport(.connectionRefused)), .succeed])
        let reopened = CircuitOpen(key: CircuitBreakerKey(host: .hostA), state: .open, retryAfter: .seconds(10))
        #expect(await loop.run(Self.get, attempts: failedProbe) == .failure(.interrupted(.circuitOpen(reopened))))
        #expect(failedProbe.attempts.map(\.isProbe) == [true])

        clock.advance(by: .seconds(10))
        let goodProbe = ScriptedAttempts([.succeed])
        #expect(await loop.run(Self.get, attempts: goodProbe) == .success("ok #1"))
        #expect(breaker.state == .closed)
        #expect(transitions.current.map(\.to) == [.open, .halfOpen, .open, .halfOpen, .closed])
        #expect(transitions.current.compactMap(\.breakDuration) == [.seconds(5), .seconds(10)])
    }

    @Test func hostAFailuresDoNotOpenHostBsBreaker() async {
        let clock = ManualClock()
        let breakers = CircuitBreakerRegistry(configuration: .consecutiveFailures(), clock: clock, jitter: .constant(0))
        func loop(_ host: HostKey) -> RetryLoop {
            RetryLoop(policy: .never, breaker: breakers.breaker(for: CircuitBreakerKey(host: host)), clock: clock)
        }
        for _ in 0..<5 {
            _ = await loop(.hostA).run(Self.get, attempts: ScriptedAttempts([.fail(.status(500))]))
        }
        let refusedOnA = ScriptedAttempts([.succeed])
        let resultOnA = await loop(.hostA).run(Self.get, attempts: refusedOnA)
        #expect(refusedOnA.attempts.isEmpty)
        #expect(resultOnA != .success("ok #1"))
        let servedOnB = ScriptedAttempts([.succeed])
        #expect(await loop(.hostB).run(Self.get, attempts: servedOnB) == .success("ok #1"))
    }

    @Test func aCancelledProbeReleasesItsPermit() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreaker(key: CircuitBreakerKey(host: .hostA), configuration: .consecutiveFailures(1, successesToClose: 1), clock: clock, jitter: .constant(0))
        try breaker.acquirePermit().record(.failure)
        clock.advance(by: .seconds(60))
        let loop = RetryLoop(breaker: breaker, clock: clock, jitter: .constant(0))
        let probeStarted = Guarded(false)
        let probe = Task {
            await loop.run(
                Self.get,
                attemptTimeout: .seconds(10),
                overallTimeout: nil,
                events: nil,
                attempts: ScriptedAttempts([]),
                hang: { probeStarted.withLock { $0 = true } }
            )
        }
        await clock.waitForSleepers()
        #expect(probeStarted.current)
        #expect(breaker.state == .halfOpen)
        let blocked = ScriptedAttempts([.succeed])
        #expect(await loop.run(Self.get, attempts: blocked) != .success("ok #1"))
        #expect(blocked.attempts.isEmpty)

        probe.cancel()
        #expect(await probe.value == .failure(.transport(.cancelled)))
        let next = ScriptedAttempts([.succeed])
        #expect(await loop.run(Self.get, attempts: next) == .success("ok #1"))
        #expect(next.attempts.map(\.isProbe) == [true])
        #expect(breaker.state == .closed)
    }
}

extension RetryLoop {
    /// Runs the loop with an attempt that hangs on the clock until its task is cancelled,
    /// then fails as a cancelled transport would.
    fileprivate func run(
        _ request: RetryTraits,
        attemptTimeout: Duration,
        overallTimeout: Duration?,
        events: Guarded<[Event]>?,
        attempts: ScriptedAttempts,
        hang started: @escaping @Sendable () -> Void
    ) async -> Result<String, ScriptedFailure> {
        guard let clock = clock as? ManualClock else { return .failure(.decoding) }
        do throws(ScriptedFailure) {
            return .success(try await run(
                request,
                attemptTimeout: attemptTimeout,
                overallTimeout: overallTimeout,
                classify: { (failure: ScriptedFailure) in failure.outcome },
                interrupted: { ScriptedFailure.interrupted($0) },
                attempt: { _ throws(ScriptedFailure) in
                    started()
                    do {
                        try await clock.sleep(for: .seconds(3600))
                    } catch {
                        throw .transport(.cancelled)
                    }
                    return "woke"
                }
            ))
        } catch {
            return .failure(error)
        }
    }
}

/// The loop over an attempt function that returns failures as values, as the client's
/// executor does: a response of any status, or a transport error.
@Suite(.timeLimit(.minutes(1))) struct RetryLoopOutcomeTests {
    enum Outcome: Hashable {
        case response(Int, retryAfter: Duration? = nil)
        case transport(TransportError.Kind)
        case interrupted(RetryLoop.Interruption)
    }

    static func assess(_ outcome: Outcome) -> AttemptFailure? {
        switch outcome {
        case .response(let code, _) where (200..<300).contains(code): nil
        case .response(let code, let retryAfter): .status(HTTPResponse.Status(code: code), retryAfter: retryAfter)
        case .transport(let kind): .transport(kind)
        case .interrupted: .invalidRequest
        }
    }

    func run(_ loop: RetryLoop, _ script: [Outcome], method: HTTPRequest.Method = .get) async -> (outcome: Outcome, attempts: Int, calls: Int) {
        let remaining = Guarded(script)
        let (outcome, attempts) = await loop.run(
            RetryTraits(method: method),
            attemptTimeout: .seconds(5),
            assess: Self.assess,
            interrupted: { Outcome.interrupted($0) },
            attempt: { _ in remaining.withLock { $0.removeFirst() } }
        )
        return (outcome, attempts, script.count - remaining.current.count)
    }

    @Test func aThrottledResponseIsRetriedAfterItsRetryAfterAndTheSuccessReturned() async {
        let clock = ManualClock()
        let loop = RetryLoop(budget: RetryBudget(), clock: clock, jitter: .constant(1))
        let call = Task { await run(loop, [.response(429, retryAfter: .seconds(3)), .response(200)]) }
        await clock.waitForSleepers()
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(3))])
        clock.advance(by: .seconds(3))
        let result = await call.value
        #expect(result.outcome == .response(200))
        #expect(result.attempts == 2)
        #expect(result.calls == 2)
    }

    @Test func theLastResponseIsReturnedWhenAttemptsRunOut() async {
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        let result = await run(loop, [.response(500), .transport(.connectionLost), .response(503)])
        #expect(result.outcome == .response(503))
        #expect(result.attempts == 3)
    }

    @Test func aNonRetryableResponseIsReturnedAtOnce() async {
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        let result = await run(loop, [.response(404), .response(200)])
        #expect(result.outcome == .response(404))
        #expect(result.attempts == 1)
    }

    @Test func aRefusalByTheBreakerIsReportedWithNoAttempt() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreaker(key: CircuitBreakerKey(host: .hostA), configuration: .consecutiveFailures(1), clock: clock, jitter: .constant(0))
        try breaker.acquirePermit().record(.failure)
        let loop = RetryLoop(breaker: breaker, clock: clock)
        let result = await run(loop, [.response(200)])
        let open = CircuitOpen(key: CircuitBreakerKey(host: .hostA), state: .open, retryAfter: .seconds(60))
        #expect(result.outcome == .interrupted(.circuitOpen(open)))
        #expect(result.attempts == 0)
        #expect(result.calls == 0)
    }
}
