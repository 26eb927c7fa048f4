import CourierRuntime
import CourierTesting
import Testing

/// The refilling budget: a share of recent calls plus a floor per second, counted over a
/// sliding window on the injected clock (Finagle's model).
@Suite struct RetryBudgetTests {
    /// A floor of 1 retry per second over 10 s, and half a retry per call.
    static let small = RetryBudget.Configuration(retryPercent: 50, minimumRetriesPerSecond: 1, window: .seconds(10))

    @Test func aRetryCostsOneAndTwoAfterATimeout() throws {
        let budget = RetryBudget(clock: ManualClock())
        #expect(budget.availableRetries == 100, "the default floor: 10 per second over 10 s")
        let afterError = try #require(budget.withdraw(forRetryAfter: .status(503)))
        #expect(afterError.cost == 1)
        #expect(budget.availableRetries == 99)
        let afterTimeout = try #require(budget.withdraw(forRetryAfter: .transport(.timedOut)))
        #expect(afterTimeout.cost == 2)
        #expect(budget.availableRetries == 97)
        let afterLostConnection = try #require(budget.withdraw(forRetryAfter: .transport(.connectionLost)))
        #expect(afterLostConnection.cost == 1)
        #expect(budget.availableRetries == 96)
    }

    @Test func everyCallAddsItsShare() {
        let budget = RetryBudget(configuration: Self.small, clock: ManualClock())
        #expect(budget.availableRetries == 10)
        budget.recordCall()
        #expect(budget.availableRetries == 10.5)
        for _ in 0..<9 {
            budget.recordCall()
        }
        #expect(budget.availableRetries == 15)
    }

    @Test func anEmptyBudgetFailsFastAndTakesNothing() {
        let budget = RetryBudget(configuration: .init(retryPercent: 50, minimumRetriesPerSecond: 1, window: .seconds(1)), clock: ManualClock())
        budget.recordCall()
        #expect(budget.availableRetries == 1.5)
        #expect(budget.withdraw(forRetryAfter: .transport(.timedOut)) == nil, "a timeout's retry costs 2")
        #expect(budget.availableRetries == 1.5)
        #expect(budget.withdraw(forRetryAfter: .status(500))?.cost == 1)
        #expect(budget.withdraw(forRetryAfter: .status(500)) == nil)
        #expect(budget.availableRetries == 0.5)
    }

    @Test func theDefaultBudgetAllowsItsFloorWithoutCalls() {
        let budget = RetryBudget(clock: ManualClock())
        var granted = 0
        while budget.withdraw(forRetryAfter: .status(503)) != nil {
            granted += 1
        }
        #expect(granted == 100)
        #expect(granted == RetryBudget.Configuration.default.retryAllowance(forCalls: 0))
        #expect(budget.availableRetries == 0)
    }

    @Test func aRefundRestoresARetryNeverMade() throws {
        let budget = RetryBudget(clock: ManualClock())
        let withdrawal = try #require(budget.withdraw(forRetryAfter: .status(429)))
        #expect(budget.availableRetries == 99)
        budget.refund(withdrawal)
        #expect(budget.availableRetries == 100)
    }

    @Test func concurrentWithdrawalsNeverOverdraw() async {
        let budget = RetryBudget(clock: ManualClock())
        let granted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<400 {
                group.addTask { budget.withdraw(forRetryAfter: .status(500)) == nil ? 0 : 1 }
            }
            return await group.reduce(0, +)
        }
        #expect(granted == 100)
        #expect(budget.availableRetries == 0)
    }

    @Test func theRegistrySharesABudgetPerHostAndKeepsHostsApart() {
        let registry = RetryBudgetRegistry(clock: ManualClock())
        let first = registry.budget(for: .hostA)
        let second = registry.budget(for: Resilience.Host(scheme: "HTTP", host: "127.0.0.1", port: 8081))
        let other = registry.budget(for: .hostB)
        #expect(first === second)
        #expect(first !== other)
        _ = first.withdraw(forRetryAfter: .status(500))
        #expect(second.availableRetries == 99)
        #expect(other.availableRetries == 100)
    }

    @Test func negativeConfigurationsCannotMintRetries() {
        let budget = RetryBudget(
            configuration: .init(retryPercent: -50, minimumRetriesPerSecond: -1, window: .seconds(10), timeoutRetryCost: -1),
            clock: ManualClock()
        )
        budget.recordCall()
        #expect(budget.availableRetries == 0)
        #expect(budget.withdraw(forRetryAfter: .status(500)) == nil)
        #expect(RetryBudget(configuration: .init(window: .seconds(-4)), clock: ManualClock()).availableRetries == 0)
    }

    // MARK: - Refilling with time

    @Test func aDrainedBudgetRefillsOnceItsRetriesLeaveTheWindow() {
        let clock = ManualClock()
        let budget = RetryBudget(configuration: Self.small, clock: clock)
        while budget.withdraw(forRetryAfter: .status(503)) != nil {}
        #expect(budget.availableRetries == 0)
        // Still within the window: nothing comes back by itself.
        clock.advance(by: .seconds(9))
        #expect(budget.availableRetries == 0)
        #expect(budget.withdraw(forRetryAfter: .status(503)) == nil)
        // A full window (and the slice the retries were taken in) later, they no longer count.
        clock.advance(by: .seconds(2))
        #expect(budget.availableRetries == 10)
        #expect(budget.withdraw(forRetryAfter: .status(503)) != nil)
    }

    @Test func callsCountForOneWindowOnly() {
        let clock = ManualClock()
        let budget = RetryBudget(configuration: Self.small, clock: clock)
        for _ in 0..<10 {
            budget.recordCall()
        }
        #expect(budget.availableRetries == 15)
        clock.advance(by: .seconds(9))
        #expect(budget.availableRetries == 15)
        clock.advance(by: .seconds(1))
        #expect(budget.availableRetries == 10, "the calls' share expired with the window; the floor stays")
    }

    @Test func aRefundOfAnExpiredWithdrawalReturnsNothingTwice() throws {
        let clock = ManualClock()
        let budget = RetryBudget(configuration: Self.small, clock: clock)
        let withdrawal = try #require(budget.withdraw(forRetryAfter: .status(503)))
        clock.advance(by: .seconds(11))
        #expect(budget.availableRetries == 10)
        budget.refund(withdrawal)
        #expect(budget.availableRetries == 10)
    }

    /// After an outage the budget comes back with time, so callers that arrive later get
    /// retries too, instead of the first few after the outage taking everything.
    @Test func laterCallersGetRetriesAgainAfterAnOutage() {
        let clock = ManualClock()
        let budget = RetryBudget(clock: clock)
        var grantedDuringOutage = 0
        for _ in 0..<200 {
            budget.recordCall()
            if budget.withdraw(forRetryAfter: .status(503)) != nil { grantedDuringOutage += 1 }
            if budget.withdraw(forRetryAfter: .status(503)) != nil { grantedDuringOutage += 1 }
        }
        #expect(grantedDuringOutage == RetryBudget.Configuration.default.retryAllowance(forCalls: 200))
        #expect(budget.withdraw(forRetryAfter: .status(503)) == nil)
        clock.advance(by: .seconds(12))
        budget.recordCall()
        #expect(budget.withdraw(forRetryAfter: .status(503)) != nil)
    }

    /// The documented bound: within any period of one window, retries never exceed
    /// `floor + share × calls made in that period and in the window before it`. A steady
    /// storm of calls, every one retried as often as the budget allows, for 60 s on the
    /// manual clock, checked over every 10 s period starting at every 100 ms step.
    @Test func retriesInAnyWindowStayWithinTheDocumentedBound() {
        let clock = ManualClock()
        let configuration = RetryBudget.Configuration.default
        let budget = RetryBudget(configuration: configuration, clock: clock)
        let step = Duration.milliseconds(100)
        let steps = 600
        var calls = [Int](repeating: 0, count: steps)
        var retries = [Int](repeating: 0, count: steps)
        for index in 0..<steps {
            // A varying load: 0 to 19 calls per step, each wanting two retries.
            let callsNow = (index * 7) % 20
            for _ in 0..<callsNow {
                budget.recordCall()
                calls[index] += 1
                for _ in 0..<2 where budget.withdraw(forRetryAfter: .status(503)) != nil {
                    retries[index] += 1
                }
            }
            clock.advance(by: step)
        }
        let stepsPerWindow = 100
        var tightest = Double.infinity
        for start in 0...(steps - stepsPerWindow) {
            let retriesInWindow = retries[start..<(start + stepsPerWindow)].reduce(0, +)
            let callsCounted = calls[max(start - stepsPerWindow, 0)..<(start + stepsPerWindow)].reduce(0, +)
            let bound = configuration.retryFloor + Double(configuration.retryPercent) / 100 * Double(callsCounted)
            #expect(Double(retriesInWindow) <= bound, "period starting at step \(start)")
            tightest = min(tightest, bound - Double(retriesInWindow))
        }
        // The storm really pressed on the budget: some period came within a few retries of it.
        #expect(tightest < 40)
        #expect(retries.reduce(0, +) > 0)
    }

    @Test func theAllowanceIsTheFloorPlusTheShare() {
        let configuration = RetryBudget.Configuration.default
        #expect(configuration.retryFloor == 100)
        #expect(configuration.retryAllowance(forCalls: 100) == 120)
        #expect(configuration.retryAllowance(forCalls: 200) == 140)
        #expect(RetryBudget.Configuration(retryPercent: 10, minimumRetriesPerSecond: 2, window: .milliseconds(1500)).retryAllowance(forCalls: 25) == 5)
    }
}
