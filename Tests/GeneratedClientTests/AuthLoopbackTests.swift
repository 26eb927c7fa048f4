import CourierLocking
import CourierRuntime
import CourierTestServer
import DiscordAPI
import Foundation
import Logging
import ReferenceAuth
import Testing

/// Issue 13's auth schemes through generated clients, against the real loopback server over
/// URLSession and AsyncHTTPClient: what the server received for every scheme (the exact header or
/// query item), per-endpoint choice, a public endpoint that sends nothing, and every secret absent
/// from captured logs, events and error descriptions.
@Suite("Auth schemes (loopback server)", .timeLimit(.minutes(10)))
struct AuthLoopbackTests {
    static let bot = "bot-SECRET-1"
    static let oauth = "oauth-SECRET-2"
    static let password = "pass-SECRET-3"
    static let key = "key-SECRET-4"
    static let headerKey = "hdr-SECRET-5"
    static var basicValue: String { Data("app-id:\(password)".utf8).base64EncodedString() }

    /// One attempt per call and an isolated breaker, so a failing call says the same thing on
    /// every machine and no test's failures open another's breaker.
    static func configuration(logger: Logger? = nil, events: EventRecorder? = nil) -> APIClient.Configuration {
        var configuration = APIClient.Configuration(resilience: Resilience(retryPolicy: .never, sharing: .isolated))
        if let logger { configuration.logger = logger }
        if let events { configuration.onEvent = { events.record($0) } }
        return configuration
    }

    static func vault(_ server: TestServer, _ transport: MeaningTransport, _ auth: VaultClient.AuthSchemes,
                      configuration: APIClient.Configuration = configuration()) -> VaultClient {
        VaultClient(baseURL: server.baseURL, transport: transport.make(), auth: auth, configuration: configuration)
    }

    static var everyScheme: VaultClient.AuthSchemes {
        VaultClient.AuthSchemes(
            bot: VaultClient.bot { bot },
            oauth: VaultClient.oauth { oauth },
            app: VaultClient.app { BasicCredentials(userID: "app-id", password: password) },
            key: VaultClient.key { key },
            header: VaultClient.header { headerKey })
    }

    static func routeAll(_ server: TestServer, _ behavior: TestServer.Behavior) {
        for (method, path) in [("GET", "/secrets"), ("POST", "/oauth2/token"), ("GET", "/search"), ("GET", "/lookup"), ("GET", "/health")] {
            server.route(method, path, behavior)
        }
    }

    @Test("Every scheme, checked at the server: the exact header or query item it received", arguments: MeaningTransport.allCases)
    func everySchemeAtTheServer(transport: MeaningTransport) async throws {
        try await withServer { server in
            Self.routeAll(server, .respond(.status(204)))
            let all = Self.vault(server, transport, Self.everyScheme)
            try await all.listSecrets()                 // default [bot, oauth]: bot
            try await all.exchangeToken()               // app: Basic
            try await all.search(q: "a b")              // [key, bot]: key
            try await all.lookup()                      // header key
            // Without the bot token, the default falls to oauth; without the key, search falls to bot.
            let some = Self.vault(server, transport, .init(bot: VaultClient.bot { Self.bot }, oauth: VaultClient.oauth { Self.oauth }))
            try await some.search(q: "c")
            let oauthOnly = Self.vault(server, transport, .init(oauth: VaultClient.oauth { Self.oauth }))
            try await oauthOnly.listSecrets(page: 2)
            _ = await server.waitForRequests(count: 6)

            let secrets = server.receivedRequests("GET", "/secrets")
            #expect(secrets.map { $0.header("Authorization") } == ["Bot \(Self.bot)", "Bearer \(Self.oauth)"])
            #expect(secrets.map(\.query) == ["", "page=2"])
            let token = try #require(server.receivedRequests("POST", "/oauth2/token").first)
            #expect(token.header("Authorization") == "Basic \(Self.basicValue)")
            let searches = server.receivedRequests("GET", "/search")
            #expect(searches.map(\.query) == ["q=a%20b&api_key=\(Self.key)", "q=c"])
            #expect(searches.map { $0.header("Authorization") } == [nil, "Bot \(Self.bot)"])
            let lookup = try #require(server.receivedRequests("GET", "/lookup").first)
            #expect(lookup.header("X-Vault-Key") == Self.headerKey)
            #expect(lookup.header("Authorization") == nil)
            #expect(lookup.query == "")
        }
    }

    @Test("A public endpoint sends no credentials, even with every scheme configured", arguments: MeaningTransport.allCases)
    func publicEndpoint(transport: MeaningTransport) async throws {
        try await withServer { server in
            Self.routeAll(server, .respond(.status(204)))
            try await Self.vault(server, transport, Self.everyScheme).health()
            let sent = try #require(server.receivedRequests("GET", "/health").first)
            #expect(sent.header("Authorization") == nil)
            #expect(sent.header("X-Vault-Key") == nil)
            #expect(sent.query == "")
            let everything = sent.requestLine + sent.headers.map { "\($0.name): \($0.value)" }.joined()
            for secret in [Self.bot, Self.oauth, Self.basicValue, Self.key, Self.headerKey] {
                #expect(!everything.contains(secret))
            }
        }
    }

    /// Each scheme's call, and the texts that prove its secret reached the server.
    struct SchemeCall: Sendable, CustomStringConvertible {
        var name: String
        var auth: @Sendable () -> VaultClient.AuthSchemes
        var method: String
        var path: String
        var secret: String
        var call: @Sendable (VaultClient) async -> (any Error)?
        var description: String { name }
    }

    static let schemeCalls: [SchemeCall] = [
        SchemeCall(name: "bot", auth: { .init(bot: VaultClient.bot { bot }) }, method: "GET", path: "/secrets", secret: bot,
                   call: { client in await failure { () async throws(APIError<ListSecretsFailure>) in try await client.listSecrets() } }),
        SchemeCall(name: "oauth", auth: { .init(oauth: VaultClient.oauth { oauth }) }, method: "GET", path: "/secrets", secret: oauth,
                   call: { client in await failure { () async throws(APIError<ListSecretsFailure>) in try await client.listSecrets() } }),
        SchemeCall(name: "basic", auth: { .init(app: VaultClient.app { BasicCredentials(userID: "app-id", password: password) }) },
                   method: "POST", path: "/oauth2/token", secret: basicValue,
                   call: { client in await failure { () async throws(APIError<ExchangeTokenFailure>) in try await client.exchangeToken() } }),
        SchemeCall(name: "query key", auth: { .init(key: VaultClient.key { key }) }, method: "GET", path: "/search", secret: key,
                   call: { client in await failure { () async throws(APIError<SearchFailure>) in try await client.search(q: "x") } }),
        SchemeCall(name: "header key", auth: { .init(header: VaultClient.header { headerKey }) }, method: "GET", path: "/lookup",
                   secret: headerKey,
                   call: { client in await failure { () async throws(APIError<LookupFailure>) in try await client.lookup() } }),
    ]

    @Test("Each scheme's secret is absent from trace logs, events and error descriptions (a 500, then a reset connection)",
          arguments: schemeCalls, MeaningTransport.allCases)
    func secretsStayOutOfEverythingPrinted(scheme: SchemeCall, transport: MeaningTransport) async throws {
        try await withServer { server in
            let lines = LogLines()
            let events = EventRecorder()
            let client = Self.vault(server, transport, scheme.auth(), configuration: Self.configuration(logger: lines.logger(), events: events))
            var errors: [any Error] = []
            for behavior in [TestServer.Behavior.respond(.json(#"{"message": "boom"}"#, status: 500)), .reset] {
                server.setOverride(behavior)
                if let error = await scheme.call(client) { errors.append(error) }
            }
            server.setOverride(nil)
            #expect(errors.count == 2)
            // The secret did reach the server, so its absence below is redaction, not silence.
            let received = server.receivedRequests(scheme.method, scheme.path)
            #expect(!received.isEmpty)
            #expect(received.allSatisfy { request in
                (request.requestLine + request.headers.map(\.value).joined()).contains(scheme.secret)
            })
            var printed = [lines.text, String(describing: events.all), String(reflecting: events.all)]
            for error in errors {
                printed += [String(describing: error), String(reflecting: error), error.localizedDescription]
                if let localized = error as? any LocalizedError {
                    printed += [localized.failureReason ?? "", localized.recoverySuggestion ?? ""]
                }
            }
            for text in printed {
                #expect(!text.contains(scheme.secret), "\(scheme.name) leaked in: \(text)")
            }
            // The trace log did show the request's header fields; credentials only as <redacted>.
            #expect(lines.text.contains("request headers"))
            if scheme.name != "query key" {
                #expect(lines.text.contains(": <redacted>"))
            }
        }
    }

    @Test("Discord: Bot <token> on a channel call, nothing on the public GET /gateway", arguments: MeaningTransport.allCases)
    func discordBotAndGateway(transport: MeaningTransport) async throws {
        try await withServer { server in
            server.route("GET", "/gateway", .respond(.json(#"{"url": "wss://gateway.discord.gg"}"#)))
            server.route("GET", "/channels/1", .respond(.json(#"{"id": "1", "type": 0, "name": "general"}"#)))
            let client = DiscordClient(baseURL: server.baseURL, transport: transport.make(),
                                       auth: .init(bot: DiscordClient.bot { "MTk4NjIy.Cl2FMQ.ZnCjm1XV" },
                                                   oauth: DiscordClient.oauth { "user-token" }))
            let gateway = try await client.getGateway()
            #expect(gateway.url == "wss://gateway.discord.gg")
            _ = try await client.getChannel(channelID: "1")
            #expect(server.receivedRequests("GET", "/gateway").first?.header("Authorization") == nil)
            #expect(server.receivedRequests("GET", "/channels/1").first?.header("Authorization") == "Bot MTk4NjIy.Cl2FMQ.ZnCjm1XV")
            // A user's client, without a bot token, signs with its OAuth2 token.
            let user = DiscordClient(baseURL: server.baseURL, transport: transport.make(),
                                     auth: .init(oauth: DiscordClient.oauth { "user-token" }))
            _ = try await user.getChannel(channelID: "1")
            #expect(server.receivedRequests("GET", "/channels/1").last?.header("Authorization") == "Bearer user-token")
        }
    }
}

/// Events a client reported, for checking what they print.
final class EventRecorder: @unchecked Sendable {
    private let events = Locked<[ClientEvent]>([])
    var all: [ClientEvent] { events.value }
    func record(_ event: ClientEvent) { events.withLock { $0.append(event) } }
}
