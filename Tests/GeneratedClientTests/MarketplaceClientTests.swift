import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import MarketplaceAPI
import Testing

/// The generated Marketplace client through the stub transport: every documented status of
/// `createOrder`, discriminated 422 bodies, fallbacks, and what requests look like on the wire.
@Suite("Marketplace client (stub transport)")
struct MarketplaceClientTests {
    let stub = StubTransport()
    var client: MarketplaceClient {
        MarketplaceClient(baseURL: URL(string: "https://shop.test")!, transport: stub, xAPIKey: "partner-key")
    }

    static func platformError(_ code: String, message: String = "It failed.") -> String {
        #"{"code": "\#(code)", "message": "\#(message)", "details": [{"field": "lines[0].quantity", "message": "too many"}], "timestamp": 1700000000}"#
    }

    static let order = """
        {"id": "o-1", "status": "paid", "lines": [{"productId": "p-1", "quantity": 2, "unitPrice": {"amount": 1250, "currency": "EUR"}}],
         "total": {"amount": 2500, "currency": "EUR"},
         "shippingAddress": {"name": "Ada", "line1": "1 Loop Road", "city": "Turin", "postalCode": "10100", "country": "IT"},
         "createdAt": 1700000000, "updatedAt": 1700000100}
        """

    static let newOrder = NewOrder(lines: [NewOrderLine(productID: "p-1", quantity: 2)],
                                   shippingAddress: Address(name: "Ada", line1: "1 Loop Road", city: "Turin", postalCode: "10100", country: "IT"))

    /// Sends `createOrder` against a scripted reply and returns the thrown error.
    func createOrderError(_ reply: StubTransport.Reply) async throws -> APIError<CreateOrderFailure> {
        stub.on(.post, "/orders", reply)
        let client = client
        return try #require(await failure { () async throws(APIError<CreateOrderFailure>) in
            try await client.createOrder(body: Self.newOrder)
        })
    }

    @Test("A success decodes, with epoch-second dates and the partner key sent")
    func success() async throws {
        stub.on(.post, "/orders", .json(Self.order, status: 201))
        let order = try await client.createOrder(body: Self.newOrder)
        #expect(order.id == "o-1")
        #expect(order.status == .paid)
        #expect(order.total == Money(amount: 2500, currency: "EUR"))
        #expect(order.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(order.shippingAddress.line2 == nil)
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.header("X-Api-Key") == "partner-key")
        #expect(sent.header("X-Client-Name") == "courier-example")
        #expect(sent.header("Idempotency-Key")?.isEmpty == false)
        let body = try sent.decodeBody(NewOrder.self, coding: JSONCoding(dateFormat: .secondsSince1970))
        #expect(body == Self.newOrder)
    }

    @Test("Every documented single-case status decodes into its case with its body",
          arguments: [
            (400, "invalidRequest"), (401, "unauthorized"), (403, "forbidden"), (404, "notFound"),
            (408, "timedOut"), (409, "duplicateOrder"), (429, "rateLimited"), (500, "serverError"),
            (503, "serverError"), (599, "serverError"),
          ])
    func documentedStatus(status: Int, expected: String) async throws {
        let error = try await createOrderError(.json(Self.platformError("code_\(status)"), status: status))
        let failure = try #require(error.endpointFailure, "\(error)")
        let body: ErrorBody<PlatformError>
        switch failure {
        case .invalidRequest(let value): body = value; #expect(expected == "invalidRequest")
        case .unauthorized(let value): body = value; #expect(expected == "unauthorized")
        case .forbidden(let value): body = value; #expect(expected == "forbidden")
        case .notFound(let value): body = value; #expect(expected == "notFound")
        case .timedOut(let value): body = value; #expect(expected == "timedOut")
        case .duplicateOrder(let value): body = value; #expect(expected == "duplicateOrder")
        case .rateLimited(let value): body = value; #expect(expected == "rateLimited")
        case .serverError(let value): body = value; #expect(expected == "serverError")
        default:
            Issue.record("status \(status) became \(failure)")
            return
        }
        #expect(body.value?.code == "code_\(status)")
        #expect(body.value?.details == [FieldIssue(field: "lines[0].quantity", message: "too many")])
        #expect(body.value?.timestamp == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(error.status?.code == status)
    }

    @Test("Discriminated 422 bodies pick their case; unlisted values fall back",
          arguments: [
            ("out_of_stock", "outOfStock"), ("payment_declined", "paymentDeclined"),
            ("invalid_field", "invalidField"), ("something_new", "unprocessable"),
          ])
    func discriminated(code: String, expected: String) async throws {
        let error = try await createOrderError(.json(Self.platformError(code), status: 422))
        let failure = try #require(error.endpointFailure)
        let (name, body): (String, ErrorBody<PlatformError>) = switch failure {
        case .outOfStock(let body): ("outOfStock", body)
        case .paymentDeclined(let body): ("paymentDeclined", body)
        case .invalidField(let body): ("invalidField", body)
        case .unprocessable(let body): ("unprocessable", body)
        default: ("other: \(failure)", ErrorBody(value: nil, raw: Data()))
        }
        #expect(name == expected)
        #expect(body.value?.code == code)
    }

    @Test("Messages from the spec reach LocalizedError, per case")
    func messages() async throws {
        let declined = try await createOrderError(.json(Self.platformError("payment_declined"), status: 422))
        #expect(declined.localizedDescription == "Your card was declined.")
        let limited = try await createOrderError(.json(Self.platformError("slow"), status: 429))
        #expect(limited.localizedDescription == "Too many requests; wait a moment.")
        let missing = try await createOrderError(.json(Self.platformError("x"), status: 404))
        // No message in the spec: a sentence naming the status, not Foundation's placeholder.
        #expect(missing.endpointFailure?.errorDescription == "The server answered 404 Not Found.")
        #expect(missing.endpointFailure?.localizedDescription == "The server answered 404 Not Found.")
    }

    @Test("A 422 body that is not JSON still yields the fallback case, raw bytes kept")
    func undecodableDiscriminatedBody() async throws {
        let error = try await createOrderError(.status(422, body: Data("<html>oops</html>".utf8)))
        guard case .endpoint(.unprocessable(let body), _) = error else {
            Issue.record("expected unprocessable, got \(error)")
            return
        }
        #expect(body.value == nil)
        #expect(body.text == "<html>oops</html>")
        #expect(body.decodingFailure != nil)
    }

    @Test("An undecodable documented error body still yields its case with the raw body")
    func undecodableBody() async throws {
        stub.on(.get, "/orders/{id}", .status(404, body: Data("Not here".utf8)))
        let client = client
        let error = try #require(await failure { () async throws(APIError<GetOrderFailure>) in try await client.getOrder(orderID: "o-404") })
        guard case .endpoint(.notFound(let body), let response) = error else {
            Issue.record("expected notFound, got \(error)")
            return
        }
        #expect(body.value == nil)
        #expect(body.raw == Data("Not here".utf8))
        #expect(response.status.code == 404)
    }

    @Test("An undocumented status is undocumentedStatus, not a case")
    func undocumentedStatus() async throws {
        stub.on(.get, "/orders/{id}", .json("{}", status: 418))
        let client = client
        let error = try #require(await failure { () async throws(APIError<GetOrderFailure>) in try await client.getOrder(orderID: "o-1") })
        guard case .undocumentedStatus(let response) = error else {
            Issue.record("expected undocumentedStatus, got \(error)")
            return
        }
        #expect(response.status.code == 418)
        #expect(GetOrderFailure.map(response) == nil)
    }

    @Test("A `default` mapping catches every other failed status")
    func defaultMapping() async throws {
        stub.on(.get, "/health", .status(418))
        let client = client
        let error = try #require(await failure { () async throws(APIError<GetHealthFailure>) in try await client.getHealth() })
        guard case .endpoint(.unhealthy, _) = error else {
            Issue.record("expected unhealthy, got \(error)")
            return
        }
    }

    @Test("A success body that does not match the model is a typed decoding failure")
    func decodingFailure() async throws {
        stub.on(.get, "/orders/{id}", .json(#"{"id": "o-1", "status": "paid"}"#))
        let client = client
        let error = try #require(await failure { () async throws(APIError<GetOrderFailure>) in try await client.getOrder(orderID: "o-1") })
        guard case .decoding(let decoding) = error else {
            Issue.record("expected decoding, got \(error)")
            return
        }
        #expect(decoding.codingPath == "lines")
    }

    @Test("Unknown enum values decode into the fallback case and round-trip")
    func enumFallback() async throws {
        stub.on(.get, "/orders/{id}", .json(Self.order.replacingOccurrences(of: "\"paid\"", with: "\"refunded\"")))
        let order = try await client.getOrder(orderID: "o-1")
        #expect(order.status == .unknown("refunded"))
        #expect(order.status.rawValue == "refunded")
        #expect(OrderStatus(rawValue: "shipped") == .shipped)
    }

    @Test("Query arrays are repeated keys; defaults are sent; nil parameters are left out")
    func queryEncoding() async throws {
        stub.on(.get, "/orders", .json(#"{"orders": [], "nextCursor": null}"#))
        let page = try await client.listOrders(status: [.paid, .shipped])
        #expect(page.orders.isEmpty)
        #expect(page.nextCursor == nil)
        let sent = try #require(stub.receivedRequests.last)
        #expect(sent.query == "status=paid&status=shipped&limit=20")
        #expect(sent.path == "/orders")

        stub.on(.get, "/products", .json("[]"))
        _ = try await client.listProducts(q: "red shoes", xRequestID: "trace-1")
        let products = try #require(stub.receivedRequests.last)
        #expect(products.query == "q=red%20shoes&limit=50")
        #expect(products.header("X-Request-ID") == "trace-1")
    }

    @Test("Recursive models decode at any depth")
    func recursion() async throws {
        stub.on(.get, "/categories", .json("""
            [{"id": "a", "name": "All", "children": [
              {"id": "b", "name": "Books", "parent": {"id": "a", "name": "All", "children": []}, "children": []}
            ]}]
            """))
        let tree = try await client.listCategories()
        let child = try #require(tree.first?.children.first)
        #expect(child.parent?.name == "All")
        #expect(tree.first?.parent == nil)
        var copy = child
        copy.parent = nil
        #expect(copy.parent == nil)
        #expect(child.parent != nil)
    }

    @Test("Path values are percent-encoded as one segment")
    func pathEncoding() async throws {
        stub.on(.post, "/orders/{id}/cancel", .json(Self.order))
        _ = try await client.cancelOrder(orderID: "a/b?c")
        #expect(stub.receivedRequests.last?.path == "/orders/a%2Fb%3Fc/cancel")
    }
}
