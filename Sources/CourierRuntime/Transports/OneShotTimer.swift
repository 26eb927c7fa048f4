import Foundation

/// Runs an action once after a delay unless cancelled first: the attempt timeouts of
/// ``URLSessionTransport`` and of its admission queue.
///
/// A dispatch timer, not a sleeping task: on Linux a `Task.sleep` that is cancelled keeps its
/// system timer, and the memory behind it, until its deadline would have passed. Nearly every
/// timeout is cancelled long before it fires, so one sleeping task per attempt held memory for a
/// whole attempt timeout after each call (in `courier-bench soak`, about 1 KiB per call over the
/// first 20 s of a run, the attempt timeout). A cancelled dispatch source is released at once.
final class OneShotTimer: @unchecked Sendable {
    // @unchecked: a dispatch source is thread-safe; it is only scheduled, resumed and cancelled.
    private let source: any DispatchSourceTimer

    /// Where every timer's action runs; each action only hands work elsewhere.
    private static let queue = DispatchQueue(label: "courier.timeouts")

    /// Starts a timer that runs `action` after `delay`.
    init(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: Self.queue)
        source.schedule(deadline: .now() + .nanoseconds(Self.nanoseconds(delay)), leeway: .milliseconds(1))
        source.setEventHandler(handler: action)
        source.resume()
    }

    /// Stops the timer; the action does not run unless it already has.
    func cancel() {
        source.cancel()
    }

    /// `duration` in whole nanoseconds, clamped to what a dispatch time holds.
    static func nanoseconds(_ duration: Duration) -> Int {
        let components = duration.components
        let (seconds, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, seconds < Int64(Int.max / 2) else { return Int.max / 2 }
        return max(Int(seconds + components.attoseconds / 1_000_000_000), 0)
    }
}
