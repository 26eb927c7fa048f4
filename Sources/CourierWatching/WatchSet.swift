import Foundation

/// What a ``FileWatcher`` watches: single files, and folders whose entries of some kinds count
/// (a spec folder's `.yaml` files, a template folder's `.mustache` files), so that a file that
/// appears in such a folder is noticed as well as one that changes.
///
/// Paths are absolute and standardized. A file or folder that does not exist yet may be
/// watched: its appearing is a change.
package struct WatchSet: Sendable, Equatable {
    /// A folder whose entries count when their names end with one of `nameSuffixes`; hidden
    /// entries (an editor's `.spec.yaml.swp`) never count.
    package struct Folder: Sendable, Hashable {
        /// The folder's absolute path.
        package var path: String
        /// The endings of the names that count, such as `.yaml`.
        package var nameSuffixes: [String]

        /// A watched folder.
        init(path: String, nameSuffixes: [String]) {
            self.path = path
            self.nameSuffixes = nameSuffixes
        }

        /// Whether an entry named `name` counts.
        func counts(_ name: String) -> Bool {
            !name.hasPrefix(".") && nameSuffixes.contains { name.hasSuffix($0) }
        }
    }

    /// The watched files, by absolute path.
    package private(set) var files: Set<String> = []
    /// The watched folders.
    package private(set) var folders: Set<Folder> = []

    /// An empty set.
    package init() {}

    /// Watches the file at `url`.
    package mutating func insert(file url: URL) {
        files.insert(Self.path(of: url))
    }

    /// Watches the entries of the folder at `url` whose names end with one of `nameSuffixes`.
    package mutating func insert(folder url: URL, nameSuffixes: [String]) {
        folders.insert(Folder(path: Self.path(of: url), nameSuffixes: nameSuffixes))
    }

    /// Whether a change at the absolute `path` concerns this set.
    package func contains(_ path: String) -> Bool {
        if files.contains(path) { return true }
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return folders.contains { $0.path == parent && $0.counts(name) }
    }

    /// The folders whose entries must be observed: the watched folders and every watched file's
    /// folder. Watching a folder rather than a file sees an editor's atomic save, which
    /// replaces the file by renaming another over it.
    var directories: Set<String> {
        Set(files.map { ($0 as NSString).deletingLastPathComponent }).union(folders.map(\.path))
    }

    /// Whether nothing is watched.
    package var isEmpty: Bool { files.isEmpty && folders.isEmpty }

    static func path(of url: URL) -> String {
        url.standardizedFileURL.path
    }
}
