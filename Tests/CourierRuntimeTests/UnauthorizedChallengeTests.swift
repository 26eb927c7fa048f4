import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// A 401 that carries a `WWW-Authenticate` challenge arrives as a 401, with its header fields
/// and body, through both real transports, for the schemes services send (issue 32, item 1).
///
/// URLSession on Linux never completed such a response when the field offered `Basic` (alone or
/// among other challenges): FoundationNetworking turned it into an authentication challenge it
/// then dropped, and the call ended in `timedOut` after the whole attempt timeout. The attempt
/// timeout here is 30 s, so a response stuck that way fails as a timeout, never by the clock.
@Suite("401s with a WWW-Authenticate challenge", .timeLimit(.minutes(10)))
struct UnauthorizedChallengeTests {
    /// The challenges a 401 carries in the tests.
    enum Challenge: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case basic
        case bearer
        case custom
        /// RFC 9110 lets a server offer several schemes in one field; `Basic` among them is
        /// what FoundationNetworking picks up.
        case bearerOrBasic

        var field: String {
            switch self {
            case .basic: #"Basic realm="api""#
            case .bearer: #"Bearer realm="api", error="invalid_token", error_description="The access token expired""#
            case .custom: #"AccountSID realm="api", hint="check the account SID""#
            case .bearerOrBasic: #"Bearer realm="api", Basic realm="api", charset="UTF-8""#
            }
        }

        var testDescription: String { rawValue }
    }

    static let body = #"{"code":"auth","message":"The token has expired."}"#

    static func unauthorized(_ challenge: Challenge) -> TestServer.Behavior {
        .respond(.json(body, status: 401, headers: [("WWW-Authenticate", challenge.field)]))
    }

    /// One attempt per call, so that what arrives is the transport's answer to one request.
    static func client(_ server: TestServer, _ kind: TransportKind, _ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
        CourierRuntimeTests.client(for: server, kind) { configuration in
            configuration.resilience = .singleAttempt
            configuration.timeouts.attempt = .seconds(30)
            configure(&configuration)
        }
    }

    @Test("A 401 arrives as the typed 401, with its challenge, body and message", arguments: TransportKind.allCases, Challenge.allCases)
    func the401ArrivesAsA401(kind: TransportKind, challenge: Challenge) async throws {
        try await withServer { server in
            server.route("GET", "/users/7", Self.unauthorized(challenge))
            // A POST travels on a connection of its own through URLSession on Linux.
            server.route("POST", "/users", Self.unauthorized(challenge))
            let client = Self.client(server, kind)
            let get = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "7")) }
            let post = await capture { () async throws(APIError<UserFailure>) in
                try await client.send(UserProbe(method: .post, path: "/users", body: .json(User(id: 7, name: "x"))))
            }
            for (name, error) in [("GET", get), ("POST", post)] {
                guard case .endpoint(.unauthorized(let body), let response) = error else {
                    Issue.record("\(name): expected the typed 401, got \(String(describing: error))")
                    continue
                }
                #expect(response.status.code == 401, "\(name)")
                #expect(response.headerFields[.wwwAuthenticate] == challenge.field, "\(name)")
                #expect(body.value == Problem(code: "auth", message: "The token has expired."), "\(name)")
                #expect(error?.localizedDescription == "The token has expired.", "\(name)")
            }
            #expect(server.requestCount("GET", "/users/7") == 1)
            #expect(server.requestCount("POST", "/users") == 1)
        }
    }

    @Test("The transport hands back the 401's status, challenge and body bytes", arguments: TransportKind.allCases, Challenge.allCases)
    func theTransportHandsBackThe401(kind: TransportKind, challenge: Challenge) async throws {
        try await withServer { server in
            server.route("GET", "/me", Self.unauthorized(challenge))
            let transport = kind.make()
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/me")
            let buffered = try await transport.send(request, body: nil, timeout: .seconds(30))
            #expect(buffered.head.status.code == 401)
            #expect(buffered.head.headerFields[.wwwAuthenticate] == challenge.field)
            #expect(String(decoding: buffered.body, as: UTF8.self) == Self.body)
            // A streamed response's body ends, rather than waiting for a completion that never came.
            let streamed = try await transport.stream(request, body: nil, timeout: .seconds(30))
            #expect(streamed.head.status.code == 401)
            let bytes = try await streamed.body.collect(upTo: 1 << 20)
            #expect(String(decoding: bytes, as: UTF8.self) == Self.body)
        }
    }

    @Test("A refreshed token is replayed after a 401 with a challenge", arguments: TransportKind.allCases, Challenge.allCases)
    func refreshAndReplayWorksThroughTheChallenge(kind: TransportKind, challenge: Challenge) async throws {
        try await withServer { server in
            server.route("GET", "/users/1") { request in
                request.header("Authorization") == "Bearer fresh-1"
                    ? .respond(.json(#"{"id":1,"name":"a"}"#))
                    : Self.unauthorized(challenge)
            }
            let store = TokenStore()
            let client = Self.client(server, kind) { configuration in
                configuration.auth = .bearer(token: { await store.current() }, onUnauthorized: { context in
                    // The hook sees the 401 with its challenge.
                    guard context.response.headerFields[.wwwAuthenticate] == challenge.field else { return .fail }
                    return await store.refresh() ? .replay : .fail
                })
            }
            let user = try await client.send(GetUser(id: "1"))
            #expect(user.id == 1)
            #expect(server.headerValues("Authorization", "GET", "/users/1") == ["Bearer expired", "Bearer fresh-1"])
            #expect(await store.refreshes == 1)
        }
    }

    @Test("A streamed call that gets a 401 with a challenge fails with the typed 401", arguments: TransportKind.allCases, Challenge.allCases)
    func aStreamedCallGetsThe401(kind: TransportKind, challenge: Challenge) async throws {
        try await withServer { server in
            server.route("GET", "/feed", Self.unauthorized(challenge))
            let client = Self.client(server, kind)
            let error = await capture { () async throws(APIError<UserFailure>) in
                _ = try await client.stream(Probe<NoContent, UserFailure>(path: "/feed"))
            }
            guard case .endpoint(.unauthorized(let body), let response) = error else {
                Issue.record("expected the typed 401, got \(String(describing: error))")
                return
            }
            #expect(response.headerFields[.wwwAuthenticate] == challenge.field)
            #expect(body.message == "The token has expired.")
        }
    }
}
