import CourierLocking
import CourierRuntime

/// A clock that only moves when told to, for testing retries, backoff and circuit breakers
/// without sleeping real time.
///
/// It ships in `CourierTesting` rather than in Courier's own tests because apps that exercise a
/// generated client through the stub transport's scripted responses meet the same
/// problem: with retries enabled, every scripted 503 would otherwise cost them a real backoff.
/// Pass it wherever the runtime accepts `any Clock<Duration>`.
///
/// ```swift
/// let clock = ManualClock()
/// let call = Task { try await client.send(request) }   // backs off on the manual clock
/// await clock.waitForSleepers()                         // the retry loop is now asleep
/// clock.advance(by: .seconds(1))                        // and wakes up
/// ```
///
/// A sleeper whose task is cancelled wakes at once with `CancellationError`, as it would on
/// `ContinuousClock`.
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time advanced since the clock's origin.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// How far this instant lies after the clock's origin.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset from the origin, for test failure messages.
        public var description: String {
            "ManualClock.Instant(\(offset))"
        }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        var id: UInt64
        var count: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Instant
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var cancelledBeforeSuspending: Set<UInt64> = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var waitersCancelledBeforeSuspending: Set<UInt64> = []
    }

    private let state: Locked<State>

    /// Creates a clock that reads `now` until it is advanced.
    public init(now: Instant = Instant(offset: .zero)) {
        state = Locked(State(now: now))
    }

    /// The current instant; it changes only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// Zero: a manual clock resolves any duration exactly.
    public var minimumResolution: Duration {
        .zero
    }

    /// Suspends until the clock is advanced to `deadline` or past it.
    ///
    /// Returns at once when `deadline` is not after ``now``.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled, before or while asleep.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id: UInt64? = state.withLock { state in
            guard deadline > state.now else { return nil }
            defer { state.nextID += 1 }
            return state.nextID
        }
        guard let id else { return }
        // A cancellation that raced with a wake-up leaves its mark behind; clear it.
        defer { state.withLock { _ = $0.cancelledBeforeSuspending.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: (wake: Bool, cancelled: Bool, ready: [CheckedContinuation<Void, Never>]) = state.withLock { state in
                    if state.cancelledBeforeSuspending.remove(id) != nil {
                        return (false, true, [])
                    }
                    if deadline <= state.now {
                        return (true, false, [])
                    }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, false, Self.takeSatisfiedWaiters(&state))
                }
                if outcome.cancelled {
                    continuation.resume(throwing: CancellationError())
                } else if outcome.wake {
                    continuation.resume()
                }
                outcome.ready.forEach { $0.resume() }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                if let sleeper = state.sleepers.removeValue(forKey: id) {
                    return sleeper
                }
                state.cancelledBeforeSuspending.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline has come,
    /// earliest first. A negative duration is ignored: time never runs backwards.
    public func advance(by duration: Duration) {
        wake { $0.advanced(by: max(duration, .zero)) }
    }

    /// Moves the clock to `instant`, if it lies ahead, and wakes every sleeper whose deadline
    /// has come, earliest first.
    public func advance(to instant: Instant) {
        wake { _ in instant }
    }

    private func wake(movingTo target: (Instant) -> Instant) {
        let woken: [Sleeper] = state.withLock { state in
            state.now = max(state.now, target(state.now))
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys {
                state.sleepers[id] = nil
            }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        woken.forEach { $0.continuation.resume() }
    }

    /// The deadlines of the tasks now asleep on this clock, earliest first.
    public var sleeperDeadlines: [Instant] {
        state.withLock { $0.sleepers.values.map(\.deadline).sorted() }
    }

    /// Suspends until at least `count` tasks are asleep on this clock, or until the calling
    /// task is cancelled, so that a test whose code under test never goes to sleep ends at its
    /// time limit instead of hanging.
    ///
    /// Tests call this before ``advance(by:)`` so that the code under test has really reached
    /// its sleep; advancing earlier would let the sleep start after the jump and never end.
    public func waitForSleepers(_ count: Int = 1) async {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        defer { state.withLock { _ = $0.waitersCancelledBeforeSuspending.remove(id) } }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.sleepers.count >= count || state.waitersCancelledBeforeSuspending.contains(id) {
                        return true
                    }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if ready {
                    continuation.resume()
                }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    return state.waiters.remove(at: index)
                }
                state.waitersCancelledBeforeSuspending.insert(id)
                return nil
            }
            waiter?.continuation.resume()
        }
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let sleeping = state.sleepers.count
        let ready = state.waiters.filter { $0.count <= sleeping }.map(\.continuation)
        state.waiters.removeAll { $0.count <= sleeping }
        return ready
    }
}
