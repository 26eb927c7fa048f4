#if canImport(Glibc)
import Dispatch
import Foundation
import Glibc

/// Notices changes through Linux's inotify, watching folders rather than files: an editor's
/// atomic save renames a new file over the old one, which a watch on the old file would not
/// follow. A folder that does not exist yet is waited for from its nearest existing ancestor.
final class InotifySource: ChangeSource {
    private let descriptor: Int32
    private let readSource: DispatchSourceRead
    private let notice: @Sendable (String) -> Void
    /// The folders wanted, from the watch set.
    private var wanted: Set<String> = []
    /// The folder of each watch descriptor: wanted folders, or ancestors of missing ones.
    private var watches: [Int32: String] = [:]

    private static let folderEvents = UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE)
        | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR)

    init(queue: DispatchQueue, notice: @escaping @Sendable (String) -> Void) throws(FileWatcherError) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw FileWatcherError(description: "cannot start watching files (inotify_init1): \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.notice = notice
        readSource = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        readSource.setEventHandler { [weak self] in self?.drain() }
        readSource.setCancelHandler { close(descriptor) }
        readSource.resume()
    }

    func watch(_ set: WatchSet) {
        wanted = set.directories
        arm(reportingAppeared: false)
    }

    func stop() {
        readSource.cancel()
    }

    /// Places a watch on every wanted folder, or on its nearest existing ancestor while it does
    /// not exist, and removes the watches no longer needed. Folders that appeared since the
    /// last arming may already hold files; with `reportingAppeared`, each is reported.
    private func arm(reportingAppeared: Bool) {
        var placed: [Int32: String] = [:]
        for folder in wanted {
            var candidate = folder
            var lookedAgain = 0
            while true {
                let watch = inotify_add_watch(descriptor, candidate, Self.folderEvents)
                if watch >= 0 {
                    placed[watch] = candidate
                    if candidate == folder {
                        if reportingAppeared, !watches.values.contains(folder) {
                            notice(folder + "/")
                            for name in (try? FileManager().contentsOfDirectory(atPath: folder)) ?? [] {
                                notice(folder + "/" + name)
                            }
                        }
                        break
                    }
                    // An ancestor is watched now. A folder made inside it after the wanted one was
                    // found missing, but before this watch, sent this watch no event: look again
                    // from the wanted folder, reporting what it holds once it is there.
                    if lookedAgain < 16, FileManager().fileExists(atPath: Self.child(of: candidate, toward: folder)) {
                        lookedAgain += 1
                        candidate = folder
                        continue
                    }
                    break
                }
                let parent = (candidate as NSString).deletingLastPathComponent
                if parent == candidate || parent.isEmpty { break }
                candidate = parent
            }
        }
        for (watch, _) in watches where placed[watch] == nil {
            inotify_rm_watch(descriptor, watch)
        }
        watches = placed
    }

    /// The entry of `ancestor` on the way to `folder`: `/a/b` for `/a` toward `/a/b/c`.
    private static func child(of ancestor: String, toward folder: String) -> String {
        let rest = folder.dropFirst(ancestor.count).drop(while: { $0 == "/" })
        let first = rest.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        return ancestor == "/" ? "/" + first : ancestor + "/" + first
    }

    /// Reads every queued event (the descriptor does not block) and reports the paths.
    private func drain() {
        let capacity = 64 * 1024
        var rearm = false
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, capacity)
            if count <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                offset = nameStart + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost: treat every wanted file as changed.
                    for folder in wanted {
                        for name in (try? FileManager().contentsOfDirectory(atPath: folder)) ?? [] { notice(folder + "/" + name) }
                    }
                    rearm = true
                    continue
                }
                guard let folder = watches[event.wd] else { continue }
                if event.mask & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 {
                    rearm = true
                    continue
                }
                guard event.len > 0 else { continue }
                let name = String(cString: buffer.advanced(by: nameStart).assumingMemoryBound(to: CChar.self))
                let path = folder + "/" + name
                if wanted.contains(folder) { notice(path) }
                // A folder appeared or went: a missing wanted folder may now exist, or a wanted one moved away.
                if event.mask & UInt32(IN_ISDIR) != 0 { rearm = true }
            }
        }
        if rearm { arm(reportingAppeared: true) }
    }
}
#endif
