import CourierLocking
import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceErrorMatching
import Testing

/// The ErrorMatching reference client against the real loopback server: conditions in order,
/// nested discriminators, values compared as integers, doubles and booleans, and failures inside
/// success statuses.
@Suite("Error matching (loopback server)")
struct ErrorMatchingTests {
    static let urlSession = URLSessionTransport()

    struct Scenario: Sendable, CustomTestStringConvertible {
        var status: Int
        var body: String
        var headers: [(String, String)] = []
        var expected: String
        var testDescription: String { "\(status) \(body) \(headers) → \(expected)" }
    }

    static func name(_ failure: GetItemFailure) -> String {
        // The case name, without its payload.
        String(describing: failure).prefix { $0 != "(" }.description
    }

    static let scenarios: [Scenario] = [
        // Conditions, in the order written, before the discriminator.
        Scenario(status: 400, body: #"{"kind": "limit", "code": 1}"#, headers: [("Retry-After", "5")], expected: "retryLater"),
        Scenario(status: 400, body: #"{"kind": "limit", "code": 1}"#, headers: [("Retry-After", "5"), ("X-Quota-Left", "0")], expected: "retryLater"),
        Scenario(status: 400, body: #"{"kind": "limit", "code": 1}"#, headers: [("X-Quota-Left", "0")], expected: "quotaExhausted"),
        Scenario(status: 400, body: #"{"kind": "limit", "code": 1}"#, headers: [("X-Quota-Left", "3")], expected: "tooMany"),
        Scenario(status: 400, body: #"{"kind": "limit", "detail": {"level": 2}}"#, expected: "detailed"),
        Scenario(status: 400, body: #"{"kind": "limit", "code": 1, "detail": null}"#, expected: "tooMany"),
        Scenario(status: 400, body: #"{"kind": "limit", "final": true}"#, expected: "finalRefusal"),
        Scenario(status: 400, body: #"{"kind": "limit", "final": false}"#, expected: "limited"),
        Scenario(status: 400, body: #"{"kind": "other", "ratio": 0.5}"#, expected: "halfway"),
        Scenario(status: 400, body: #"{"kind": "other", "ratio": 5e-1}"#, expected: "halfway"),
        // Nested discriminators: kind, then code (an integer), then reason (a string enum).
        Scenario(status: 400, body: #"{"kind": "limit", "code": 2, "reason": "quota"}"#, expected: "quotaReason"),
        Scenario(status: 400, body: #"{"kind": "limit", "code": 2, "reason": "burst"}"#, expected: "burstReason"),
        Scenario(status: 400, body: #"{"kind": "limit", "code": 2, "reason": "other"}"#, expected: "limitedOtherwise"),
        Scenario(status: 400, body: #"{"kind": "limit", "code": 2}"#, expected: "limitedOtherwise"),
        Scenario(status: 400, body: #"{"kind": "limit", "code": 3}"#, expected: "limited"),
        Scenario(status: 400, body: #"{"kind": "limit"}"#, expected: "limited"),
        // A Double field: keys 0.25, 1 and 1.5 match whatever the body's spelling.
        Scenario(status: 400, body: #"{"kind": "scale", "ratio": 0.25}"#, expected: "quarter"),
        Scenario(status: 400, body: #"{"kind": "scale", "ratio": 1}"#, expected: "whole"),
        Scenario(status: 400, body: #"{"kind": "scale", "ratio": 1.0}"#, expected: "whole"),
        Scenario(status: 400, body: #"{"kind": "scale", "ratio": 1.5e0}"#, expected: "oneAndAHalf"),
        Scenario(status: 400, body: #"{"kind": "scale", "ratio": 2}"#, expected: "scaled"),
        Scenario(status: 400, body: #"{"kind": "scale", "ratio": "1"}"#, expected: "scaled"),
        Scenario(status: 400, body: #"{"kind": "new"}"#, expected: "badRequest"),
        Scenario(status: 400, body: "not json", expected: "badRequest"),
        // Booleans and integers.
        Scenario(status: 409, body: #"{"kind": "x", "final": true}"#, expected: "finalConflict"),
        Scenario(status: 409, body: #"{"kind": "x", "final": false}"#, expected: "retryableConflict"),
        Scenario(status: 409, body: #"{"kind": "x"}"#, expected: "conflict"),
        Scenario(status: 422, body: #"{"kind": "x", "code": 7}"#, expected: "seven"),
        Scenario(status: 422, body: #"{"kind": "x", "code": -1}"#, expected: "negative"),
        Scenario(status: 422, body: #"{"kind": "x", "code": 8}"#, expected: "unprocessable"),
        // A success status with a header predicate.
        Scenario(status: 200, body: #"{"id": "a"}"#, headers: [("X-Failed", "yes")], expected: "failedByHeader"),
    ]

    @Test("Each response reaches its case with the raw body kept", arguments: scenarios)
    func getItem(scenario: Scenario) async throws {
        let server = try await TestServer.start()
        server.route("GET", "/items/a", .respond(.json(scenario.body, status: scenario.status, headers: scenario.headers)))
        let client = ErrorMatchingClient(baseURL: server.baseURL, transport: Self.urlSession)
        let error = await failure { () async throws(APIError<GetItemFailure>) in try await client.getItem(id: "a") }
        await server.stop()
        guard case .endpoint(let failure, let raw) = error else {
            Issue.record("expected an endpoint failure, got \(String(describing: error))")
            return
        }
        #expect(Self.name(failure) == scenario.expected)
        #expect(raw.text == scenario.body)
        #expect(raw.status.code == scenario.status)
    }

    @Test("A success body that does not match decodes; one that matches is the failure, decoded")
    func successStatuses() async throws {
        let server = try await TestServer.start()
        let client = ErrorMatchingClient(baseURL: server.baseURL, transport: Self.urlSession)
        server.route("GET", "/items/a", .respond(.json(#"{"id": "a"}"#)))
        #expect(try await client.getItem(id: "a").id == "a")
        server.route("GET", "/items", .respond(.json(#"[{"id": "a"}, {"id": "b"}]"#)))
        #expect(try await client.listItems().map(\.id) == ["a", "b"])
        server.route("GET", "/items", .respond(.json(#"{"ok": true, "error": "not_found"}"#)))
        let notAList = await failure { () async throws(APIError<ListItemsFailure>) in try await client.listItems() }
        if case .decoding = notAList {} else { Issue.record("expected a decoding failure, got \(String(describing: notAList))") }
        let body = #"{"ok": false, "error": "not_found", "detail": {"level": 3, "note": "gone"}}"#
        server.route("GET", "/items", .respond(.json(body)))
        let missing = await failure { () async throws(APIError<ListItemsFailure>) in try await client.listItems() }
        if case .endpoint(.missing(let envelope), let raw) = missing {
            #expect(envelope.value?.ok == false)
            #expect(envelope.value?.detail?.level == 3)
            #expect(envelope.value?.detail?.note == "gone")
            #expect(raw.text == body)
        } else {
            Issue.record("expected missing, got \(String(describing: missing))")
        }
        server.route("GET", "/items", .respond(.json(#"{"ok": false}"#)))
        let other = await failure { () async throws(APIError<ListItemsFailure>) in try await client.listItems() }
        if case .endpoint(.failedInside, _) = other {} else { Issue.record("expected failedInside, got \(String(describing: other))") }
        await server.stop()
    }

    @Test("A failure inside a 200 counts as a success for the circuit breaker, and is not retried")
    func breakerAndRetry() async throws {
        let server = try await TestServer.start()
        let transitions = Locked<[CircuitBreaker.Transition]>([])
        // A breaker that opens on the first failure it counts, retries on for a GET.
        let resilience = Resilience(
            retryPolicy: RetryPolicy(maxAttempts: 3),
            circuitBreaker: CircuitBreaker.Configuration(trip: .consecutiveFailures(1)),
            circuitBreakerScope: .host,
            jitter: .constant(0),
            onCircuitBreakerTransition: { transition in transitions.withLock { $0.append(transition) } },
            sharing: .isolated
        )
        let client = ErrorMatchingClient(baseURL: server.baseURL, transport: Self.urlSession,
                                         configuration: APIClient.Configuration(resilience: resilience))
        server.route("GET", "/items", .respond(.json(#"{"ok": false, "error": "not_found"}"#)))
        for _ in 0..<3 {
            let error = await failure { () async throws(APIError<ListItemsFailure>) in try await client.listItems() }
            if case .endpoint(.missing, _) = error {} else { Issue.record("expected missing, got \(String(describing: error))") }
        }
        // Each call reached the server once: not retried, and never refused by the breaker.
        #expect(server.requestCount("GET", "/items") == 3)
        #expect(transitions.withLock { $0 }.isEmpty)
        // The control: a failure the breaker does count opens it, so the next call is refused.
        server.route("GET", "/items", .respond(.json("{}", status: 503)))
        _ = await failure { () async throws(APIError<ListItemsFailure>) in try await client.listItems() }
        let refused = await failure { () async throws(APIError<ListItemsFailure>) in try await client.listItems() }
        if case .circuitOpen = refused {} else { Issue.record("expected circuitOpen, got \(String(describing: refused))") }
        #expect(transitions.withLock { $0 }.map(\.to) == [.open])
        await server.stop()
    }
}
