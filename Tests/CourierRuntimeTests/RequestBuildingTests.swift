import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct RequestBuildingTests {
    private func sent<Response, Failure>(
        _ request: Probe<Response, Failure>,
        baseURL: URL = testBaseURL,
        configure: (inout APIClient.Configuration) -> Void = { _ in }
    ) async throws -> StubTransport.RecordedRequest {
        let stub = StubTransport()
        stub.on(request.method, request.path.template.contains("{") ? "/{any}" : "/", .status(204))
        var configuration = APIClient.Configuration()
        configure(&configuration)
        let client = APIClient(baseURL: baseURL, transport: stub, configuration: configuration)
        _ = await capture { () async throws(APIError<Failure>) in try await client.send(request) }
        return try #require(stub.receivedRequests.first)
    }

    @Test(arguments: [
        ("../admin", "/items/..%2Fadmin"),
        ("a/b?c#d", "/items/a%2Fb%3Fc%23d"),
        ("with space", "/items/with%20space"),
        ("ünï", "/items/%C3%BCn%C3%AF"),
        ("..", "/items/%2E%2E"),
        (".", "/items/%2E"),
        ("100%", "/items/100%25"),
    ])
    func pathValuesStayInTheirSegment(value: String, expected: String) async throws {
        let stub = StubTransport()
        stub.on(.get, "/items/{id}", .status(204))
        let client = stubClient(stub)
        let request = Probe<NoContent, Never>(path: RequestPath("/items/{id}", ["id": value]))
        _ = try await client.send(request)
        #expect(stub.receivedRequests.map(\.path) == [expected])
    }

    @Test(arguments: [
        ("/files/café/{name}", "x/y", "/files/caf%C3%A9/x%2Fy"),
        ("/a%20b/{name}", "x%2Fy", "/a%2520b/x%252Fy"),
        ("/q?x#y/{name}", "1", "/q%3Fx%23y/1"),
        ("/keep:@!$&'()*+,;=-._~/{name}", "1", "/keep:@!$&'()*+,;=-._~/1"),
        ("/with space/{name}.json", "a b", "/with%20space/a%20b.json"),
        ("/open{brace", "unused", "/open%7Bbrace"),
    ] as [(String, String, String)])
    func templateLiteralsArePercentEncodedOnce(template: String, value: String, expected: String) async throws {
        let recorded = try await sent(Probe<NoContent, Never>(path: RequestPath(template, ["name": value])))
        #expect(recorded.path == expected)
    }

    @Test func baseURLPathIsKeptAndPlaceholdersMayShareASegment() async throws {
        let stub = StubTransport()
        stub.on(.get, "/v2/files/{name}", .status(204))
        let client = APIClient(baseURL: URL(string: "https://api.test/v2/")!, transport: stub)
        let request = Probe<NoContent, Never>(path: RequestPath("/files/{name}.{ext}", ["name": "a b", "ext": "json"]))
        _ = try await client.send(request)
        let recorded = try #require(stub.receivedRequests.first)
        #expect(recorded.path == "/v2/files/a%20b.json")
        #expect(recorded.head.scheme == "https")
        #expect(recorded.head.authority == "api.test")
    }

    @Test func queryOmitsNilsRepeatsArraysAndSpellsBooleansAndDates() async throws {
        let since = Date(timeIntervalSince1970: 1_700_000_000)
        let missing: Int? = nil
        let request = Probe<NoContent, Never>(query: [
            "tags": ["a b", "c&d"], "limit": missing, "active": true, "since": since, "q": "x=y#z", "ratio": 1.5,
        ])
        let recorded = try await sent(request)
        #expect(recorded.query == "tags=a%20b&tags=c%26d&active=true&since=2023-11-14T22%3A13%3A20Z&q=x%3Dy%23z&ratio=1.5")
    }

    @Test func queryStylesFollowTheConfiguration() async throws {
        let request = Probe<NoContent, Never>(query: ["ids": [1, 2], "on": false, "at": Date(timeIntervalSince1970: 10)])
        let comma = try await sent(request) {
            $0.query = QueryEncoding(arrayStyle: .commaSeparated, booleanStyle: .numeric)
            $0.coding.dateFormat = .secondsSince1970
        }
        #expect(comma.query == "ids=1,2&on=0&at=10")
        let brackets = try await sent(request) { $0.query.arrayStyle = .bracketed }
        #expect(brackets.query == "ids%5B%5D=1&ids%5B%5D=2&on=false&at=1970-01-01T00%3A00%3A10Z")
    }

    @Test func generatedStringEnumsAndOptionalsNeedOnlyTheConformance() async throws {
        enum Sort: String, ParameterConvertible { case newest, mostLiked = "most_liked" }
        let one: Sort? = .mostLiked
        let none: Sort? = nil
        let many: [Sort]? = [.newest, .mostLiked]
        let request = Probe<NoContent, Never>(
            path: RequestPath("/", [:]), query: ["sort": one, "other": none, "all": many])
        let recorded = try await sent(request)
        #expect(recorded.query == "sort=most_liked&all=newest&all=most_liked")
    }

    @Test func defaultAndPerCallHeadersAreSentAndCallHeadersWin() async throws {
        var defaults = HTTPFields()
        defaults[HTTPField.Name("X-Client")!] = "courier"
        defaults[HTTPField.Name("X-Trace")!] = "default"
        let request = Probe<NoContent, Never>(headers: ["X-Trace": "call", "X-Page": 2, "X-Absent": Optional<String>.none])
        let recorded = try await sent(request) { $0.defaultHeaderFields = defaults }
        #expect(recorded.header("X-Client") == "courier")
        #expect(recorded.header("X-Trace") == "call")
        #expect(recorded.header("X-Page") == "2")
        #expect(recorded.header("X-Absent") == nil)
        #expect(recorded.header("Accept") == "application/json")
    }

    @Test(arguments: ["evil\r\nX-Injected: 1", "line\nbreak", "carriage\rreturn", "nul\0byte"])
    func headerValuesWithLineBreaksAreRejectedBeforeSending(value: String) async {
        let stub = StubTransport()
        stub.on(.get, "/", .status(204))
        let client = stubClient(stub)
        let error = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>(headers: ["X-Note": value]))
        }
        guard case .invalidRequest(let invalid) = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(invalid.reason == .headerValueContainsLineBreak(name: "X-Note"))
        #expect(stub.receivedRequests.isEmpty)
        #expect(error?.failureReason?.contains("X-Injected") == false)
    }

    @Test("Part headers a spec declares are checked and added to the file's own header fields, replacing one of the same name")
    func declaredPartHeaders() async throws {
        var own = HTTPFields()
        own[try #require(HTTPField.Name("X-Checksum"))] = "stale"
        own[try #require(HTTPField.Name("Content-ID"))] = "<a>"
        let file = MultipartForm.File(filename: "a.txt", contentType: "text/plain", data: Data("x".utf8), headerFields: own)
            .withPartHeaders(["X-Checksum": "fresh", "X-Missing": String?.none, "X-Count": 3])
        #expect(file.partHeaders.items.map(\.name) == ["X-Checksum", "X-Count"])
        let recorded = try await sent(Probe<NoContent, Never>(method: .post, path: "/",
                                                                            body: .multipartFields(nil, files: [("a", file)], style: .brackets)))
        let text = String(decoding: recorded.body ?? Data(), as: UTF8.self)
        #expect(text.contains("Content-Type: text/plain\r\nX-Checksum: fresh\r\nContent-ID: <a>\r\nX-Count: 3\r\n\r\nx\r\n"), "\(text)")

        let client = stubClient(StubTransport())
        func reason(_ file: MultipartForm.File) async -> InvalidRequest.Reason? {
            let error = await capture { () async throws(APIError<Never>) in
                try await client.send(Probe<NoContent, Never>(method: .post, path: "/",
                                                                            body: .multipartFields(nil, files: [("a", file)], style: .brackets)))
            }
            guard case .invalidRequest(let invalid) = error else { return nil }
            return invalid.reason
        }
        let plain = MultipartForm.File(filename: "a.txt", contentType: "text/plain", data: Data())
        #expect(await reason(plain.withPartHeaders(["Bad Name": "x"])) == .invalidHeaderName("Bad Name"))
        #expect(await reason(plain.withPartHeaders(["X-Note": "a\r\nX-Admin: 1"]))
                == .bodyEncodingFailed(MultipartForm.EncodingError.invalidPartHeader(partName: "a", field: "X-Note").description))
        #expect(await reason(plain.withPartHeaders(["content-type": "text/html"]))
                == .bodyEncodingFailed(MultipartForm.EncodingError.invalidPartHeader(partName: "a", field: "content-type").description))
    }

    @Test func invalidHeaderNamesAndMissingPathValuesAreTypedErrors() async {
        let client = stubClient(StubTransport())
        let badName = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>(headers: ["Bad Name": "x"]))
        }
        #expect(badName?.category == .invalidRequest)
        let missing = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>(path: RequestPath("/users/{id}")))
        }
        guard case .invalidRequest(let invalid) = missing else {
            Issue.record("expected invalidRequest, got \(String(describing: missing))")
            return
        }
        #expect(invalid.reason == .missingPathValue("id"))
        #expect(invalid.operationName == "probe")
    }

    @Test func aBaseURLWithoutHostFailsEveryCallWithATypedError() async {
        let stub = StubTransport()
        let client = APIClient(baseURL: URL(fileURLWithPath: "/tmp"), transport: stub)
        let error = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>())
        }
        guard case .invalidRequest(let invalid) = error, case .invalidBaseURL = invalid.reason else {
            Issue.record("expected invalidBaseURL, got \(String(describing: error))")
            return
        }
        #expect(stub.receivedRequests.isEmpty)
    }

    @Test func jsonBodiesUseTheClientCoding() async throws {
        struct NewUser: Encodable, Sendable {
            var displayName: String
            var createdAt: Date
        }
        let request = Probe<NoContent, Never>(
            method: .post,
            body: .json(NewUser(displayName: "Ada", createdAt: Date(timeIntervalSince1970: 0.25)))
        )
        let recorded = try await sent(request) {
            $0.coding = JSONCoding(keyStyle: .snakeCase, dateFormat: .iso8601WithFractionalSeconds)
        }
        #expect(recorded.header("Content-Type") == "application/json")
        #expect(String(decoding: recorded.body ?? Data(), as: UTF8.self) == #"{"created_at":"1970-01-01T00:00:00.250Z","display_name":"Ada"}"#)
    }

    @Test func formAndRawBodies() async throws {
        let form = try await sent(Probe<NoContent, Never>(method: .post, body: .form(["name": "a b&c", "n": 1])))
        #expect(form.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(String(decoding: form.body ?? Data(), as: UTF8.self) == "name=a+b%26c&n=1")
        let raw = try await sent(Probe<NoContent, Never>(method: .put, body: .data(Data([1, 2, 3]), contentType: "application/octet-stream")))
        #expect(raw.header("Content-Type") == "application/octet-stream")
        #expect(raw.body == Data([1, 2, 3]))
    }

    @Test func anUnencodableBodyIsATypedError() async {
        struct Bad: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(Double.nan, .init(codingPath: [], debugDescription: "NaN is not JSON"))
            }
        }
        let client = stubClient(StubTransport())
        let error = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>(method: .post, body: .json(Bad())))
        }
        guard case .invalidRequest(let invalid) = error, case .bodyEncodingFailed = invalid.reason else {
            Issue.record("expected bodyEncodingFailed, got \(String(describing: error))")
            return
        }
    }

    @Test func idempotencyKeyIsGeneratedOncePerCallAndKeptAcrossAuthReplay() async throws {
        let stub = StubTransport()
        stub.on(.post, "/", .status(401), .status(204))
        let client = stubClient(stub) {
            $0.auth = .bearer(token: { "t" }, onUnauthorized: { _ in .replay })
        }
        _ = try await client.send(Probe<NoContent, Never>(method: .post, idempotencyKeyHeader: .idempotencyKey))
        let keys = stub.receivedRequests.map { $0.header("Idempotency-Key") }
        #expect(keys.count == 2)
        #expect(keys[0] != nil && keys[0] == keys[1])
        _ = try await client.send(Probe<NoContent, Never>(method: .post, idempotencyKeyHeader: .idempotencyKey))
        #expect(stub.receivedRequests[2].header("Idempotency-Key") != keys[0])
    }

    @Test func idempotencyKeyGoesInTheHeaderTheRequestNames() async throws {
        let stub = StubTransport()
        stub.on(.post, "/", .status(500), .status(204))
        // Zero jitter: the retry's backoff is zero, so the test sleeps no real time.
        let client = stubClient(stub) { $0.resilience = Resilience(jitter: .constant(0), sharing: .isolated) }
        let header = try #require(HTTPField.Name("X-Idempotency-Key"))
        _ = try await client.send(Probe<NoContent, Never>(method: .post, idempotencyKeyHeader: header))
        let keys = stub.receivedRequests.map { $0.header("X-Idempotency-Key") }
        // The key makes the POST safe to repeat, so the 500 is retried with the same key.
        #expect(keys.count == 2)
        #expect(keys[0] != nil && keys[0] == keys[1])
        #expect(stub.receivedRequests.allSatisfy { $0.header("Idempotency-Key") == nil })
    }

    @Test func idempotencyFollowsTheMethodByDefault() {
        #expect(Probe<NoContent, Never>(method: .get).isIdempotent)
        #expect(Probe<NoContent, Never>(method: .put).isIdempotent)
        #expect(Probe<NoContent, Never>(method: .delete).isIdempotent)
        #expect(!Probe<NoContent, Never>(method: .post).isIdempotent)
        #expect(!Probe<NoContent, Never>(method: .patch).isIdempotent)
    }
}
