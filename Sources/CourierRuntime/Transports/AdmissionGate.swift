import CourierLocking
import Foundation

/// Lets at most `limit` requests per host into a session at once and queues the rest in
/// first-come order.
///
/// URLSession queues a request that finds every connection to its host busy inside the
/// session, where nothing tells the transport whether it has been written yet, so a timeout
/// there is ambiguous. Queued here instead, a request that times out or is cancelled before
/// it is admitted has provably not been handed to the session, let alone sent.
final class AdmissionGate: Sendable {
    /// How a wait for a slot ended.
    enum Admission: Sendable, Equatable {
        /// The caller holds a slot and must call ``AdmissionGate/leave(_:)`` once.
        case admitted
        /// The wait outlasted its timeout; the caller holds no slot.
        case timedOut
        /// The waiting task was cancelled; the caller holds no slot.
        case cancelled
    }

    private enum Ticket {
        /// Queued, but the continuation is not stored yet.
        case pending
        /// Resolved before the continuation was stored.
        case early(Admission)
        case waiting(CheckedContinuation<Admission, Never>)
    }

    private struct State {
        var inFlight: [String: Int] = [:]
        var queues: [String: [UInt64]] = [:]
        var tickets: [UInt64: Ticket] = [:]
        var nextID: UInt64 = 0
    }

    /// The most requests per host admitted at once.
    let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a slot for `key` (a host and port) for at most `timeout`.
    func enter(_ key: String, timeout: Duration) async -> Admission {
        let queued: UInt64? = state.withLock { state in
            if state.inFlight[key, default: 0] < limit {
                state.inFlight[key, default: 0] += 1
                return nil
            }
            state.nextID += 1
            let id = state.nextID
            state.tickets[id] = .pending
            state.queues[key, default: []].append(id)
            return id
        }
        guard let id = queued else { return .admitted }
        let timer = OneShotTimer(after: timeout) { [weak self] in
            self?.withdraw(id, from: key, as: .timedOut)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Admission, Never>) in
                let resolved: Admission? = state.withLock { state in
                    guard case .pending = state.tickets[id] else {
                        let ticket = state.tickets.removeValue(forKey: id)
                        if case .early(let admission) = ticket { return admission }
                        return .cancelled
                    }
                    state.tickets[id] = .waiting(continuation)
                    return nil
                }
                if let resolved { continuation.resume(returning: resolved) }
            }
        } onCancel: {
            withdraw(id, from: key, as: .cancelled)
        }
    }

    /// Gives a slot back, handing it straight to the longest waiter for `key` if there is one.
    func leave(_ key: String) {
        let handedTo: CheckedContinuation<Admission, Never>? = state.withLock { state in
            while var queue = state.queues[key], !queue.isEmpty {
                let id = queue.removeFirst()
                state.queues[key] = queue.isEmpty ? nil : queue
                switch state.tickets[id] {
                case .waiting(let continuation):
                    state.tickets[id] = nil
                    return continuation
                case .pending:
                    state.tickets[id] = .early(.admitted)
                    return nil
                case .early, nil:
                    continue
                }
            }
            let count = state.inFlight[key, default: 1] - 1
            state.inFlight[key] = count > 0 ? count : nil
            return nil
        }
        handedTo?.resume(returning: .admitted)
    }

    /// Ends a wait that has not been granted a slot yet; a granted one stays granted.
    private func withdraw(_ id: UInt64, from key: String, as reason: Admission) {
        let waiting: CheckedContinuation<Admission, Never>? = state.withLock { state in
            switch state.tickets[id] {
            case .waiting(let continuation):
                state.tickets[id] = nil
                state.queues[key]?.removeAll { $0 == id }
                return continuation
            case .pending:
                state.tickets[id] = .early(reason)
                state.queues[key]?.removeAll { $0 == id }
                return nil
            case .early, nil:
                return nil
            }
        }
        waiting?.resume(returning: reason)
    }
}
