import CourierRuntime
import CourierTestSupport
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// A request that states which credentials it accepts.
private struct Signed: APIRequest {
    var path: RequestPath = "/things"
    var query: Parameters = [:]
    var authentication: AuthenticationRequirement = .inherited
    var method: HTTPRequest.Method { .get }
    var operationName: String { "signed" }
}

/// An underlying error that quotes the URL it was sent to, as some HTTP stacks' errors do.
private struct QuotingError: Error, Sendable, CustomStringConvertible {
    var url: String
    var description: String { "could not load \(url)" }
}

/// The schemes of issue 13 at the runtime level, through the stub transport: exact wire values,
/// the typed errors for credentials that cannot be sent, the per-request choice, and redaction of a
/// transport error that quotes the URL. (Server-checked versions over both real transports are in
/// GeneratedClientTests/AuthLoopbackTests.)
@Suite struct AuthSchemeTests {
    private func client(_ stub: StubTransport, _ auth: Authentication) -> APIClient {
        stubClient(stub) { $0.auth = auth }
    }

    @Test func basicSendsBase64OfUserColonPasswordInUTF8() async throws {
        let stub = StubTransport()
        stub.on(.get, "/things", .status(204))
        // A colon in the password is allowed (RFC 7617 splits at the first one); é is UTF-8.
        let auth = Authentication.basic { BasicCredentials(userID: "Aladdin", password: "open sesame:é") }
        _ = try await client(stub, auth).send(Signed())
        let expected = "Basic " + Data("Aladdin:open sesame:é".utf8).base64EncodedString()
        #expect(stub.receivedRequests.first?.header("Authorization") == expected)
        // RFC 7617's own example, to pin the encoding.
        let example = Authentication.basic { BasicCredentials(userID: "Aladdin", password: "open sesame") }
        _ = try await client(stub, example).send(Signed())
        #expect(stub.receivedRequests.last?.header("Authorization") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test("A user ID with ':' or a control character is a typed error, and nothing is sent",
          arguments: [BasicCredentials(userID: "a:b", password: "pw"), BasicCredentials(userID: "ab", password: "p\nw")])
    func basicRefusesWhatItCannotCarry(credentials: BasicCredentials) async {
        let stub = StubTransport()
        stub.on(.get, "/things", .status(204))
        let error = await capture { () async throws(APIError<Never>) in
            try await client(stub, .basic { credentials }).send(Signed())
        }
        guard case .invalidRequest(let invalid)? = error, case .invalidCredentials(let reason) = invalid.reason else {
            Issue.record("expected invalidCredentials, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("RFC 7617"))
        #expect(!reason.contains(credentials.password))
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test func basicCredentialsNeverDescribeThePassword() {
        let credentials = BasicCredentials(userID: "app", password: "hunter2")
        #expect(!String(describing: credentials).contains("hunter2"))
        #expect(!String(reflecting: credentials).contains("hunter2"))
        #expect(String(describing: credentials).contains("app"))
    }

    @Test("A bearer word goes before the token", arguments: ["Bot", "token", "Token"])
    func bearerWord(word: String) async throws {
        let stub = StubTransport()
        stub.on(.get, "/things", .status(204))
        _ = try await client(stub, .bearer(word: word) { "t-1" }).send(Signed())
        #expect(stub.receivedRequests.first?.header("Authorization") == "\(word) t-1")
    }

    @Test("A word that is not an RFC 9110 token is a typed error", arguments: ["", "Bot ", "B\u{e9}arer", "a/b"])
    func badWord(word: String) async {
        let stub = StubTransport()
        stub.on(.get, "/things", .status(204))
        let error = await capture { () async throws(APIError<Never>) in
            try await client(stub, .bearer(word: word) { "t-1" }).send(Signed())
        }
        guard case .invalidRequest(let invalid)? = error, case .invalidCredentials = invalid.reason else {
            Issue.record("expected invalidCredentials, got \(String(describing: error))")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test func aQueryKeyIsAddedPercentEncodedAfterTheRequestsOwnQuery() async throws {
        let stub = StubTransport()
        stub.on(.get, "/things", .status(204))
        let auth = Authentication.apiKey(query: "api_key") { "k&1=2 é" }
        _ = try await client(stub, auth).send(Signed(query: ["page": 2]))
        _ = try await client(stub, auth).send(Signed())
        let sent = stub.receivedRequests
        #expect(sent.count == 2)
        #expect(sent.first?.query == "page=2&api_key=k%261%3D2%20%C3%A9")
        #expect(sent.last?.query == "api_key=k%261%3D2%20%C3%A9")
        #expect(sent.first?.header("Authorization") == nil)
    }

    @Test func eachRequestPicksItsSchemeAndAPublicOneSendsNone() async throws {
        let stub = StubTransport()
        stub.on(.get, "/things", .status(204))
        let both = Authentication.schemes(
            ["bot": .bearer(word: "Bot") { "b-1" }, "key": .apiKey(query: "key") { "k-1" }],
            default: ["bot"])
        let client = client(stub, both)
        _ = try await client.send(Signed())                                     // the default: bot
        _ = try await client.send(Signed(authentication: .anyOf(["key", "bot"]))) // key first
        _ = try await client.send(Signed(authentication: .anyOf(["oauth", "bot"]))) // oauth not given: bot
        _ = try await client.send(Signed(authentication: .none))
        _ = try await client.send(Signed(authentication: .anyOf(["oauth"])))     // none of them given
        let sent = stub.receivedRequests
        #expect(sent.map { $0.header("Authorization") } == ["Bot b-1", nil, "Bot b-1", nil, nil])
        #expect(sent.map(\.query) == ["", "key=k-1", "", "", ""])
    }

    @Test func aSingleSchemeClientStillSignsAnEndpointThatNamesSchemesButNotAPublicOne() async throws {
        let stub = StubTransport()
        stub.on(.get, "/things", .status(204))
        let client = client(stub, .bearer { "t-1" })
        _ = try await client.send(Signed(authentication: .anyOf(["whatever"])))
        _ = try await client.send(Signed(authentication: .none))
        #expect(stub.receivedRequests.map { $0.header("Authorization") } == ["Bearer t-1", nil])
    }

    @Test func the401HookOfTheSchemeThatSignedDecidesTheReplay() async throws {
        let stub = StubTransport()
        stub.on(.get, "/things", .respond { request in
            request.header("Authorization") == "Bot fresh" ? .status(204) : .status(401)
        })
        let refreshed = Counter()
        let token = Counter()
        let bot = Authentication.bearer(word: "Bot", token: { await token.value == 0 ? "stale" : "fresh" }, onUnauthorized: { _ in
            await refreshed.increment()
            await token.increment()
            return .replay
        })
        let oauth = Authentication.bearer(token: { "o-1" }, onUnauthorized: { _ in
            Issue.record("the hook of a scheme that did not sign the call was asked")
            return .fail
        })
        let client = client(stub, .schemes(["bot": bot, "oauth": oauth], default: ["bot", "oauth"]))
        _ = try await client.send(Signed())
        #expect(stub.receivedRequests.map { $0.header("Authorization") } == ["Bot stale", "Bot fresh"])
        #expect(await refreshed.value == 1)
    }

    @Test("A transport error that quotes the URL has the query key redacted in every description")
    func transportErrorQuotingTheURLIsRedacted() async throws {
        let stub = StubTransport()
        stub.on(.get, "/things", .respond { request in
            .failure(TransportError(.other, requestMayHaveBeenSent: false,
                                    underlying: QuotingError(url: "https://api.test\(request.head.path ?? "")")))
        })
        let secret = "s3cr3t-key"
        let events = LockedValues<ClientEvent>()
        let client = stubClient(stub) {
            $0.auth = .apiKey(query: "api_key") { secret }
            $0.resilience = .singleAttempt
            $0.onEvent = { events.append($0) }
        }
        let error = await capture { () async throws(APIError<Never>) in try await client.send(Signed()) }
        let failure = try #require(error)
        // The key did go out; only what is printed about the call hides it.
        #expect(stub.receivedRequests.first?.query == "api_key=\(secret)")
        let texts = [failure.debugDescription, String(describing: failure), failure.localizedDescription,
                     failure.failureReason ?? "", String(describing: events.all)]
        for text in texts {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect(failure.debugDescription.contains("api_key=<redacted>"))
        guard case .transport(let transport) = failure else {
            Issue.record("expected a transport error, got \(failure)")
            return
        }
        #expect(transport.kind == .other)
    }
}

private actor Counter {
    var value = 0
    func increment() { value += 1 }
}

