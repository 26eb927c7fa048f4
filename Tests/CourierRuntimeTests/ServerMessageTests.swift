@_spi(Generated) import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// A Stripe-style error body: the user-facing text is `error.message`.
struct StripeStyleError: Codable, Sendable, Equatable {
    struct Detail: Codable, Sendable, Equatable {
        var type: String
        var message: String?
    }

    var error: Detail
}

/// A failure enum written as the generator will write one for a spec with
/// `message: { field: error.message, fallback: … }`, a fixed message, no message, and a
/// payload-less range case.
enum ChargeFailure: EndpointFailure, LocalizedError, Equatable {
    /// 402, `message: { field: error.message, fallback: "The card was declined." }`.
    case cardDeclined(ErrorBody<StripeStyleError>)
    /// 404, `message: { field: error.message }` with no fallback.
    case notFound(ErrorBody<StripeStyleError>)
    /// 409, no message at all.
    case conflict(ErrorBody<StripeStyleError>)
    /// 410, `message: "This charge has expired."`.
    case expired
    /// 5XX, no body kept, no message.
    case serverError

    static func map(_ response: RawResponse) -> ChargeFailure? {
        switch response.status.code {
        case 402: .cardDeclined(response.errorBody())
        case 404: .notFound(response.errorBody())
        case 409: .conflict(response.errorBody())
        case 410: .expired
        case 500...599: .serverError
        default: nil
        }
    }

    var errorDescription: String? {
        switch self {
        case .cardDeclined(let body): FailureMessage.text(for: body, field: "error.message", fallback: "The card was declined.")
        case .notFound(let body): FailureMessage.text(for: body, field: "error.message")
        case .conflict(let body): FailureMessage.text(for: body)
        case .expired: "This charge has expired."
        case .serverError: FailureMessage.statusSentence(in: 500...599)
        }
    }
}

struct GetCharge: APIRequest {
    typealias Response = User
    typealias Failure = ChargeFailure
    var id: String
    var method: HTTPRequest.Method { .get }
    var path: RequestPath { RequestPath("/charges/{id}", ["id": id]) }
    var operationName: String { "getCharge" }
}

/// `errorDescription`, and so `localizedDescription` on every platform, is the server's text
/// when the spec names a field for it, else the spec's text, else a sentence naming the status;
/// never Foundation's "The operation could not be completed" placeholder.
@Suite(.timeLimit(.minutes(10))) struct ServerMessageTests {
    static func json(_ status: Int, _ text: String) -> TestServer.Behavior {
        .respond(.json(text, status: status))
    }

    /// Calls `GET /charges/{id}` against a server that answers `behavior`, and returns the
    /// documented failure.
    static func failure(_ behavior: TestServer.Behavior, _ kind: TransportKind) async throws -> (ChargeFailure?, APIError<ChargeFailure>?) {
        try await withServer { server in
            server.route("GET", "/charges/ch_1", behavior)
            let api = client(for: server, kind) { $0.resilience = .singleAttempt }
            let error = await capture { () async throws(APIError<ChargeFailure>) -> User in try await api.send(GetCharge(id: "ch_1")) }
            #expect(server.requestCount("GET", "/charges/ch_1") == 1)
            return (error?.endpointFailure, error)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theServersWordsAreTheMessage(kind: TransportKind) async throws {
        let (failure, error) = try await Self.failure(
            Self.json(402, #"{"error":{"type":"card_error","message":"Your card has insufficient funds."}}"#), kind)
        guard case .cardDeclined(let body) = failure else {
            Issue.record("expected cardDeclined, got \(String(describing: failure))")
            return
        }
        #expect(body.value?.error.type == "card_error")
        #expect(body.responseStatus == 402)
        #expect(failure?.errorDescription == "Your card has insufficient funds.")
        // The Handling errors article's idiom, through Foundation's bridging on Linux and on Apple platforms.
        #expect(failure?.localizedDescription == "Your card has insufficient funds.")
        #expect(error?.localizedDescription == "Your card has insufficient funds.")
    }

    @Test(arguments: TransportKind.allCases)
    func theSpecsTextWhenTheBodyHasNone(kind: TransportKind) async throws {
        // The field is there but blank, then absent, then the body is not JSON at all.
        for text in [#"{"error":{"type":"card_error","message":"  "}}"#, #"{"error":{"type":"card_error"}}"#, "<html>402</html>"] {
            let (failure, error) = try await Self.failure(Self.json(402, text), kind)
            #expect(failure?.localizedDescription == "The card was declined.", "\(text)")
            #expect(error?.localizedDescription == "The card was declined.", "\(text)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSentenceNamingTheStatusWhenNeitherExists(kind: TransportKind) async throws {
        let (notFound, _) = try await Self.failure(Self.json(404, #"{"error":{"type":"invalid_request_error"}}"#), kind)
        #expect(notFound?.localizedDescription == "The server answered 404 Not Found.")
        let (conflict, conflictError) = try await Self.failure(Self.json(409, #"{"error":{"type":"x","message":"ignored: no field named"}}"#), kind)
        #expect(conflict?.localizedDescription == "The server answered 409 Conflict.")
        #expect(conflictError?.localizedDescription == "The server answered 409 Conflict.")
        let (server, serverError) = try await Self.failure(.respond(.status(503)), kind)
        #expect(server == .serverError)
        #expect(server?.localizedDescription == "The server answered with an error (5XX).")
        #expect(serverError?.localizedDescription == "The server answered with an error (5XX).")
        let (expired, _) = try await Self.failure(.respond(.status(410)), kind)
        #expect(expired?.localizedDescription == "This charge has expired.")
    }

    @Test func anEndpointFailureWithoutAnyMessageStillNamesTheStatusThroughAPIError() {
        let raw = RawResponse(status: 418, body: Data("{}".utf8))
        let error = APIError<Silent>.endpoint(.teapot, raw)
        #expect(error.localizedDescription == "The server answered with status 418.")
        let notFound = APIError<Silent>.endpoint(.teapot, RawResponse(status: 404))
        #expect(notFound.errorDescription == "The server answered 404 Not Found.")
    }

    /// A failure type that gives no message of its own.
    enum Silent: EndpointFailure {
        case teapot
        static func map(_ response: RawResponse) -> Silent? { .teapot }
    }

    @Test func serverTextIsReadAtNestedPathsAndArrayIndices() {
        let body = Data(#"{"errors":[{"detail":"first"},{"detail":"second"}],"message":42,"flag":null}"#.utf8)
        #expect(FailureMessage.serverText(at: "errors[1].detail", in: body) == "second")
        #expect(FailureMessage.serverText(at: "errors[0].detail", in: body) == "first")
        // A number is shown in its JSON spelling; `null`, a container or nothing is no text.
        #expect(FailureMessage.serverText(at: "message", in: body) == "42")
        #expect(FailureMessage.serverText(at: "flag", in: body) == nil)
        #expect(FailureMessage.serverText(at: "errors", in: body) == nil)
        #expect(FailureMessage.serverText(at: "errors[2].detail", in: body) == nil)
        #expect(FailureMessage.serverText(at: "", in: body) == nil)
        #expect(FailureMessage.text(field: "missing", in: body, fallback: nil, status: nil) == FailureMessage.genericSentence)
    }

    @Test func aHugeServerMessageIsCutSoItCannotFloodTheScreen() {
        let long = String(repeating: "a", count: 10_000)
        let body = Data(#"{"error":{"message":"\#(long)"}}"#.utf8)
        let text = FailureMessage.serverText(at: "error.message", in: body)
        #expect(text?.count == FailureMessage.maximumServerTextLength + 1)
        #expect(text?.hasSuffix("…") == true)
    }

    @Test func unicodeEscapesInTheServersTextAreDecoded() {
        let body = Data(#"{"error":{"message":"Caf\u00e9 \u201cclosed\u201d"}}"#.utf8)
        #expect(FailureMessage.serverText(at: "error.message", in: body) == "Café “closed”")
    }

    @Test func statusSentences() {
        #expect(FailureMessage.statusSentence(404) == "The server answered 404 Not Found.")
        #expect(FailureMessage.statusSentence(599) == "The server answered with status 599.")
        // A failure reported inside a success status (Slack) must not read as a success.
        #expect(FailureMessage.statusSentence(200) == "The server reported a failure in its 200 answer.")
        #expect(FailureMessage.statusSentence(in: 400...499) == "The server answered with an error (4XX).")
        #expect(FailureMessage.statusSentence(in: 422...422) == "The server answered 422 Unprocessable Content.")
        #expect(FailureMessage.statusSentence(in: 500...503) == "The server answered with an error (500–503).")
    }
}
