import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceFaultSuite
import Testing

/// A total outage, counted at the server: 100 concurrent calls of the generated client with the
/// default configuration, then a second wave right after. The retry budget, not the three
/// attempts of the policy, bounds what reaches the server.
@Suite("Fault suite: total outage", .timeLimit(.minutes(10)))
struct FaultSuiteOutageTests {
    enum Outage: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// Every answer is a 503 without `Retry-After`.
        case status503
        /// A port where nothing listens: the server cannot count, so the client's events do.
        case nothingListening
        /// Every connection is reset after the request was read.
        case connectionReset

        var testDescription: String { rawValue }
    }

    static let calls = 100

    /// Sends `calls` concurrent `getItem` calls, each on a path of its own, and returns their
    /// results by path.
    static func wave(_ name: String, of client: FaultSuiteClient) async -> [String: Result<Item, APIError<GetItemFailure>>] {
        await withTaskGroup(of: (String, Result<Item, APIError<GetItemFailure>>).self) { group in
            for index in 0..<calls {
                let id = "\(name)-\(index)"
                group.addTask { (id, await outcome { () async throws(APIError<GetItemFailure>) in try await client.getItem(id: id) }) }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    /// Whether `result` is the failure this outage causes.
    static func isOutageFailure(_ result: Result<Item, APIError<GetItemFailure>>, _ outage: Outage) -> Bool {
        guard case .failure(let error) = result else { return false }
        switch outage {
        case .status503:
            return error.status?.code == 503
        case .nothingListening:
            return error.category == .transport(.connectionRefused)
        case .connectionReset:
            // A reset is a lost connection; on a machine loaded enough to stall a reset past the
            // attempt timeout, a timeout.
            return error.category == .transport(.connectionLost) || error.category == .transport(.timedOut)
        }
    }

    @Test("100 concurrent calls in a total outage stay within 100 + the budget; a second wave finds it drained",
          arguments: FaultTransport.allCases, Outage.allCases)
    func totalOutage(transport: FaultTransport, outage: Outage) async throws {
        try await withFaultServer(.heavy) { server in
            let url: URL
            switch outage {
            case .status503:
                server.setOverride(.respond(.status(503)))
                url = server.baseURL
            case .connectionReset:
                server.setOverride(.reset)
                url = server.baseURL
            case .nothingListening:
                url = try #require(URL(string: "http://127.0.0.1:\(try await portWithNothingListening())"))
            }
            let events = EventLog()
            // The default configuration: the default policy (three attempts), the default
            // budget per host, no breaker.
            let client = faultClient(url, transport, events: events)
            let registry = try #require(client.client.configuration.resilience.retryBudgets)
            let configuration = registry.configuration
            let budget = registry.budget(for: try #require(Resilience.Host(url)))
            let start = ContinuousClock.now

            let first = await Self.wave("first", of: client)
            let firstWall = ContinuousClock.now - start
            // The server counts what reached it; with nothing listening, nothing can, and the
            // attempts the client handed its transport are the count.
            let firstAttempts = outage == .nothingListening ? events.attemptsStarted : server.requestCount
            let retriesLeftAfterFirst = budget.availableRetries

            #expect(first.count == Self.calls)
            #expect(first.values.allSatisfy { Self.isOutageFailure($0, outage) },
                    "\(Set(first.values.compactMap { $0.category().map { "\($0)" } }))")
            #expect(firstAttempts >= Self.calls, "every call made its first attempt")
            let firstBound = Self.calls + BudgetAllowance.retries(configuration, calls: Self.calls, over: firstWall)
            #expect(firstAttempts <= firstBound, "attempts \(firstAttempts) > \(firstBound)")
            if outage != .nothingListening {
                // Per call, at the server: at least its first attempt, at most the policy's three.
                let outliers = (0..<Self.calls).compactMap { index -> String? in
                    let receipts = server.requestCount("GET", "/items/first-\(index)")
                    return (1...3).contains(receipts) ? nil : "call \(index): \(receipts)"
                }
                #expect(outliers.isEmpty, "receipts at the server outside 1...3: \(outliers)")
            }
            // 100 calls want up to 200 retries and the budget holds fewer: the wave drains it. On a
            // machine loaded enough that the wave outlasts the budget's window, its first
            // withdrawals have expired by its end and refilled the budget, as designed; the bound
            // above, which counts the windows the wave spanned, is what holds then.
            if firstWall < configuration.window {
                #expect(BudgetAllowance.isDrained(budget), "\(retriesLeftAfterFirst) retries left after \(firstWall)")
            }

            let secondStart = ContinuousClock.now
            let stopsBefore = events.stopReasons.count
            let second = await Self.wave("second", of: client)
            let secondWall = ContinuousClock.now - secondStart
            let secondAttempts = (outage == .nothingListening ? events.attemptsStarted : server.requestCount) - firstAttempts
            let secondStops = events.stopReasons.dropFirst(stopsBefore)

            #expect(second.values.allSatisfy { Self.isOutageFailure($0, outage) })
            // The budget is still drained: the second wave gets only what both waves together
            // may have, less what the first took; with the defaults, its own 20 % share (20
            // retries) and not a fresh allowance (120).
            let bothBound = BudgetAllowance.retries(configuration, calls: 2 * Self.calls, over: ContinuousClock.now - start)
            let secondRetries = max(bothBound - (firstAttempts - Self.calls), 0)
            #expect(secondAttempts >= Self.calls)
            #expect(secondAttempts <= Self.calls + secondRetries, "attempts \(secondAttempts) > \(Self.calls) + \(secondRetries)")
            #expect(secondStops.count == Self.calls)
            let exhausted = secondStops.filter { $0 == .budgetExhausted }.count
            #expect(exhausted >= Self.calls - secondRetries, "\(Set(secondStops.map { "\($0)" }))")

            figure("outage-\(outage.rawValue)", transport, [
                "calls": "\(Self.calls)",
                "wave1-attempts": "\(firstAttempts)",
                "bound": "\(firstBound)",
                "retries-left": String(format: "%.2f", retriesLeftAfterFirst),
                "wave2-attempts": "\(secondAttempts)",
                "wave2-bound": "\(Self.calls + secondRetries)",
                "counted-at": outage == .nothingListening ? "client-events" : "server",
                "errors": Set(first.values.map { $0.category()?.figureName ?? "success" }).sorted().joined(separator: ","),
                "wave1-wall": firstWall.milliseconds,
                "wave2-wall": secondWall.milliseconds,
            ])
        }
    }
}
