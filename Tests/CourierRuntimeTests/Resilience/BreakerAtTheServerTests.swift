import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// An open breaker against the real loopback server through both real transports: a caller
/// whose request reached the server gets the server's answer, and only a caller whose request
/// never left gets ``APIError/circuitOpen(_:)``. Each caller asks for its own path, so the
/// server's per-path receipts say which callers reached it.
@Suite(.timeLimit(.minutes(10))) struct BreakerAtTheServerTests {
    static let outage = TestServer.Reply(
        status: 503,
        headers: [("Content-Type", "application/json"), ("Retry-After", "1")],
        body: Data(#"{"code":"down","message":"maintenance"}"#.utf8)
    )

    enum Retries: String, CaseIterable, CustomTestStringConvertible {
        case off
        case on

        var policy: RetryPolicy {
            switch self {
            case .off: .never
            case .on: FaultInjectionTests.quickPolicy
            }
        }

        var testDescription: String { "retries \(rawValue)" }
    }

    static func client(for server: TestServer, _ kind: TransportKind, retries: Retries, threshold: Int, events: EventRecorder) -> APIClient {
        CourierRuntimeTests.client(for: server, kind) {
            $0.onEvent = events.hook
            // 20 callers queue for URLSession's few connections; on a starved machine a caller
            // that reached the server once waited more than the helper's 5 s for its answer.
            // These tests are about which callers get the server's answer, not about time.
            $0.timeouts.attempt = .seconds(30)
            $0.resilience = Resilience(
                retryPolicy: retries.policy,
                retryBudget: nil,
                circuitBreaker: .consecutiveFailures(threshold, successesToClose: 1, openDuration: .seconds(60)),
                circuitBreakerScope: .host,
                // A breaker of the test's own: a process-wide one, kept per host, could meet
                // another test's on a reused loopback port.
                sharing: .isolated
            )
        }
    }

    /// Whether a call ended knowing that nothing of it was sent: refused by the open breaker, or,
    /// on a loaded machine, timed out while it waited for one of URLSession's connections to the
    /// host (requestMayHaveBeenSent false), behind the callers that did reach the server.
    static func provablyUnsent<Failure>(_ error: APIError<Failure>) -> Bool {
        switch error {
        case .circuitOpen: true
        case .transport(let transport): !transport.requestMayHaveBeenSent
        default: false
        }
    }

    /// Checks one caller's result against whether its request reached the server.
    static func check<Failure>(_ result: Result<some Any, APIError<Failure>>, reached: Bool, caller: Int) {
        guard case .failure(let error) = result else {
            Issue.record("caller \(caller): expected a failure, got \(result)")
            return
        }
        guard reached else {
            if !Self.provablyUnsent(error) {
                Issue.record("caller \(caller) never reached the server but got \(error.debugDescription)")
            }
            return
        }
        guard let response = error.response else {
            Issue.record("caller \(caller) reached the server but got \(error.debugDescription)")
            return
        }
        #expect(response.status.code == 503, "caller \(caller)")
        #expect(response.text == #"{"code":"down","message":"maintenance"}"#, "caller \(caller)")
        #expect(error.rateLimit?.retryAfter == .seconds(1), "caller \(caller)")
    }

    @Test(arguments: TransportKind.allCases, Retries.allCases)
    func concurrentCallersThatReachedTheServerGetItsAnswer(kind: TransportKind, retries: Retries) async throws {
        try await withServer { server in
            server.setOverride(.respond(Self.outage))
            let events = EventRecorder()
            let client = Self.client(for: server, kind, retries: retries, threshold: 3, events: events)
            let calls = 20
            let results = await withTaskGroup(of: (Int, Result<User, APIError<UserFailure>>).self) { group in
                for id in 0..<calls {
                    group.addTask { (id, await client.outcome(of: GetUser(id: String(id)))) }
                }
                return await group.reduce(into: [Int: Result<User, APIError<UserFailure>>]()) { $0[$1.0] = $1.1 }
            }
            var reachedCallers = 0
            for id in 0..<calls {
                let reached = server.requestCount("GET", "/users/\(id)") > 0
                reachedCallers += reached ? 1 : 0
                guard let result = results[id] else {
                    Issue.record("caller \(id) has no result")
                    continue
                }
                Self.check(result, reached: reached, caller: id)
                if reached, case .failure(.endpoint(.server(let body), _)) = result {
                    #expect(body.value == Problem(code: "down", message: "maintenance"))
                } else if reached {
                    Issue.record("caller \(id): expected the mapped server failure, got \(result)")
                }
            }
            #expect(reachedCallers >= 3, "the breaker opens only after three failures")
            let unsent = results.values.filter { if case .failure(let error) = $0 { Self.provablyUnsent(error) } else { false } }.count
            #expect(unsent == calls - reachedCallers)
            if retries == .off {
                #expect(server.requestCount == reachedCallers)
            }

            // By now the breaker is open: a further call is refused without reaching the server.
            let before = server.requestCount
            let late = await client.outcome(of: GetUser(id: "late"))
            #expect(server.requestCount == before)
            if case .failure(.circuitOpen) = late {} else {
                Issue.record("a call after the breaker opened should be refused, got \(late)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases, Retries.allCases)
    func sequentialCallersThatReachedTheServerGetItsAnswer(kind: TransportKind, retries: Retries) async throws {
        try await withServer { server in
            server.setOverride(.respond(Self.outage))
            let events = EventRecorder()
            let client = Self.client(for: server, kind, retries: retries, threshold: 2, events: events)
            let calls = 6
            var refused = 0
            var reachedCallers = 0
            for id in 0..<calls {
                let result = await client.outcome(of: Probe<User, Never>(path: RequestPath("/p/\(id)")))
                let reached = server.requestCount("GET", "/p/\(id)") > 0
                reachedCallers += reached ? 1 : 0
                if case .failure(.circuitOpen) = result { refused += 1 }
                Self.check(result, reached: reached, caller: id)
                if reached, case .failure(.undocumentedStatus) = result {} else if reached {
                    Issue.record("caller \(id): expected the undocumented 503, got \(result)")
                }
            }
            #expect(refused == calls - reachedCallers)
            #expect(server.requestCount == 2, "the second failure opens the breaker")
            switch retries {
            case .off:
                #expect(reachedCallers == 2)
            case .on:
                // The first call's retry was the second failure; its next retry was refused,
                // and the stream says so although the caller got the 503.
                #expect(reachedCallers == 1)
                let stops = events.events.compactMap { event -> RetryPolicy.StopReason? in
                    if case .retryStopped(_, let reason, _) = event { reason } else { nil }
                }
                #expect(stops.first == .circuitOpen)
            }
        }
    }
}
