import Foundation

/// A folder that holds the files generated from one spec, such as `Generated/Pets/`.
///
/// ``write(_:)`` makes the folder hold exactly the given files, in three ways careful about what
/// is already there:
/// - A file is written only when its content changed, so an unchanged file keeps its
///   modification date and builds do not recompile it.
/// - A file that Courier generated earlier (it starts with ``GeneratedFileMarker/prefix``) and
///   that is no longer produced is removed, with any folder that removal leaves empty.
/// - A file that Courier did not generate is never changed or removed; one that is in the way of
///   a generated file stops the write with ``OutputError/foreignFile(path:)``.
///
/// Each file is written to a temporary file in its folder and renamed into place, so a reader
/// (a compiler, a plugin) sees the old content or the new, never half of it. ``changes(for:)``
/// computes the same result without writing anything, for `courier generate --check`.
///
/// The folder belongs to one spec: files generated from another spec into the same folder would
/// count as stale and be removed.
struct OutputDirectory: Sendable {
    /// The folder's location.
    let url: URL

    /// The folder at `url`, which need not exist yet.
    init(_ url: URL) {
        self.url = url.standardizedFileURL
    }

    /// What ``write(_:)`` would do with `files`, without touching the file system.
    ///
    /// - Parameter files: Contents by path relative to the folder, with `/` as separator.
    /// - Throws: ``OutputError`` for an invalid path, a file without the marker, a foreign file in
    ///   the way, or a folder that cannot be read.
    func changes(for files: [String: String]) throws(OutputError) -> OutputChanges {
        try plan(for: files).changes
    }

    /// Makes the folder hold `files`: writes what is new or changed, removes stale generated
    /// files, and leaves everything else alone.
    ///
    /// Every check runs before the first write, so a bad path or a foreign file in the way
    /// changes nothing. An I/O failure midway leaves each file either old or new.
    ///
    /// - Parameter files: Contents by path relative to the folder, with `/` as separator.
    /// - Returns: What was added, changed and removed.
    /// - Throws: ``OutputError``, naming the path concerned.
    @discardableResult
    func write(_ files: [String: String]) throws(OutputError) -> OutputChanges {
        let plan = try plan(for: files)
        for path in plan.changes.removed {
            try remove(path)
        }
        for path in plan.changes.added + plan.changes.changed {
            try writeAtomically(plan.contents[path] ?? Data(), to: path)
        }
        return plan.changes
    }

    // MARK: - Planning

    private struct Plan {
        var changes: OutputChanges
        var contents: [String: Data]
    }

    private func plan(for files: [String: String]) throws(OutputError) -> Plan {
        let paths = files.keys.sorted()
        for path in paths {
            _ = try GeneratedPath.components(of: path)
        }
        try GeneratedPath.checkDistinct(paths)

        let marker = Data(GeneratedFileMarker.prefix.utf8)
        var contents: [String: Data] = [:]
        for path in paths {
            let data = Data((files[path] ?? "").utf8)
            guard data.starts(with: marker) else {
                throw .missingMarker(path: fileURL(path).path)
            }
            contents[path] = data
        }

        switch try kind(of: url) {
        case .none:
            return Plan(changes: OutputChanges(added: paths), contents: contents)
        case .directory:
            break
        case .symbolicLink:
            // The output folder itself may be a link the user made; follow it only if it leads to
            // a folder.
            var isDirectory: ObjCBool = false
            guard FileManager().fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .notADirectory(path: url.path)
            }
        case .file, .other:
            throw .notADirectory(path: url.path)
        }

        var added: [String] = []
        var changed: [String] = []
        var unchanged: [String] = []
        for path in paths {
            guard let new = contents[path] else { continue }
            try checkFolders(of: path)
            let file = fileURL(path)
            switch try kind(of: file) {
            case .none:
                added.append(path)
            case .file:
                let old = try read(file, upTo: nil)
                if old == new {
                    unchanged.append(path)
                } else if old.starts(with: marker) {
                    changed.append(path)
                } else {
                    throw .foreignFile(path: file.path)
                }
            case .symbolicLink, .other:
                throw .foreignFile(path: file.path)
            case .directory:
                throw .notADirectory(path: file.path)
            }
        }
        let removed = try generatedFiles().filter { contents[$0] == nil }
        return Plan(
            changes: OutputChanges(added: added, changed: changed, removed: removed, unchanged: unchanged),
            contents: contents
        )
    }

    /// Checks that every folder between the output folder and `path` is a real folder (or does
    /// not exist yet), so that no write follows a link out of the output folder.
    private func checkFolders(of path: String) throws(OutputError) {
        var folder = url
        for component in path.split(separator: "/").dropLast() {
            folder = folder.appendingPathComponent(String(component), isDirectory: true)
            switch try kind(of: folder) {
            case .none: return
            case .directory: continue
            case .symbolicLink: throw .symbolicLink(path: folder.path)
            case .file, .other: throw .notADirectory(path: folder.path)
            }
        }
    }

    /// The relative paths of the files under the folder that start with the marker, sorted.
    ///
    /// Symbolic links are neither followed nor reported: Courier never writes one. A file that
    /// cannot be read cannot be shown to be Courier's, so it is left alone.
    private func generatedFiles() throws(OutputError) -> [String] {
        let marker = Data(GeneratedFileMarker.prefix.utf8)
        var found: [String] = []
        var pending: [String] = [""]
        while let relativeFolder = pending.popLast() {
            let folder = relativeFolder.isEmpty ? url : fileURL(relativeFolder)
            let names: [String]
            do {
                names = try FileManager().contentsOfDirectory(atPath: folder.path)
            } catch {
                throw .readFailed(path: folder.path, reason: error.localizedDescription)
            }
            for name in names {
                let relativePath = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
                switch try kind(of: fileURL(relativePath)) {
                case .directory:
                    pending.append(relativePath)
                case .file:
                    if let head = try? read(fileURL(relativePath), upTo: marker.count), head == marker {
                        found.append(relativePath)
                    }
                case .symbolicLink, .other, .none:
                    continue
                }
            }
        }
        return found.sorted()
    }

    // MARK: - File system

    private enum Kind {
        case file, directory, symbolicLink, other
    }

    private func fileURL(_ relativePath: String) -> URL {
        url.appendingPathComponent(relativePath, isDirectory: false)
    }

    /// What is at `location`, without following a symbolic link; `nil` when nothing is.
    private func kind(of location: URL) throws(OutputError) -> Kind? {
        var info = stat()
        guard lstat(location.path, &info) == 0 else {
            if errno == ENOENT {
                return nil
            }
            throw .readFailed(path: location.path, reason: String(cString: strerror(errno)))
        }
        switch info.st_mode & mode_t(S_IFMT) {
        case mode_t(S_IFREG): return .file
        case mode_t(S_IFDIR): return .directory
        case mode_t(S_IFLNK): return .symbolicLink
        default: return .other
        }
    }

    /// The file's content, or its first `limit` bytes.
    private func read(_ file: URL, upTo limit: Int?) throws(OutputError) -> Data {
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            if let limit {
                return try handle.read(upToCount: limit) ?? Data()
            }
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .readFailed(path: file.path, reason: error.localizedDescription)
        }
    }

    private func writeAtomically(_ data: Data, to path: String) throws(OutputError) {
        let file = fileURL(path)
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager().createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: folder.path, reason: error.localizedDescription)
        }
        // In the same folder, so that the rename cannot cross file systems; hidden, and without
        // the marker's name pattern, so that a temporary left by a crash is never taken for output.
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).courier-tmp")
        do {
            try data.write(to: temporary, options: .withoutOverwriting)
        } catch {
            try? FileManager().removeItem(at: temporary)
            throw .writeFailed(path: file.path, reason: error.localizedDescription)
        }
        // A replaced file keeps its permissions, in case the user made generated files read-only.
        if let permissions = try? FileManager().attributesOfItem(atPath: file.path)[.posixPermissions] {
            try? FileManager().setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary.path)
        }
        guard rename(temporary.path, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager().removeItem(at: temporary)
            throw .writeFailed(path: file.path, reason: reason)
        }
    }

    /// Removes a stale generated file, then each folder that this leaves empty, up to (not
    /// including) the output folder.
    private func remove(_ path: String) throws(OutputError) {
        let file = fileURL(path)
        do {
            try FileManager().removeItem(at: file)
        } catch {
            throw .removeFailed(path: file.path, reason: error.localizedDescription)
        }
        var components = path.split(separator: "/").dropLast()
        while !components.isEmpty {
            let folder = fileURL(components.joined(separator: "/"))
            guard let entries = try? FileManager().contentsOfDirectory(atPath: folder.path), entries.isEmpty else {
                return
            }
            try? FileManager().removeItem(at: folder)
            components = components.dropLast()
        }
    }
}
