import Foundation

/// A count that a test can wait on: "49 callers have ended" becomes an event the test awaits,
/// instead of a loop of `Task.yield()` that spins until it holds and, on a loaded machine,
/// takes turns away from the very tasks it waits for.
final class WaitableCount: @unchecked Sendable {
    private struct Waiter {
        var id: UInt64
        var target: Int
        var continuation: CheckedContinuation<Void, Never>
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var value = 0
    private var waiters: [Waiter] = []
    private var nextID: UInt64 = 0
    private var cancelledBeforeSuspending: Set<UInt64> = []

    /// The count now.
    var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Adds one and wakes the waiters whose target is reached.
    func increment() {
        lock.lock()
        value += 1
        let ready = waiters.filter { $0.target <= value }
        waiters.removeAll { $0.target <= value }
        lock.unlock()
        ready.forEach { $0.continuation.resume() }
    }

    /// Returns once the count is at least `target`, or at once when the waiting task is
    /// cancelled, so that a race between two waits (``waitForEither(_:_:)``) can end the loser.
    func wait(untilAtLeast target: Int) async {
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                let ready = value >= target || cancelledBeforeSuspending.remove(id) != nil
                if !ready {
                    waiters.append(Waiter(id: id, target: target, continuation: continuation))
                }
                lock.unlock()
                if ready { continuation.resume() }
            }
        } onCancel: {
            lock.lock()
            let waiter = waiters.firstIndex { $0.id == id }.map { waiters.remove(at: $0) }
            if waiter == nil { cancelledBeforeSuspending.insert(id) }
            lock.unlock()
            waiter?.continuation.resume()
        }
        // A cancellation that raced with the wake-up leaves its mark behind; clear it.
        lock.withLock { _ = cancelledBeforeSuspending.remove(id) }
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
