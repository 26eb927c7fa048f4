/// What writing a set of generated files does, or would do, to an output directory.
///
/// All lists hold paths relative to the output directory, sorted, with `/` as separator.
struct OutputChanges: Sendable, Equatable, CustomStringConvertible {
    /// Files that do not exist yet.
    var added: [String]
    /// Generated files whose content differs from the new content.
    var changed: [String]
    /// Generated files that no longer belong to the output.
    var removed: [String]
    /// Files whose content is already right; they are not written, so their modification date
    /// stays and builds do not recompile them.
    var unchanged: [String]

    /// Changes with the given lists, each sorted.
    init(added: [String] = [], changed: [String] = [], removed: [String] = [], unchanged: [String] = []) {
        self.added = added.sorted()
        self.changed = changed.sorted()
        self.removed = removed.sorted()
        self.unchanged = unchanged.sorted()
    }

    /// Whether the directory is already up to date: nothing to add, change or remove.
    var isEmpty: Bool {
        added.isEmpty && changed.isEmpty && removed.isEmpty
    }

    /// One line per file that is (or would be) written or removed, such as `changed: Client.swift`,
    /// sorted by path; what `courier generate --check` lists.
    var description: String {
        let lines = added.map { ($0, "added") } + changed.map { ($0, "changed") } + removed.map { ($0, "removed") }
        return lines.sorted { $0.0 < $1.0 }.map { "\($0.1): \($0.0)" }.joined(separator: "\n")
    }
}
