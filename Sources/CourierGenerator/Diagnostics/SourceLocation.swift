/// A position in a spec file, as compilers print it: `path:line:column`.
///
/// Lines and columns start at 1. Columns count Unicode scalars, which is how libyaml measures them,
/// so a column stays right on lines that contain non-ASCII text.
package struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path as the user named it (relative paths stay relative, so output is stable).
    var file: String
    /// The line, starting at 1.
    var line: Int
    /// The column, starting at 1.
    var column: Int

    /// Creates a location in `file` at `line` and `column`.
    init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The start of `file`, for problems that concern the whole file.
    static func start(of file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    /// `path:line:column`.
    package var description: String { "\(file):\(line):\(column)" }

    /// Orders by file, then line, then column, so diagnostics print in reading order.
    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
