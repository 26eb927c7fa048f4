/// Checks that a generated file's relative path stays inside the output directory.
///
/// Paths are rejected rather than normalised: a generator that produces `../x` or `a//b` has a
/// bug, and quietly writing somewhere else would hide it.
enum GeneratedPath {
    /// The path's components, or an error saying why the path is not acceptable.
    static func components(of path: String) throws(OutputError) -> [Substring] {
        guard !path.isEmpty else {
            throw .invalidPath(path, reason: "the path is empty")
        }
        guard !path.hasPrefix("/") else {
            throw .invalidPath(path, reason: "the path is absolute")
        }
        guard !path.contains("\\") else {
            throw .invalidPath(path, reason: "the path contains a backslash")
        }
        guard !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidPath(path, reason: "the path contains a control character")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        for component in components {
            switch component {
            case "": throw .invalidPath(path, reason: "the path has an empty component")
            case ".", "..": throw .invalidPath(path, reason: "the path has a '\(component)' component")
            default: continue
            }
        }
        return components
    }

    /// Rejects paths that would be the same file on a case-insensitive file system (macOS by
    /// default), and a path that is a folder of another, either of which makes the output depend
    /// on the file system.
    static func checkDistinct(_ paths: [String]) throws(OutputError) {
        var seen: [String: String] = [:]
        for path in paths.sorted() {
            let key = path.lowercased()
            if let other = seen[key] {
                throw .conflictingPaths(other, path)
            }
            seen[key] = path
        }
        for path in paths.sorted() {
            var prefix = ""
            for component in path.split(separator: "/").dropLast() {
                prefix += prefix.isEmpty ? String(component) : "/" + component
                if let other = seen[prefix.lowercased()] {
                    throw .conflictingPaths(other, path)
                }
            }
        }
    }
}
