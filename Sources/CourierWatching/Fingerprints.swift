import Foundation

/// What every path a ``WatchSet`` cares about looked like when last looked at, and which of
/// them differ now: the comparison behind both polling and per-file events, which only say
/// that something happened to a file or folder, not what.
struct Fingerprints {
    /// What a file looked like; `nil` in a snapshot for a file that is not there.
    struct Fingerprint: Equatable {
        var inode: UInt64
        var size: UInt64
        var modified: Date
    }

    private(set) var set = WatchSet()
    /// The last fingerprint of every watched path (files, and the counted entries of folders).
    private(set) var snapshot: [String: Fingerprint?] = [:]

    /// Compares `set` from now on. Paths already known keep their last fingerprint, so that a
    /// change made while the caller was busy is still reported at the next look; new paths
    /// start from now.
    mutating func watch(_ set: WatchSet) {
        self.set = set
        var next: [String: Fingerprint?] = [:]
        for (path, fingerprint) in Self.current(of: set) {
            next[path] = snapshot[path] ?? fingerprint
        }
        snapshot = next
    }

    /// The paths that changed, appeared or went away since the last look.
    mutating func changes() -> [String] {
        let now = Self.current(of: set)
        var changed: [String] = []
        for (path, fingerprint) in now where snapshot[path] != fingerprint {
            changed.append(path)
        }
        for path in snapshot.keys where now[path] == nil {
            changed.append(path)
        }
        snapshot = now
        return changed
    }

    /// The watched paths that exist now: the files to observe one by one, since a write in
    /// place changes the file and not its folder.
    var existingFiles: [String] {
        snapshot.compactMap { path, fingerprint in fingerprint == nil ? nil : path }
    }

    /// Every watched path of `set` and its fingerprint now.
    static func current(of set: WatchSet) -> [String: Fingerprint?] {
        var result: [String: Fingerprint?] = [:]
        for path in set.files {
            result[path] = fingerprint(of: path)
        }
        let fileManager = FileManager()
        for folder in set.folders {
            let names = (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where folder.counts(name) {
                let path = folder.path + "/" + name
                result[path] = fingerprint(of: path)
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
