/// A reason the generated files cannot be written; every case names the path concerned.
package enum OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A generated file's relative path could leave the output directory or is not portable
    /// (absolute, empty, `.` or `..` components, a backslash or a NUL).
    case invalidPath(String, reason: String)
    /// Two generated paths would be the same file on a case-insensitive file system, or one is a
    /// folder of the other.
    case conflictingPaths(String, String)
    /// A generated file does not start with ``GeneratedFileMarker/prefix``, so a later run could
    /// not recognise it as generated.
    case missingMarker(path: String)
    /// A file that Courier did not write (it lacks the marker) is where a generated file should go.
    case foreignFile(path: String)
    /// Something other than a folder is where a folder should be (or the reverse).
    case notADirectory(path: String)
    /// A folder inside the output directory on a generated file's path is a symbolic link, which
    /// could lead outside the output directory.
    case symbolicLink(path: String)
    /// Reading a file or listing a folder failed.
    case readFailed(path: String, reason: String)
    /// Creating a folder or writing a file failed.
    case writeFailed(path: String, reason: String)
    /// Removing a stale generated file failed.
    case removeFailed(path: String, reason: String)

    /// A diagnostic in the `path: error: message` form.
    package var description: String {
        switch self {
        case .invalidPath(let path, let reason):
            "\(path): error: invalid generated file path: \(reason)"
        case .conflictingPaths(let first, let second):
            "\(second): error: generated file path conflicts with '\(first)'"
        case .missingMarker(let path):
            "\(path): error: generated file does not start with '\(GeneratedFileMarker.prefix)'; "
                + "the header template must write it so that later runs recognise the file"
        case .foreignFile(let path):
            "\(path): error: refusing to overwrite a file that Courier did not generate "
                + "(it does not start with '\(GeneratedFileMarker.prefix)'); move it away"
        case .notADirectory(let path):
            "\(path): error: expected a folder but found a file, or the reverse"
        case .symbolicLink(let path):
            "\(path): error: refusing to write through a symbolic link inside the output directory"
        case .readFailed(let path, let reason):
            "\(path): error: cannot read: \(reason)"
        case .writeFailed(let path, let reason):
            "\(path): error: cannot write: \(reason)"
        case .removeFailed(let path, let reason):
            "\(path): error: cannot remove stale generated file: \(reason)"
        }
    }
}
