import CourierLocking

/// A count that a test can wait on: "49 callers have ended" becomes an event the test awaits,
/// instead of a loop of `Task.yield()` that spins until it holds and, on a loaded machine,
/// takes turns away from the very tasks it waits for.
final class WaitableCount: Sendable {
    private struct Waiter {
        var id: UInt64
        var target: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var value = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        var cancelledBeforeSuspending: Set<UInt64> = []
    }

    private let state = Locked(State())

    /// The count now.
    var value: Int {
        state.withLock { $0.value }
    }

    /// Adds one and wakes the waiters whose target is reached.
    func increment() {
        let ready = state.withLock { state in
            state.value += 1
            let value = state.value
            let ready = state.waiters.filter { $0.target <= value }
            state.waiters.removeAll { $0.target <= value }
            return ready
        }
        ready.forEach { $0.continuation.resume() }
    }

    /// Returns once the count is at least `target`, or at once when the waiting task is
    /// cancelled, so that a race between two waits (``waitForEither(_:_:)``) can end the loser.
    func wait(untilAtLeast target: Int) async {
        let id: UInt64 = state.withLock {
            $0.nextID += 1
            return $0.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    let ready = state.value >= target || state.cancelledBeforeSuspending.remove(id) != nil
                    if !ready {
                        state.waiters.append(Waiter(id: id, target: target, continuation: continuation))
                    }
                    return ready
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                let waiter = state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
                if waiter == nil { state.cancelledBeforeSuspending.insert(id) }
                return waiter
            }
            waiter?.continuation.resume()
        }
        // A cancellation that raced with the wake-up leaves its mark behind; clear it.
        state.withLock { _ = $0.cancelledBeforeSuspending.remove(id) }
    }
}

/// Returns as soon as either wait returns, cancelling the other; both must return promptly
/// when cancelled, as ``WaitableCount/wait(untilAtLeast:)`` and `ManualClock.waitForSleepers`
/// do.
func waitForEither(_ first: @escaping @Sendable () async -> Void, _ second: @escaping @Sendable () async -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await first() }
        group.addTask { await second() }
        await group.next()
        group.cancelAll()
    }
}
