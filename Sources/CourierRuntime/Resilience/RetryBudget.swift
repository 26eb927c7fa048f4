/// A token bucket that limits how many retries one host receives, so that a struggling server
/// is not buried under a storm of repeats.
///
/// Every retry withdraws tokens; successful calls pay a little back. While most calls
/// succeed the bucket stays full and retries are free to happen. When a host starts failing
/// broadly the bucket drains and further retries fail fast, which bounds the extra load
/// retries can add to roughly one retry per `retryCost` successes.
///
/// Share one budget between all callers of a host with ``RetryBudgetRegistry``.
public final class RetryBudget: Sendable {
    /// The sizes of the bucket and of its withdrawals and deposits.
    public struct Configuration: Sendable, Hashable {
        /// Tokens in a full bucket. Default 500.
        public var capacity: Int
        /// Tokens a retry costs. Default 5.
        public var retryCost: Int
        /// Tokens a retry costs after a timeout, which ties up the server longer. Default 10.
        public var timeoutRetryCost: Int
        /// Tokens a success on the first attempt pays back. Default 1.
        public var firstTrySuccessReward: Int

        /// Creates a configuration; every argument defaults to the documented default.
        /// Negative values count as zero.
        public init(capacity: Int = 500, retryCost: Int = 5, timeoutRetryCost: Int = 10, firstTrySuccessReward: Int = 1) {
            self.capacity = capacity
            self.retryCost = retryCost
            self.timeoutRetryCost = timeoutRetryCost
            self.firstTrySuccessReward = firstTrySuccessReward
        }

        /// The defaults.
        public static let `default` = Configuration()
    }

    /// Tokens taken for one retry, handed back through ``recordSuccess(after:)`` if that
    /// retry succeeds or ``refund(_:)`` if it is never made.
    public struct Withdrawal: Sendable, Hashable {
        /// The tokens taken.
        public let cost: Int
    }

    /// The configuration this budget was created with.
    public let configuration: Configuration
    private let tokens: Locked<Int>

    /// Creates a full bucket.
    public init(configuration: Configuration = .default) {
        self.configuration = configuration
        tokens = Locked(max(configuration.capacity, 0))
    }

    /// Tokens currently in the bucket.
    public var availableTokens: Int {
        tokens.withLock { $0 }
    }

    /// Takes the cost of one retry after `failure`, or returns `nil`, taking nothing, when the
    /// bucket holds less than that cost.
    ///
    /// A retry after a transport timeout costs ``Configuration/timeoutRetryCost``; any other
    /// retry costs ``Configuration/retryCost``.
    public func withdraw(forRetryAfter failure: AttemptFailure) -> Withdrawal? {
        let cost: Int
        if case .transport(.timedOut, _) = failure {
            cost = max(configuration.timeoutRetryCost, 0)
        } else {
            cost = max(configuration.retryCost, 0)
        }
        return tokens.withLock { tokens in
            guard tokens >= cost else { return nil }
            tokens -= cost
            return Withdrawal(cost: cost)
        }
    }

    /// Records a successful call.
    ///
    /// - Parameter withdrawal: What the retry that succeeded cost, refunded in full; `nil`
    ///   when the call succeeded on its first attempt, which pays back
    ///   ``Configuration/firstTrySuccessReward``.
    public func recordSuccess(after withdrawal: Withdrawal?) {
        deposit(withdrawal?.cost ?? configuration.firstTrySuccessReward)
    }

    /// Returns the tokens of a retry that was never made, because the call was cancelled or
    /// the circuit breaker refused it.
    public func refund(_ withdrawal: Withdrawal) {
        deposit(withdrawal.cost)
    }

    private func deposit(_ amount: Int) {
        let capacity = max(configuration.capacity, 0)
        tokens.withLock { tokens in
            tokens = min(capacity, tokens + max(amount, 0))
        }
    }
}

/// Hands out one ``RetryBudget`` per host: every caller of a host draws from the same bucket,
/// and hosts never draw from each other's.
public final class RetryBudgetRegistry: Sendable {
    /// The configuration of every budget this registry creates.
    public let configuration: RetryBudget.Configuration
    private let budgets = Locked<[HostKey: RetryBudget]>([:])

    /// Creates an empty registry.
    public init(configuration: RetryBudget.Configuration = .default) {
        self.configuration = configuration
    }

    /// The budget of `host`, created full on first use.
    public func budget(for host: HostKey) -> RetryBudget {
        budgets.withLock { budgets in
            if let budget = budgets[host] {
                return budget
            }
            let budget = RetryBudget(configuration: configuration)
            budgets[host] = budget
            return budget
        }
    }
}
