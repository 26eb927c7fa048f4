import Foundation

/// How diagnostics name the files a spec reads: paths as the user wrote them, and why a file
/// could not be read. Shared by loading and the OpenAPI reader, which follows `$ref`s to files.
enum SourceFiles {
    /// The display path of `path` included from the file displayed as `parent`: relative
    /// includes stay relative to where the user pointed us (`Specs/Shared/Errors.yaml`).
    static func displayPath(of path: String, includedFrom parent: String) -> String {
        if path.hasPrefix("/") { return path }
        let directory = (parent as NSString).deletingLastPathComponent
        let joined = directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path)
        var components: [String] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            if component == "." { continue }
            if component == "..", let last = components.last, last != "..", !last.isEmpty {
                components.removeLast()
            } else {
                components.append(component)
            }
        }
        return components.joined(separator: "/")
    }

    /// Why the file at `url` could not be read, in words for a diagnostic.
    static func reason(_ error: Error, url: URL) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        return (error as NSError).localizedDescription
    }
}
