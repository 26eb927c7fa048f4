import CourierLocking
import CourierRuntime
import CourierTesting
import Foundation
import Logging
import ReferenceResilience
import Testing

/// The reference `Resilience` client: the spec's `auth` header, raw bodies with their own
/// content type, and retry hints written on the endpoint against those from `defaults`.
@Suite("Spec auth headers and raw bodies in generated clients")
struct SpecAuthAndBodyTests {
    let stub = StubTransport()

    func client(auth: Authentication = .none) -> ResilienceClient {
        // Zero jitter: every backoff is zero, so retries need no clock at all. Isolated: the
        // spec's host breaker would otherwise be one process-wide breaker for r.test, shared by
        // the tests of this suite running in parallel, each failing on purpose.
        let configuration = APIClient.Configuration(resilience: Resilience(retryBudget: nil, jitter: .constant(0), sharing: .isolated))
        return ResilienceClient(baseURL: URL(string: "https://r.test")!, transport: stub, auth: auth, configuration: configuration)
    }

    @Test("auth: { scheme: bearer, header: X-Auth-Token } — the client's bearer factory writes that header")
    func bearerInTheSpecsHeader() async throws {
        stub.on(.get, "/inherits", .status(204))
        try await client(auth: ResilienceClient.bearer { "tok-1" }).inherits()
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.header("X-Auth-Token") == "Bearer tok-1")
        #expect(sent.header("Authorization") == nil)
    }

    @Test("auth header values stay out of the trace log, whichever Authentication writes them")
    func authHeaderIsRedacted() async throws {
        stub.on(.get, "/inherits", .status(204))
        let lines = LogLines()
        var configuration = APIClient.Configuration(logger: lines.logger())
        // A hand-made authentication that names no secret field: the spec's request still does.
        configuration.auth = Authentication { fields in
            if let name = HTTPField.Name("X-Auth-Token") { fields[name] = "Bearer secret-token" }
        }
        let client = APIClient(baseURL: URL(string: "https://r.test")!, transport: stub, configuration: configuration)
        _ = try await client.send(InheritsRequest())
        #expect(stub.receivedRequests.first?.header("X-Auth-Token") == "Bearer secret-token")
        #expect(lines.text.contains("X-Auth-Token: <redacted>"))
        #expect(!lines.text.contains("secret-token"))
    }

    @Test("body: { type: Data, contentType: application/octet-stream } — the bytes go out as they are")
    func rawBody() async throws {
        stub.on(.put, "/files/{name}", .status(204))
        stub.on(.put, "/maybe/{name}", .status(204))
        let bytes = Data([0x00, 0xFF, 0x7B, 0x22])
        try await client().upload(name: "a.bin", body: bytes)
        try await client().uploadMaybe(name: "b.txt", body: Data("héllo".utf8))
        try await client().uploadMaybe(name: "c.txt", body: nil)
        let sent = stub.receivedRequests
        #expect(sent.count == 3)
        #expect(sent[0].body == bytes)
        #expect(sent[0].header("Content-Type") == "application/octet-stream")
        #expect(sent[1].body == Data("héllo".utf8))
        #expect(sent[1].header("Content-Type") == "text/plain; charset=utf-8")
        #expect(sent[2].body == nil)
        #expect(sent[2].header("Content-Type") == nil)
    }

    @Test("body: { contentType: application/merge-patch+json } — JSON, sent under the spec's media type")
    func jsonSuffixBody() async throws {
        stub.on(.patch, "/things/{id}", .status(204))
        try await client().merge(id: 7, body: MergeBody(name: "n"), xTrace: "t-1")
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.header("Content-Type") == "application/merge-patch+json")
        #expect(sent.header("X-Trace") == "t-1")
        let decoded = try JSONSerialization.jsonObject(with: try #require(sent.body)) as? [String: String]
        #expect(decoded == ["name": "n"])
    }

    /// `/inherits` may make 4 attempts, but the breaker it inherits opens after 3 failures in a
    /// row and refuses the fourth.
    @Test("Retry hints: an endpoint's own retry replaces the defaults' as a whole", arguments: [
        ("/inherits", 3), ("/once", 1), ("/twice", 2), ("/unguarded", 1),
    ])
    func attemptsPerEndpoint(path: String, attempts: Int) async throws {
        stub.on(.get, path, .status(503))
        let client = client()
        switch path {
        case "/inherits": _ = await failure { () async throws(APIError<InheritsFailure>) in try await client.inherits() }
        case "/once": _ = await failure { () async throws(APIError<OnceFailure>) in try await client.once() }
        case "/twice": _ = await failure { () async throws(APIError<TwiceFailure>) in try await client.twice() }
        default: _ = await failure { () async throws(APIError<UnguardedFailure>) in try await client.unguarded() }
        }
        #expect(stub.requests(.get, path).count == attempts)
    }
}

/// Collects log lines, with their metadata, as text.
final class LogLines: @unchecked Sendable {
    // The client logs from its own tasks.
    private let lines = Locked<[String]>([])

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    func logger() -> Logger {
        var logger = Logger(label: "courier.generated-test") { _ in Handler(sink: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    struct Handler: LogHandler {
        let sink: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.append("\(event.message) " + merged.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " "))
        }
    }
}
