import Foundation

/// Finds the YAML files that specs may include, and the YAML and JSON files an OpenAPI document
/// reaches through `$ref`, without parsing YAML (a plugin cannot use a YAML library).
///
/// The scan over-approximates on purpose: every word or quoted string anywhere in a file (in an
/// `include:` list or not, in a comment or not) that ends in `.yaml` or `.yml` and names an
/// existing file, relative to the file that mentions it, counts as included, and so do the files
/// those mention in turn. An extra input costs at most a needless regeneration; a missed include
/// would leave stale code behind. A path the scan cannot see is one that is neither a single word
/// nor quoted, which `include:` never needs.
enum IncludeScanner {
    /// The files mentioned by `files`, directly or through other mentioned files, not counting
    /// `files` themselves; sorted by path.
    static func referencedFiles(from files: [URL]) -> [URL] {
        var visited = Set(files.map(\.standardizedFileURL.path))
        var pending = files
        var found: [URL] = []
        while let file = pending.popLast() {
            for candidate in mentionedFiles(in: file) where visited.insert(candidate.path).inserted {
                found.append(candidate)
                pending.append(candidate)
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The existing YAML and JSON files whose paths appear in `file`'s text.
    static func mentionedFiles(in file: URL) -> [URL] {
        // An unreadable file gives no candidates; `courier` reports why it cannot read it.
        guard let data = FileManager.default.contents(atPath: file.path),
              let text = String(data: data, encoding: .utf8)
        else { return [] }
        let folder = file.deletingLastPathComponent()
        var result: [URL] = []
        for candidate in candidatePaths(in: text) {
            let url = candidate.hasPrefix("/")
                ? URL(fileURLWithPath: candidate)
                : folder.appendingPathComponent(candidate)
            let standardized = url.standardizedFileURL
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: standardized.path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                result.append(standardized)
            }
        }
        return result
    }

    /// Every quoted string and every word that ends in a YAML or JSON extension, without a
    /// `#fragment`.
    static func candidatePaths(in text: String) -> [String] {
        var candidates: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            candidates += quotedStrings(in: line)
            // A YAML separator character cannot start or end a plain path (`include: [a.yaml, b.yaml]`).
            let separators: Set<Character> = [",", "[", "]", "{", "}", "\"", "'", "#", "-", ":", "?"]
            for word in line.split(whereSeparator: \.isWhitespace) {
                let trimmed = word.drop { separators.contains($0) }.reversed().drop { separators.contains($0) }
                candidates.append(String(trimmed.reversed()))
            }
        }
        // An OpenAPI `$ref` names a file and, after `#`, a place in it (`pet.yml#/Pet`).
        return candidates.map { candidate in
            candidate.firstIndex(of: "#").map { String(candidate[..<$0]) } ?? candidate
        }.filter { candidate in
            CourierConventions.referencedExtensions.contains { candidate.lowercased().hasSuffix("." + $0) }
        }
    }

    /// The contents of the `"…"` and `'…'` strings on one line (escapes are not interpreted;
    /// a path with a backslash or a quote in its name is not worth the complexity).
    private static func quotedStrings(in line: Substring) -> [String] {
        var strings: [String] = []
        var index = line.startIndex
        while index < line.endIndex {
            let quote = line[index]
            guard quote == "\"" || quote == "'" else {
                index = line.index(after: index)
                continue
            }
            let start = line.index(after: index)
            guard let end = line[start...].firstIndex(of: quote) else { break }
            strings.append(String(line[start..<end]))
            index = line.index(after: end)
        }
        return strings
    }

    /// The OpenAPI document an overlay names in its top-level `overlay:` line, relative to the
    /// overlay; `nil` for a file that is not an overlay. (`courier` finds overlays in a folder
    /// the same way, in `SpecInput.droppingDocumentsExtendedByOverlays`, which a plugin cannot
    /// import.)
    static func overlayDocument(of file: URL) -> URL? {
        guard let data = FileManager.default.contents(atPath: file.path),
              let text = String(data: data, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("overlay:") {
            var value = line.dropFirst("overlay:".count)
            if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
            var path = value.trimmingCharacters(in: .whitespaces)
            if path.count >= 2, let quote = path.first, quote == "\"" || quote == "'", path.last == quote {
                path = String(path.dropFirst().dropLast())
            }
            guard !path.isEmpty else { return nil }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : file.deletingLastPathComponent().appendingPathComponent(path)
            return url.standardizedFileURL
        }
        return nil
    }
}
