/// Counts calls and failures over a sliding window in a fixed number of buckets, so that
/// memory stays constant however many calls a busy client makes.
struct FailureWindow {
    private struct Bucket {
        var index: Int64 = .min
        var calls = 0
        var failures = 0
    }

    private static let bucketCount = 30
    private let bucketWidth: Duration
    private var buckets: [Bucket]
    /// The bucket of the latest failure.
    private var latestFailure: Int64 = .min

    init(length: Duration) {
        bucketWidth = max(length, .zero) / Self.bucketCount
        buckets = Array(repeating: Bucket(), count: Self.bucketCount)
    }

    mutating func record(failed: Bool, at now: Duration) {
        let index = bucketIndex(at: now)
        let slot = Int(index % Int64(Self.bucketCount))
        if buckets[slot].index != index {
            buckets[slot] = Bucket(index: index)
        }
        buckets[slot].calls += 1
        if failed {
            buckets[slot].failures += 1
            latestFailure = index
        }
    }

    /// Whether any failure is still inside the window.
    func hasFailures(at now: Duration) -> Bool {
        latestFailure > bucketIndex(at: now) - Int64(Self.bucketCount)
    }

    func totals(at now: Duration) -> (calls: Int, failures: Int) {
        let current = bucketIndex(at: now)
        let oldest = current - Int64(Self.bucketCount) + 1
        return buckets.reduce(into: (0, 0)) { totals, bucket in
            guard bucket.index >= oldest, bucket.index <= current else { return }
            totals.0 += bucket.calls
            totals.1 += bucket.failures
        }
    }

    mutating func removeAll() {
        buckets = Array(repeating: Bucket(), count: Self.bucketCount)
        latestFailure = .min
    }

    /// Never negative, and bounded so that a clock running for ages cannot overflow it.
    private func bucketIndex(at now: Duration) -> Int64 {
        guard bucketWidth > .zero else { return 0 }
        let ratio = (max(now, .zero) / bucketWidth).rounded(.down)
        return ratio < 1e15 ? Int64(ratio) : Int64(1e15)
    }
}
