import CourierLocking
import CourierRuntime
import CourierTesting
import HTTPTypes
import Testing

/// The loop over an attempt function that returns failures as values, as the client's
/// executor does: a response of any status, or a transport error.
@Suite(.timeLimit(.minutes(10))) struct RetryLoopOutcomeTests {
    enum Outcome: Hashable {
        case response(Int, retryAfter: Duration? = nil)
        case transport(TransportError.Kind)
        case interrupted(RetryLoop.Interruption)
    }

    static func assess(_ outcome: Outcome) -> RetryPolicy.AttemptFailure? {
        switch outcome {
        case .response(let code, _) where (200..<300).contains(code): nil
        case .response(let code, let retryAfter): .status(HTTPResponse.Status(code: code), retryAfter: retryAfter)
        case .transport(let kind): .transport(kind)
        case .interrupted: .invalidRequest
        }
    }

    func run(_ loop: RetryLoop, _ script: [Outcome], method: HTTPRequest.Method = .get, events: Locked<[RetryLoop.Event]>? = nil) async -> (outcome: Outcome, attempts: Int, calls: Int) {
        let remaining = Locked(script)
        let (outcome, attempts) = await loop.run(
            RetryTraits(method: method),
            attemptTimeout: .seconds(5),
            assess: Self.assess,
            interrupted: { Outcome.interrupted($0) },
            onEvent: { event in events?.withLock { $0.append(event) } },
            attempt: { _ in remaining.withLock { $0.removeFirst() } }
        )
        return (outcome, attempts, script.count - remaining.value.count)
    }

    @Test func aThrottledResponseIsRetriedAfterItsRetryAfterAndTheSuccessReturned() async {
        let clock = ManualClock()
        let loop = RetryLoop(budget: RetryBudget(), clock: clock, jitter: .constant(1))
        let call = Task { await run(loop, [.response(429, retryAfter: .seconds(3)), .response(200)]) }
        await clock.waitForSleepers()
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(3))])
        clock.advance(by: .seconds(3))
        let result = await call.valueCancellingWithCaller
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
        let breaker = CircuitBreaker(key: CircuitBreaker.Key(host: .hostA), configuration: .consecutiveFailures(1), clock: clock, jitter: .constant(0))
        try breaker.acquirePermit().record(.failure)
        let loop = RetryLoop(breaker: breaker, clock: clock)
        let result = await run(loop, [.response(200)])
        let open = CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: .hostA), state: .open, retryAfter: .seconds(60))
        #expect(result.outcome == .interrupted(.circuitOpen(open)))
        #expect(result.attempts == 0)
        #expect(result.calls == 0)
    }

    @Test func aRetryRefusedByTheBreakerAfterARealResponseReturnsThatResponse() async {
        let clock = ManualClock()
        // The first 503 trips the breaker, so the retry the policy wants is refused.
        let breaker = CircuitBreaker(key: CircuitBreaker.Key(host: .hostA), configuration: .consecutiveFailures(1), clock: clock, jitter: .constant(0))
        let loop = RetryLoop(breaker: breaker, clock: clock, jitter: .constant(0))
        let events = Locked<[RetryLoop.Event]>([])
        let result = await run(loop, [.response(503), .response(200)], events: events)
        #expect(result.outcome == .response(503))
        #expect(result.attempts == 1)
        #expect(result.calls == 1)
        #expect(breaker.state == .open)
        // The refusal is still what ended the call, and the stream says so.
        #expect(events.value.last == .stopped(.circuitOpen, attempts: 1))
    }

    @Test func aRetryRefusedAfterAFailedProbeReturnsTheProbesOwnFailure() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreaker(key: CircuitBreaker.Key(host: .hostA), configuration: .consecutiveFailures(1, successesToClose: 1), clock: clock, jitter: .constant(0))
        try breaker.acquirePermit().record(.failure)
        clock.advance(by: .seconds(60))
        let loop = RetryLoop(breaker: breaker, clock: clock, jitter: .constant(0))
        let events = Locked<[RetryLoop.Event]>([])
        let result = await run(loop, [.transport(.connectionLost), .response(200)], events: events)
        #expect(result.outcome == .transport(.connectionLost))
        #expect(result.attempts == 1)
        #expect(result.calls == 1)
        #expect(breaker.state == .open)
        #expect(events.value.last == .stopped(.circuitOpen, attempts: 1))
    }
}
