import CourierLocking
import CourierRuntime
import CourierTesting
import HTTPTypes
import Testing

/// The retry loop with a circuit breaker: fail fast while open, one probe at half-open, hosts apart.
@Suite(.timeLimit(.minutes(10))) struct RetryLoopBreakerTests {
    static let get = RetryTraits(method: .get)

    @Test func anOpenBreakerFailsFastWithoutAnyAttempt() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreaker(key: CircuitBreaker.Key(host: .hostA), configuration: .consecutiveFailures(), clock: clock, jitter: .constant(0))
        let budget = RetryBudget(clock: clock)
        let loop = RetryLoop(budget: budget, breaker: breaker, clock: clock, jitter: .constant(0))

        let first = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .fail(.status(500))])
        #expect(await loop.run(Self.get, attempts: first) == .failure(.status(500)))
        let events = Locked<[RetryLoop.Event]>([])
        let second = ScriptedAttempts([.fail(.status(500)), .fail(.status(500)), .succeed])
        // Its third attempt is refused: the call ends with the 500 its second attempt got.
        #expect(await loop.run(Self.get, events: events, attempts: second) == .failure(.status(500)))
        #expect(second.attempts.count == 2)
        #expect(events.value.last == .stopped(.circuitOpen, attempts: 2))
        // Two calls deposited 0.2 each; two retries of the first call and one of the second
        // were sent; the refused one was refunded.
        #expect(budget.availableRetries == 97.4)

        let third = ScriptedAttempts([.succeed])
        clock.advance(by: .seconds(10))
        let later = CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: .hostA), state: .open, retryAfter: .seconds(50))
        #expect(await loop.run(Self.get, attempts: third) == .failure(.interrupted(.circuitOpen(later))))
        #expect(third.attempts.isEmpty)
    }

    @Test func fiftyConcurrentCallersAtHalfOpenLetExactlyOneAttemptThrough() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreaker(key: CircuitBreaker.Key(host: .hostA), configuration: .consecutiveFailures(1, successesToClose: 1), clock: clock, jitter: .constant(0))
        try breaker.acquirePermit().record(.failure)
        clock.advance(by: .seconds(60))
        let loop = RetryLoop(breaker: breaker, clock: clock, jitter: .constant(0))
        let attemptCalls = Locked(0)
        let finished = WaitableCount()

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
                    finished.increment()
                    return result
                }
            }
            group.addTask {
                // Wait for the probe to be in flight and everyone else to be turned away.
                await clock.waitForSleepers()
                await finished.wait(untilAtLeast: 49)
                clock.advance(by: .seconds(1))
                return .success("driver")
            }
            return await group.reduce(into: [Result<String, ScriptedFailure>]()) { $0.append($1) }
        }
        #expect(attemptCalls.value == 1)
        #expect(results.filter { $0 == .success("probe") }.count == 1)
        // Told to come back after the 60 s break a failed probe would start.
        let turnedAway = CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: .hostA), state: .halfOpen, retryAfter: .seconds(60))
        #expect(results.filter { $0 == .failure(.interrupted(.circuitOpen(turnedAway))) }.count == 49)
        #expect(breaker.state == .closed)
    }

    @Test func aFailingProbeReopensForLongerAndASucceedingProbeCloses() async throws {
        let clock = ManualClock()
        let transitions = Locked<[CircuitBreaker.Transition]>([])
        let configuration = CircuitBreaker.Configuration(trip: .consecutiveFailures(3))
        let breaker = CircuitBreaker(
            key: CircuitBreaker.Key(host: .hostA), configuration: configuration, clock: clock, jitter: .constant(0),
            onTransition: { transition in transitions.withLock { $0.append(transition) } }
        )
        let loop = RetryLoop(breaker: breaker, clock: clock, jitter: .constant(0))

        let failing = ScriptedAttempts([.fail(.status(500)), .fail(.status(502)), .fail(.status(503))])
        #expect(await loop.run(Self.get, attempts: failing) == .failure(.status(503)))
        #expect(breaker.state == .open)

        clock.advance(by: .seconds(5))
        let failedProbe = ScriptedAttempts([.fail(.transport(.connectionRefused)), .succeed])
        // The failed probe reopens the breaker and its retry is refused: the call ends with the
        // probe's own failure, and the next call is turned away for the longer break.
        #expect(await loop.run(Self.get, attempts: failedProbe) == .failure(.transport(.connectionRefused)))
        #expect(failedProbe.attempts.map(\.isProbe) == [true])
        let reopened = CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: .hostA), state: .open, retryAfter: .seconds(10))
        let turnedAway = ScriptedAttempts([.succeed])
        #expect(await loop.run(Self.get, attempts: turnedAway) == .failure(.interrupted(.circuitOpen(reopened))))
        #expect(turnedAway.attempts.isEmpty)

        clock.advance(by: .seconds(10))
        let goodProbe = ScriptedAttempts([.succeed])
        #expect(await loop.run(Self.get, attempts: goodProbe) == .success("ok #1"))
        #expect(breaker.state == .closed)
        #expect(transitions.value.map(\.to) == [.open, .halfOpen, .open, .halfOpen, .closed])
        #expect(transitions.value.compactMap(\.breakDuration) == [.seconds(5), .seconds(10)])
    }

    @Test func hostAFailuresDoNotOpenHostBsBreaker() async {
        let clock = ManualClock()
        let breakers = CircuitBreakerRegistry(configuration: .consecutiveFailures(), clock: clock, jitter: .constant(0))
        func loop(_ host: Resilience.Host) -> RetryLoop {
            RetryLoop(policy: .never, breaker: breakers.breaker(for: CircuitBreaker.Key(host: host)), clock: clock)
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
        let breaker = CircuitBreaker(key: CircuitBreaker.Key(host: .hostA), configuration: .consecutiveFailures(1, successesToClose: 1), clock: clock, jitter: .constant(0))
        try breaker.acquirePermit().record(.failure)
        clock.advance(by: .seconds(60))
        let loop = RetryLoop(breaker: breaker, clock: clock, jitter: .constant(0))
        let probeStarted = Locked(false)
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
        #expect(probeStarted.value)
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
        events: Locked<[Event]>?,
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
