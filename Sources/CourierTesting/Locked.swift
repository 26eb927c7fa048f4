import Foundation

/// A value guarded by a lock, for the scripts, recordings and sleepers that tests and the
/// code under test reach from several tasks at once.
///
/// CourierRuntime has the same helper, internal to it: a lock is not something the runtime
/// should offer its users, so this module keeps its own rather than widen the runtime's API.
/// `Synchronization.Mutex` would do, but it needs macOS 15 and iOS 18.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
