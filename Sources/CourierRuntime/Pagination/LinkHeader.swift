import Foundation

/// The links of an RFC 8288 `Link` header field, such as GitHub's
/// `<https://api.github.com/repositories/1/issues?page=2>; rel="next", <…?page=5>; rel="last"`.
///
/// Parsing is lenient and linear: a link it cannot read is skipped, never a crash, and each
/// character of the field is looked at a bounded number of times.
package struct LinkHeader: Sendable, Hashable {
    /// One link: its target and its parameters (names lower-cased, values unquoted).
    public struct Link: Sendable, Hashable {
        /// The target as written between `<` and `>`.
        public var target: String
        /// The parameters, such as `rel`.
        public var parameters: [String: String]

        /// The relation types, split on spaces (`rel="next last"` has two).
        public var relations: [String] {
            (parameters["rel"] ?? "").split(separator: " ").map { $0.lowercased() }
        }
    }

    /// The links, in order.
    public var links: [Link]

    /// Parses a field value; several `Link` fields may be joined with commas first.
    public init(_ value: String) {
        links = Self.parse(Array(value.utf8))
    }

    /// The target of the first link with relation `relation` (`next`, `prev`, `last`…).
    public func target(for relation: String) -> String? {
        let wanted = relation.lowercased()
        return links.first { $0.relations.contains(wanted) }?.target
    }

    private static func parse(_ bytes: [UInt8]) -> [Link] {
        var links: [Link] = []
        var index = 0
        let count = bytes.count
        func skipSpaces() {
            while index < count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        }
        while index < count {
            skipSpaces()
            guard index < count, bytes[index] == UInt8(ascii: "<") else {
                // Not a link: skip to the next comma outside quotes.
                skipToNextLink(bytes, &index)
                continue
            }
            index += 1
            let start = index
            while index < count, bytes[index] != UInt8(ascii: ">") { index += 1 }
            guard index < count else { break }
            let target = String(decoding: bytes[start..<index], as: UTF8.self)
            index += 1
            var parameters: [String: String] = [:]
            while true {
                skipSpaces()
                guard index < count, bytes[index] == UInt8(ascii: ";") else { break }
                index += 1
                skipSpaces()
                let nameStart = index
                while index < count, ![UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: " ")].contains(bytes[index]) { index += 1 }
                let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
                skipSpaces()
                var value = ""
                if index < count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    skipSpaces()
                    if index < count, bytes[index] == UInt8(ascii: "\"") {
                        index += 1
                        var text: [UInt8] = []
                        while index < count, bytes[index] != UInt8(ascii: "\"") {
                            if bytes[index] == UInt8(ascii: "\\"), index + 1 < count { index += 1 }
                            text.append(bytes[index])
                            index += 1
                        }
                        index = min(index + 1, count)
                        value = String(decoding: text, as: UTF8.self)
                    } else {
                        let valueStart = index
                        while index < count, ![UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: " ")].contains(bytes[index]) { index += 1 }
                        value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    }
                }
                // The first occurrence of a parameter wins (RFC 8288, 3).
                if !name.isEmpty, parameters[name] == nil { parameters[name] = value }
            }
            links.append(Link(target: target, parameters: parameters))
            skipToNextLink(bytes, &index)
        }
        return links
    }

    /// Moves past the next comma that is outside a quoted string.
    private static func skipToNextLink(_ bytes: [UInt8], _ index: inout Int) {
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == UInt8(ascii: ","), !quoted { return }
        }
    }
}
