import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@Suite struct ObservabilityTests {
    @Test func oneLinePerAttemptWithTemplateStatusDurationAndAttempt() async throws {
        let logs = LogRecorder()
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .status(401), .json(#"{"id":1,"name":"a"}"#))
        let client = stubClient(stub) {
            $0.logger = logs.logger(level: .debug)
            $0.auth = .bearer(token: { "sekret-token" }, onUnauthorized: { _ in .replay })
        }
        _ = try await client.send(GetUser(id: "42"))
        let lines = logs.records
        #expect(lines.count == 2)
        #expect(lines.map(\.message) == [
            "GET /users/{id} 401 \(lines[0].metadata["courier.duration_ms"] ?? "") ms attempt 1",
            "GET /users/{id} 200 \(lines[1].metadata["courier.duration_ms"] ?? "") ms attempt 2",
        ])
        #expect(lines.allSatisfy { $0.level == .debug })
        #expect(lines[1].metadata["http.method"] == "GET")
        #expect(lines[1].metadata["http.path_template"] == "/users/{id}")
        #expect(lines[1].metadata["http.status"] == "200")
        #expect(lines[1].metadata["courier.attempt"] == "2")
        #expect(lines[1].metadata["courier.operation"] == "getUser")
        #expect(lines[1].metadata["courier.duration_ms"] != nil)
    }

    @Test func secretsCookiesAndFilledInURLsAreNeverLoggedEvenAtTrace() async throws {
        let logs = LogRecorder()
        let stub = StubTransport()
        stub.on(.get, "/accounts/{id}", .status(204))
        var defaults = HTTPFields()
        defaults[.cookie] = "session=cookie-value"
        let client = stubClient(stub) {
            $0.logger = logs.logger(level: .trace)
            $0.defaultHeaderFields = defaults
            $0.auth = .bearer(token: { "bearer-value" })
        }
        let request = Probe<NoContent, Never>(
            path: RequestPath("/accounts/{id}", ["id": "acct-private-id"]),
            query: ["access_token": "query-token-value"],
            headers: ["X-Signing-Secret": "spec-secret-value", "X-Visible": "visible-value"],
            secretHeaderNames: ["X-Signing-Secret"]
        )
        _ = try await client.send(request)
        let text = logs.allText
        #expect(text.contains("/accounts/{id}"))
        #expect(text.contains("visible-value"), "trace level shows ordinary headers")
        for secret in ["cookie-value", "bearer-value", "spec-secret-value", "query-token-value", "acct-private-id", "api.test"] {
            #expect(!text.contains(secret), "\(secret) leaked into the log")
        }
    }

    @Test func credentialsInAServicesOwnAuthHeaderAreNeverLogged() async throws {
        let logs = LogRecorder()
        let stub = StubTransport()
        stub.on(.get, "/me", .status(204))
        let header = try #require(HTTPField.Name("X-Auth-Token"))
        let keyHeader = try #require(HTTPField.Name("X-Partner-Key"))
        for auth in [Authentication.bearer(header: header, token: { "bearer-value" }),
                     Authentication.apiKey(header: keyHeader, value: { "bearer-value" })] {
            let client = stubClient(stub) {
                $0.logger = logs.logger(level: .trace)
                $0.auth = auth
            }
            // The request marks nothing secret: the authentication itself names its field.
            _ = try await client.send(Probe<NoContent, Never>(path: "/me", headers: ["X-Visible": "visible-value"]))
        }
        let sent = stub.receivedRequests
        #expect(sent.count == 2)
        #expect(sent.first?.header("X-Auth-Token") == "Bearer bearer-value")
        #expect(sent.last?.header("X-Partner-Key") == "bearer-value")
        let text = logs.allText
        #expect(text.contains("X-Auth-Token: <redacted>"))
        #expect(text.contains("X-Partner-Key: <redacted>"))
        #expect(text.contains("visible-value"), "trace level shows ordinary headers")
        #expect(!text.contains("bearer-value"), "the token leaked into the log")
    }

    @Test func transportFailuresAndRejectedRequestsAreLoggedToo() async {
        let logs = LogRecorder()
        let stub = StubTransport()
        stub.on(.get, "/", .failure(.connectionLost))
        let client = stubClient(stub) {
            $0.logger = logs.logger(level: .debug)
            $0.resilience = .singleAttempt
        }
        _ = await capture { () async throws(APIError<Never>) in try await client.send(Probe<NoContent, Never>()) }
        _ = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>(headers: ["X-A": "1\r\n2"]))
        }
        let records = logs.records
        #expect(records.count == 2)
        #expect(records.first?.metadata["courier.error"] == "connectionLost")
        #expect(records.last?.message.contains("not sent") == true)
    }

    @Test func eventsFollowTheLifecycle() async throws {
        let events = EventRecorder()
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .json(#"{"id":1,"name":"a"}"#, headers: ["X-RateLimit-Remaining": "3"]))
        stub.on(.get, "/users/2", .failure(.timedOut))
        let client = stubClient(stub) {
            $0.onEvent = events.hook
            $0.resilience = .singleAttempt
        }
        _ = try await client.send(GetUser(id: "1"))
        _ = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "2")) }
        let recorded = events.events
        #expect(recorded.count == 9)
        guard case .started(let summary) = recorded[0],
              case .attemptStarted(_, 1) = recorded[1],
              case .attemptFinished(_, 1, .response(.ok), _) = recorded[2],
              case .finished(_, .success(.ok, let rateLimit), _) = recorded[3],
              case .attemptFinished(_, 1, .transportFailure(.timedOut), _) = recorded[6],
              case .retryStopped(_, .attemptsExhausted, attempts: 1) = recorded[7],
              case .finished(_, .failure(let failure), _) = recorded[8]
        else {
            Issue.record("unexpected events: \(recorded)")
            return
        }
        #expect(summary == RequestSummary(operationName: "getUser", method: .get, pathTemplate: "/users/{id}", host: "api.test"))
        #expect(rateLimit.remaining == 3)
        #expect(failure.category == .transport(.timedOut))
        #expect(failure.message == "The request timed out.")
        #expect(failure.isRetryable)
    }

    @Test func eventsCanBeConsumedAsAStream() async throws {
        let (stream, hook) = ClientEvent.makeStream()
        let stub = StubTransport()
        stub.on(.get, "/", .status(204))
        _ = try await stubClient(stub) { $0.onEvent = hook }.send(Probe<NoContent, Never>())
        var kinds: [String] = []
        for await event in stream {
            kinds.append(String(describing: event).prefix { $0 != "(" }.description)
            if case .finished = event { break }
        }
        #expect(kinds == ["started", "attemptStarted", "attemptFinished", "finished"])
    }
}
