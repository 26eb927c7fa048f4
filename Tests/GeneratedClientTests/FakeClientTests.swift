import CourierRuntime
import CourierTestServer
import CourierTestSupport
import CourierTesting
import Foundation
import MarketplaceAPI
import Testing

/// A view model as an app writes one: it knows `MarketplaceAPIProtocol`, never the client or HTTP.
@MainActor
final class CheckoutModel {
    enum State: Equatable {
        case idle
        case placed(orderID: String)
        case outOfStock(message: String)
        case offline
        case failed(String)
    }

    let api: any MarketplaceAPIProtocol
    private(set) var state = State.idle

    init(api: any MarketplaceAPIProtocol) {
        self.api = api
    }

    func place(_ order: NewOrder) async {
        do {
            state = .placed(orderID: try await api.createOrder(body: order).id)
        } catch .endpoint(.outOfStock(let body), _) {
            state = .outOfStock(message: body.value?.message ?? body.text)
        } catch .transport(let error) where error.kind == .notConnected {
            state = .offline
        } catch {
            state = .failed(String(describing: error))
        }
    }

    /// The products of a category, with the client's defaults for the rest.
    func products(in category: String) async throws(APIError<ListProductsFailure>) -> [String] {
        try await api.listProducts(category: category).map(\.name)
    }
}

/// The generated `MarketplaceFake` behind a view model: results and typed failures set per
/// method, calls recorded in order, an unset result a clear error; no transport at all.
@Suite("Generated fake")
struct FakeClientTests {
    static let newOrder = NewOrder(lines: [NewOrderLine(productID: "p-1", quantity: 2)],
                                   shippingAddress: Address(name: "Ada", line1: "1 Loop Road", city: "Turin", postalCode: "10100", country: "IT"))
    static let order = Order(id: "o-7", status: .paid, lines: [OrderLine(productID: "p-1", quantity: 2, unitPrice: Money(amount: 1250, currency: "EUR"))],
                             total: Money(amount: 2500, currency: "EUR"), shippingAddress: newOrder.shippingAddress,
                             createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
    static let soldOut = ErrorBody<PlatformError>(
        value: PlatformError(code: "out_of_stock", message: "Only 1 left.", details: [], timestamp: Date(timeIntervalSince1970: 0)),
        raw: Data())

    @Test("A success, then a typed failure, then a transport error reach the view model; every call is recorded in order")
    @MainActor
    func successAndFailures() async throws {
        // Qualified by its module, as an app with two services' `Order`s writes it: the protocol is
        // not named `MarketplaceAPI`, so the module name still qualifies.
        let fake = MarketplaceAPI.MarketplaceFake()
        let model = CheckoutModel(api: fake)

        fake.createOrder = .success(Self.order)
        await model.place(Self.newOrder)
        #expect(model.state == .placed(orderID: "o-7"))

        fake.createOrder = .failure(.outOfStock(Self.soldOut), status: .conflict)
        await model.place(Self.newOrder)
        #expect(model.state == .outOfStock(message: "Only 1 left."))

        fake.createOrder = .error(.transport(TransportError(.notConnected)))
        await model.place(Self.newOrder)
        #expect(model.state == .offline)

        fake.listProducts = .success([Product(id: "p-1", name: "Lamp", price: Money(amount: 1250, currency: "EUR"), categoryID: "c", attributes: [:], stock: 3, images: [])])
        #expect(try await model.products(in: "lighting") == ["Lamp"])

        #expect(fake.calls.requests.map(\.operationName) == ["createOrder", "createOrder", "createOrder", "listProducts"])
        #expect(fake.calls.requests(of: CreateOrderRequest.self).map(\.payload) == Array(repeating: Self.newOrder, count: 3))
        // The protocol's methods apply the client's defaults, so the fake sees what the client would send.
        let listed = try #require(fake.calls.requests(of: ListProductsRequest.self).first)
        #expect(listed.category == "lighting")
        #expect(listed.limit == 50)
        #expect(listed.q == nil)
    }

    @Test("A typed failure carries the status it was given, as the client's would")
    func failureStatus() async throws {
        let fake = MarketplaceFake()
        fake.getProduct = .failure(.productNotFound(ErrorBody(value: nil, raw: Data("gone".utf8))), status: .notFound)
        let error = try #require(await failure { () async throws(APIError<GetProductFailure>) in
            try await fake.getProduct(productID: "p-9")
        })
        guard case .endpoint(.productNotFound(let body), let response) = error else {
            Issue.record("expected .endpoint(.productNotFound), got \(error)")
            return
        }
        #expect(body.text == "gone")
        #expect(response.status == .notFound)
        #expect(fake.calls.requests(of: GetProductRequest.self).map(\.productID) == ["p-9"])
    }

    /// Issue 32: an unset result used to be `APIError.transport(.other)`, "A network error
    /// occurred.", so code that treats `.transport` as offline took its offline branch.
    @Test("A method whose result is unset fails as a programmer error naming the fake and the property to set, never as a network failure, and is still recorded")
    func unsetResult() async throws {
        let fake = MarketplaceFake()
        fake.getOrder = .success(Self.order)
        fake.getOrder = nil
        let api: any MarketplaceAPIProtocol = fake
        let error = try #require(await failure { () async throws(APIError<GetOrderFailure>) in
            try await api.getOrder(orderID: "o-1")
        })
        #expect(error.transportError == nil, "not a network failure: \(error)")
        #expect(error.category == .invalidRequest)
        #expect(!error.isRetryable)
        guard case .invalidRequest(let invalid) = error, case .fakeResultNotSet(let name) = invalid.reason else {
            Issue.record("expected fakeResultNotSet, got \(error)")
            return
        }
        #expect(name == "MarketplaceFake")
        #expect(invalid.operationName == "getOrder")
        // The sentence a test's author reads, wherever the error is shown.
        let sentence = "MarketplaceFake has no result for getOrder; set the fake's `getOrder` before calling it."
        #expect(error.localizedDescription == sentence)
        #expect(error.errorDescription == sentence)
        #expect(error.failureReason?.contains("not a network failure") == true)
        #expect(fake.calls.requests(of: GetOrderRequest.self).map(\.orderID) == ["o-1"])
    }

    @Test("The client adopts the same protocol and sends through its transport")
    @MainActor
    func clientThroughProtocol() async throws {
        let stub = StubTransport()
        stub.on(.post, "/orders", .json(MarketplaceClientTests.order, status: 201))
        let client = MarketplaceClient(baseURL: URL(string: "https://shop.test")!, transport: stub, xAPIKey: "partner-key")
        let model = CheckoutModel(api: client)
        await model.place(Self.newOrder)
        #expect(model.state == .placed(orderID: "o-1"))
        #expect(stub.receivedRequests.map(\.path) == ["/orders"])
    }

    @Test("A wrapper of the protocol is one generic method, and every endpoint method goes through it")
    func aWrapperAdoptsTheProtocolWithOneMethod() async throws {
        let fake = MarketplaceFake()
        fake.getProduct = .success(Product(id: "p-9", name: "Lamp", price: Money(amount: 4200, currency: "EUR"), categoryID: "home", attributes: [:], stock: 3, images: []))
        fake.createOrder = .failure(.outOfStock(Self.soldOut))
        let recorder = Recorder(base: fake)
        let api: any MarketplaceAPIProtocol = recorder

        #expect(try await api.getProduct(productID: "p-9").name == "Lamp")
        await #expect(throws: APIError<CreateOrderFailure>.self) { try await api.createOrder(body: Self.newOrder) }
        #expect(recorder.sent.all == ["getProduct", "createOrder"])
        #expect(fake.calls.requests.map(\.operationName) == ["getProduct", "createOrder"])
    }
}

/// Records the operation of every request it passes on: all a wrapper of the client writes.
struct Recorder: MarketplaceAPIProtocol {
    let base: any MarketplaceAPIProtocol
    let sent = LockedValues<String>()

    func send<Request: MarketplaceAPIRequest>(_ request: Request) async throws(APIError<Request.Failure>) -> Request.Response {
        sent.append(request.operationName)
        return try await base.send(request)
    }
}
