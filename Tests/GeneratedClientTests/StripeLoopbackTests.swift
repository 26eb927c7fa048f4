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

    static func clients(_ server: TestServer) -> [(String, StripeClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) { StripeClient(baseURL: server.baseURL, transport: $0) }
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
        try await withServer { server in
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
        try await withServer { server in
            server.route("POST", "/v1/charges", .respond(.json(#"""
                {"id": "ch_1", "object": "charge", "amount": 2000, "currency": "usd", "paid": true, "captured": true,
                 "status": "succeeded", "customer": null, "metadata": {}, "livemode": false, "created": 1700000000}
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

    // MARK: Payloads (format v2)

    /// A charge as Stripe sends it, with `customer` spelled by the caller.
    static func chargeJSON(id: String, customer: String) -> String {
        #"""
        {"id": "\#(id)", "object": "charge", "amount": 2000, "currency": "usd", "paid": true, "captured": false,
         "status": "succeeded", "customer": \#(customer), "description": null,
         "metadata": {"order_id": "6735"}, "livemode": false, "created": 1700000000}
        """#
    }

    static let customerJSON = #"""
        {"id": "cus_9", "object": "customer", "email": "jenny@example.com", "name": "Jenny Rosen",
         "description": null, "metadata": {"plan": "gold"}, "livemode": true, "created": 1712345678}
        """#

    @Test("charge.customer is the id, the expanded Customer, or kept as unknown")
    func expandableCustomer() async throws {
        try await withServer { server in
            server.route("GET", "/v1/charges/ch_id", .respond(.json(Self.chargeJSON(id: "ch_id", customer: #""cus_9""#))))
            server.route("GET", "/v1/charges/ch_expanded", .respond(.json(Self.chargeJSON(id: "ch_expanded", customer: Self.customerJSON))))
            // Neither an id nor a customer object: a shape this client does not know.
            server.route("GET", "/v1/charges/ch_other", .respond(.json(Self.chargeJSON(id: "ch_other", customer: "[1, 2]"))))
            server.route("GET", "/v1/charges/ch_none", .respond(.json(Self.chargeJSON(id: "ch_none", customer: "null"))))
            for (name, client) in Self.clients(server) {
                let byID = try await client.retrieveCharge(id: "ch_id")
                guard case .id(let id) = byID.customer else {
                    Issue.record("\(name): expected an id, got \(String(describing: byID.customer))")
                    continue
                }
                #expect(id == "cus_9", "\(name)")
                #expect(byID.metadata == ["order_id": "6735"], "\(name)")
                #expect(byID.captured == false, "\(name)")

                let expanded = try await client.retrieveCharge(id: "ch_expanded", expand: ["customer"])
                guard case .customer(let customer) = expanded.customer else {
                    Issue.record("\(name): expected a Customer, got \(String(describing: expanded.customer))")
                    continue
                }
                #expect(customer.id == "cus_9", "\(name)")
                #expect(customer.email == "jenny@example.com", "\(name)")
                #expect(customer.metadata == ["plan": "gold"], "\(name)")
                #expect(customer.livemode, "\(name)")
                #expect(customer.created == Date(timeIntervalSince1970: 1_712_345_678), "\(name)")

                let other = try await client.retrieveCharge(id: "ch_other")
                #expect(other.customer == ExpandableCustomer.unknown(.array([.integer(1), .integer(2)])), "\(name)")

                let none = try await client.retrieveCharge(id: "ch_none")
                #expect(none.customer == nil, "\(name)")
            }
            // `expand[]` went out as Stripe spells it, once per field, only on the call that asked.
            let expandedQueries = server.receivedRequests("GET", "/v1/charges/ch_expanded").map(\.query)
            #expect(expandedQueries.count == 2)
            for query in expandedQueries {
                #expect(query.removingPercentEncoding == "expand[]=customer", "\(query)")
            }
            #expect(server.receivedRequests("GET", "/v1/charges/ch_id").allSatisfy { $0.query.isEmpty })
        }
    }

    @Test("A customer's sources: cards and bank accounts by `object`, an unknown object kept whole")
    func paymentSources() async throws {
        let unknownSource = #"{"id": "src_1", "object": "source", "type": "ach_credit_transfer", "flow": "receiver"}"#
        try await withServer { server in
            server.route("GET", "/v1/customers/cus_9/sources", .respond(.json(#"""
                {"object": "list", "url": "/v1/customers/cus_9/sources", "has_more": false, "data": [
                  {"id": "card_1", "object": "card", "brand": "Visa", "last4": "4242", "exp_month": 8, "exp_year": 2031,
                   "funding": "credit", "country": "US", "customer": "cus_9", "metadata": {}},
                  {"id": "ba_1", "object": "bank_account", "bank_name": "STRIPE TEST BANK", "last4": "6789",
                   "routing_number": "110000000", "country": "US", "currency": "usd", "status": "new",
                   "account_holder_name": "Jenny Rosen", "customer": "cus_9", "metadata": {"primary": "yes"}},
                  \#(unknownSource)
                ]}
                """#)))
            for (name, client) in Self.clients(server) {
                let list = try await client.listSources(id: "cus_9")
                #expect(list.object == "list", "\(name)")
                #expect(list.hasMore == false, "\(name)")
                #expect(list.data.count == 3, "\(name)")
                guard list.data.count == 3 else { continue }
                if case .card(let card) = list.data[0] {
                    #expect(card.id == "card_1", "\(name)")
                    #expect(card.object == "card", "\(name)")
                    #expect(card.brand == "Visa", "\(name)")
                    #expect(card.expMonth == 8 && card.expYear == 2031, "\(name)")
                } else {
                    Issue.record("\(name): expected a card, got \(list.data[0])")
                }
                if case .bankAccount(let account) = list.data[1] {
                    #expect(account.id == "ba_1", "\(name)")
                    #expect(account.routingNumber == "110000000", "\(name)")
                    #expect(account.metadata == ["primary": "yes"], "\(name)")
                } else {
                    Issue.record("\(name): expected a bank account, got \(list.data[1])")
                }
                let kept = try JSONDecoder().decode(JSON.self, from: Data(unknownSource.utf8))
                #expect(list.data[2] == PaymentSource.unknown(kept), "\(name)")
            }
        }
    }

    @Test("updateCustomer sends metadata as a form and leaves out Stripe's own fields; the reply's metadata round-trips")
    func updateCustomerBody() async throws {
        try await withServer { server in
            // Echo the sent fields back inside a customer, as Stripe answers an update with the customer.
            server.route("POST", "/v1/customers/cus_9") { request in
                var reply: [String: JSON] = [
                    "id": "cus_9", "object": "customer", "livemode": false, "created": .integer(1_712_345_678),
                ]
                var metadata: [String: JSON] = [:]
                for (name, value) in formFields(request.body) {
                    if name.hasPrefix("metadata[") && name.hasSuffix("]") {
                        metadata[String(name.dropFirst("metadata[".count).dropLast())] = .string(value)
                    } else {
                        reply[name] = .string(value)
                    }
                }
                if !metadata.isEmpty { reply["metadata"] = .object(metadata) }
                let data = (try? JSONEncoder().encode(JSON.object(reply))) ?? Data()
                return .respond(.json(String(decoding: data, as: UTF8.self)))
            }
            let metadata = ["order_id": "6735", "note": "ünïcödé & \"quotes\""]
            // The caller's copy of Stripe's fields (as a cache would hold them) must not be sent.
            let customer = Customer(
                id: "cus_local", object: "customer", email: "jenny@example.com", name: "Jenny Rosen",
                metadata: metadata, livemode: true, created: Date(timeIntervalSince1970: 1))
            for (name, client) in Self.clients(server) {
                let updated = try await client.updateCustomer(id: "cus_9", body: customer)
                #expect(updated.metadata == metadata, "\(name)")
                #expect(updated.email == "jenny@example.com", "\(name)")
                // The server's values, not the caller's: they were never sent.
                #expect(updated.id == "cus_9", "\(name)")
                #expect(updated.livemode == false, "\(name)")
                #expect(updated.created == Date(timeIntervalSince1970: 1_712_345_678), "\(name)")
            }
            let requests = server.receivedRequests("POST", "/v1/customers/cus_9")
            #expect(requests.count == 2)
            for request in requests {
                #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
                #expect(formFields(request.body).map(\.name) == ["email", "name", "metadata[note]", "metadata[order_id]"])
                #expect(String(decoding: request.body, as: UTF8.self)
                    == "email=jenny%40example.com&name=Jenny+Rosen&metadata%5Bnote%5D=%C3%BCn%C3%AFc%C3%B6d%C3%A9+%26+%22quotes%22"
                    + "&metadata%5Border_id%5D=6735")
            }
        }
    }

    @Test("capture is sent as true when the caller leaves it, and as false when asked")
    func captureDefault() async throws {
        try await withServer { server in
            server.route("POST", "/v1/charges", .respond(.json(Self.chargeJSON(id: "ch_1", customer: "null"))))
            for (_, client) in Self.clients(server) {
                _ = try await client.createCharge(body: ChargeRequest(amount: 2000, currency: "usd", source: "tok_visa"))
                _ = try await client.createCharge(
                    body: ChargeRequest(amount: 2000, currency: "usd", source: "tok_visa", capture: false))
            }
            let bodies = server.receivedRequests("POST", "/v1/charges").map { Dictionary(formFields($0.body), uniquingKeysWith: { a, _ in a }) }
            let captures = bodies.map { $0["capture"] }
            #expect(captures == ["true", "false", "true", "false"])
            #expect(bodies.allSatisfy { !$0.keys.contains { $0.hasPrefix("metadata") } && $0["amount"] == "2000" })
        }
    }

    @Test("createCustomer sends Stripe's form byte for byte: nested metadata and address, arrays, an array of objects, escapes")
    func createCustomerForm() async throws {
        try await withServer { server in
            server.route("POST", "/v1/customers", .respond(.json(Self.customerJSON)))
            let customer = NewCustomer(
                email: "jenny+test@example.com", name: "Jenny Rosen & Co", description: "",
                metadata: ["order_id": "6735", "note": "a=b&c ünï 100%"],
                address: Address(line1: "1 Main St", city: "Paris", postalCode: "75001", country: "FR"),
                preferredLocales: ["fr", "en"],
                taxIDData: [TaxIDData(type: "eu_vat", value: "FR123"), TaxIDData(type: "fr_siret", value: "456 789")],
                expand: ["default_source"])
            for (name, client) in Self.clients(server) {
                let created = try await client.createCustomer(body: customer)
                #expect(created.id == "cus_9", "\(name)")
            }
            let expected = "email=jenny%2Btest%40example.com&name=Jenny+Rosen+%26+Co&description="
                + "&metadata%5Bnote%5D=a%3Db%26c+%C3%BCn%C3%AF+100%25&metadata%5Border_id%5D=6735"
                + "&address%5Bline1%5D=1+Main+St&address%5Bcity%5D=Paris&address%5Bpostal_code%5D=75001&address%5Bcountry%5D=FR"
                + "&preferred_locales%5B%5D=fr&preferred_locales%5B%5D=en"
                + "&tax_id_data%5B0%5D%5Btype%5D=eu_vat&tax_id_data%5B0%5D%5Bvalue%5D=FR123"
                + "&tax_id_data%5B1%5D%5Btype%5D=fr_siret&tax_id_data%5B1%5D%5Bvalue%5D=456+789"
                + "&expand%5B%5D=default_source"
            let requests = server.receivedRequests("POST", "/v1/customers")
            #expect(requests.count == 2)
            for request in requests {
                #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
                #expect(String(decoding: request.body, as: UTF8.self) == expected)
                // And a form parser reads back what was meant.
                let fields = formFields(request.body)
                #expect(fields.first { $0.name == "metadata[note]" }?.value == "a=b&c ünï 100%")
                #expect(fields.first { $0.name == "email" }?.value == "jenny+test@example.com")
            }
        }
    }

    @Test("listCustomers sends created as a deepObject in Unix seconds, and expand[] as a query array")
    func listCustomersQuery() async throws {
        try await withServer { server in
            server.route("GET", "/v1/customers", .respond(.json(#"""
                {"object": "list", "url": "/v1/customers", "has_more": false, "data": [\#(Self.customerJSON)]}
                """#)))
            let created = CreatedFilter(gte: Date(timeIntervalSince1970: 1_700_000_000), lt: Date(timeIntervalSince1970: 1_800_000_000))
            for (name, client) in Self.clients(server) {
                let list = try await client.listCustomers(email: "a+b@x.com", created: created, limit: 3, expand: ["data.default_source"])
                #expect(list.data.map(\.id) == ["cus_9"], "\(name)")
            }
            let lines = server.receivedRequests("GET", "/v1/customers").map(\.requestLine)
            #expect(lines == Array(repeating: "GET /v1/customers?email=a%2Bb%40x.com&created%5Bgte%5D=1700000000&created%5Blt%5D=1800000000"
                + "&limit=3&expand%5B%5D=data.default_source HTTP/1.1", count: 2))
        }
    }

    @Test("An event's data.object is kept as any JSON; created is Unix seconds")
    func eventPayload() async throws {
        try await withServer { server in
            server.route("GET", "/v1/events/evt_1", .respond(.json(#"""
                {"id": "evt_1", "object": "event", "api_version": "2024-06-20", "type": "customer.updated",
                 "created": 1712345679, "livemode": false, "pending_webhooks": 2,
                 "data": {"object": \#(Self.customerJSON), "previous_attributes": {"email": null}}}
                """#)))
            server.route("GET", "/v1/events/evt_2", .respond(.json(#"""
                {"id": "evt_2", "object": "event", "api_version": null, "type": "charge.succeeded",
                 "created": 1700000000, "livemode": true, "pending_webhooks": 0,
                 "data": {"object": \#(Self.chargeJSON(id: "ch_1", customer: #""cus_9""#))}}
                """#)))
            for (name, client) in Self.clients(server) {
                let updated = try await client.retrieveEvent(id: "evt_1")
                #expect(updated.type == "customer.updated", "\(name)")
                #expect(updated.created == Date(timeIntervalSince1970: 1_712_345_679), "\(name)")
                #expect(updated.pendingWebhooks == 2, "\(name)")
                #expect(updated.data.object["object"]?.stringValue == "customer", "\(name)")
                #expect(updated.data.object["metadata"]?["plan"]?.stringValue == "gold", "\(name)")
                // An explicit null among the old values is kept, not dropped.
                #expect(updated.data.previousAttributes?["email"] == JSON.null, "\(name)")

                let succeeded = try await client.retrieveEvent(id: "evt_2")
                #expect(succeeded.apiVersion == nil, "\(name)")
                #expect(succeeded.data.object["amount"]?.intValue == 2000, "\(name)")
                // `JSON?` is nil-literal on both sides, so name the missing case.
                #expect(succeeded.data.previousAttributes == Optional<JSON>.none, "\(name)")
                #expect(succeeded.created == Date(timeIntervalSince1970: 1_700_000_000), "\(name)")
            }
        }
    }

    @Test("Deleting a customer decodes the deleted stub")
    func deleteCustomer() async throws {
        try await withServer { server in
            server.route("DELETE", "/v1/customers/cus_9", .respond(.json(
                #"{"id": "cus_9", "object": "customer", "deleted": true}"#)))
            for (name, client) in Self.clients(server) {
                let deleted = try await client.deleteCustomer(id: "cus_9")
                #expect(deleted.id == "cus_9" && deleted.object == "customer" && deleted.deleted, "\(name)")
            }
            #expect(server.requestCount("DELETE", "/v1/customers/cus_9") == 2)
        }
    }
}
