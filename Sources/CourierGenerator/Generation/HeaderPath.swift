import Foundation

/// The spec path written into file headers: relative to the working directory, so that the
/// same checkout generates the same bytes on every machine.
enum HeaderPath {
    /// `path` as given when it is relative; otherwise relative to `directory`, climbing with
    /// `..` where needed. Never absolute, so no user name or build folder leaks into sources.
    static func relative(_ path: String, to directory: String = FileManager.default.currentDirectoryPath) -> String {
        guard path.hasPrefix("/") else { return path }
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents.filter { $0 != "/" }
        let base = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL.pathComponents.filter { $0 != "/" }
        var shared = 0
        while shared < min(target.count, base.count), target[shared] == base[shared] {
            shared += 1
        }
        let climb = Array(repeating: "..", count: base.count - shared)
        let parts = climb + target[shared...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
