import CourierLocking
import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// A token store like an app's: refreshes on demand, signs out on failure.
actor TokenStore {
    private(set) var token = "expired"
    private(set) var refreshes = 0
    private(set) var signedOut = false
    var refreshSucceeds = true

    func current() -> String? { signedOut ? nil : token }

    func refresh() -> Bool {
        refreshes += 1
        guard refreshSucceeds else { return false }
        token = "fresh-\(refreshes)"
        return true
    }

    func signOut() { signedOut = true }

    func failRefreshes() { refreshSucceeds = false }
}

@Suite struct AuthTests {
    private func auth(_ store: TokenStore) -> Authentication {
        .bearer(token: { await store.current() }, onUnauthorized: { _ in
            if await store.refresh() { return .replay }
            await store.signOut()
            return .fail
        })
    }

    @Test func aBearerTokenGoesInTheHeaderTheServiceNames() async throws {
        let stub = StubTransport()
        stub.on(.get, "/me", .status(204))
        let header = try #require(HTTPField.Name("X-Auth-Token"))
        let client = stubClient(stub) { $0.auth = .bearer(header: header, token: { "t-1" }) }
        _ = try await client.send(Probe<NoContent, Never>(path: "/me"))
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.header("X-Auth-Token") == "Bearer t-1")
        #expect(sent.header("Authorization") == nil)
    }

    @Test func aRefreshedTokenIsReplayedOnce() async throws {
        let store = TokenStore()
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .respond { request in
            request.header("Authorization") == "Bearer fresh-1" ? .json(#"{"id":1,"name":"a"}"#) : .status(401)
        })
        let user = try await stubClient(stub) { $0.auth = auth(store) }.send(GetUser(id: "1"))
        #expect(user.id == 1)
        #expect(stub.receivedRequests.map { $0.header("Authorization") } == ["Bearer expired", "Bearer fresh-1"])
        #expect(await store.refreshes == 1)
    }

    @Test func aSecond401IsNotReplayedAgain() async {
        let store = TokenStore()
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .json(#"{"code":"auth","message":"no"}"#, status: 401))
        let error = await capture { () async throws(APIError<UserFailure>) in
            try await stubClient(stub) { $0.auth = auth(store) }.send(GetUser(id: "1"))
        }
        guard case .endpoint(.unauthorized, _) = error else {
            Issue.record("expected unauthorized, got \(String(describing: error))")
            return
        }
        #expect(stub.receivedRequests.count == 2)
        #expect(await store.refreshes == 1)
    }

    @Test func aFailedRefreshSignsOutAndSurfacesThe401() async {
        let store = TokenStore()
        await store.failRefreshes()
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .status(401))
        let error = await capture { () async throws(APIError<UserFailure>) in
            try await stubClient(stub) { $0.auth = auth(store) }.send(GetUser(id: "1"))
        }
        #expect(error?.status == .unauthorized)
        #expect(stub.receivedRequests.count == 1)
        #expect(await store.signedOut)
    }

    @Test func aTokenProviderThatThrowsIsATypedErrorAndNothingIsSent() async {
        struct KeychainLocked: Error {}
        let stub = StubTransport()
        let error = await capture { () async throws(APIError<UserFailure>) in
            try await stubClient(stub) { $0.auth = .bearer(token: { throw KeychainLocked() }) }.send(GetUser(id: "1"))
        }
        guard case .invalidRequest(let invalid) = error, case .authorizationFailed = invalid.reason else {
            Issue.record("expected authorizationFailed, got \(String(describing: error))")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test func cancellingDuringATokenRefreshIsACancellation() async {
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .json(#"{"id":1,"name":"a"}"#))
        // The provider says when it is running, so the test cancels during the refresh, not
        // before the call got there (a fixed wait guessed how long that takes).
        let (refreshing, refreshStarted) = AsyncStream<Void>.makeStream()
        let client = stubClient(stub) {
            $0.auth = .bearer(token: {
                refreshStarted.yield()
                // The slow refresh is the scenario: it only ends early by being cancelled.
                try await Task.sleep(for: .seconds(30))
                return "late"
            })
        }
        let task = Task { () async -> APIError<UserFailure>? in
            await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
        }
        var started = refreshing.makeAsyncIterator()
        _ = await started.next()
        task.cancel()
        let error = await task.value
        #expect(error?.category == .transport(.cancelled), "got \(String(describing: error))")
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test func apiKeysGoInTheirHeader() async throws {
        let stub = StubTransport()
        stub.on(.get, "/", .status(204))
        let client = stubClient(stub) { $0.auth = .apiKey(header: HTTPField.Name("X-API-Key")!, value: { "k-123" }) }
        _ = try await client.send(Probe<NoContent, Never>())
        #expect(stub.receivedRequests.first?.header("X-API-Key") == "k-123")
    }
}
