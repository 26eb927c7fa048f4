import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceDiscriminators
import Testing

/// A case without a message of its own names the response's status, whatever envelope its
/// error schema comes in: the Discriminators reference client against the real loopback
/// server, through both transports. An envelope (`wrappedIn`, `arrayIn`) is decoded and then
/// unwrapped into the error object, and the status must survive that step as it does for a
/// plain object body.
@Suite("Error envelopes keep the status (loopback server)", .timeLimit(.minutes(10)))
struct EnvelopeStatusTests {
    static let urlSession = URLSessionTransport()
    static let payment = Payment(amount: 100, currency: "eur")

    /// One envelope kind: the status and body the server answers with, the case it maps to and
    /// the message that case must show.
    struct Envelope: Sendable, CustomTestStringConvertible {
        var kind: String
        var status: Int
        var body: String
        var expectedCase: String
        var expectedMessage: String
        var testDescription: String { kind }
    }

    static let envelopes = [
        Envelope(kind: "wrappedIn (Stripe)", status: 402, body: #"{"error": {"type": "card_error", "code": "expired_card"}}"#,
                 expectedCase: "expiredCard", expectedMessage: "The server answered 402 Payment Required."),
        Envelope(kind: "arrayIn (JSON:API)", status: 422, body: #"{"errors": [{"status": "422", "code": "too_small"}]}"#,
                 expectedCase: "amountTooSmall", expectedMessage: "The server answered 422 Unprocessable Content."),
        // The control: a plain object body, which was never unwrapped.
        Envelope(kind: "object (no envelope)", status: 409, body: #"{"code": "something_else"}"#,
                 expectedCase: "conflict", expectedMessage: "The server answered 409 Conflict."),
    ]

    /// The case's name and the status its body carries.
    static func describe(_ failure: PayFailure) -> (name: String, status: Int?) {
        switch failure {
        case .expiredCard(let body): ("expiredCard", body.responseStatus?.code)
        case .amountTooSmall(let body): ("amountTooSmall", body.responseStatus?.code)
        case .conflict(let body): ("conflict", body.responseStatus?.code)
        default: ("\(failure)", nil)
        }
    }

    @Test("A case without a message names the status through each envelope", arguments: envelopes)
    func messageNamesTheStatus(envelope: Envelope) async throws {
        try await withServer { server in
            server.route("POST", "/payments", .respond(.json(envelope.body, status: envelope.status)))
            let clients = clientsOverBothTransports(urlSession: Self.urlSession) {
                DiscriminatorsClient(baseURL: server.baseURL, transport: $0)
            }
            for (transport, client) in clients {
                let error = await failure { () async throws(APIError<PayFailure>) in try await client.pay(body: Self.payment) }
                guard case .endpoint(let failure, _)? = error else {
                    Issue.record("\(transport): expected an endpoint failure, got \(String(describing: error))")
                    continue
                }
                let (name, status) = Self.describe(failure)
                #expect(name == envelope.expectedCase, "\(transport)")
                #expect(status == envelope.status, "\(transport): the unwrapped body lost its response status")
                #expect(failure.errorDescription == envelope.expectedMessage, "\(transport)")
                #expect(error?.localizedDescription == envelope.expectedMessage, "\(transport)")
            }
        }
    }
}
