import BookshelfAPI
import CourierAsyncHTTPClient
import CourierLocking
import CourierRuntime
import CourierTestServer
import Foundation
import Testing

/// Issue 16: apps make a client per call, and the generated `init`'s default configuration used
/// to bring a fresh retry budget and breaker each time, so 100 calls through 100 new clients
/// made 300 attempts against a dead server. Budgets and breakers are now process-wide per
/// (host, configuration) by default; `Resilience(sharing: .isolated)` keeps a client apart.
///
/// Counted at the loopback server (or, with nothing listening, from each client's own attempt
/// events), through a generated client made anew for every call. Every test has a server of
/// its own, so its host (and so its process-wide budget and breaker) is its own too.
@Suite("Budgets and breakers shared across clients", .timeLimit(.minutes(10)))
struct SharedResilienceTests {
    enum Transport: String, CaseIterable, CustomTestStringConvertible {
        case urlSession, asyncHTTPClient

        static let session = URLSessionTransport()
        static let ahc = AsyncHTTPClientTransport()

        var transport: any HTTPTransport {
            switch self {
            case .urlSession: Self.session
            case .asyncHTTPClient: Self.ahc
            }
        }

        var testDescription: String { rawValue }
    }

    static let calls = 100
    /// The breaker stays out of the budget tests, so that the budget alone bounds the attempts.
    static let noBreaker = EndpointResilience(circuitBreaker: .off)

    /// The default budget's floor and share (100 retries plus 20 % of the calls, so 120 for
    /// 100 calls), counted over a window no run of a budget test can outlast.
    ///
    /// The budget bounds the retries of a burst that fits in one window; its floor refills as
    /// the window moves on. With the default 10 s window, a fresh-clone run of the whole suite
    /// stretched the 100 calls through URLSession past it, and the server rightly saw 232
    /// receipts. Every attempt reached the server once (receipts equal attempts, checked below);
    /// what let 12 more through was the window: with each 503 delayed by 250 ms so that the
    /// calls took 14 s, the default window let 128 retries through (8 of them after the first
    /// second's withdrawals expired, 12 s in), and this one exactly 120. The budget tests
    /// are limited to a minute, so their burst always fits in this window of 100 s.
    static let oneWindow = RetryBudget.Configuration(minimumRetriesPerSecond: 1, window: .seconds(100))

    /// Makes `calls` concurrent calls, each through a new `BookshelfClient` made by `makeClient`.
    static func callThroughNewClients(
        _ makeClient: @escaping @Sendable () -> BookshelfClient,
        resilience: EndpointResilience? = nil
    ) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            for book in 0..<calls {
                group.addTask {
                    let client = makeClient()
                    do {
                        _ = try await client.client.send(GetBookRequest(book: book), resilience: resilience)
                        return true
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 0 : 1) }
        }
    }

    @Test("100 calls through 100 new clients share the host's budget: at most 100 + the allowance reach a 503ing server, each attempt once",
          .timeLimit(.minutes(10)), arguments: Transport.allCases)
    func newClientsShareTheBudget(transport: Transport) async throws {
        let server = try await TestServer.start()
        server.setOverride(.respond(.status(503)))
        let url = server.baseURL
        let attempts = AttemptCounter()
        let failed = await Self.callThroughNewClients({
            BookshelfClient(baseURL: url, transport: transport.transport,
                            configuration: APIClient.Configuration(onEvent: attempts.record, resilience: Resilience(retryBudget: Self.oneWindow)))
        }, resilience: Self.noBreaker)
        let reached = server.requestCount
        await server.stop()

        let allowance = Self.oneWindow.retryAllowance(forCalls: Self.calls)
        #expect(allowance == RetryBudget.Configuration.default.retryAllowance(forCalls: Self.calls))
        #expect(allowance == 120)
        #expect(failed == Self.calls)
        #expect(reached >= Self.calls, "every call made its first attempt")
        // Each attempt reaches the server once: none is sent twice by the transport, and none
        // the client counts as never sent arrives anyway.
        #expect(reached == attempts.count, "server saw \(reached) receipts of \(attempts.count) attempts")
        #expect(attempts.count <= Self.calls + allowance, "\(attempts.count) attempts; a budget per client would make 300")
    }

    @Test("With nothing listening, 100 new clients together stay within 100 + the allowance",
          .timeLimit(.minutes(10)), arguments: Transport.allCases)
    func newClientsShareTheBudgetWithNothingListening(transport: Transport) async throws {
        // A port that stays unanswered: a stopped server's port could go to another test's server.
        let url = try #require(URL(string: "http://127.0.0.1:\(try TestServer.portWithNothingListening())"))
        let attempts = AttemptCounter()
        let failed = await Self.callThroughNewClients({
            BookshelfClient(baseURL: url, transport: transport.transport,
                            configuration: APIClient.Configuration(onEvent: attempts.record, resilience: Resilience(retryBudget: Self.oneWindow)))
        }, resilience: Self.noBreaker)

        let allowance = Self.oneWindow.retryAllowance(forCalls: Self.calls)
        #expect(failed == Self.calls)
        #expect(attempts.count >= Self.calls)
        #expect(attempts.count <= Self.calls + allowance, "\(attempts.count) attempts; a budget per client would make 300")
    }

    @Test("New clients share the host's breaker too: the spec's 5 failures in a row cut every later client off",
          arguments: Transport.allCases)
    func newClientsShareTheBreaker(transport: Transport) async throws {
        let server = try await TestServer.start()
        server.setOverride(.respond(.status(503)))
        let url = server.baseURL
        // One at a time, so that the breaker's count is not blurred by calls already in flight.
        var failed = 0
        for book in 0..<20 {
            let client = BookshelfClient(baseURL: url, transport: transport.transport)
            do {
                _ = try await client.getBook(book: book)
            } catch {
                failed += 1
            }
        }
        let reached = server.requestCount
        await server.stop()
        #expect(failed == 20)
        // The fifth failure opens the shared breaker; every later attempt of every new client
        // is refused before it is sent. A breaker per client would let all 60 attempts through.
        #expect(reached == 5, "server saw \(reached)")
    }

    @Test("Isolated clients keep budgets of their own: each call is retried in full",
          arguments: Transport.allCases)
    func isolatedClientsDoNotShare(transport: Transport) async throws {
        let server = try await TestServer.start()
        server.setOverride(.respond(.status(503)))
        let url = server.baseURL
        let failed = await Self.callThroughNewClients({
            BookshelfClient(baseURL: url, transport: transport.transport,
                            configuration: APIClient.Configuration(resilience: Resilience(sharing: .isolated)))
        }, resilience: Self.noBreaker)
        let reached = server.requestCount
        await server.stop()
        #expect(failed == Self.calls)
        // Each isolated budget has its own floor of 100 retries, so every call makes its 3 attempts.
        #expect(reached == 3 * Self.calls, "server saw \(reached)")
    }
}

/// Counts `attemptStarted` events from any number of clients.
final class AttemptCounter: @unchecked Sendable {
    private let counted = Locked(0)

    var count: Int { counted.value }

    var record: @Sendable (ClientEvent) -> Void {
        { [counted] event in
            if case .attemptStarted = event { counted.withLock { $0 += 1 } }
        }
    }
}
