import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// The loopback server's own bookkeeping and fault switches, which other suites (retry and
/// breaker tests among them) build on.
@Suite struct TestServerTests {
    @Test func routeCountsLetAHandlerFailTheFirstNRequests() async throws {
        try await withServer { server in
            server.route("GET", "/flaky") { request in
                request.routeCount <= 2 ? .respond(.status(503, headers: [("Retry-After", "0")])) : .respond(.json(#"{"id":1,"name":"ok"}"#))
            }
            let client = client(for: server, .asyncHTTPClient) { $0.resilience = .singleAttempt }
            var statuses: [Int] = []
            for _ in 0..<3 {
                let error = await capture { () async throws(APIError<UserFailure>) in
                    try await client.send(UserProbe(path: "/flaky"))
                }
                statuses.append(error?.status?.code ?? 200)
            }
            #expect(statuses == [503, 503, 200])
            #expect(server.requestCount("GET", "/flaky") == 3)
            #expect(server.receivedRequests.map(\.routeCount) == [1, 2, 3])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anOverrideTakesEveryRouteDownAndBack(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"id":1,"name":"a"}"#)))
            let client = client(for: server, kind) { $0.resilience = .singleAttempt }
            server.setOverride(.reset)
            let down = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
            #expect(down?.category == .transport(.connectionLost), "got \(String(describing: down))")
            server.setOverride(nil)
            let user = try await client.send(GetUser(id: "1"))
            #expect(user.name == "a")
            #expect(server.requestCount("GET", "/users/1") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aServerClosingWithoutAnAnswerIsConnectionLost(kind: TransportKind) async throws {
        try await withServer { server in
            server.setFallback(.close)
            let error = await capture { () async throws(APIError<Never>) in
                try await client(for: server, kind).send(Probe<NoContent, Never>(path: "/gone"))
            }
            #expect(error?.category == .transport(.connectionLost), "got \(String(describing: error))")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func bearerTokensAndReplaysReachTheWire(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1") { request in
                request.header("Authorization") == "Bearer fresh-1"
                    ? .respond(.json(#"{"id":1,"name":"a"}"#))
                    : .respond(.json(#"{"code":"expired","message":"Token expired"}"#, status: 401))
            }
            let store = TokenStore()
            let client = client(for: server, kind) {
                $0.auth = .bearer(token: { await store.current() }, onUnauthorized: { _ in await store.refresh() ? .replay : .fail })
            }
            let user = try await client.send(GetUser(id: "1"))
            #expect(user.id == 1)
            #expect(server.receivedRequests.map { $0.header("Authorization") } == ["Bearer expired", "Bearer fresh-1"])
        }
    }
}
