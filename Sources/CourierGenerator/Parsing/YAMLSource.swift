import Foundation

/// Turns a file's bytes into a ``Node`` tree, or into diagnostics when that is not possible.
///
/// ``YAMLReader`` builds the tree from libyaml's events: every scalar stays a string with its
/// position, which leaves typing to the spec parser.
enum YAMLSource {
    /// The outcome of reading one file.
    enum Outcome {
        /// The document's root node. `nil` when the file holds no document (empty or comments only).
        /// The text is not kept with it: every node has its own copy of what it needs.
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
        // libyaml is told the encoding up front, which skips its byte-order-mark detection; a
        // BOM left in would be read as content. Editors do not count it as a column.
        var text = text.hasPrefix("\u{FEFF}") ? String(text.unicodeScalars.dropFirst()) : text
        if formatName(of: text, path: path) == "JSON" { text = escapingControlsYAMLRejects(inJSON: text) }
        do throws(YAMLReader.Failure) {
            return .document(try YAMLReader.read(text))
        } catch {
            return .failure(diagnostic(for: error, text: text, path: path))
        }
    }

    /// Converts a reader failure into one diagnostic. Never quotes the offending line: lines can
    /// be megabytes long.
    static func diagnostic(for failure: YAMLReader.Failure, text: String, path: String) -> Diagnostic {
        let format = formatName(of: text, path: path)
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(file: path, line: max(1, mark.line), column: max(1, mark.column))
        }
        func trimmed(_ message: String) -> String {
            let oneLine = message.replacingOccurrences(of: "\n", with: " ")
            return oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine
        }
        func withContext(_ problem: String, _ context: YAMLReader.Context?) -> String {
            guard let context else { return trimmed(problem) }
            return trimmed("\(problem) (\(context.text) at line \(context.mark.line), column \(context.mark.column))")
        }

        switch failure {
        case .scanner(let context, let problem, let mark):
            return .error("\(format) syntax error: \(withContext(problem, context))", at: at(mark))
        case .parser(let context, let problem, let mark):
            if problem.contains("Maximum nesting level") {
                return .error("\(format) nesting is too deep (libyaml allows at most 1000 levels)", at: at(mark))
            }
            return .error("\(format) syntax error: \(withContext(problem, context))", at: at(mark))
        case .undefinedAlias(_, let mark):
            return .error("\(format) error: found undefined alias", at: at(mark))
        case .anotherDocument(let mark):
            return .error("\(format) error: but found another document (expected a single document in the stream at line 1, column 1)",
                          at: at(mark))
        case .reader(let problem, let offset, let value):
            let location = self.location(ofByteOffset: offset, in: Data(text.utf8.prefix(offset)), path: path)
            let character = value >= 0 ? String(format: " U+%04X", value) : ""
            return .error("invalid character\(character) in the file: \(trimmed(problem))", at: location)
        case .duplicateKey(let key, let first, let second):
            let notes = first == second ? [] : [Diagnostic.note("'\(trimmed(key))' is first written here", at: at(first))]
            return .error("duplicate key '\(trimmed(key))' in the same mapping", at: at(second), notes: notes)
        case .memory:
            return .error("out of memory while reading YAML", at: .start(of: path))
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
}
