import CourierLocking
/// Limits how many retries one host receives, so that a struggling server is not buried under
/// a storm of repeats, and refills with time so that every caller, not only the first after an
/// outage, gets its share of retries.
///
/// The budget follows Finagle's `RetryBudget`: every call deposits ``Configuration/retryPercent``
/// hundredths of a retry, every retry withdraws one (``Configuration/timeoutRetryCost`` after a
/// timeout), and both count only for ``Configuration/window``. On top of the deposits, a floor
/// of ``Configuration/minimumRetriesPerSecond`` × window retries is always allowed, so that a
/// host receiving few calls can still have them retried.
///
/// **The bound.** Within any period of length `window`, retries (each counted at its cost, at
/// the moment it is granted, before its backoff) never exceed
///
/// `minimumRetriesPerSecond × window + retryPercent / 100 × (calls made in that period and in the window before it)`.
///
/// For a burst of `n` calls on a budget that saw no traffic for a window before, that is
/// ``Configuration/retryAllowance(forCalls:)``: with the defaults, 100 calls against a dead
/// server may be retried at most 100 + 20 = 120 times, so the server sees at most 220 attempts,
/// never 300. A second burst of 100 within the same window finds only its own deposits,
/// 20 retries, on top of what the first left.
///
/// ``APIClient`` keeps one budget per host, shared as ``Resilience/Sharing`` says; the type is
/// public for its ``Configuration``, and its instances are the client's own.
public final class RetryBudget: Sendable {
    /// How much of the recent traffic may be retried, and for how long traffic counts.
    public struct Configuration: Sendable, Hashable {
        /// Retries allowed per hundred calls made within the last ``window``, on top of the
        /// floor. Default 20.
        public var retryPercent: Int
        /// Retries per second allowed however few calls were made: the budget always holds
        /// `minimumRetriesPerSecond × window` retries for the last window. Default 10.
        public var minimumRetriesPerSecond: Int
        /// How long a call's deposit and a retry's withdrawal count. Default 10 s.
        public var window: Duration
        /// How many retries a retry after a transport timeout counts as, because a timeout ties
        /// the server up longer than a quick error. Default 2.
        public var timeoutRetryCost: Int

        /// Creates a configuration; every argument defaults to the documented default.
        /// Negative values count as zero.
        public init(
            retryPercent: Int = 20,
            minimumRetriesPerSecond: Int = 10,
            window: Duration = .seconds(10),
            timeoutRetryCost: Int = 2
        ) {
            self.retryPercent = retryPercent
            self.minimumRetriesPerSecond = minimumRetriesPerSecond
            self.window = window
            self.timeoutRetryCost = timeoutRetryCost
        }

        /// The defaults: 20 % of the calls of the last 10 s, plus 10 retries per second.
        public static let `default` = Configuration()

        /// The retries always allowed within one window, however few calls were made:
        /// `minimumRetriesPerSecond × window`, rounded down to hundredths of a retry.
        public var retryFloor: Double {
            Double(reserveUnits) / Double(RetryBudget.unitsPerRetry)
        }

        /// The most retries (each counted at its cost) that `calls` calls made within one
        /// window may make, on a budget that saw no traffic in the window before:
        /// `retryFloor + retryPercent × calls / 100`, rounded down. With the defaults, 120 for 100
        /// calls. Across several bursts within one window, give the calls of all of them.
        public func retryAllowance(forCalls calls: Int) -> Int {
            (reserveUnits + max(retryPercent, 0) * max(calls, 0)) / RetryBudget.unitsPerRetry
        }

        /// The floor in hundredths of a retry.
        var reserveUnits: Int {
            let seconds = Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18
            guard seconds > 0, minimumRetriesPerSecond > 0 else { return 0 }
            let units = (Double(minimumRetriesPerSecond) * seconds * Double(RetryBudget.unitsPerRetry)).rounded(.down)
            return units < Double(Int.max / 2) ? Int(units) : Int.max / 2
        }
    }

    /// One retry's withdrawal, handed back through ``refund(_:)`` if that retry is never made.
    package struct Withdrawal: Sendable, Hashable {
        /// How many retries it counts as.
        package let cost: Int
        /// The slice of time it was taken in, so that a refund returns it where it counts.
        let slice: Int
    }

    /// The configuration this budget was created with.
    package let configuration: Configuration

    /// Deposits and withdrawals in hundredths of a retry, so that 20 % of a call is exact.
    static let unitsPerRetry = 100
    /// The window is kept as this many slices; see ``Slices`` for how they expire.
    static let slicesPerWindow = 10

    /// The calls and retries of one slice of the window.
    private struct Slice {
        var index: Int
        var calls: Int
        var retryUnits: Int
    }

    private let stopwatch: Stopwatch
    private let slices = Locked<[Slice]>([])

    /// Creates a budget that has seen no traffic.
    ///
    /// - Parameters:
    ///   - configuration: The share, the floor and the window.
    ///   - clock: Where the window's time is read; a test's `ManualClock` shows the refill
    ///     without waiting.
    package init(configuration: Configuration = .default, clock: any Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        stopwatch = Stopwatch(clock)
    }

    /// The retries (of cost 1) the budget would allow now, to hundredths of a retry; never
    /// negative.
    package var availableRetries: Double {
        let now = currentSlice()
        let units = slices.withLock { slices in balance(of: &slices, at: now) }
        return Double(max(units, 0)) / Double(Self.unitsPerRetry)
    }

    /// Records a call: it adds ``Configuration/retryPercent`` hundredths of a retry for the
    /// next window. The retry loop records each call once, as its first attempt goes out.
    package func recordCall() {
        let now = currentSlice()
        slices.withLock { slices in
            Self.touch(&slices, at: now) { $0.calls += 1 }
        }
    }

    /// Takes one retry after `failure`, or returns `nil`, taking nothing, when the budget holds
    /// less than its cost.
    ///
    /// A retry after a transport timeout costs ``Configuration/timeoutRetryCost`` retries; any
    /// other retry costs one.
    package func withdraw(forRetryAfter failure: RetryPolicy.AttemptFailure) -> Withdrawal? {
        let cost: Int
        if case .transport(.timedOut, _) = failure {
            cost = max(configuration.timeoutRetryCost, 0)
        } else {
            cost = 1
        }
        let units = cost * Self.unitsPerRetry
        let now = currentSlice()
        return slices.withLock { slices in
            guard balance(of: &slices, at: now) >= units else { return nil }
            Self.touch(&slices, at: now) { $0.retryUnits += units }
            return Withdrawal(cost: cost, slice: now)
        }
    }

    /// Returns a retry that was never made, because the call was cancelled or the circuit
    /// breaker refused it. A withdrawal older than the window has already stopped counting and
    /// returns nothing.
    package func refund(_ withdrawal: Withdrawal) {
        let units = withdrawal.cost * Self.unitsPerRetry
        slices.withLock { slices in
            if let position = slices.firstIndex(where: { $0.index == withdrawal.slice }) {
                slices[position].retryUnits = max(slices[position].retryUnits - units, 0)
            }
        }
    }

    /// The number of the slice of the window that now falls in.
    private func currentSlice() -> Int {
        let window = configuration.window
        guard window > .zero else { return 0 }
        let slice = window / Self.slicesPerWindow
        guard slice > .zero else { return 0 }
        let count = stopwatch.elapsed / slice
        return count < Double(Int.max / 2) ? Int(count.rounded(.down)) : Int.max / 2
    }

    /// The balance in hundredths of a retry at slice `now`, dropping slices that no longer count.
    ///
    /// A call counts while its slice is one of the last `slicesPerWindow` (at most one window
    /// after it was made); a retry counts while its slice is one of the last
    /// `slicesPerWindow + 1` (at least one window after it was made). Deposits thus never
    /// count longer, and withdrawals never shorter, than the window, which is what the bound
    /// in the type's documentation needs.
    private func balance(of slices: inout [Slice], at now: Int) -> Int {
        guard configuration.window > .zero else { return 0 }
        slices.removeAll { $0.index < now - Self.slicesPerWindow }
        var calls = 0
        var retryUnits = 0
        for slice in slices {
            retryUnits += slice.retryUnits
            if slice.index > now - Self.slicesPerWindow {
                calls += slice.calls
            }
        }
        return configuration.reserveUnits + max(configuration.retryPercent, 0) * calls - retryUnits
    }

    private static func touch(_ slices: inout [Slice], at now: Int, _ change: (inout Slice) -> Void) {
        if let last = slices.indices.last, slices[last].index == now {
            change(&slices[last])
        } else {
            var slice = Slice(index: now, calls: 0, retryUnits: 0)
            change(&slice)
            slices.append(slice)
        }
    }
}

/// Hands out one ``RetryBudget`` per host and budget configuration: every caller of a host
/// with the same configuration draws from the same budget, and hosts never draw from each
/// other's.
///
/// ``Resilience`` uses a process-wide store by default, so that clients made per call still
/// share their host's budget; a registry created with ``init(configuration:clock:)`` has budgets
/// of its own, shared only by whoever holds it.
package final class RetryBudgetRegistry: Sendable {
    /// The configuration of every budget this registry hands out.
    package let configuration: RetryBudget.Configuration
    private let store: BudgetStore
    /// The budgets this registry has handed out, by host alone: every call asks for its host's
    /// budget, and a client calls one host, so the last one answers nearly every call with one
    /// comparison, where the store's key hashes the host and the configuration.
    private let handedOut = Locked(HandedOut<Resilience.Host, RetryBudget>())

    /// Creates a registry with budgets of its own.
    ///
    /// - Parameters:
    ///   - configuration: The configuration of its budgets.
    ///   - clock: Where its budgets read time.
    package init(configuration: RetryBudget.Configuration = .default, clock: any Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        store = BudgetStore(clock: clock)
    }

    init(configuration: RetryBudget.Configuration, store: BudgetStore) {
        self.configuration = configuration
        self.store = store
    }

    /// A view of the process-wide budgets, which run on `ContinuousClock`: every registry made
    /// this way hands out the same budget for the same host and configuration.
    static func processWide(configuration: RetryBudget.Configuration) -> RetryBudgetRegistry {
        RetryBudgetRegistry(configuration: configuration, store: BudgetStore.processWide)
    }

    /// The budget of `host`, created on first use.
    package func budget(for host: Resilience.Host) -> RetryBudget {
        if let budget = handedOut.withLock({ $0.value(for: host) }) {
            return budget
        }
        let budget = store.budget(for: host, configuration: configuration)
        handedOut.withLock { $0.insert(budget, for: host) }
        return budget
    }
}

/// Budgets by host and configuration, shared by every `RetryBudgetRegistry` that holds it.
final class BudgetStore: Sendable {
    struct Key: Hashable {
        var host: Resilience.Host
        var configuration: RetryBudget.Configuration
    }

    static let processWide = BudgetStore(clock: ContinuousClock())

    private let clock: any Clock<Duration>
    private let budgets = Locked<[Key: RetryBudget]>([:])

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    func budget(for host: Resilience.Host, configuration: RetryBudget.Configuration) -> RetryBudget {
        budgets.withLock { budgets in
            let key = Key(host: host, configuration: configuration)
            if let budget = budgets[key] {
                return budget
            }
            let budget = RetryBudget(configuration: configuration, clock: clock)
            budgets[key] = budget
            return budget
        }
    }
}

