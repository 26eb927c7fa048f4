import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import StripeAPI
import Testing

/// The generated Stripe client against the real loopback server, through URLSession and
/// AsyncHTTPClient: `error.type` then `error.code`, a `decline_code` condition before them, a
/// header condition on 409, with the wrapped error object decoded and the raw body kept.
@Suite("Stripe client (loopback server)")
struct StripeLoopbackTests {
    static let urlSession = URLSessionTransport()
    static let charge = ChargeRequest(amount: 2000, currency: "usd", source: "tok_visa")

    static func error(type: String, code: String? = nil, declineCode: String? = nil) -> String {
        var fields = [#""type": "\#(type)""#, #""message": "Stripe says no.""#, #""doc_url": "https://stripe.com/docs/error-codes""#]
        if let code { fields.append(#""code": "\#(code)""#) }
        if let declineCode { fields.append(#""decline_code": "\#(declineCode)""#) }
        return #"{"error": {\#(fields.joined(separator: ", "))}}"#
    }

    static func withServer(_ body: (TestServer) async throws -> Void) async throws {
        let server = try await TestServer.start()
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func clients(_ server: TestServer) -> [(String, StripeClient)] {
        [
            ("URLSession", StripeClient(baseURL: server.baseURL, transport: Self.urlSession)),
            ("AsyncHTTPClient", StripeClient(baseURL: server.baseURL, transport: AsyncHTTPClientTransport())),
        ]
    }

    /// Which case a failure is, by name, and its body.
    static func describe(_ failure: CreateChargeFailure) -> (String, ErrorBody<StripeError>) {
        switch failure {
        case .idempotencyError(let body): ("idempotencyError", body)
        case .parameterMissing(let body): ("parameterMissing", body)
        case .parameterInvalid(let body): ("parameterInvalid", body)
        case .parameterUnknown(let body): ("parameterUnknown", body)
        case .invalidRequest(let body): ("invalidRequest", body)
        case .apiError(let body): ("apiError", body)
        case .unauthorized(let body): ("unauthorized", body)
        case .insufficientFunds(let body): ("insufficientFunds", body)
        case .cardDeclined(let body): ("cardDeclined", body)
        case .expiredCard(let body): ("expiredCard", body)
        case .incorrectCVC(let body): ("incorrectCVC", body)
        case .cardError(let body): ("cardError", body)
        case .paymentFailed(let body): ("paymentFailed", body)
        case .resourceMissing(let body): ("resourceMissing", body)
        case .lockTimeout(let body): ("lockTimeout", body)
        case .conflict(let body): ("conflict", body)
        case .rateLimited(let body): ("rateLimited", body)
        case .serverError(let body): ("serverError", body)
        }
    }

    struct Scenario: Sendable, CustomTestStringConvertible {
        var status: Int
        var body: String
        var headers: [(String, String)] = []
        var expected: String
        var testDescription: String { "\(status) → \(expected)" }
    }

    static let scenarios: [Scenario] = [
        Scenario(status: 402, body: error(type: "card_error", code: "card_declined", declineCode: "insufficient_funds"), expected: "insufficientFunds"),
        Scenario(status: 402, body: error(type: "card_error", code: "card_declined", declineCode: "generic_decline"), expected: "cardDeclined"),
        Scenario(status: 402, body: error(type: "card_error", code: "expired_card"), expected: "expiredCard"),
        Scenario(status: 402, body: error(type: "card_error", code: "incorrect_cvc"), expected: "incorrectCVC"),
        Scenario(status: 402, body: error(type: "card_error", code: "processing_error"), expected: "cardError"),
        Scenario(status: 402, body: error(type: "card_error"), expected: "cardError"),
        Scenario(status: 402, body: error(type: "api_error"), expected: "paymentFailed"),
        Scenario(status: 400, body: error(type: "invalid_request_error", code: "parameter_missing"), expected: "parameterMissing"),
        Scenario(status: 400, body: error(type: "invalid_request_error", code: "parameter_unknown"), expected: "parameterUnknown"),
        Scenario(status: 400, body: error(type: "invalid_request_error", code: "amount_too_small"), expected: "invalidRequest"),
        Scenario(status: 400, body: error(type: "idempotency_error"), expected: "idempotencyError"),
        Scenario(status: 400, body: error(type: "something_new"), expected: "apiError"),
        Scenario(status: 409, body: error(type: "api_error", code: "lock_timeout"), headers: [("Stripe-Should-Retry", "true")], expected: "lockTimeout"),
        Scenario(status: 409, body: error(type: "api_error", code: "lock_timeout"), headers: [("Stripe-Should-Retry", "false")], expected: "conflict"),
        Scenario(status: 409, body: error(type: "idempotency_error"), expected: "conflict"),
    ]

    @Test("Each Stripe convention reaches its case, error object decoded, raw body kept", arguments: scenarios)
    func createChargeFailures(scenario: Scenario) async throws {
        try await Self.withServer { server in
            server.route("POST", "/v1/charges", .respond(.json(scenario.body, status: scenario.status, headers: scenario.headers)))
            for (name, client) in Self.clients(server) {
                let error = await failure { () async throws(APIError<CreateChargeFailure>) in
                    try await client.createCharge(body: Self.charge)
                }
                guard case .endpoint(let failure, let raw) = error else {
                    Issue.record("\(name): expected an endpoint failure, got \(String(describing: error))")
                    continue
                }
                let (caseName, body) = Self.describe(failure)
                #expect(caseName == scenario.expected, "\(name)")
                #expect(raw.status.code == scenario.status, "\(name)")
                #expect(body.text == scenario.body, "\(name)")
                // The wrapped error object, unwrapped, with snake_case keys.
                #expect(body.value?.message == "Stripe says no.", "\(name)")
                #expect(body.value?.docURL == "https://stripe.com/docs/error-codes", "\(name)")
                let sent = try JSONDecoder().decode([String: JSON].self, from: Data(scenario.body.utf8))
                #expect(body.value?.type == sent["error"]?["type"]?.stringValue, "\(name)")
                #expect(body.value?.code == sent["error"]?["code"]?.stringValue, "\(name)")
                #expect(body.value?.declineCode == sent["error"]?["decline_code"]?.stringValue, "\(name)")
            }
        }
    }

    @Test("A charge that succeeds decodes; a missing customer is resourceMissing")
    func successAndNotFound() async throws {
        try await Self.withServer { server in
            server.route("POST", "/v1/charges", .respond(.json(#"""
                {"id": "ch_1", "object": "charge", "amount": 2000, "currency": "usd", "paid": true, "status": "succeeded",
                 "customer": null, "created": 1700000000}
                """#)))
            server.route("GET", "/v1/customers/cus_404", .respond(.json(
                Self.error(type: "invalid_request_error", code: "resource_missing"), status: 404)))
            for (name, client) in Self.clients(server) {
                let charge = try await client.createCharge(body: Self.charge)
                #expect(charge.id == "ch_1", "\(name)")
                #expect(charge.paid, "\(name)")
                #expect(charge.created == Date(timeIntervalSince1970: 1_700_000_000), "\(name)")
                let missing = await failure { () async throws(APIError<RetrieveCustomerFailure>) in
                    try await client.retrieveCustomer(id: "cus_404")
                }
                if case .endpoint(.resourceMissing(let body), _) = missing {
                    #expect(body.value?.code == "resource_missing", "\(name)")
                } else {
                    Issue.record("\(name): expected resourceMissing, got \(String(describing: missing))")
                }
            }
        }
    }
}
