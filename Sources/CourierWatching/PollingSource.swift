import Dispatch
import Foundation

/// Notices changes by comparing each watched file's identity, size and times every interval:
/// slower than events and costs a `stat` per file per tick, but works on every file system.
final class PollingSource: ChangeSource, @unchecked Sendable {
    // Unchecked: every mutable property is touched only on the watcher's queue, where the
    // timer fires, as ``FileWatcher`` calls every method.

    private let timer: DispatchSourceTimer
    private let notice: @Sendable (String) -> Void
    private var fingerprints = Fingerprints()

    init(interval: Duration, queue: DispatchQueue, notice: @escaping @Sendable (String) -> Void) {
        self.notice = notice
        timer = DispatchSource.makeTimerSource(queue: queue)
        let nanoseconds = Int(clamping: FileWatcher.nanoseconds(interval))
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                       leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
    }

    func watch(_ set: WatchSet) {
        fingerprints.watch(set)
    }

    func stop() {
        timer.cancel()
    }

    private func poll() {
        for path in fingerprints.changes() {
            notice(path)
        }
    }
}
