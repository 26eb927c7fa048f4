import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// A failure enum in the shape the generator emits for body and header discriminators.
enum PaymentFailure: EndpointFailure, Equatable {
    case cardDeclined(ErrorBody<Problem>)
    case insufficientFunds(ErrorBody<Problem>)
    case validation(ErrorBody<Problem>)
    case maintenance(ErrorBody<Problem>)
    case otherClientError(ErrorBody<Problem>)

    static func map(_ response: RawResponse) -> PaymentFailure? {
        if response.header("X-Maintenance") == "true" {
            return .maintenance(response.errorBody())
        }
        switch response.status.code {
        case 402:
            switch response.discriminator(at: "error.code") {
            case "card_declined": return .cardDeclined(response.errorBody())
            case "insufficient_funds": return .insufficientFunds(response.errorBody())
            default: return .otherClientError(response.errorBody())
            }
        case 422 where response.discriminator(at: "errors[0].code") == "invalid":
            return .validation(response.errorBody())
        case 400...499:
            return .otherClientError(response.errorBody())
        default:
            return nil
        }
    }
}

@Suite struct ResponseMappingTests {
    @Test func successDecodesWithTheConfiguredCoding() async throws {
        struct Event: Decodable, Sendable {
            var eventName: String
            var startsAt: Date
        }
        let stub = StubTransport()
        stub.on(.get, "/", .json(#"{"event_name":"launch","starts_at":"2025-01-31T09:30:00.250Z"}"#))
        let client = stubClient(stub) { $0.coding = JSONCoding(keyStyle: .snakeCase, dateFormat: .iso8601) }
        let event = try await client.send(Probe<Event, Never>())
        #expect(event.eventName == "launch")
        #expect(event.startsAt == Date(timeIntervalSince1970: 1_738_315_800.25))
    }

    @Test(arguments: [
        (JSONCoding.DateFormat.iso8601, #""1970-01-01T00:01:40Z""#),
        (.iso8601, #""1970-01-01T09:01:40+09:00""#),
        (.iso8601WithFractionalSeconds, #""1970-01-01T00:01:40Z""#),
        (.iso8601WithFractionalSeconds, #""1970-01-01T00:01:40.000Z""#),
        (.secondsSince1970, "100"),
        (.millisecondsSince1970, "100000"),
    ])
    func datesDecodeInEveryFormat(format: JSONCoding.DateFormat, json: String) throws {
        struct Box: Decodable { var at: Date }
        let decoder = JSONCoding(dateFormat: format).makeDecoder()
        let box = try decoder.decode(Box.self, from: Data(#"{"at":\#(json)}"#.utf8))
        #expect(box.at == Date(timeIntervalSince1970: 100))
    }

    @Test func noContentIgnoresWhateverBodyArrives() async throws {
        let stub = StubTransport()
        stub.on(.delete, "/users/{id}", .status(204), .json("{}", status: 200))
        let client = stubClient(stub)
        let first = try await client.response(for: DeleteUser(id: 1))
        #expect(first.status == .noContent)
        #expect(try await client.response(for: DeleteUser(id: 1)).status == .ok)
        #expect(stub.receivedRequests.map(\.path) == ["/users/1", "/users/1"])
    }

    @Test func dataResponsesAreReturnedRaw() async throws {
        let stub = StubTransport()
        stub.on(.get, "/", .status(200, body: Data([0, 255, 1])))
        let bytes = try await stubClient(stub).send(Probe<Data, Never>())
        #expect(bytes == Data([0, 255, 1]))
    }

    @Test func explicitSuccessStatusesTurnOtherTwoHundredsIntoUndocumented() async {
        let stub = StubTransport()
        stub.on(.post, "/", .json(#"{"id":1,"name":"a"}"#, status: 202))
        let error = await capture { () async throws(APIError<UserFailure>) in
            try await stubClient(stub).send(UserProbe(method: .post, successStatuses: [200, 201]))
        }
        #expect(error?.category == .undocumentedStatus)
        #expect(error?.status?.code == 202)
    }

    @Test func documentedStatusesDecodeIntoTheirCaseWithTheBody() async {
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .json(#"{"code":"user_missing","message":"No such user","detail":"id 7"}"#, status: 404))
        let error = await capture { () async throws(APIError<UserFailure>) in
            try await stubClient(stub).send(GetUser(id: "7"))
        }
        guard case .endpoint(.notFound(let body), let response) = error else {
            Issue.record("expected .endpoint(.notFound), got \(String(describing: error))")
            return
        }
        #expect(body.value == Problem(code: "user_missing", message: "No such user", detail: "id 7"))
        #expect(body.code == "user_missing")
        #expect(response.status == .notFound)
        #expect(error?.errorDescription == "That user does not exist.")
    }

    @Test func anUndecodableErrorBodyStillYieldsItsCaseWithTheRawBody() async {
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .status(503, headers: ["Content-Type": "text/html"], body: Data("<h1>Down</h1>".utf8)))
        let error = await capture { () async throws(APIError<UserFailure>) in
            try await stubClient(stub).send(GetUser(id: "1"))
        }
        guard case .endpoint(.server(let body), _) = error else {
            Issue.record("expected .endpoint(.server), got \(String(describing: error))")
            return
        }
        #expect(body.value == nil)
        #expect(body.text == "<h1>Down</h1>")
        #expect(body.decodingFailure != nil)
    }

    @Test(arguments: [
        (402, #"{"error":{"code":"card_declined","message":"m"}}"#, [String: String](), "cardDeclined"),
        (402, #"{"error":{"code":"insufficient_funds"}}"#, [:], "insufficientFunds"),
        (402, #"{"error":{"code":"something_new"}}"#, [:], "otherClientError"),
        (422, #"{"errors":[{"code":"invalid"},{"code":"other"}]}"#, [:], "validation"),
        (422, #"{"errors":[]}"#, [:], "otherClientError"),
        (402, "not json", [:], "otherClientError"),
        (503, "", ["X-Maintenance": "true"], "maintenance"),
    ])
    func discriminatorsPickTheRightCase(status: Int, body: String, headers: [String: String], expected: String) async {
        let stub = StubTransport()
        stub.on(.post, "/", .json(body, status: status, headers: headers))
        let error = await capture { () async throws(APIError<PaymentFailure>) in
            try await stubClient(stub).send(Probe<NoContent, PaymentFailure>(method: .post))
        }
        guard case .endpoint(let failure, _) = error else {
            Issue.record("expected an endpoint failure, got \(String(describing: error))")
            return
        }
        #expect(String(describing: failure).hasPrefix(expected + "("))
    }

    @Test func anUnmappedStatusIsUndocumentedWithStatusHeadersAndBody() async {
        let stub = StubTransport()
        stub.on(.post, "/", .status(502, headers: ["X-Upstream": "db"], body: Data("bad gateway".utf8)))
        let error = await capture { () async throws(APIError<PaymentFailure>) in
            try await stubClient(stub).send(Probe<NoContent, PaymentFailure>(method: .post))
        }
        guard case .undocumentedStatus(let response) = error else {
            Issue.record("expected undocumentedStatus, got \(String(describing: error))")
            return
        }
        #expect(response.status.code == 502)
        #expect(response.header("x-upstream") == "db")
        #expect(response.text == "bad gateway")
        #expect(error?.headerFields?[HTTPField.Name("X-Upstream")!] == "db")
    }

    @Test func aSuccessBodyThatDoesNotMatchGivesTheCodingPathAndABodyPrefix() async {
        struct Page: Decodable, Sendable { var items: [User] }
        let stub = StubTransport()
        stub.on(.get, "/", .json(#"{"items":[{"id":1,"name":"a"},{"id":"two","name":"b"}]}"#))
        let error = await capture { () async throws(APIError<Never>) in
            try await stubClient(stub).send(Probe<Page, Never>())
        }
        guard case .decoding(let failure) = error else {
            Issue.record("expected decoding, got \(String(describing: error))")
            return
        }
        #expect(failure.codingPath == "items[1].id")
        #expect(failure.bodyPrefix.hasPrefix(#"{"items":[{"id":1"#))
        #expect(error?.debugDescription.contains("items[1].id") == true)
    }

    @Test func aMissingKeyNamesTheKeyAndAnEmptyBodyIsExplained() async {
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", .json(#"{"id":1}"#), .status(200))
        let client = stubClient(stub)
        let missing = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
        guard case .decoding(let failure) = missing else {
            Issue.record("expected decoding, got \(String(describing: missing))")
            return
        }
        #expect(failure.codingPath == "name")
        let empty = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
        guard case .decoding(let emptyFailure) = empty else {
            Issue.record("expected decoding, got \(String(describing: empty))")
            return
        }
        #expect(emptyFailure.reason.contains("empty"))
    }

    @Test(arguments: [
        ("type", #"{"type":"quota"}"#, "quota"),
        ("error.code", #"{"error":{"code":42}}"#, "42"),
        ("errors[0].code", #"{"errors":[{"code":"x"}]}"#, "x"),
        ("errors[1].code", #"{"errors":[{"code":"x"}]}"#, nil),
        ("flag", #"{"flag":true}"#, "true"),
        ("error", #"{"error":{"code":1}}"#, nil),
        ("a..b", #"{"a":{"b":"c"}}"#, nil),
        ("type", "<html>", nil),
    ] as [(String, String, String?)])
    func discriminatorPaths(path: String, body: String, expected: String?) {
        let response = RawResponse(status: .badRequest, body: Data(body.utf8))
        #expect(response.discriminator(at: path) == expected)
    }
}
