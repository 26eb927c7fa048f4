#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import CourierBridges
import CourierRuntime
import CourierTestServer
import Foundation
import MarketplaceAPI
import Testing

/// The Combine bridge over the generated Marketplace client, the real URLSession transport and
/// a real loopback server.
@Suite(.timeLimit(.minutes(10)))
struct PublisherTests {
    static let health = #"{"status":"ok","checks":{"db":true}}"#
    static let missing = #"{"code":"missing","message":"No such product.","details":[],"timestamp":0}"#

    @Test func aRequestPublishesOneValueThenFinishes() async throws {
        try await withShop { server, shop in
            server.route("GET", "/health", .respond(.json(Self.health)))
            let recorder = Recorder<Health, APIError<GetHealthFailure>>()
            shop.client.publisher(for: GetHealthRequest()).subscribe(recorder)
            let events = await recorder.completion()
            guard events.count == 2, case .value(let health) = events[0], case .finished = events[1] else {
                Issue.record("expected one value then finished, got \(events)")
                return
            }
            #expect(health == Health(status: "ok", checks: ["db": true]))
            #expect(server.requestCount("GET", "/health") == 1)
        }
    }

    @Test func aGeneratedMethodFailsWithItsTypedFailure() async throws {
        try await withShop { server, shop in
            server.route("GET", "/products/p-9", .respond(.json(Self.missing, status: 404)))
            let recorder = Recorder<Product, APIError<GetProductFailure>>()
            Publishers.call { () async throws(APIError<GetProductFailure>) in
                try await shop.getProduct(productID: "p-9")
            }.subscribe(recorder)
            let events = await recorder.completion()
            guard events.count == 1, case .failure(.endpoint(.productNotFound(let body), let response)) = events[0] else {
                Issue.record("expected productNotFound alone, got \(events)")
                return
            }
            #expect(body.value?.code == "missing")
            #expect(response.status.code == 404)
        }
    }

    @Test func theCallStartsOnDemandAndAgainForEverySubscription() async throws {
        try await withShop { server, shop in
            server.route("GET", "/health", .respond(.json(Self.health)))
            server.route("GET", "/categories", .respond(.json("[]")))
            let publisher = shop.client.publisher(for: GetHealthRequest())
            let waiting = Recorder<Health, APIError<GetHealthFailure>>(initialDemand: .none)
            publisher.subscribe(waiting)
            // A whole other call's round trip: had making or subscribing started the call, its
            // request would have had that long to arrive.
            _ = try await shop.listCategories()
            #expect(server.requestCount("GET", "/health") == 0)
            #expect(waiting.events.isEmpty)

            waiting.request(.max(1))
            let first = await waiting.completion()
            #expect(first.count == 2)
            #expect(server.requestCount("GET", "/health") == 1)

            let second = Recorder<Health, APIError<GetHealthFailure>>()
            publisher.subscribe(second)
            #expect(await second.completion().count == 2)
            #expect(server.requestCount("GET", "/health") == 2)
        }
    }

    @Test func cancellingTheSubscriptionCancelsTheCall() async throws {
        let finished = Awaited<ClientEvent.FailureSummary?>()
        try await withShop(onEvent: { event in
            if case .finished(_, let result, _) = event {
                if case .failure(let summary) = result { finished.set(summary) } else { finished.set(nil) }
            }
        }) { server, shop in
            server.route("GET", "/products/slow", .stall)
            let recorder = Recorder<Product, APIError<GetProductFailure>>()
            shop.client.publisher(for: GetProductRequest(productID: "slow")).subscribe(recorder)
            _ = await server.waitForRequests(count: 1)
            recorder.cancel()
            // The server never answers, so the call can only finish because its task was cancelled.
            let summary = await finished.value
            #expect(summary?.category == .transport(.cancelled), "got \(String(describing: summary))")
            #expect(recorder.events.isEmpty, "a cancelled subscription received \(recorder.events)")
        }
    }

    @Test func cancellingCancelsAGeneratedMethodsTask() async throws {
        let seen = Awaited<APIError<GetProductFailure>>()
        try await withShop { server, shop in
            server.route("GET", "/products/slow", .stall)
            let recorder = Recorder<Product, APIError<GetProductFailure>>()
            Publishers.call { () async throws(APIError<GetProductFailure>) in
                do throws(APIError<GetProductFailure>) {
                    return try await shop.getProduct(productID: "slow")
                } catch {
                    seen.set(error)
                    throw error
                }
            }.subscribe(recorder)
            _ = await server.waitForRequests(count: 1)
            recorder.cancel()
            let error = await seen.value
            #expect(error.category == .transport(.cancelled), "got \(error)")
            #expect(recorder.events.isEmpty)
        }
    }
}
