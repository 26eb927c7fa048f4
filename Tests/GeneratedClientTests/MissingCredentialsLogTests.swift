import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceResilience
import Testing

/// A client of a service whose spec has `auth`, made without credentials: the default is
/// `Authentication.none`, and the first call that needs credentials says so at debug level, once.
@Suite("A client made without the credentials its spec asks for (loopback server)")
struct MissingCredentialsLogTests {
    static let urlSession = URLSessionTransport()

    @Test("logs once per client, at debug level, and not at all once credentials are given")
    func logsOnceWithoutCredentials() async throws {
        try await withServer { server in
            server.route("GET", "/inherits", .respond(.status(204)))
            let withoutAuth = LogLines()
            let withAuth = LogLines()
            let clients = clientsOverBothTransports(urlSession: Self.urlSession) { transport in
                (ResilienceClient(baseURL: server.baseURL, transport: transport,
                                  configuration: APIClient.Configuration(logger: withoutAuth.logger())),
                 ResilienceClient(baseURL: server.baseURL, transport: transport, auth: ResilienceClient.bearer { "tok" },
                                  configuration: APIClient.Configuration(logger: withAuth.logger())))
            }
            for (name, pair) in clients {
                try await pair.0.inherits()
                try await pair.0.inherits()
                try await pair.1.inherits()
                #expect(server.receivedRequests("GET", "/inherits").last?.header("X-Auth-Token") == "Bearer tok", "\(name)")
            }
            let notices = withoutAuth.text.split(separator: "\n").filter { $0.contains("needs credentials") }
            // One per client: the two transports' clients each said it once, for two calls each.
            #expect(notices.count == 2, "\(withoutAuth.text)")
            #expect(notices.allSatisfy { $0.contains("inherits needs credentials, but the client has none") })
            #expect(!withAuth.text.contains("needs credentials"))
            #expect(server.receivedRequests("GET", "/inherits").filter { $0.header("X-Auth-Token") == nil }.count == 4)
        }
    }
}
