import CourierBridges
import CourierRuntime
import CourierTestServer
import Foundation
import MarketplaceAPI
import Testing

/// The completion-handler bridge over the generated Marketplace client, the real URLSession
/// transport and a real loopback server.
@Suite(.timeLimit(.minutes(10)))
struct CompletionHandlerTests {
    @Test func aRequestCompletesWithItsResponse() async throws {
        try await withShop { server, shop in
            server.route("GET", "/health", .respond(.json(PublisherTests.health)))
            let result = Awaited<Result<Health, APIError<GetHealthFailure>>>()
            shop.client.send(GetHealthRequest()) { result.set($0) }
            guard case .success(let health) = await result.value else {
                Issue.record("expected success, got \(await result.value)")
                return
            }
            #expect(health.checks == ["db": true])
        }
    }

    @Test func aGeneratedMethodCompletesWithItsTypedFailure() async throws {
        try await withShop { server, shop in
            server.route("GET", "/products/p-9", .respond(.json(PublisherTests.missing, status: 404)))
            let result = Awaited<Result<Product, APIError<GetProductFailure>>>()
            CallHandle.start { () async throws(APIError<GetProductFailure>) in
                try await shop.getProduct(productID: "p-9")
            } completion: { result.set($0) }
            guard case .failure(.endpoint(.productNotFound(let body), _)) = await result.value else {
                Issue.record("expected productNotFound, got \(await result.value)")
                return
            }
            #expect(body.value?.message == "No such product.")
        }
    }

    @Test func cancellingTheHandleCancelsTheCall() async throws {
        try await withShop { server, shop in
            server.route("GET", "/products/slow", .stall)
            let result = Awaited<Result<Product, APIError<GetProductFailure>>>()
            let call = shop.client.send(GetProductRequest(productID: "slow")) { result.set($0) }
            _ = await server.waitForRequests(count: 1)
            #expect(!call.isCancelled)
            call.cancel()
            #expect(call.isCancelled)
            // The server never answers, so only the cancelled task can end the call.
            guard case .failure(let error) = await result.value else {
                Issue.record("expected a failure, got \(await result.value)")
                return
            }
            #expect(error.category == .transport(.cancelled), "got \(error)")
        }
    }
}
