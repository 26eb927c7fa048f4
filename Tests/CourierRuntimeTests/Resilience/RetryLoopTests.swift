import CourierLocking
import CourierRuntime
import CourierTesting
import HTTPTypes
import Testing

// The limit turns a hang into a failure; these tests take milliseconds, but on a loaded 2-core
// machine one was starved past a minute.
@Suite(.timeLimit(.minutes(10))) struct RetryLoopTests {
    static let get = RetryTraits(method: .get)

    @Test func fiveHundredTwiceThenSuccessAtJitterOne() async throws {
        let clock = ManualClock()
        let budget = RetryBudget(clock: clock)
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .succeed])
        let loop = RetryLoop(budget: budget, clock: clock, jitter: .constant(1))
        let call = Task { await loop.run(Self.get, events: events, attempts: attempts) }

        await clock.waitForSleepers()
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .milliseconds(100))])
        #expect(budget.availableRetries == 99.2, "the floor of 100, the call's 0.2, one retry taken")
        clock.advance(by: .milliseconds(100))

        await clock.waitForSleepers()
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .milliseconds(300))])
        #expect(budget.availableRetries == 98.2)
        clock.advance(by: .milliseconds(200))

        #expect(await call.valueCancellingWithCaller == .success("ok #3"))
        #expect(budget.availableRetries == 98.2, "retries that were made stay spent, even when they succeed")
        #expect(attempts.attempts.map(\.number) == [1, 2, 3])
        #expect(events.value == [
            .retrying(attempt: 1, failure: .status(500), delay: .milliseconds(100)),
            .retrying(attempt: 2, failure: .status(500), delay: .milliseconds(200)),
        ])
    }

    @Test func fiveHundredTwiceThenSuccessAtJitterZero() async {
        let clock = ManualClock()
        let budget = RetryBudget(clock: clock)
        let budgetAtEachAttempt = Locked<[Double]>([])
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
                    budgetAtEachAttempt.withLock { $0.append(budget.availableRetries) }
                    return try await attempts(attempt)
                }
            ))
        } catch {
            result = .failure(error)
        }
        #expect(result == .success("ok #3"))
        #expect(budgetAtEachAttempt.value == [100.2, 99.2, 98.2])
        #expect(budget.availableRetries == 98.2)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
    }

    @Test func everyCallDepositsItsShareWhateverItsOutcome() async throws {
        let clock = ManualClock()
        let budget = RetryBudget(clock: clock)
        _ = try #require(budget.withdraw(forRetryAfter: .status(500)))
        let loop = RetryLoop(policy: .never, budget: budget, clock: clock)
        #expect(await loop.run(Self.get, attempts: ScriptedAttempts([.succeed])) == .success("ok #1"))
        #expect(budget.availableRetries == 99.2)
        #expect(await loop.run(Self.get, attempts: ScriptedAttempts([.fail(.status(503))])) == .failure(.status(503)))
        #expect(budget.availableRetries == 99.4)
    }

    @Test func exhaustedAttemptsSurfaceTheLastRealError() async {
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(503)), .fail(.transport(.connectionLost)), .fail(.status(502))])
        let loop = RetryLoop(budget: RetryBudget(), clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.status(502)))
        #expect(attempts.attempts.count == 3)
        #expect(events.value.last == .stopped(.attemptsExhausted, attempts: 3))
    }

    @Test func theBudgetRunningOutStopsPartWay() async {
        // Room for one retry and a half: a floor of 1 over 1 s, and half a retry per call.
        let clock = ManualClock()
        let budget = RetryBudget(configuration: .init(retryPercent: 50, minimumRetriesPerSecond: 1, window: .seconds(1)), clock: clock)
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(500)), .fail(.status(504)), .succeed])
        let loop = RetryLoop(budget: budget, clock: clock, jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.status(504)))
        #expect(attempts.attempts.count == 2)
        #expect(budget.availableRetries == 0.5)
        #expect(events.value.last == .stopped(.budgetExhausted, attempts: 2))
    }

    @Test func aRetryAfterATimeoutCostsTwo() async {
        // 1.5 retries available: enough for a retry after an error, not after a timeout.
        let clock = ManualClock()
        let budget = RetryBudget(configuration: .init(retryPercent: 50, minimumRetriesPerSecond: 1, window: .seconds(1)), clock: clock)
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.transport(.timedOut)), .succeed])
        let loop = RetryLoop(budget: budget, clock: clock, jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.transport(.timedOut)))
        #expect(events.value == [.stopped(.budgetExhausted, attempts: 1)])
        #expect(budget.availableRetries == 1.5)
    }

    @Test func callersOfOneHostShareABudgetAndOtherHostsKeepTheirs() async {
        // Two retries per host: a floor of 2 over 1 s, and no share of calls.
        let clock = ManualClock()
        let budgets = RetryBudgetRegistry(configuration: .init(retryPercent: 0, minimumRetriesPerSecond: 2, window: .seconds(1)), clock: clock)
        func loop(_ host: Resilience.Host) -> RetryLoop {
            RetryLoop(budget: budgets.budget(for: host), clock: clock, jitter: .constant(0))
        }
        let drain = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .fail(.status(500))])
        #expect(await loop(.hostA).run(Self.get, attempts: drain) == .failure(.status(500)))
        #expect(budgets.budget(for: .hostA).availableRetries == 0)

        let sameHost = ScriptedAttempts([.fail(.status(503)), .succeed])
        let events = Locked<[RetryLoop.Event]>([])
        #expect(await loop(.hostA).run(Self.get, events: events, attempts: sameHost) == .failure(.status(503)))
        #expect(events.value == [.stopped(.budgetExhausted, attempts: 1)])

        let otherHost = ScriptedAttempts([.fail(.status(503)), .succeed])
        #expect(await loop(.hostB).run(Self.get, attempts: otherHost) == .success("ok #2"))
        #expect(budgets.budget(for: .hostB).availableRetries == 1, "host B paid for its own retry")
    }

    @Test func aHundredCallersDuringAnOutageSpendTheBudgetNotTripleTheLoad() async {
        let clock = ManualClock()
        let budget = RetryBudget(clock: clock)
        let loop = RetryLoop(budget: budget, clock: clock, jitter: .constant(0))
        let attemptsMade = Locked(0)
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
        // 100 first attempts, plus at most the floor of 100 retries and 20 % of the 100 calls.
        // Calls that deposit after others withdrew can leave a little unspent, so the count
        // is bounded, not exact; but every call deposited before the budget ran dry is retried.
        #expect(budget.configuration.retryAllowance(forCalls: 100) == 120)
        #expect(attemptsMade.value <= 100 + 120)
        #expect(attemptsMade.value >= 100 + 100, "the floor alone pays for 100 retries")
        #expect(results.count == 100)
        #expect(results.allSatisfy { $0 == .failure(.status(503)) })
        #expect(budget.availableRetries < 1)
    }

    @Test func seededJitterReplaysTheSameDelaysWithinTheirCeilings() async {
        func delays(seed: UInt64) async -> [Duration] {
            let events = Locked<[RetryLoop.Event]>([])
            let policy = RetryPolicy(maxAttempts: 6)
            let loop = RetryLoop(policy: policy, clock: ManualClock(), jitter: .seeded(seed))
            let script = ScriptedAttempts(Array(repeating: .fail(.status(500)), count: 6))
            let clock = loop.clock as? ManualClock
            let call = Task { await loop.run(Self.get, events: events, attempts: script) }
            for _ in 0..<5 {
                await clock?.waitForSleepers()
                clock?.advance(by: .seconds(20))
            }
            _ = await call.valueCancellingWithCaller
            return events.value.compactMap { event in
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
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.transport(.timedOut)), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(RetryTraits(method: .post), events: events, attempts: attempts) == .failure(.transport(.timedOut)))
        #expect(attempts.attempts.count == 1)
        #expect(events.value == [.stopped(.notIdempotent, attempts: 1)])
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
        // Exactly the demand: a fractional one (a service's body field) is not rounded up.
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .milliseconds(1500))])
        clock.advance(by: .milliseconds(1500))
        #expect(await call.valueCancellingWithCaller == .success("ok #2"))
    }

    @Test func aRetryAfterBeyondTheDeadlineSurfacesTheError() async {
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(503, retryAfter: .seconds(30))), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        let result = await loop.run(Self.get, overallTimeout: .seconds(20), events: events, attempts: attempts)
        #expect(result == .failure(.status(503, retryAfter: .seconds(30))))
        #expect(events.value == [.stopped(.beyondDeadline, attempts: 1)])
    }

    @Test func aRetryAfterBeyondTheClampSurfacesTheError() async {
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(429, retryAfter: .seconds(3600))), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.status(429, retryAfter: .seconds(3600))))
        #expect(events.value == [.stopped(.retryAfterBeyondLimit(.seconds(3600)), attempts: 1)])
    }

    @Test func cancellingDuringBackoffReturnsAtOnceWithoutAnotherAttempt() async {
        let clock = ManualClock()
        let budget = RetryBudget(clock: clock)
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(503)), .succeed])
        let loop = RetryLoop(budget: budget, clock: clock, jitter: .constant(1))
        let call = Task { await loop.run(Self.get, events: events, attempts: attempts) }
        await clock.waitForSleepers()
        #expect(budget.availableRetries == 99.2)
        call.cancel()
        #expect(await call.valueCancellingWithCaller == .failure(.interrupted(.cancelled)))
        #expect(attempts.attempts.count == 1)
        #expect(clock.now == ManualClock.Instant(offset: .zero))
        #expect(clock.sleeperDeadlines.isEmpty)
        #expect(budget.availableRetries == 100.2, "the retry never made is refunded")
        #expect(events.value.last == .stopped(.cancelled, attempts: 1))
    }

    @Test func aCancelledTaskMakesNoAttemptAtAll() async {
        let attempts = ScriptedAttempts([.succeed])
        let loop = RetryLoop(clock: ManualClock())
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await loop.run(Self.get, attempts: attempts)
        }
        #expect(await call.valueCancellingWithCaller == .failure(.interrupted(.cancelled)))
        #expect(attempts.attempts.isEmpty)
    }

    @Test func aCancelledAttemptIsNotRetried() async {
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.transport(.cancelled)), .succeed])
        let loop = RetryLoop(clock: ManualClock(), jitter: .constant(0))
        #expect(await loop.run(Self.get, events: events, attempts: attempts) == .failure(.transport(.cancelled)))
        #expect(events.value == [.stopped(.cancelled, attempts: 1)])
    }

    @Test func aDeadlineShorterThanTheBackoffSkipsTheRetry() async {
        let clock = ManualClock()
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(503)), .succeed])
        let loop = RetryLoop(clock: clock, jitter: .constant(1))
        let result = await loop.run(Self.get, overallTimeout: .milliseconds(800), events: events, attempts: attempts)
        #expect(result == .failure(.status(503)))
        #expect(attempts.attempts.count == 1)
        #expect(events.value == [.stopped(.beyondDeadline, attempts: 1)])
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
        let events = Locked<[RetryLoop.Event]>([])
        let attempts = ScriptedAttempts([.fail(.status(500)), .succeed])
        let loop = RetryLoop(clock: clock, jitter: .constant(1))
        let call = Task { await loop.run(Self.get, overallTimeout: .seconds(1), events: events, attempts: attempts) }
        await clock.waitForSleepers()
        // The sleep overshoots, as a real one can on a busy machine.
        clock.advance(by: .seconds(2))
        #expect(await call.valueCancellingWithCaller == .failure(.status(500)))
        #expect(attempts.attempts.count == 1)
        #expect(events.value.last == .stopped(.beyondDeadline, attempts: 1))
    }

    @Test func aDeadlineThatHasAlreadyPassedMakesNoAttempt() async {
        let attempts = ScriptedAttempts([.succeed])
        let loop = RetryLoop(clock: ManualClock())
        #expect(await loop.run(Self.get, overallTimeout: .zero, attempts: attempts) == .failure(.interrupted(.deadlineExceeded)))
        #expect(attempts.attempts.isEmpty)
    }
}
