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
        // Template literals and most values need no escape at all: every request pays this for
        // its path, so the usual case is one scan and one copy.
        if text.utf8.allSatisfy(isKept) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isKept(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        // Both predicates keep ASCII bytes only, so the result is ASCII and valid UTF-8.
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Upper-case hexadecimal digits, as RFC 3986 recommends for percent-encoding.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

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
