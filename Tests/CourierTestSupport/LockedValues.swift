import CourierLocking

/// Values appended from any task, read in order: what tests' recording doubles keep
/// (events, log lines, progress reports).
public final class LockedValues<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    /// An empty list.
    public init() {}

    /// Appends `value`.
    public func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// Every value appended so far, in order.
    public var all: [Value] {
        values.value
    }
}
