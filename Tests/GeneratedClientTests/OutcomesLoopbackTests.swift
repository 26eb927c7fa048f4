import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceOutcomes
import Testing

/// Responses the spec describes beyond one JSON body, through both real transports against the
/// loopback server: several success statuses as an enum of outcomes (a documented 304 among
/// them), typed header fields, and text and binary bodies with the `Accept` their content type
/// calls for.
@Suite("Outcomes, response headers, text and binary responses (loopback server)")
struct OutcomesLoopbackTests {
    static let urlSession = URLSessionTransport()
    static let report = #"{"id": 7, "title": "Q3"}"#

    static func clients(_ server: TestServer, configuration: APIClient.Configuration = APIClient.Configuration()) -> [(String, ReportsClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) {
            ReportsClient(baseURL: server.baseURL, transport: $0, configuration: configuration)
        }
    }

    @Test("Each documented status decodes to its case: 200 with a report, 202 with a job, 204 and 304 without a body")
    func everyOutcome() async throws {
        try await withServer { server in
            for (name, client) in Self.clients(server) {
                server.route("GET", "/reports/1", .respond(.json(Self.report)))
                let ok = try await client.getReport(id: 1)
                #expect(ok == .ok(Report(id: 7, title: "Q3")), "\(name)")
                server.route("GET", "/reports/1", .respond(.json(#"{"id": "j1", "state": "running"}"#, status: 202)))
                let queued = try await client.getReport(id: 1)
                #expect(queued == .queued(Job(id: "j1", state: "running")), "\(name)")
                server.route("GET", "/reports/1", .respond(.status(204)))
                let empty = try await client.getReport(id: 1)
                #expect(empty == .noContent, "\(name)")
                server.route("GET", "/reports/1", .respond(.status(304, headers: [("ETag", "\"v7\"")])))
                let notModified = try await client.getReport(id: 1, ifNoneMatch: "\"v7\"")
                #expect(notModified == .notModified, "\(name)")
                #expect(server.receivedRequests.last?.header("If-None-Match") == "\"v7\"", "\(name)")
            }
            #expect(server.requestCount("GET", "/reports/1") == 8)
        }
    }

    @Test("A 304 is a success: sent once with retries on, reported as a success, and no breaker failure")
    func notModifiedIsNotAFailure() async throws {
        try await withServer { server in
            // Three attempts and a breaker that opens on two failures in a row: were a 304 a
            // failure to either, the server would see it repeated, or the fourth call refused.
            let events = EventLog()
            var configuration = APIClient.Configuration(resilience: Resilience(
                retryPolicy: RetryPolicy(maxAttempts: 3, transientBackoff: RetryPolicy.Backoff(base: .milliseconds(1), cap: .milliseconds(1))),
                circuitBreaker: .consecutiveFailures(2), circuitBreakerScope: .host, sharing: .isolated))
            configuration.onEvent = events.hook
            for (name, client) in Self.clients(server, configuration: configuration) {
                let before = server.requestCount("GET", "/reports/2")
                server.route("GET", "/reports/2", .respond(.status(304)))
                for _ in 0..<4 {
                    let outcome = try await client.getReport(id: 2, ifNoneMatch: "\"v1\"")
                    #expect(outcome == .notModified, "\(name)")
                }
                #expect(server.requestCount("GET", "/reports/2") - before == 4, "\(name): a 304 must not be retried")
            }
            let finished = events.events.compactMap { event -> Int? in
                guard case .finished(_, .success(let status, _), _) = event else { return nil }
                return status.code
            }
            #expect(finished.count == 8)
            #expect(finished.allSatisfy { $0 == 304 })
        }
    }

    @Test("A status the spec does not document is an undocumented status, with the response kept")
    func undocumentedSuccessStatus() async throws {
        try await withServer { server in
            for (name, client) in Self.clients(server) {
                server.route("GET", "/reports/3", .respond(.json(Self.report, status: 201)))
                let error = await failure { () async throws(APIError<GetReportFailure>) in try await client.getReport(id: 3) }
                guard case .undocumentedStatus(let raw) = error else {
                    Issue.record("\(name): expected undocumentedStatus, got \(String(describing: error))")
                    continue
                }
                #expect(raw.status.code == 201)
                #expect(raw.text == Self.report)
            }
        }
    }

    @Test("A body that does not decode as its outcome's type is a decoding failure naming the field")
    func outcomeBodyMismatch() async throws {
        try await withServer { server in
            for (name, client) in Self.clients(server) {
                server.route("GET", "/reports/4", .respond(.json(#"{"id": "j1"}"#, status: 202)))
                let error = await failure { () async throws(APIError<GetReportFailure>) in try await client.getReport(id: 4) }
                guard case .decoding(let decoding) = error else {
                    Issue.record("\(name): expected decoding, got \(String(describing: error))")
                    continue
                }
                #expect(decoding.codingPath == "state", "\(name)")
                #expect(decoding.response.status.code == 202)
            }
        }
    }

    @Test("Declared header fields come back typed beside the body; the plain method returns the body alone")
    func typedHeaders() async throws {
        try await withServer { server in
            let modified = Date(timeIntervalSince1970: 1_700_000_000)
            server.route("GET", "/reports/5/cached", .respond(.json(Self.report, headers: [
                ("ETag", "W/\"abc\""), ("X-Cache", "HIT"), ("X-Total-Count", "1200"), ("X-Size", "9000000000"),
                ("X-Ratio", "0.25"), ("X-Fresh", "true"), ("Last-Modified", TestServer.httpDate(modified)),
                ("Location", "/reports/5"),
            ])))
            for (name, client) in Self.clients(server) {
                let response = try await client.getReportWithCacheWithHeaders(id: 5)
                #expect(response.body == Report(id: 7, title: "Q3"), "\(name)")
                let headers = response.headers
                #expect(headers.eTag == "W/\"abc\"")
                #expect(headers.xCache == .hit)
                #expect(headers.xTotalCount == 1200)
                #expect(headers.xSize == 9_000_000_000)
                #expect(headers.xRatio == 0.25)
                #expect(headers.xFresh == true)
                #expect(headers.lastModified == modified)
                #expect(headers.location?.relativeString == "/reports/5")
                #expect(headers.xNote == nil, "an optional field the server did not send")
                #expect(response.status.code == 200)
                let plain = try await client.getReportWithCache(id: 5)
                #expect(plain == Report(id: 7, title: "Q3"))
            }
        }
    }

    @Test("A required header field that is missing or ill-formed is a decoding failure at headers.<name>; the plain method still succeeds",
          arguments: [("X-Total-Count", "many", "headers.X-Total-Count"), ("ETag", nil, "headers.ETag")] as [(String, String?, String)])
    func badHeader(field: String, value: String?, path: String) async throws {
        try await withServer { server in
            var headers = [("ETag", "\"e\""), ("X-Cache", "MISS"), ("X-Total-Count", "3")].filter { $0.0 != field }
            if let value { headers.append((field, value)) }
            server.route("GET", "/reports/6/cached", .respond(.json(Self.report, headers: headers)))
            for (name, client) in Self.clients(server) {
                let error = await failure { () async throws(APIError<GetReportWithCacheFailure>) in
                    try await client.getReportWithCacheWithHeaders(id: 6)
                }
                guard case .decoding(let decoding) = error else {
                    Issue.record("\(name): expected decoding, got \(String(describing: error))")
                    continue
                }
                #expect(decoding.codingPath == path, "\(name)")
                #expect(decoding.response.text == Self.report, "the response is kept")
                let plain = try await client.getReportWithCache(id: 6)
                #expect(plain == Report(id: 7, title: "Q3"))
            }
        }
    }

    @Test("Outcomes and headers together: a 304's ETag is read from the outcome's response")
    func outcomeWithHeaders() async throws {
        try await withServer { server in
            server.route("GET", "/reports/8", .respond(.status(304, headers: [("ETag", "\"v8\""), ("Retry-After", "5")])))
            for (name, client) in Self.clients(server) {
                let response = try await client.getReportWithHeaders(id: 8, ifNoneMatch: "\"v8\"")
                #expect(response.body == .notModified, "\(name)")
                #expect(response.headers.eTag == "\"v8\"")
                #expect(response.headers.retryAfter == 5)
            }
        }
    }

    @Test("Text decodes in the charset the server names, byte-exact for UTF-8 and Latin-1, and Accept names the text type")
    func textResponses() async throws {
        try await withServer { server in
            let text = "Résumé: 3 × ✓ — naïve 🐢\nline two"
            server.route("GET", "/reports/9/text", .respond(TestServer.Reply(
                status: 200, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))))
            server.route("GET", "/reports/9/csv", .respond(TestServer.Reply(
                status: 200, headers: [("Content-Type", "text/csv; charset=ISO-8859-1")], body: Data([0x63, 0x61, 0x66, 0xE9, 0x2C, 0x31]))))
            for (name, client) in Self.clients(server) {
                let text = try await client.getReportText(id: 9)
                #expect(text == text, "\(name)")
                #expect(server.receivedRequests.last?.header("Accept") == "text/plain")
                let csv = try await client.getReportCSV(id: 9)
                #expect(csv == "café,1", "\(name)")
                #expect(server.receivedRequests.last?.header("Accept") == "text/csv")
            }
        }
    }

    @Test("Text that is not valid in its charset, or in a charset Courier does not read, is a decoding failure keeping the bytes")
    func badText() async throws {
        try await withServer { server in
            let invalid = Data([0x61, 0xFF, 0xFE, 0x62])
            for (contentType, reason) in [("text/plain", "not valid UTF-8"), ("text/plain; charset=shift_jis", "shift_jis")] {
                server.route("GET", "/reports/10/text", .respond(TestServer.Reply(status: 200, headers: [("Content-Type", contentType)], body: invalid)))
                for (name, client) in Self.clients(server) {
                    let error = await failure { () async throws(APIError<GetReportTextFailure>) in try await client.getReportText(id: 10) }
                    guard case .decoding(let decoding) = error else {
                        Issue.record("\(name): expected decoding, got \(String(describing: error))")
                        continue
                    }
                    #expect(decoding.reason.contains(reason), "\(name): \(decoding.reason)")
                    #expect(decoding.response.body == invalid)
                }
            }
        }
    }

    @Test("Binary and vendor JSON responses: the bytes as sent, and Accept names the declared types")
    func binaryAndVendorJSON() async throws {
        try await withServer { server in
            let pdf = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            server.route("GET", "/reports/11/pdf", .respond(TestServer.Reply(status: 200, headers: [("Content-Type", "application/pdf")], body: pdf)))
            server.route("GET", "/reports/11/vendor", .respond(TestServer.Reply(
                status: 200, headers: [("Content-Type", "application/vnd.reports+json")], body: Data(Self.report.utf8))))
            for (name, client) in Self.clients(server) {
                let bytes = try await client.getReportPDF(id: 11)
                #expect(bytes == pdf, "\(name)")
                #expect(server.receivedRequests.last?.header("Accept") == "application/pdf")
                let vendor = try await client.getReportVendor(id: 11)
                #expect(vendor == Report(id: 7, title: "Q3"), "\(name)")
                #expect(server.receivedRequests.last?.header("Accept") == "application/vnd.reports+json")
            }
        }
    }
}
