import Foundation

/// Values appended from any task, read in order: what tests' recording doubles keep.
public final class LockedValues<Value: Sendable>: @unchecked Sendable {
    // Unchecked: `values` is touched only under `lock`.
    private let lock = NSLock()
    private var values: [Value] = []

    /// An empty list.
    public init() {}

    /// Appends `value`.
    public func append(_ value: Value) {
        lock.withLock { values.append(value) }
    }

    /// Every value appended so far, in order.
    public var all: [Value] {
        lock.withLock { values }
    }
}
