import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import Testing

/// Circuit breakers as a client's callers meet them: through ``APIClient`` over the stub
/// transport, on a manual clock.
@Suite(.timeLimit(.minutes(10))) struct ClientCircuitBreakerTests {
    static let host = CircuitBreaker.Key(host: Resilience.Host(scheme: "https", host: "api.test"))

    /// A breaker that opens on the first failure, for tests about what happens next.
    static func touchy(breakDuration: Duration = .seconds(5), successesToClose: Int = 1) -> CircuitBreaker.Configuration {
        .consecutiveFailures(1, successesToClose: successesToClose, openDuration: breakDuration)
    }

    @Test func anOpenBreakerFailsFastWithoutTouchingTheTransport() async throws {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: .consecutiveFailures())
        harness.stub.on(.get, "/", .status(500))
        let client = harness.client()
        for _ in 0..<5 {
            #expect(CallEnd(await client.outcome(of: PlainProbe())) == .status(500))
        }
        #expect(harness.stub.receivedRequests.count == 5)

        for _ in 0..<10 {
            let result = await client.outcome(of: PlainProbe())
            guard case .failure(.circuitOpen(let open)) = result else {
                Issue.record("expected circuitOpen, got \(result)")
                return
            }
            #expect(open.key == Self.host)
            #expect(open.state == .open)
            #expect(open.retryAfter == .seconds(60))
        }
        #expect(harness.stub.receivedRequests.count == 5, "no request reached the transport while open")
        #expect(harness.transitions == [CircuitBreaker.Transition(key: Self.host, from: .closed, to: .open, breakDuration: .seconds(60))])
        #expect(harness.logs.allText.contains("circuit breaker for https://api.test:443 closed -> open for 60000 ms"))
        #expect(harness.events.events.contains { event in
            if case .attemptFinished(_, _, .circuitOpen, _) = event { return true }
            return false
        })
    }

    /// A call binds the breaker's transition observer only when a change would reach someone;
    /// a logger that writes `.info` is someone, and with nobody at all the breaker still opens.
    @Test(arguments: [Logger.Level.info, .notice])
    func aTransitionIsLoggedWithoutAnEventHookAndTheBreakerOpensUnheard(loggerLevel: Logger.Level) async {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: .consecutiveFailures())
        harness.stub.on(.get, "/", .status(500))
        var configuration = harness.configuration
        configuration.onEvent = nil
        configuration.logger = harness.logs.logger(level: loggerLevel)
        let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: harness.stub, configuration: configuration)
        for _ in 0..<5 {
            #expect(CallEnd(await client.outcome(of: PlainProbe())) == .status(500))
        }
        let result = await client.outcome(of: PlainProbe())
        guard case .failure(.circuitOpen) = result else {
            Issue.record("expected circuitOpen, got \(result)")
            return
        }
        #expect(harness.stub.receivedRequests.count == 5, "the breaker opened though nobody heard it")
        let logged = harness.logs.allText.contains("circuit breaker for https://api.test:443 closed -> open for 60000 ms")
        #expect(logged == (loggerLevel <= .info), "the transition is logged exactly when the logger writes .info")
    }

    @Test func theDefaultBreakerOpensAtHalfOfTwentyCallsInTheWindow() async {
        let harness = ClientHarness(policy: .never, breakerScope: .host)
        harness.stub.on(.get, "/ok", .status(200))
        harness.stub.on(.get, "/down", .status(503))
        let client = harness.client()
        for index in 0..<19 {
            _ = await client.outcome(of: PlainProbe(path: index.isMultiple(of: 2) ? "/down" : "/ok"))
        }
        #expect(harness.breaker().state == .closed, "19 calls are below the minimum")
        _ = await client.outcome(of: PlainProbe(path: "/ok"))
        #expect(harness.breaker().state == .open, "the 20th call makes 10 failures of 20")
        #expect(CallEnd(await client.outcome(of: PlainProbe(path: "/ok"))) == .circuitOpen)
        #expect(harness.stub.receivedRequests.count == 20)
    }

    @Test func fourHundredsAnd429sAreNotFailures() async {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: .consecutiveFailures(2))
        harness.stub.on(.get, "/", .status(429), .status(404), .status(429), .status(422))
        let client = harness.client()
        for _ in 0..<4 {
            _ = await client.outcome(of: PlainProbe())
        }
        #expect(harness.breaker().state == .closed)
        #expect(harness.stub.receivedRequests.count == 4)
    }

    @Test func retrySitsOutsideTheBreakerAndItsRefusalIsNotRetried() async {
        // Three attempts allowed, but the breaker opens after the second failure: the third
        // attempt asks the breaker, is refused, and the call ends there, with the 500 the
        // second attempt got.
        let harness = ClientHarness(jitter: 0, breakerScope: .host, breaker: .consecutiveFailures(2))
        harness.stub.on(.get, "/", .status(500))
        let result = await harness.client().outcome(of: PlainProbe())
        #expect(CallEnd(result) == .status(500))
        #expect(harness.stub.receivedRequests.count == 2)
        #expect(harness.stopReasons == [.circuitOpen])
        #expect(harness.budgetLeft() == 99.2, "the refused retry comes back; the one made stays spent")
        let refused = harness.events.events.compactMap { event -> Int? in
            if case .attemptFinished(_, let attempt, .circuitOpen, _) = event { return attempt }
            return nil
        }
        #expect(refused == [3], "the third attempt is the one the breaker turned away")
    }

    @Test func aReplayAfter401ThatTheBreakerRefusesEndsWithThe401() async {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: Self.touchy())
        harness.stub.on(.get, "/", .json(#"{"error":"expired"}"#, status: 401))
        let breaker = harness.breaker()
        var configuration = harness.configuration
        configuration.auth = .bearer(token: { "token" }, onUnauthorized: { _ in
            // Another call's failure opens the host's breaker while the token is refreshed.
            try? breaker.acquirePermit().record(.failure)
            return .replay
        })
        let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: harness.stub, configuration: configuration)
        let result = await client.outcome(of: PlainProbe())
        // The replay was refused, but the first attempt did reach the server: its 401 is the answer.
        guard case .failure(.undocumentedStatus(let response)) = result else {
            Issue.record("expected the server's 401, got \(result)")
            return
        }
        #expect(response.status.code == 401)
        #expect(response.text == #"{"error":"expired"}"#)
        #expect(harness.stub.receivedRequests.count == 1)
        #expect(breaker.state == .open)
    }

    @Test func fiftyConcurrentCallersAtHalfOpenSendExactlyOneProbe() async {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: Self.touchy())
        harness.stub.on(.get, "/fail", .status(500))
        // The probe's answer takes a second of manual time, so it stays in flight while the
        // other callers arrive.
        harness.stub.on(.get, "/probe", StubTransport.Reply.status(200).delayed(by: .seconds(1)))
        let client = harness.client()
        #expect(CallEnd(await client.outcome(of: PlainProbe(path: "/fail"))) == .status(500))
        harness.clock.advance(by: .seconds(5))

        let calls = (0..<50).map { _ in harness.start(PlainProbe(path: "/probe"), on: client) }
        // Every caller either ends or is asleep in the stub; wait until all have done one,
        // woken by each call that ends or each new sleeper rather than polling.
        while harness.endedCalls.value + harness.clock.sleeperDeadlines.count < 50 {
            let sleeping = harness.clock.sleeperDeadlines.count
            let ended = harness.endedCalls
            let clock = harness.clock
            await waitForEither({ await ended.wait(untilAtLeast: 50 - sleeping) }, { await clock.waitForSleepers(sleeping + 1) })
        }
        #expect(harness.clock.sleeperDeadlines.count == 1, "one probe in flight")
        #expect(harness.stub.requests(.get, "/probe").count == 1)
        var ends: [CallEnd] = []
        for call in calls where call.isDone {
            ends.append(CallEnd(await call.result))
        }
        #expect(ends == Array(repeating: .circuitOpen, count: 49))

        harness.clock.advance(by: .seconds(1))
        for call in calls {
            _ = await call.result
        }
        #expect(harness.stub.requests(.get, "/probe").count == 1)
        #expect(harness.breaker().state == .closed)
        #expect(harness.transitions.map(\.to) == [.open, .halfOpen, .closed])
    }

    @Test func aFailedProbeReopensForLongerAndASuccessfulOneCloses() async {
        // Breaks of 5 s doubling, with 20 % jitter drawn at 1: 4 s, then 8 s.
        let breaker = CircuitBreaker.Configuration(
            trip: .consecutiveFailures(1),
            breakDuration: .init(initial: .seconds(5), multiplier: 2, maximum: .seconds(60), jitter: 0.2)
        )
        let harness = ClientHarness(jitter: 1, policy: .never, breakerScope: .host, breaker: breaker)
        harness.stub.on(.get, "/", .status(500), .status(500), .status(200))
        let client = harness.client()

        #expect(CallEnd(await client.outcome(of: PlainProbe())) == .status(500))
        guard case .failure(.circuitOpen(let first)) = await client.outcome(of: PlainProbe()) else {
            Issue.record("expected the breaker open")
            return
        }
        #expect(first.retryAfter == .seconds(4))

        harness.clock.advance(by: .seconds(4))
        #expect(CallEnd(await client.outcome(of: PlainProbe())) == .status(500), "the probe fails")
        guard case .failure(.circuitOpen(let second)) = await client.outcome(of: PlainProbe()) else {
            Issue.record("expected the breaker open again")
            return
        }
        #expect(second.retryAfter == .seconds(8))

        harness.clock.advance(by: .seconds(8))
        #expect(CallEnd(await client.outcome(of: PlainProbe())) == .success, "the probe succeeds")
        #expect(CallEnd(await client.outcome(of: PlainProbe())) == .success, "and the breaker is closed")
        #expect(harness.stub.receivedRequests.count == 4)
        #expect(harness.transitions == [
            .init(key: Self.host, from: .closed, to: .open, breakDuration: .seconds(4)),
            .init(key: Self.host, from: .open, to: .halfOpen),
            .init(key: Self.host, from: .halfOpen, to: .open, breakDuration: .seconds(8)),
            .init(key: Self.host, from: .open, to: .halfOpen),
            .init(key: Self.host, from: .halfOpen, to: .closed),
        ])
    }

    @Test func hostAFailuresNeverOpenHostBsBreaker() async {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: Self.touchy())
        harness.stub.on(.get, "/", .respond { request in
            request.head.authority == "a.test" ? .status(503) : .status(200)
        })
        let hostA = harness.client(host: "a.test")
        let hostB = harness.client(host: "b.test")
        #expect(CallEnd(await hostA.outcome(of: PlainProbe())) == .status(503))
        #expect(CallEnd(await hostA.outcome(of: PlainProbe())) == .circuitOpen)
        #expect(CallEnd(await hostB.outcome(of: PlainProbe())) == .success)
        #expect(harness.breaker(host: "a.test").state == .open)
        #expect(harness.breaker(host: "b.test").state == .closed)
        #expect(harness.stub.receivedRequests.map { $0.head.authority } == ["a.test", "b.test"])
    }

    @Test func aCancelledProbeGivesItsPermitBack() async {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: Self.touchy())
        harness.stub.on(.get, "/fail", .status(500))
        harness.stub.on(.get, "/probe", StubTransport.Reply.status(200).delayed(by: .seconds(30)), .status(200))
        let client = harness.client()
        _ = await client.outcome(of: PlainProbe(path: "/fail"))
        harness.clock.advance(by: .seconds(5))

        let probe = harness.start(PlainProbe(path: "/probe"), on: client)
        #expect(await harness.isAsleep(probe))
        #expect(CallEnd(await client.outcome(of: PlainProbe(path: "/probe"))) == .circuitOpen, "the probe's slot is taken")

        probe.task.cancel()
        #expect(CallEnd(await probe.result) == .transport(.cancelled))
        #expect(harness.breaker().state == .halfOpen, "a cancelled probe says nothing about the server")

        #expect(CallEnd(await client.outcome(of: PlainProbe(path: "/probe"))) == .success, "the next caller gets the permit")
        #expect(harness.stub.requests(.get, "/probe").count == 2)
        #expect(harness.breaker().state == .closed)
    }

    @Test func anEndpointCanHaveABreakerOfItsOwnOrNone() async {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: Self.touchy())
        harness.stub.on(.get, "/reports", .status(500))
        harness.stub.on(.get, "/users", .status(500), .status(200))
        harness.stub.on(.get, "/health", .status(200))
        let client = harness.client()
        let report = PlainProbe(path: "/reports", resilience: EndpointResilience(circuitBreaker: .endpoint("reports")))

        // The report endpoint's failures open its own breaker only.
        #expect(CallEnd(await client.outcome(of: report)) == .status(500))
        #expect(CallEnd(await client.outcome(of: report)) == .circuitOpen)
        #expect(harness.breaker(endpoint: "reports").state == .open)
        #expect(harness.breaker().state == .closed)

        // The host's breaker opens on its own failures; an endpoint without a breaker still passes.
        #expect(CallEnd(await client.outcome(of: PlainProbe(path: "/users"))) == .status(500))
        #expect(CallEnd(await client.outcome(of: PlainProbe(path: "/users"))) == .circuitOpen)
        let health = PlainProbe(path: "/health", resilience: EndpointResilience(circuitBreaker: .off))
        #expect(CallEnd(await client.outcome(of: health)) == .success)
        #expect(harness.stub.receivedRequests.map(\.path) == ["/reports", "/users", "/health"])
    }

    @Test func anEndpointsOwnBreakerCanBeConfiguredApart() async {
        // The client's breaker needs 20 calls to open; this endpoint's opens on its second failure.
        let harness = ClientHarness(policy: .never, breakerScope: .host)
        harness.stub.on(.get, "/reports", .status(500))
        let client = harness.client()
        let report = PlainProbe(path: "/reports", resilience: EndpointResilience(
            circuitBreaker: .endpoint("reports"),
            circuitBreakerConfiguration: .consecutiveFailures(2)
        ))
        for _ in 0..<2 {
            #expect(CallEnd(await client.outcome(of: report)) == .status(500))
        }
        #expect(CallEnd(await client.outcome(of: report)) == .circuitOpen)
        // Breakers are kept per (key, configuration): the endpoint's is the one with its own
        // configuration, and it is the one that opened; the host's stayed closed.
        #expect(harness.breaker(endpoint: "reports", configuration: .consecutiveFailures(2)).state == .open)
        #expect(harness.breaker().state == .closed)
        #expect(harness.transitions.map(\.key.endpoint) == ["reports"])
    }

    @Test func breakersAreOffUnlessTheClientOptsIn() async {
        let harness = ClientHarness(policy: .never, breaker: Self.touchy())
        harness.stub.on(.get, "/", .status(500))
        let client = harness.client()
        for _ in 0..<5 {
            #expect(CallEnd(await client.outcome(of: PlainProbe())) == .status(500))
        }
        #expect(harness.stub.receivedRequests.count == 5)
        #expect(harness.transitions.isEmpty)
    }

    @Test func aManualResetClosesEveryBreakerAndIsReported() async {
        let harness = ClientHarness(policy: .never, breakerScope: .host, breaker: Self.touchy(breakDuration: .seconds(60)))
        harness.stub.on(.get, "/", .status(500), .status(200))
        let client = harness.client()
        _ = await client.outcome(of: PlainProbe())
        #expect(CallEnd(await client.outcome(of: PlainProbe())) == .circuitOpen)

        client.resetCircuitBreakers()
        #expect(CallEnd(await client.outcome(of: PlainProbe())) == .success)
        let resets = harness.events.events.compactMap { event -> CircuitBreaker.Transition? in
            if case .circuitBreakerChanged(let transition, request: nil) = event { return transition }
            return nil
        }
        #expect(resets == [.init(key: Self.host, from: .open, to: .closed)])
        #expect(harness.logs.allText.contains("circuit breaker for https://api.test:443 open -> closed"))
    }
}
