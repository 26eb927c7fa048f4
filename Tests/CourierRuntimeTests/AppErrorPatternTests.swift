import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

// The error types apps hand-write today, each derived from APIError in a few lines. If one
// of these needed more than a switch, the taxonomy would be missing something.

/// The common hand-written `APIError` enum.
enum AppAPIError: Equatable {
    case networkError
    case httpError(Int)
    case decodingError
    case unauthorized
    case forbidden
    case notFound
    case timeout
    case noConnection
    case cancelled

    init<Failure>(_ error: APIError<Failure>) {
        switch error.category {
        case .transport(.timedOut): self = .timeout
        case .transport(.notConnected), .transport(.cannotResolveHost): self = .noConnection
        case .transport(.cancelled): self = .cancelled
        case .transport, .circuitOpen, .invalidRequest: self = .networkError
        case .decoding: self = .decodingError
        case .endpoint, .undocumentedStatus:
            switch error.status?.code {
            case 401: self = .unauthorized
            case 403: self = .forbidden
            case 404: self = .notFound
            default: self = .httpError(error.status?.code ?? 0)
            }
        }
    }
}

/// APIKit's split: the request could not be built, the connection failed, or the response was bad.
enum SessionTaskError: Equatable {
    case requestError
    case connectionError
    case responseError(status: Int?)

    init<Failure>(_ error: APIError<Failure>) {
        switch error {
        case .invalidRequest: self = .requestError
        case .transport, .circuitOpen: self = .connectionError
        case .endpoint, .undocumentedStatus, .decoding: self = .responseError(status: error.status?.code)
        }
    }
}

/// A Laravel app's single error: `{code, message, detail}` bodies and transport failures
/// folded together, with a production message and a debug description.
struct LaravelAppError: Error, CustomDebugStringConvertible {
    var code: String
    var message: String
    var detail: String?
    var debugDescription: String

    init(_ error: APIError<UserFailure>) {
        if case .endpoint(let failure, _) = error, let problem = failure.body.value {
            code = problem.code
            message = problem.message
            detail = problem.detail
        } else {
            code = error.status.map { "http_\($0.code)" } ?? "network"
            message = error.errorDescription ?? "Something went wrong."
            detail = error.recoverySuggestion
        }
        debugDescription = error.debugDescription
    }
}

@Suite struct AppErrorPatternTests {
    private func error(for reply: StubTransport.Reply) async -> APIError<UserFailure>? {
        let stub = StubTransport()
        stub.on(.get, "/users/{id}", reply)
        return await capture { () async throws(APIError<UserFailure>) in try await stubClient(stub).send(GetUser(id: "1")) }
    }

    @Test(arguments: [
        (StubTransport.Reply.json(#"{"code":"c","message":"m"}"#, status: 401), AppAPIError.unauthorized),
        (.status(403), .forbidden),
        (.status(404), .notFound),
        (.status(418), .httpError(418)),
        (.status(500), .httpError(500)),
        (.json("[]"), .decodingError),
        (.failure(.timedOut), .timeout),
        (.failure(.notConnected), .noConnection),
        (.failure(.cannotResolveHost), .noConnection),
        (.failure(.cancelled), .cancelled),
        (.failure(.connectionLost), .networkError),
    ])
    func theCommonAPIErrorEnum(reply: StubTransport.Reply, expected: AppAPIError) async throws {
        let error = try #require(await error(for: reply))
        #expect(AppAPIError(error) == expected)
    }

    @Test func apiKitsConnectionRequestResponseSplit() async throws {
        let connection = try #require(await error(for: .failure(.connectionRefused, requestMayHaveBeenSent: false)))
        #expect(SessionTaskError(connection) == .connectionError)
        let response = try #require(await error(for: .status(500)))
        #expect(SessionTaskError(response) == .responseError(status: 500))
        let decoding = try #require(await error(for: .json("{}")))
        #expect(SessionTaskError(decoding) == .responseError(status: 200))
        let stub = StubTransport()
        let request = await capture { () async throws(APIError<UserFailure>) in
            try await stubClient(stub).send(UserProbe(headers: ["X-Bad": "a\nb"]))
        }
        #expect(request.map(SessionTaskError.init) == .requestError)
    }

    @Test func aLaravelAppErrorFoldsBodiesAndTransportFailures() async throws {
        let documented = try #require(await error(for: .json(
            #"{"code":"E1001","message":"Your session expired.","detail":"token age 3601s"}"#, status: 401,
            headers: ["Set-Cookie": "session=secret-cookie"])))
        let app = LaravelAppError(documented)
        #expect(app.code == "E1001")
        #expect(app.message == "Your session expired.")
        #expect(app.detail == "token age 3601s")
        #expect(app.debugDescription.contains("status: 401"))
        #expect(!app.debugDescription.contains("secret-cookie"))

        let offline = LaravelAppError(try #require(await error(for: .failure(.notConnected))))
        #expect(offline.code == "network")
        #expect(offline.message == "You appear to be offline.")
        #expect(offline.detail == "Check your internet connection and try again.")
        #expect(offline.debugDescription.contains("notConnected"))
    }
}

@Suite struct ErrorDescriptionTests {
    @Test func everyCaseHasAUserFacingAndADebugDescription() {
        let response = RawResponse(status: .serviceUnavailable, body: Data("busy".utf8))
        let errors: [APIError<Never>] = [
            .undocumentedStatus(response),
            .transport(TransportError(.timedOut)),
            .decoding(DecodingFailure(codingPath: "a.b", reason: "expected Int", response: RawResponse(status: .ok))),
            .invalidRequest(InvalidRequest(.missingPathValue("id"), operationName: "getUser")),
            .circuitOpen(CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: Resilience.Host(scheme: "https", host: "api.test")), state: .open, retryAfter: .milliseconds(4500))),
        ]
        for error in errors {
            #expect(error.errorDescription?.isEmpty == false)
            #expect(error.debugDescription != error.errorDescription)
            #expect(error.debugDescription.hasPrefix("APIError."))
        }
        #expect(errors[0].failureReason == "Service Unavailable")
        #expect(errors[0].debugDescription.contains("busy"))
        #expect(errors[3].failureReason == "The path placeholder {id} has no value.")
        #expect(errors[4].recoverySuggestion == "Try again in 5 seconds.")
    }

    @Test(arguments: [
        (APIError<Never>.transport(TransportError(.timedOut)), true),
        (.transport(TransportError(.connectionRefused, requestMayHaveBeenSent: false)), true),
        (.transport(TransportError(.cancelled)), false),
        (.transport(TransportError(.tls)), false),
        (.transport(TransportError(.responseTooLarge)), false),
        (.undocumentedStatus(RawResponse(status: 429)), true),
        (.undocumentedStatus(RawResponse(status: 503)), true),
        (.undocumentedStatus(RawResponse(status: 501)), false),
        (.undocumentedStatus(RawResponse(status: 422)), false),
        (.decoding(DecodingFailure(codingPath: "", reason: "", response: RawResponse(status: .ok))), false),
        (.invalidRequest(InvalidRequest(.missingPathValue("x"), operationName: "o")), false),
        (.circuitOpen(CircuitBreaker.Refusal(key: CircuitBreaker.Key(host: Resilience.Host(scheme: "https", host: "h")), state: .open, retryAfter: .seconds(1))), true),
    ])
    func retryability(error: APIError<Never>, expected: Bool) {
        #expect(error.isRetryable == expected)
    }

    @Test func statusHeadersAndRateLimitAreThereExactlyWhenAResponseIs() {
        var fields = HTTPFields()
        fields[.retryAfter] = "30"
        let withResponse = APIError<Never>.undocumentedStatus(RawResponse(status: 429, headerFields: fields))
        #expect(withResponse.status == .tooManyRequests)
        #expect(withResponse.headerFields?[.retryAfter] == "30")
        #expect(withResponse.rateLimit?.retryAfter == .seconds(30))
        let without = APIError<Never>.transport(TransportError(.timedOut))
        #expect(without.status == nil && without.headerFields == nil && without.rateLimit == nil)
    }

    @Test func mapFailureKeepsEverythingElse() {
        let raw = RawResponse(status: .notFound)
        let error = APIError<UserFailure>.endpoint(.notFound(ErrorBody(value: nil, raw: Data())), raw)
        let mapped: APIError<PaymentFailure> = error.mapFailure { _ in .otherClientError(ErrorBody(value: nil, raw: Data())) }
        #expect(mapped.status == .notFound)
        #expect(mapped.endpointFailure == .otherClientError(ErrorBody(value: nil, raw: Data())))
    }

    @Test func credentialsInResponseHeadersAreRedactedFromDebugDescriptions() {
        var fields = HTTPFields()
        fields[.setCookie] = "sid=abc123"
        fields[HTTPField.Name("X-Request-ID")!] = "r-1"
        let error = APIError<Never>.undocumentedStatus(RawResponse(status: 500, headerFields: fields))
        #expect(!error.debugDescription.contains("abc123"))
        #expect(error.debugDescription.contains("r-1"))
    }
}
