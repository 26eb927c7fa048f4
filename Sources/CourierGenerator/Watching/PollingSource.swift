import Dispatch
import Foundation

/// Notices changes by comparing each watched file's identity, size and times every interval:
/// slower than events and costs a `stat` per file per tick, but works on every file system.
final class PollingSource: ChangeSource {
    /// What a file looked like; `nil` in a snapshot for a file that is not there.
    struct Fingerprint: Equatable {
        var inode: UInt64
        var size: UInt64
        var modified: Date
    }

    private let timer: DispatchSourceTimer
    private let notice: @Sendable (String) -> Void
    private var set = WatchSet()
    /// The last fingerprint of every watched path (files, and the counted entries of folders).
    private var snapshot: [String: Fingerprint?] = [:]

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
        self.set = set
        // Paths already known keep their last fingerprint, so that a change made while the
        // caller was busy is still reported at the next tick; new paths start from now.
        var next: [String: Fingerprint?] = [:]
        for (path, fingerprint) in current() {
            next[path] = snapshot[path] ?? fingerprint
        }
        snapshot = next
    }

    func stop() {
        timer.cancel()
    }

    private func poll() {
        let now = current()
        for (path, fingerprint) in now where snapshot[path] != fingerprint {
            notice(path)
        }
        for path in snapshot.keys where now[path] == nil {
            notice(path)
        }
        snapshot = now
    }

    /// Every watched path and its fingerprint now.
    private func current() -> [String: Fingerprint?] {
        var result: [String: Fingerprint?] = [:]
        for path in set.files {
            result[path] = Self.fingerprint(of: path)
        }
        let fileManager = FileManager()
        for folder in set.folders {
            let names = (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where folder.counts(name) {
                let path = folder.path + "/" + name
                result[path] = Self.fingerprint(of: path)
            }
        }
        return result
    }

    static func fingerprint(of path: String) -> Fingerprint? {
        guard let attributes = try? FileManager().attributesOfItem(atPath: path) else { return nil }
        return Fingerprint(inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0,
                           size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0,
                           modified: attributes[.modificationDate] as? Date ?? .distantPast)
    }
}
