import CourierTestSupport
import Foundation
import Testing

/// Keeps docs/Architecture.md's dependency tables true: each table lists a module's folders,
/// leaves first, and what each uses. The code's own uses are found the way the drift was found:
/// a folder uses another when its code (comments left out) names a type declared at the top
/// level of the other's files.
@Suite("Architecture: the folder dependency tables match the code")
struct ArchitectureTests {
    static let architecture = TestEnvironment.repositoryRoot.appendingPathComponent("docs/Architecture.md")

    @Test("Every table lists each folder, what it uses exactly, and only folders listed above it", arguments: [
        "Sources/CourierRuntime", "Sources/CourierGenerator",
    ])
    func tableMatchesCode(_ module: String) throws {
        let tables = try DependencyTable.all(in: String(contentsOf: Self.architecture, encoding: .utf8))
        let table = try #require(tables[module], "docs/Architecture.md has no `<!-- dependency-table: \(module) -->` table")
        let code = try FolderUses(module: TestEnvironment.repositoryRoot.appendingPathComponent(module))

        #expect(table.rows.map(\.folder).sorted() == code.folders.sorted(),
                "the table's folders are not the module's folders")
        var above: Set<String> = []
        for row in table.rows {
            let used = code.uses[row.folder, default: [:]]
            for (folder, evidence) in used.sorted(by: { $0.key < $1.key }) where !row.uses.contains(folder) {
                Issue.record("\(module)/\(row.folder)/ uses \(folder)/ (\(evidence.sorted().prefix(3).joined(separator: ", "))), which the table does not list")
            }
            for folder in row.uses.sorted() where used[folder] == nil {
                Issue.record("the table says \(module)/\(row.folder)/ uses \(folder)/, but no code there names a type of \(folder)/")
            }
            for folder in row.uses.sorted() where !above.contains(folder) {
                Issue.record("\(row.folder)/ uses \(folder)/, which is not listed above it: the folders no longer depend one way")
            }
            above.insert(row.folder)
        }
    }

    @Test("The check sees a use the table does not list")
    func checkFailsOnAnUnlistedUse() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-architecture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, text) in [
            "Leaf/Leaf.swift": "public struct LeafType {}\n",
            "Top/Top.swift": "// LeafType in a comment is not a use.\nstruct TopType { var other: OtherType }\n",
            "Other/Other.swift": "struct OtherType { let leaf: LeafType }\n",
        ] {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let code = try FolderUses(module: folder)
        #expect(code.uses["Top"]?.keys.sorted() == ["Other"])
        #expect(code.uses["Other"]?.keys.sorted() == ["Leaf"])
        #expect(code.uses["Leaf"] == nil)

        let markdown = """
        <!-- dependency-table: Sources/Sample -->
        | Folder | Holds | Uses |
        |---|---|---|
        | `Leaf/` | a leaf | — |
        | `Other/` | the middle | Leaf |
        | `Top/` | the top | Other, Leaf |
        """
        let table = try #require(try DependencyTable.all(in: markdown)["Sources/Sample"])
        #expect(table.rows.map(\.folder) == ["Leaf", "Other", "Top"])
        #expect(table.rows.last?.uses == ["Other", "Leaf"])
    }
}

/// One table of docs/Architecture.md, introduced by `<!-- dependency-table: <module path> -->`.
struct DependencyTable {
    struct Row {
        var folder: String
        var uses: Set<String>
    }

    var rows: [Row]

    /// Every table in `markdown`, by the module path its marker names.
    static func all(in markdown: String) throws -> [String: DependencyTable] {
        var tables: [String: DependencyTable] = [:]
        var current: String?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("<!-- dependency-table:") {
                let module = line.dropFirst("<!-- dependency-table:".count).replacingOccurrences(of: "-->", with: "")
                    .trimmingCharacters(in: .whitespaces)
                tables[module] = DependencyTable(rows: [])
                current = module
                continue
            }
            guard let module = current else { continue }
            guard line.hasPrefix("|") else {
                if tables[module]?.rows.isEmpty == false { current = nil }
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, cells[0].hasPrefix("`"), cells[0].hasSuffix("/`") else { continue }
            let folder = String(cells[0].dropFirst().dropLast(2))
            let uses = cells[2] == "—" ? [] : Set(cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            tables[module]?.rows.append(Row(folder: folder, uses: uses))
        }
        return tables
    }
}

/// Which folders of a module name the types declared in which others.
struct FolderUses {
    /// The module's folders holding Swift files (a DocC catalog is not one).
    var folders: [String] = []
    /// For each folder, each other folder it uses and the evidence: `Type@File.swift`.
    var uses: [String: [String: Set<String>]] = [:]

    init(module: URL) throws {
        let fileManager = FileManager.default
        var files: [String: [URL]] = [:]
        for entry in try fileManager.contentsOfDirectory(atPath: module.path).sorted() where !entry.hasSuffix(".docc") {
            let folder = module.appendingPathComponent(entry)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue,
                  let walker = fileManager.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            files[entry] = walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            folders.append(entry)
        }
        var declaredIn: [String: String] = [:]
        var code: [URL: String] = [:]
        for (folder, urls) in files {
            for url in urls {
                let text = Self.withoutComments(try String(contentsOf: url, encoding: .utf8))
                code[url] = text
                for line in text.split(separator: "\n") {
                    if let name = Self.topLevelTypeName(in: line) { declaredIn[name] = folder }
                }
            }
        }
        for (folder, urls) in files {
            for url in urls {
                for name in Self.typeLikeWords(in: code[url] ?? "") {
                    guard let owner = declaredIn[name], owner != folder else { continue }
                    uses[folder, default: [:]][owner, default: []].insert("\(name)@\(url.lastPathComponent)")
                }
            }
        }
    }

    /// The type a line declares at the top level (no indentation), after any modifiers.
    static func topLevelTypeName(in line: Substring) -> String? {
        guard let first = line.first, first.isLetter || first == "@" else { return nil }
        let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "<" || $0 == "{" || $0 == "=" })
        guard let index = words.firstIndex(where: { ["struct", "enum", "class", "protocol", "actor", "typealias"].contains($0) }),
              index + 1 < words.count else { return nil }
        let modifiers = words[..<index]
        guard modifiers.allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate", "final", "indirect"].contains($0) })
        else { return nil }
        return String(words[index + 1])
    }

    /// Words that start with a capital letter: the names code uses types by.
    static func typeLikeWords(in text: String) -> Set<String> {
        var words: Set<String> = []
        var word = ""
        for character in text {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                if word.first?.isUppercase == true { words.insert(word) }
                word = ""
            }
        }
        if word.first?.isUppercase == true { words.insert(word) }
        return words
    }

    /// `text` without `//` line comments and `/* */` block comments, so that a doc comment's
    /// ``Symbol`` link is not a use. String literals are left alone: a `//` inside one cuts the
    /// rest of its line, which can only hide a use, never invent one.
    static func withoutComments(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            if rest.hasPrefix("//") {
                index = rest.firstIndex(of: "\n") ?? text.endIndex
            } else if rest.hasPrefix("/*") {
                index = rest.range(of: "*/")?.upperBound ?? text.endIndex
            } else {
                result.append(text[index])
                index = text.index(after: index)
            }
        }
        return result
    }
}
