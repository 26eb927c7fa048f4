import CourierRuntime
import Testing

@Suite struct RetryBudgetTests {
    @Test func aRetryCostsFiveAndTenAfterATimeout() throws {
        let budget = RetryBudget()
        #expect(budget.availableTokens == 500)
        let afterError = try #require(budget.withdraw(forRetryAfter: .status(503)))
        #expect(afterError.cost == 5)
        #expect(budget.availableTokens == 495)
        let afterTimeout = try #require(budget.withdraw(forRetryAfter: .transport(.timedOut)))
        #expect(afterTimeout.cost == 10)
        #expect(budget.availableTokens == 485)
        let afterLostConnection = try #require(budget.withdraw(forRetryAfter: .transport(.connectionLost)))
        #expect(afterLostConnection.cost == 5)
        #expect(budget.availableTokens == 480)
    }

    @Test func aSuccessAfterARetryRefundsItsCost() throws {
        let budget = RetryBudget()
        let withdrawal = try #require(budget.withdraw(forRetryAfter: .transport(.timedOut)))
        #expect(budget.availableTokens == 490)
        budget.recordSuccess(after: withdrawal)
        #expect(budget.availableTokens == 500)
    }

    @Test func aFirstTrySuccessReturnsOneTokenUpToCapacity() throws {
        let budget = RetryBudget()
        _ = try #require(budget.withdraw(forRetryAfter: .status(500)))
        budget.recordSuccess(after: nil)
        #expect(budget.availableTokens == 496)
        for _ in 0..<10 {
            budget.recordSuccess(after: nil)
        }
        #expect(budget.availableTokens == 500)
    }

    @Test func anEmptyBucketFailsFastAndTakesNothing() {
        let budget = RetryBudget(configuration: .init(capacity: 12))
        #expect(budget.withdraw(forRetryAfter: .status(500))?.cost == 5)
        #expect(budget.withdraw(forRetryAfter: .transport(.timedOut)) == nil)
        #expect(budget.availableTokens == 7)
        #expect(budget.withdraw(forRetryAfter: .status(500))?.cost == 5)
        #expect(budget.withdraw(forRetryAfter: .status(500)) == nil)
        #expect(budget.availableTokens == 2)
    }

    @Test func theDefaultBudgetAllowsOneHundredRetriesWithoutSuccesses() {
        let budget = RetryBudget()
        var granted = 0
        while budget.withdraw(forRetryAfter: .status(503)) != nil {
            granted += 1
        }
        #expect(granted == 100)
        #expect(budget.availableTokens == 0)
    }

    @Test func aRefundRestoresARetryNeverMade() throws {
        let budget = RetryBudget()
        let withdrawal = try #require(budget.withdraw(forRetryAfter: .status(429)))
        budget.refund(withdrawal)
        #expect(budget.availableTokens == 500)
    }

    @Test func concurrentWithdrawalsNeverOverdraw() async {
        let budget = RetryBudget(configuration: .init(capacity: 1000))
        let granted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<400 {
                group.addTask { budget.withdraw(forRetryAfter: .status(500)) == nil ? 0 : 1 }
            }
            return await group.reduce(0, +)
        }
        #expect(granted == 200)
        #expect(budget.availableTokens == 0)
    }

    @Test func theRegistrySharesABucketPerHostAndKeepsHostsApart() {
        let registry = RetryBudgetRegistry()
        let first = registry.budget(for: .hostA)
        let second = registry.budget(for: HostKey(scheme: "HTTP", host: "127.0.0.1", port: 8081))
        let other = registry.budget(for: .hostB)
        #expect(first === second)
        #expect(first !== other)
        _ = first.withdraw(forRetryAfter: .status(500))
        #expect(second.availableTokens == 495)
        #expect(other.availableTokens == 500)
    }

    @Test func negativeConfigurationsCannotMintTokens() {
        let budget = RetryBudget(configuration: .init(capacity: 10, retryCost: -5, timeoutRetryCost: -1, firstTrySuccessReward: -3))
        #expect(budget.withdraw(forRetryAfter: .status(500))?.cost == 0)
        budget.recordSuccess(after: nil)
        #expect(budget.availableTokens == 10)
        #expect(RetryBudget(configuration: .init(capacity: -4)).availableTokens == 0)
    }
}
