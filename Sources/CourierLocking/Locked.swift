import Foundation

/// A value guarded by a lock, for state shared across tasks where an actor hop would
/// cost more than the work it protects (budgets, breaker counters, stub scripts, test recorders).
///
/// The one lock of the package: the runtime, its sibling products, the generator, the CLI and the
/// tests all use it, so there is one implementation to reason about. `package`, not `public`: a
/// lock is not something Courier offers its users. `Synchronization.Mutex` would do, but it
/// needs macOS 15 and iOS 18.
///
/// Its members are inlinable because the other modules call them several times a request on
/// the client's hot path (the backstop, budgets, breakers): not inlinable, `withLock` was an
/// unspecialised generic call across the module boundary, reaching its value and result through
/// value witnesses, where the same type inside CourierRuntime had been inlined into its callers.
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var guarded: Value

    /// A lock around `value`.
    @inlinable
    package init(_ value: Value) {
        self.guarded = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&guarded)
    }
}

extension Locked {
    /// A copy of the value, read under the lock.
    @inlinable
    package var value: Value {
        withLock { $0 }
    }
}
