import CourierLocking

/// The timers behind every attempt's timeout backstop, kept in one table with one sleeping
/// task for the earliest of them.
///
/// Every attempt arms a backstop and nearly every attempt ends long before it fires, so
/// arming and disarming must be cheap: a table entry under a lock here, where a sleeping
/// task per attempt costs a task, a system timer and two more trips through the executor.
final class Backstops: Sendable {
    /// The table every client uses.
    static let shared = Backstops()

    private struct Entry {
        var deadline: ContinuousClock.Instant
        var fire: @Sendable () -> Void
    }

    private struct State {
        var nextID = 0
        var armed: [Int: Entry] = [:]
        /// When the sleeping task wakes; `nil` while none sleeps.
        var wakeAt: ContinuousClock.Instant?
        var sleeper: Task<Void, Never>?
    }

    private let state = Locked(State())

    /// Runs `fire` at `deadline` unless ``disarm(_:)`` comes first.
    ///
    /// - Returns: What to hand ``disarm(_:)``.
    func arm(at deadline: ContinuousClock.Instant, fire: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.armed[id] = Entry(deadline: deadline, fire: fire)
            if let wakeAt = state.wakeAt, wakeAt <= deadline {
                // The sleeper wakes earlier and looks for the next deadline then.
            } else {
                schedule(&state, at: deadline)
            }
            return id
        }
    }

    /// Forgets a backstop that has not fired; one that has is gone already.
    func disarm(_ id: Int) {
        state.withLock { _ = $0.armed.removeValue(forKey: id) }
    }

    private func schedule(_ state: inout State, at deadline: ContinuousClock.Instant) {
        state.sleeper?.cancel()
        state.wakeAt = deadline
        state.sleeper = Task.detached { [self] in
            do {
                try await Task.sleep(until: deadline, clock: .continuous)
            } catch {
                // Replaced by a sleeper for an earlier deadline.
                return
            }
            wake()
        }
    }

    private func wake() {
        let due: [Entry] = state.withLock { state in
            let now = ContinuousClock.now
            var due: [Entry] = []
            var next: ContinuousClock.Instant?
            for (id, entry) in state.armed {
                if entry.deadline <= now {
                    due.append(entry)
                    state.armed[id] = nil
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            state.wakeAt = nil
            state.sleeper = nil
            if let next {
                schedule(&state, at: next)
            }
            // Earliest first, as their timers would have fired had each had its own, even when
            // a late wake finds several due.
            return due.sorted { $0.deadline < $1.deadline }
        }
        for entry in due {
            entry.fire()
        }
    }
}
