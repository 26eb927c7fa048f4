import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// One scripted call through a real ``APIClient``: what the stub answers, and everything the
/// client must do about it.
struct RetryScenario: Sendable, CustomTestStringConvertible {
    var name: String
    var method: HTTPRequest.Method = .get
    var sendsIdempotencyKey = false
    var endpoint: EndpointResilience = .inherited
    var perCall: EndpointResilience?
    var replies: [StubTransport.Reply]
    var jitter: Double = 1
    var deadline: Duration?
    var budget: RetryBudget.Configuration? = .default
    /// The backoff before each retry, in order.
    var delays: [Duration]
    /// The retries the host's budget allowed as each attempt started (after the call was
    /// recorded: 100 for the floor plus 0.2 per call); its count is the number of attempts.
    var budgetAtAttempts: [Double]
    var budgetAfter: Double?
    var end: CallEnd
    /// Why the call stopped retrying, for a call that fails.
    var stop: RetryPolicy.StopReason?

    var testDescription: String { name }
}

private let imfDate = "Sun, 06 Nov 1994 08:49:37 GMT"
private let imfDatePlus4 = "Sun, 06 Nov 1994 08:49:41 GMT"

@Suite(.timeLimit(.minutes(10))) struct ClientRetryScenarioTests {
    static let scenarios: [RetryScenario] = [
        RetryScenario(
            name: "500, 500, 200 at jitter 1: the full backoff ceilings",
            replies: [.status(500), .status(500), .status(200)],
            delays: [.milliseconds(100), .milliseconds(200)],
            budgetAtAttempts: [100.2, 99.2, 98.2], budgetAfter: 98.2, end: .success
        ),
        RetryScenario(
            name: "an endpoint's backoff base and cap replace the policy's transient backoff",
            endpoint: EndpointResilience(maxAttempts: 4, backoffBase: .milliseconds(400), backoffCap: .seconds(1)),
            replies: [.status(500), .status(500), .status(500), .status(200)],
            delays: [.milliseconds(400), .milliseconds(800), .seconds(1)],
            budgetAtAttempts: [100.2, 99.2, 98.2, 97.2], budgetAfter: 97.2, end: .success
        ),
        RetryScenario(
            name: "an endpoint's backoff base is the first delay after a 503 too",
            endpoint: EndpointResilience(backoffBase: .milliseconds(50)),
            replies: [.status(503), .status(503), .status(200)],
            delays: [.milliseconds(50), .milliseconds(100)],
            budgetAtAttempts: [100.2, 99.2, 98.2], budgetAfter: 98.2, end: .success
        ),
        RetryScenario(
            name: "an endpoint's backoff cap also caps the throttling backoff",
            endpoint: EndpointResilience(backoffCap: .milliseconds(300)),
            replies: [.status(503), .status(200)],
            delays: [.milliseconds(300)],
            budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "500, 500, 200 at jitter 0: no waiting at all",
            replies: [.status(500), .status(500), .status(200)], jitter: 0,
            delays: [.zero, .zero],
            budgetAtAttempts: [100.2, 99.2, 98.2], budgetAfter: 98.2, end: .success
        ),
        RetryScenario(
            name: "a first-try success adds a token to a full bucket, which stays full",
            replies: [.status(200)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .success
        ),
        RetryScenario(
            name: "attempts exhausted: the last real error surfaces",
            replies: [.status(503), .failure(.connectionLost), .status(502)], jitter: 0.5,
            delays: [.milliseconds(500), .milliseconds(100)],
            budgetAtAttempts: [100.2, 99.2, 98.2], budgetAfter: 98.2, end: .status(502), stop: .attemptsExhausted
        ),
        RetryScenario(
            name: "429 with Retry-After in seconds waits exactly that long",
            replies: [.status(429, headers: ["Retry-After": "3"]), .status(200)],
            delays: [.seconds(3)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "429 with an HTTP-date Retry-After waits until that date, measured from the response's Date",
            replies: [.status(429, headers: ["Retry-After": imfDatePlus4, "Date": imfDate]), .status(200)],
            delays: [.seconds(4)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "503 with a fractional-looking garbage Retry-After falls back to the throttling backoff",
            replies: [.status(503, headers: ["Retry-After": "1.5"]), .status(200)],
            delays: [.seconds(1)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "429 with a garbage Retry-After falls back to the throttling backoff",
            replies: [.status(429, headers: ["Retry-After": "soon"]), .status(200)],
            delays: [.seconds(1)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "429 with a negative Retry-After is garbage too",
            replies: [.status(429, headers: ["Retry-After": "-5"]), .status(200)], jitter: 0.25,
            delays: [.milliseconds(250)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "429 with a Retry-After beyond the 60 s clamp is not retried",
            replies: [.status(429, headers: ["Retry-After": "61"]), .status(200)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(429), stop: .retryAfterBeyondLimit(.seconds(61))
        ),
        RetryScenario(
            name: "429 with a Retry-After beyond the caller's deadline is not retried",
            replies: [.status(429, headers: ["Retry-After": "30"]), .status(200)], deadline: .seconds(10),
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(429), stop: .beyondDeadline
        ),
        RetryScenario(
            name: "a deadline shorter than the backoff: the last real error, no second attempt",
            replies: [.status(503), .status(200)], deadline: .milliseconds(900),
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(503), stop: .beyondDeadline
        ),
        RetryScenario(
            name: "a POST that times out without an Idempotency-Key is not retried",
            method: .post, replies: [.failure(.timedOut), .status(201)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .transport(.timedOut), stop: .notIdempotent
        ),
        RetryScenario(
            name: "a POST that times out with an Idempotency-Key is retried, at the timeout's price",
            method: .post, sendsIdempotencyKey: true, replies: [.failure(.timedOut), .status(201)],
            delays: [.milliseconds(100)], budgetAtAttempts: [100.2, 98.2], budgetAfter: 98.2, end: .success
        ),
        RetryScenario(
            name: "409 is retried for a POST with an Idempotency-Key",
            method: .post, sendsIdempotencyKey: true, replies: [.status(409), .status(201)],
            delays: [.milliseconds(100)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "422 is never retried, key or not",
            method: .post, sendsIdempotencyKey: true, replies: [.status(422), .status(201)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(422), stop: .notRetryable
        ),
        RetryScenario(
            name: "409 without an Idempotency-Key is not retried",
            method: .post, replies: [.status(409), .status(201)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(409), stop: .notRetryable
        ),
        RetryScenario(
            name: "a refused connection on a POST never reached the server, so it is retried",
            method: .post, replies: [.failure(.connectionRefused, requestMayHaveBeenSent: false), .status(201)],
            delays: [.milliseconds(100)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "a POST the caller opts in for is retried",
            method: .post, perCall: .safeToRepeat, replies: [.status(503), .status(201)],
            delays: [.seconds(1)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "a POST the endpoint declares safe to repeat is retried",
            method: .post, endpoint: .safeToRepeat, replies: [.failure(.connectionLost), .status(201)],
            delays: [.milliseconds(100)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .success
        ),
        RetryScenario(
            name: "a POST without key or opt-in gets no retry after a 503",
            method: .post, replies: [.status(503), .status(201)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(503), stop: .notIdempotent
        ),
        RetryScenario(
            name: "a per-call override withdraws the endpoint's opt-in",
            method: .post, endpoint: .safeToRepeat, perCall: EndpointResilience(isSafeToRepeat: false),
            replies: [.status(503), .status(201)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(503), stop: .notIdempotent
        ),
        RetryScenario(
            name: "an endpoint with retries off makes one attempt",
            endpoint: .noRetries, replies: [.status(503), .status(200)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(503), stop: .attemptsExhausted
        ),
        RetryScenario(
            name: "an endpoint with five attempts gets five",
            endpoint: EndpointResilience(maxAttempts: 5), replies: [.status(500), .status(500), .status(500), .status(500), .status(200)],
            delays: [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)],
            budgetAtAttempts: [100.2, 99.2, 98.2, 97.2, 96.2], budgetAfter: 96.2, end: .success
        ),
        RetryScenario(
            name: "an endpoint's own policy replaces the client's",
            endpoint: EndpointResilience(retryPolicy: RetryPolicy(maxAttempts: 2, retryableStatuses: [418])),
            replies: [.status(418), .status(418), .status(200)],
            delays: [.milliseconds(100)], budgetAtAttempts: [100.2, 99.2], budgetAfter: 99.2, end: .status(418), stop: .attemptsExhausted
        ),
        RetryScenario(
            name: "other 4xx statuses are not retried",
            replies: [.status(404), .status(200)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .status(404), stop: .notRetryable
        ),
        RetryScenario(
            name: "TLS failures are not retried",
            replies: [.failure(.tls), .status(200)],
            delays: [], budgetAtAttempts: [100.2], budgetAfter: 100.2, end: .transport(.tls), stop: .notRetryable
        ),
        RetryScenario(
            name: "without a budget, retries still follow the policy",
            replies: [.status(502), .status(200)], budget: nil,
            delays: [.milliseconds(100)], budgetAtAttempts: [], budgetAfter: nil, end: .success
        ),
    ]

    @Test(arguments: scenarios)
    func scenario(_ scenario: RetryScenario) async throws {
        let harness = ClientHarness(jitter: scenario.jitter, budget: scenario.budget, deadline: scenario.deadline)
        harness.stub.on(scenario.method, "/orders", replies: scenario.replies)
        let client = harness.client()
        var request = PlainProbe(method: scenario.method, path: "/orders", idempotencyKeyHeader: scenario.sendsIdempotencyKey ? .idempotencyKey : nil)
        request.resilience = scenario.endpoint
        request.successStatuses = [200, 201]
        let call = harness.start(request, on: client, resilience: scenario.perCall)

        let slept = await harness.drive(call, through: scenario.delays)
        // A call that goes to sleep again makes more retries than the scenario allows.
        if await harness.isAsleep(call) {
            Issue.record("the call is still backing off: \(harness.clock.sleeperDeadlines)")
            call.task.cancel()
        }
        let result = await call.result

        #expect(CallEnd(result) == scenario.end)
        #expect(slept == scenario.delays.filter { $0 > .zero })
        #expect(harness.retryDelays == scenario.delays)
        let attempts = harness.stub.receivedRequests
        if scenario.budget != nil {
            #expect(attempts.count == scenario.budgetAtAttempts.count)
            #expect(harness.budgetAtAttempts.value == scenario.budgetAtAttempts)
        } else {
            #expect(attempts.count == scenario.delays.count + 1)
        }
        #expect(harness.budgetLeft() == scenario.budgetAfter)
        #expect(harness.stopReasons == (scenario.stop.map { [$0] } ?? []))
        // The key is made once per logical call and goes out unchanged on every attempt.
        let keys = attempts.map { $0.header("Idempotency-Key") }
        if scenario.sendsIdempotencyKey {
            #expect(keys.first??.isEmpty == false)
            #expect(Set(keys).count == 1)
        } else {
            #expect(keys.allSatisfy { $0 == nil })
        }
        #expect(harness.clock.sleeperDeadlines.isEmpty, "nothing is left asleep")
    }

    @Test func aBodyThatDoesNotDecodeIsNotRetried() async {
        let harness = ClientHarness()
        harness.stub.on(.get, "/", .json("{"), .json(#"{"blob":"x"}"#))
        let result = await harness.client().outcome(of: Probe<Blob, Never>())
        #expect(CallEnd(result) == .decoding)
        #expect(harness.stub.receivedRequests.count == 1)
        #expect(harness.budgetLeft() == 100.2, "the call's deposit, and no retry taken")
    }

    @Test func theBudgetRunningOutStopsRetriesPartWay() async {
        // Room for one retry (a floor of 1 per second over 1 s, plus 50 % of one call), not two.
        let harness = ClientHarness(jitter: 0, budget: RetryBudget.Configuration(retryPercent: 50, minimumRetriesPerSecond: 1, window: .seconds(1)))
        harness.stub.on(.get, "/", .status(503))
        let result = await harness.client().outcome(of: PlainProbe())
        #expect(CallEnd(result) == .status(503))
        #expect(harness.stub.receivedRequests.count == 2)
        #expect(harness.budgetAtAttempts.value == [1.5, 0.5])
        #expect(harness.budgetLeft() == 0.5)
        #expect(harness.stopReasons == [.budgetExhausted])
        #expect(harness.logs.allText.contains("not retried: retry budget exhausted after 2 attempts"))
    }

    @Test func callersOfOneHostShareABudgetAndOtherHostsDoNot() async {
        // Room for two retries per host: a floor of 2 per second over 1 s, and no share of calls.
        let harness = ClientHarness(jitter: 0, budget: RetryBudget.Configuration(retryPercent: 0, minimumRetriesPerSecond: 2, window: .seconds(1)))
        harness.stub.on(.get, "/", .status(503))
        let hostA = harness.client(host: "a.test")
        let otherCallerOfA = harness.client(host: "a.test")
        let hostB = harness.client(host: "b.test")

        // Two retries drain host A's budget.
        #expect(CallEnd(await hostA.outcome(of: PlainProbe())) == .status(503))
        #expect(harness.budgetLeft(host: "a.test") == 0)
        #expect(harness.stub.receivedRequests.count == 3)

        // Another caller of host A fails fast after its first attempt.
        #expect(CallEnd(await otherCallerOfA.outcome(of: PlainProbe())) == .status(503))
        #expect(harness.stub.receivedRequests.count == 4)

        // Host B's budget is untouched and pays for its own retries.
        #expect(harness.budgetLeft(host: "b.test") == 2)
        #expect(CallEnd(await hostB.outcome(of: PlainProbe())) == .status(503))
        #expect(harness.stub.receivedRequests.count == 7)
        #expect(harness.budgetLeft(host: "b.test") == 0)
        #expect(harness.stopReasons == [.attemptsExhausted, .budgetExhausted, .attemptsExhausted])
    }

    @Test func aCancelDuringBackoffReturnsAtOnceAndNothingMoreIsSent() async {
        let harness = ClientHarness(jitter: 1)
        harness.stub.on(.get, "/", .status(503), .status(200))
        let client = harness.client()
        let call = harness.start(PlainProbe(), on: client)
        #expect(await harness.isAsleep(call))
        #expect(harness.clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(1))])
        call.task.cancel()
        // The clock never moves: the call returns because it was cancelled, not woken.
        let result = await call.result
        #expect(CallEnd(result) == .transport(.cancelled))
        #expect(harness.budgetLeft() == 100.2, "the withdrawn retry comes back when it is never made")
        harness.clock.advance(by: .seconds(60))
        #expect(harness.stub.receivedRequests.count == 1)
        #expect(harness.stopReasons == [.cancelled])
        #expect(harness.budgetLeft() == 100, "a window later only the floor is left: the call's share expired")
    }

    @Test func aCallCancelledBeforeItStartsSendsNothing() async {
        let harness = ClientHarness()
        harness.stub.on(.get, "/", .status(200))
        let client = harness.client()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await client.outcome(of: PlainProbe())
        }
        #expect(CallEnd(await call.value) == .transport(.cancelled))
        #expect(harness.stub.receivedRequests.isEmpty)
    }

    @Test func theDeadlineIsMeasuredOnTheInjectedClockAcrossRetries() async {
        // Each attempt takes 4 s of (manual) time; a 10 s deadline leaves room for two
        // attempts and cuts the third's timeout down to what is left.
        let harness = ClientHarness(jitter: 0, attemptTimeout: .seconds(5), deadline: .seconds(10))
        harness.stub.on(.get, "/", replies: [
            StubTransport.Reply.status(503).delayed(by: .seconds(4)),
            StubTransport.Reply.status(503).delayed(by: .seconds(4)),
            StubTransport.Reply.status(200).delayed(by: .seconds(4)),
        ])
        let client = harness.client()
        let call = harness.start(PlainProbe(), on: client)
        for _ in 0..<3 where await harness.isAsleep(call) {
            harness.clock.advance(by: .seconds(4))
        }
        let result = await call.result
        // The third attempt had 2 s left, so the stub's 4 s answer timed out.
        #expect(CallEnd(result) == .transport(.timedOut))
        #expect(harness.stub.receivedRequests.map(\.timeout) == [.seconds(5), .seconds(5), .seconds(2)])
    }

    @Test func retriesAreLoggedAndReportedAsEvents() async {
        let harness = ClientHarness(jitter: 1)
        harness.stub.on(.get, "/", .status(503), .status(204))
        let client = harness.client()
        let call = harness.start(PlainProbe(), on: client)
        #expect(await harness.drive(call, through: [.seconds(1)]) == [.seconds(1)])
        #expect(CallEnd(await call.result) == .success)
        let kinds = harness.events.events.map { String(describing: $0).prefix { $0 != "(" } }
        #expect(kinds == ["started", "attemptStarted", "attemptFinished", "retryScheduled", "attemptStarted", "attemptFinished", "finished"])
        guard case .retryScheduled(_, attempt: 1, failure: .status(.serviceUnavailable, retryAfter: nil, retryable: nil), delay: .seconds(1)) = harness.events.events[3] else {
            Issue.record("unexpected event \(harness.events.events[3])")
            return
        }
        let lines = harness.logs.records.map(\.message)
        #expect(lines.contains("GET / retrying after 503 in 1000 ms, attempt 2"))
        #expect(lines.filter { $0.contains("ms attempt") }.count == 2)
    }
}
