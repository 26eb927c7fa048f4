import Foundation

/// A value guarded by a lock, for state shared across tasks where an actor hop would
/// cost more than the work it protects (budgets, breaker counters, stub scripts, test recorders).
///
/// The one lock of the package: the runtime, its sibling products, the generator, the CLI and the
/// tests all use it, so there is one implementation to reason about. `package`, not `public`: a
/// lock is not something Courier offers its users. `Synchronization.Mutex` would do, but it
/// needs macOS 15 and iOS 18.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var guarded: Value

    /// A lock around `value`.
    package init(_ value: Value) {
        self.guarded = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&guarded)
    }
}

extension Locked {
    /// A copy of the value, read under the lock.
    package var value: Value {
        withLock { $0 }
    }
}
