import Foundation

/// A value guarded by a lock, for state shared across tasks where an actor hop would
/// cost more than the work it protects (budgets, breaker counters, stub scripts).
///
/// `Synchronization.Mutex` would do, but it needs macOS 15 and iOS 18.
///
/// Public only as SPI, for CourierTesting's test doubles: a lock is not API the runtime offers
/// its users, and one implementation is better than a copy per module.
@_spi(CourierInternal)
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
