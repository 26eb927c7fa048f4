import Dispatch
import Foundation

/// A way of hearing that one file or folder changed: the platform's per-file event (a kqueue
/// vnode source on Darwin). It follows the file it was opened on, as a descriptor does, not
/// its path.
protocol PathObservation: AnyObject {
    /// Stops observing; no call of the observer's `changed` comes after it.
    func cancel()
}

/// Opens a ``PathObservation`` on the file or folder at a path, calling `changed` on `queue`
/// at each event; `nil` when the path cannot be opened (gone already, or out of descriptors).
typealias PathObserver = (_ path: String, _ queue: DispatchQueue, _ changed: @escaping @Sendable () -> Void) -> (any PathObservation)?

/// Notices changes through per-file events, where the platform has those rather than events
/// for a folder's entries (Darwin's kqueue): each watched folder is observed for entries
/// coming and going, and each watched file for writes in place. An event says only that
/// something happened, so each one is followed by the same comparison of fingerprints as
/// polling makes, and by observing again what was replaced (an editor's atomic save puts a
/// new file at the path). A folder that does not exist yet is waited for from its nearest
/// existing ancestor.
final class PathEventSource: ChangeSource, @unchecked Sendable {
    // Unchecked: every mutable property is touched only on `queue`, where the observations
    // call back, as ``FileWatcher`` calls every method.

    private let queue: DispatchQueue
    private let notice: @Sendable (String) -> Void
    private let observe: PathObserver
    private var fingerprints = Fingerprints()
    /// What is observed, by path, with the identity of the file observed there.
    private var observations: [String: (inode: UInt64, observation: any PathObservation)] = [:]

    init(queue: DispatchQueue, notice: @escaping @Sendable (String) -> Void, observe: @escaping PathObserver) {
        self.queue = queue
        self.notice = notice
        self.observe = observe
    }

    func watch(_ set: WatchSet) {
        fingerprints.watch(set)
        rearm()
    }

    func stop() {
        for (_, entry) in observations { entry.observation.cancel() }
        observations = [:]
    }

    /// Something observed changed: report what differs, then observe what is there now.
    private func changed() {
        report()
        rearm()
    }

    private func report() {
        for path in fingerprints.changes() {
            notice(path)
        }
    }

    /// Observes every path of ``targets(of:existingFiles:)``, opening anew what is new or was
    /// replaced and closing what is no longer wanted. A change made between looking and
    /// observing sent no event, so when anything was opened, look again until nothing more is.
    private func rearm() {
        for _ in 0..<16 {
            let wanted = Self.targets(of: fingerprints.set, existingFiles: fingerprints.existingFiles)
            var opened = false
            for path in observations.keys where !wanted.contains(path) {
                observations.removeValue(forKey: path)?.observation.cancel()
            }
            for path in wanted {
                // Looked at afresh, not taken from the snapshot: after `watch(_:)` it keeps a
                // file's last fingerprint on purpose, so that a change is still reported, and
                // that inode may be of a file replaced since.
                let inode = Fingerprints.fingerprint(of: path)?.inode
                if let current = observations[path], current.inode == inode { continue }
                observations.removeValue(forKey: path)?.observation.cancel()
                guard let inode, let observation = observe(path, queue, { [weak self] in self?.changed() }) else { continue }
                observations[path] = (inode, observation)
                opened = true
            }
            guard opened else { return }
            report()
        }
    }

    /// The paths to observe: each folder of `set` (or its nearest existing ancestor while it is
    /// missing) and each watched file that exists.
    static func targets(of set: WatchSet, existingFiles: [String]) -> Set<String> {
        var targets = Set(existingFiles)
        let fileManager = FileManager()
        for folder in set.directories {
            var candidate = folder
            var isFolder: ObjCBool = false
            while !(fileManager.fileExists(atPath: candidate, isDirectory: &isFolder) && isFolder.boolValue) {
                let parent = (candidate as NSString).deletingLastPathComponent
                if parent == candidate || parent.isEmpty { break }
                candidate = parent
            }
            targets.insert(candidate)
        }
        return targets
    }
}
