import Foundation

/// How parameter values become the text of a path, a header or a query, and how that text is
/// percent-encoded: shared by the request builder, form encoding and API-key query credentials,
/// so that every place a value enters a URL encodes it the same way.
enum ParameterText {
    static func pathText(_ value: ParameterValue, coding: JSONCoding) -> String {
        if case .list(let values) = value {
            return values.map { scalarText($0, coding: coding, booleans: .literal) }.joined(separator: ",")
        }
        return scalarText(value, coding: coding, booleans: .literal)
    }

    static func headerText(_ value: ParameterValue, coding: JSONCoding) -> String {
        pathText(value, coding: coding)
    }

    static func scalarText(_ value: ParameterValue, coding: JSONCoding, booleans: QueryEncoding.BooleanStyle) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag): booleans == .numeric ? (flag ? "1" : "0") : (flag ? "true" : "false")
        case .date(let date): coding.string(from: date)
        case .list(let values): values.map { scalarText($0, coding: coding, booleans: booleans) }.joined(separator: ",")
        case .joined(let values, let separator):
            values.map { scalarText($0, coding: coding, booleans: booleans) }.joined(separator: separator.rawValue)
        case .object(let object):
            // OpenAPI's `simple` style for an object outside a query: `name,value,name,value`.
            ((try? FormEncoder(coding: coding, booleans: booleans).collect(object.value, named: nil)) ?? [])
                .flatMap { [$0.name] + $0.pieces }.joined(separator: ",")
        }
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters, so no value can
    /// introduce a `/`, `?`, `#`, `&` or `=` of its own.
    static func percentEncode(_ text: String) -> String {
        percentEncode(text[...], keeping: isUnreserved)
    }

    /// Percent-encodes every byte of `text`'s UTF-8 that `isKept` rejects, `%` included.
    static func percentEncode(_ text: Substring, keeping isKept: (UInt8) -> Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isKept(byte) {
                result.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// RFC 3986 unreserved characters: what a value keeps.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// RFC 3986 `pchar` and the `/` between segments: what a template literal keeps. The rest,
    /// `%`, `?`, `#`, spaces and non-ASCII among them, is encoded.
    static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            true
        default:
            isUnreserved(byte)
        }
    }}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
