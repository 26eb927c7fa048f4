import Foundation

/// Runs `work` on a thread of its own and waits for it without holding a thread of the
/// concurrency pool. For long synchronous work in a test (reading and generating a 4 MB
/// document takes tens of seconds in a debug build): on the pool it would keep one of a two-core
/// machine's two threads from every other test, and starve their timers and wake-ups.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        // Deeply nested documents recurse in the reader; give it what the main thread has.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
