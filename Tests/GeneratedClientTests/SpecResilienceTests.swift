import BookshelfAPI
import CourierRuntime
import CourierTesting
import Foundation
import GitHubAPI
import MarketplaceAPI
import Testing

/// The spec's `retry`, `breaker`, `idempotencyKey` and `auth` hints, as the generated clients
/// carry them out: through the stub transport, with backoff and breaker breaks on a manual clock.
@Suite("Spec resilience hints in generated clients", .timeLimit(.minutes(10)))
struct SpecResilienceTests {
    let clock = ManualClock()
    let stub: StubTransport
    let delays = RecordedDelays()

    init() {
        stub = StubTransport(clock: clock)
    }

    /// A configuration on the manual clock with full jitter draws (every backoff is its
    /// ceiling), no retry budget, and the client's own breakers as given.
    func configuration(breakerScope: CircuitBreaker.Scope = .off,
                       breaker: CircuitBreaker.Configuration = .default) -> APIClient.Configuration {
        let delays = delays
        return APIClient.Configuration(
            onEvent: { delays.record($0) },
            resilience: Resilience(retryBudget: nil, circuitBreaker: breaker, circuitBreakerScope: breakerScope,
                                   clock: clock, jitter: .constant(1))
        )
    }

    var marketplace: MarketplaceClient {
        MarketplaceClient(baseURL: URL(string: "https://shop.test")!, transport: stub, xAPIKey: "k", configuration: configuration())
    }

    /// Runs `call` on its own task, advancing the manual clock through each backoff it sleeps.
    func driving<Value: Sendable>(_ call: @escaping @Sendable () async -> Value) async -> Value {
        let task = Task { await call() }
        let result = Task { await task.value }
        // Advance whenever the call sleeps, until it has finished.
        let driver = Task { [clock] in
            while !Task.isCancelled {
                await clock.waitForSleepers(1)
                if Task.isCancelled { return }
                if let next = clock.sleeperDeadlines.first { clock.advance(to: next) }
            }
        }
        let value = await result.value
        driver.cancel()
        return value
    }

    @Test("retry: false — a GET is sent once, where an endpoint without hints is retried")
    func retryFalseMeansOneAttempt() async throws {
        stub.on(.get, "/health", .status(503))
        stub.on(.get, "/products", .status(503))
        let client = marketplace
        let health = await driving { await failure { () async throws(APIError<GetHealthFailure>) in try await client.getHealth() } }
        #expect(health != nil)
        #expect(stub.requests(.get, "/health").count == 1)
        #expect(delays.all.isEmpty)

        // The control: the client's default policy makes three attempts of the same kind of GET.
        let products = await driving { await failure { () async throws(APIError<ListProductsFailure>) in try await client.listProducts() } }
        #expect(products != nil)
        #expect(stub.requests(.get, "/products").count == 3)
    }

    @Test("retry: { maxAttempts: 2, nonIdempotent: true } — a PATCH is sent twice, after the default backoff")
    func maxAttemptsTwoMeansTwoAttempts() async throws {
        stub.on(.patch, "/repos/{owner}/{repo}/issues/{number}", .status(500))
        let client = GitHubClient(baseURL: URL(string: "https://gh.test")!, transport: stub, configuration: configuration())
        let error = await driving {
            await failure { () async throws(APIError<UpdateIssueFailure>) in
                try await client.updateIssue(owner: "o", repo: "r", issueNumber: 1, body: IssueUpdate(title: "t"))
            }
        }
        #expect(error?.status?.code == 500)
        // Without the hint a PATCH is never retried, and the client's policy allows three attempts.
        #expect(stub.requests(.patch, "/repos/{owner}/{repo}/issues/{number}").count == 2)
        #expect(delays.all == [.milliseconds(100)])
    }

    @Test("retry: { maxAttempts: 3, baseDelay: 0.25, maxDelay: 4 } in defaults — the backoff starts at 250 ms")
    func defaultsBaseDelayIsTheBackoffBase() async throws {
        stub.on(.get, "/books/{book}", .status(502))
        let client = BookshelfClient(baseURL: URL(string: "https://books.test")!, transport: stub, configuration: configuration())
        let error = await driving { await failure { () async throws(APIError<GetBookFailure>) in try await client.getBook(book: 1) } }
        #expect(error?.status?.code == 502)
        #expect(stub.requests(.get, "/books/{book}").count == 3)
        #expect(delays.all == [.milliseconds(250), .milliseconds(500)])
    }

    @Test("retry.baseDelay applies to 429 and 503 too — the throttling backoff starts at 250 ms, not the client's 1 s")
    func defaultsBaseDelayAppliesToThrottling() async throws {
        stub.on(.get, "/books/{book}", .status(503), .status(429), .status(503))
        let client = BookshelfClient(baseURL: URL(string: "https://books.test")!, transport: stub, configuration: configuration())
        let error = await driving { await failure { () async throws(APIError<GetBookFailure>) in try await client.getBook(book: 1) } }
        #expect(error?.status?.code == 503)
        #expect(stub.requests(.get, "/books/{book}").count == 3)
        // Issue 16: these were 1 s and 2 s, the client's throttling base, whatever the spec said.
        #expect(delays.all == [.milliseconds(250), .milliseconds(500)])
    }

    @Test("breaker: false — an endpoint is not gated by the open host breaker")
    func breakerFalseIsNotGated() async throws {
        stub.on(.get, "/products", .status(500))
        stub.on(.get, "/health", .json(#"{"status": "ok", "checks": {}}"#))
        let client = MarketplaceClient(
            baseURL: URL(string: "https://shop.test")!, transport: stub, xAPIKey: "k",
            configuration: configuration(breakerScope: .host, breaker: .consecutiveFailures(1))
        )
        // The first failure opens the host's breaker; the retry is refused without a request,
        // and the call ends with the 500 the server did send.
        let first = await driving { await failure { () async throws(APIError<ListProductsFailure>) in try await client.listProducts() } }
        #expect(first?.status?.code == 500, "got \(String(describing: first))")
        let gated = await driving { await failure { () async throws(APIError<ListProductsFailure>) in try await client.listProducts() } }
        if case .circuitOpen = gated {} else { Issue.record("expected the open breaker, got \(String(describing: gated))") }
        #expect(stub.requests(.get, "/products").count == 1)

        let health = try await client.getHealth()
        #expect(health.status == "ok")
        #expect(stub.requests(.get, "/health").count == 1)
    }

    @Test("breaker: { failureThreshold: 5, resetAfter: 30 } in defaults — one breaker for the host, which breaker: false bypasses")
    func defaultsBreakerIsTheHostBreaker() async throws {
        stub.on(.get, "/books/{book}", .status(500))
        stub.on(.head, "/up", .status(204))
        // The client itself has no breaker: the spec's defaults opt every endpoint in.
        let client = BookshelfClient(baseURL: URL(string: "https://books.test")!, transport: stub, configuration: configuration())
        // Three failed attempts, then two more and the breaker (five in a row) opens; the
        // second call's third attempt is refused, and that call ends with the server's 500.
        _ = await driving { await failure { () async throws(APIError<GetBookFailure>) in try await client.getBook(book: 1) } }
        let second = await driving { await failure { () async throws(APIError<GetBookFailure>) in try await client.getBook(book: 1) } }
        #expect(second?.status?.code == 500, "got \(String(describing: second))")
        #expect(stub.requests(.get, "/books/{book}").count == 5)

        // Another endpoint of the host inherits the same breaker and is cut off without a request.
        let list = await failure { () async throws(APIError<ListBooksFailure>) in try await client.listBooks() }
        if case .circuitOpen = list {} else { Issue.record("expected the open breaker, got \(String(describing: list))") }
        #expect(stub.requests(.get, "/books").isEmpty)

        // healthCheck says `breaker: false`.
        try await client.healthCheck()
        #expect(stub.requests(.head, "/up").count == 1)
    }

    @Test("idempotencyKey: { header: X-Idempotency-Key } — the key goes in that header, the same on every attempt")
    func customIdempotencyKeyHeader() async throws {
        stub.on(.post, "/orders/{id}/cancel", replies: [.status(503), .status(500)])
        let client = marketplace
        _ = await driving { await failure { () async throws(APIError<CancelOrderFailure>) in try await client.cancelOrder(orderID: "o-1") } }
        let sent = stub.requests(.post, "/orders/{id}/cancel")
        // The key makes the POST safe to retry: three attempts, one key.
        #expect(sent.count == 3)
        let keys = sent.map { $0.header("X-Idempotency-Key") }
        #expect(keys.first??.isEmpty == false)
        #expect(Set(keys).count == 1)
        #expect(sent.allSatisfy { $0.header("Idempotency-Key") == nil })
    }
}
