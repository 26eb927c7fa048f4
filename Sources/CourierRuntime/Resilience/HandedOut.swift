/// What a registry has handed out, by key, with the last key asked for kept apart: a client's
/// calls all go to one host, and comparing two keys costs much less than hashing one.
struct HandedOut<Key: Hashable, Value> {
    private var last: (key: Key, value: Value)?
    private var all: [Key: Value] = [:]

    /// The value handed out for `key`, if any, which becomes the last one.
    mutating func value(for key: Key) -> Value? {
        if let last, last.key == key {
            return last.value
        }
        guard let value = all[key] else { return nil }
        last = (key, value)
        return value
    }

    /// Every value handed out, in no particular order.
    var values: [Value] {
        Array(all.values)
    }

    /// Records the value handed out for `key`.
    mutating func insert(_ value: Value, for key: Key) {
        all[key] = value
        last = (key, value)
    }
}
