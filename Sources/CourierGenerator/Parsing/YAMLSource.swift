import Foundation
import Yams

/// Turns a file's bytes into a Yams node tree, or into diagnostics when that is not possible.
///
/// Uses `Yams.compose` with the basic resolver: every scalar stays a string with its mark, which
/// keeps positions for every node and leaves typing to the spec parser (which can then say
/// "expected a number" instead of silently reading `yes` as a boolean).
enum YAMLSource {
    /// The outcome of reading one file.
    enum Outcome {
        /// The document's root node. `nil` when the file holds no document (empty or comments only).
        /// The text is not kept with it: every node has its own copy of what it needs, and the
        /// text alone is a tenth of the memory reading a large document takes at its peak.
        case document(Node?)
        /// The file cannot be read as YAML; the diagnostic says where and why.
        case failure(Diagnostic)
    }

    /// Reads `data` as UTF-8 YAML. `path` names the file in diagnostics.
    static func compose(_ data: Data, path: String) -> Outcome {
        if let invalidOffset = firstInvalidUTF8Offset(in: data) {
            let location = location(ofByteOffset: invalidOffset, in: data, path: path)
            let byte = data[data.startIndex + invalidOffset]
            return .failure(.error(
                "the file is not valid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))); save it as UTF-8",
                at: location))
        }
        let text = String(decoding: data, as: UTF8.self)
        return compose(text, path: path)
    }

    /// Reads `text` as YAML. `path` names the file in diagnostics.
    static func compose(_ text: String, path: String) -> Outcome {
        // Yams tells libyaml the encoding up front, which skips libyaml's byte-order-mark
        // detection; a BOM left in would be read as content. Editors do not count it as a column.
        var text = text.hasPrefix("\u{FEFF}") ? String(text.unicodeScalars.dropFirst()) : text
        if formatName(of: text, path: path) == "JSON" { text = escapingControlsYAMLRejects(inJSON: text) }
        do {
            let node = try Yams.compose(yaml: text, .basic, .default, .utf8)
            return .document(node)
        } catch let error as YamlError {
            return .failure(diagnostic(for: error, text: text, path: path))
        } catch {
            return .failure(.error("cannot read YAML: \(error)", at: .start(of: path)))
        }
    }

    /// Converts a Yams error into one diagnostic. Never quotes the offending line: libyaml's
    /// snippets (and Yams' duplicate-key context, which holds the whole file) can be megabytes.
    static func diagnostic(for error: YamlError, text: String, path: String) -> Diagnostic {
        let format = formatName(of: text, path: path)
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(file: path, line: max(1, mark.line), column: max(1, mark.column))
        }
        func trimmed(_ message: String) -> String {
            let oneLine = message.replacingOccurrences(of: "\n", with: " ")
            return oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine
        }
        func withContext(_ problem: String, _ context: YamlError.Context?) -> String {
            guard let context else { return trimmed(problem) }
            return trimmed("\(problem) (\(context.text) at line \(context.mark.line), column \(context.mark.column))")
        }

        switch error {
        case .scanner(let context, let problem, let mark, _):
            return .error("\(format) syntax error: \(withContext(problem, context))", at: at(mark))
        case .parser(let context, let problem, let mark, _):
            if problem.contains("Maximum nesting level") {
                return .error("\(format) nesting is too deep (libyaml allows at most 1000 levels)", at: at(mark))
            }
            return .error("\(format) syntax error: \(withContext(problem, context))", at: at(mark))
        case .composer(let context, let problem, let mark, _):
            return .error("\(format) error: \(withContext(problem, context))", at: at(mark))
        case .reader(let problem, let offset, let value, _):
            var location = SourceLocation.start(of: path)
            if let offset {
                location = self.location(ofCharacterOffset: offset, in: text, path: path)
            }
            let character = value >= 0 ? String(format: " U+%04X", value) : ""
            return .error("invalid character\(character) in the file: \(trimmed(problem))", at: location)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            let first = at(context.mark)
            let second = secondOccurrence(ofKey: key, after: context.mark, in: text, path: path) ?? first
            let notes = second == first ? [] : [Diagnostic.note("'\(trimmed(key))' is first written here", at: first)]
            return .error("duplicate key '\(trimmed(key))' in the same mapping", at: second, notes: notes)
        case .memory:
            return .error("out of memory while reading YAML", at: .start(of: path))
        case .dataCouldNotBeDecoded:
            return .error("the file is not valid UTF-8; save it as UTF-8", at: .start(of: path))
        case .no, .writer, .emitter, .representer:
            return .error("cannot read YAML: \(trimmed(error.description))", at: .start(of: path))
        @unknown default:
            return .error("cannot read YAML", at: .start(of: path))
        }
    }

    /// `text` with DEL and the C1 controls (U+007F to U+009F) written as `\u` escapes. JSON allows
    /// them raw inside strings (DocuSign's description has one), YAML does not, and in valid JSON
    /// they can stand nowhere but inside a string, where the escape means the same character.
    static func escapingControlsYAMLRejects(inJSON text: String) -> String {
        guard text.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                result.append(contentsOf: String(format: "\\u%04X", scalar.value).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The format the file is written in, for messages: `JSON` for a `.json` file or one whose
    /// first character opens an object or array (JSON is read by the YAML parser, but its author
    /// wrote JSON and looks for a JSON mistake), `YAML` otherwise.
    static func formatName(of text: String, path: String) -> String {
        if path.lowercased().hasSuffix(".json") { return "JSON" }
        let first = text.unicodeScalars.first { !CharacterSet.whitespacesAndNewlines.contains($0) }
        return first == "{" || first == "[" ? "JSON" : "YAML"
    }

    /// Where `key` is written again after its first occurrence at `first`. Yams reports only the
    /// first occurrence of a duplicated key; the second is the one the author just added, so it
    /// is the more useful place to point at. Looks for the key at the same column on a later line
    /// (block style) or later on the same line (flow style).
    static func secondOccurrence(ofKey key: String, after first: Mark, in text: String, path: String) -> SourceLocation? {
        guard !key.isEmpty else { return nil }
        let spellings = [key, "\"\(key)\"", "'\(key)'"]
        var lineNumber = 0
        var firstIsInFlow = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard lineNumber >= first.line else { continue }
            let scalars = Array(line.unicodeScalars)
            if lineNumber == first.line {
                let before = scalars.prefix(max(0, first.column - 1)).last { $0 != " " }
                firstIsInFlow = before == "," || before == "{"
            }
            var previousNonSpace: Unicode.Scalar?
            var onlyIndentation = true
            for start in scalars.indices {
                defer {
                    let scalar = scalars[start]
                    if scalar != " " {
                        previousNonSpace = scalar
                        if scalar != "-" { onlyIndentation = false }
                    }
                }
                let column = start + 1
                if lineNumber == first.line && column <= first.column { continue }
                let isBlockKey = lineNumber > first.line && column == first.column && onlyIndentation
                let isFlowKey = firstIsInFlow && (previousNonSpace == "," || previousNonSpace == "{")
                guard isBlockKey || isFlowKey else { continue }
                // Enough text for the key, spaces and the colon; lines can be megabytes long.
                let end = min(scalars.count, start + key.count + 80)
                let rest = String(String.UnicodeScalarView(scalars[start..<end]))
                if spellings.contains(where: { startsKey(rest, with: $0) }) {
                    return SourceLocation(file: path, line: lineNumber, column: column)
                }
            }
        }
        return nil
    }

    private static func startsKey(_ text: String, with key: String) -> Bool {
        guard text.hasPrefix(key) else { return false }
        let after = text.dropFirst(key.count).drop { $0 == " " }
        return after.hasPrefix(":")
    }

    /// The byte offset of the first byte that is not part of well-formed UTF-8, or `nil`.
    static func firstInvalidUTF8Offset(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            let minimum: UInt32
            switch lead {
            case 0x00...0x7F: index += 1; continue
            case 0xC2...0xDF: length = 2; minimum = 0x80
            case 0xE0...0xEF: length = 3; minimum = 0x800
            case 0xF0...0xF4: length = 4; minimum = 0x10000
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1..<length {
                let byte = bytes[index + offset]
                guard byte & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) {
                return index
            }
            index += length
        }
        return nil
    }

    /// The line and column of a byte offset into valid-UTF-8-up-to-offset `data`.
    static func location(ofByteOffset offset: Int, in data: Data, path: String) -> SourceLocation {
        let prefix = data.prefix(offset)
        var line = 1
        var lineStart = prefix.startIndex
        for index in prefix.indices where prefix[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: prefix[lineStart...], as: UTF8.self).unicodeScalars.count + 1
        return SourceLocation(file: path, line: line, column: column)
    }

    /// The line and column of the `offset`-th character of `text` (Yams reports reader errors so).
    static func location(ofCharacterOffset offset: Int, in text: String, path: String) -> SourceLocation {
        let index = text.index(text.startIndex, offsetBy: max(0, offset), limitedBy: text.endIndex) ?? text.endIndex
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars[..<index] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourceLocation(file: path, line: line, column: column)
    }
}
