import Foundation

extension JSON {
    /// Why bytes are not a JSON document, and where.
    public struct ParseError: Error, Sendable, Hashable {
        /// What was wrong.
        public enum Reason: Sendable, Hashable {
            /// The document ended inside a value, or was empty.
            case unexpectedEnd
            /// A byte that cannot start or continue a value here.
            case unexpectedByte(UInt8)
            /// A backslash escape that JSON does not define.
            case invalidEscape
            /// A `\u` escape that is not four hex digits, or a surrogate without its pair.
            case invalidUnicodeEscape
            /// A control character (below U+0020) inside a string, which must be escaped.
            case controlCharacterInString
            /// Bytes inside a string that are not UTF-8.
            case invalidUTF8
            /// A number that does not follow JSON's grammar, such as `01`, `1.` or `-`.
            case invalidNumber
            /// Containers nested deeper than the limit, which is there so that a hostile body
            /// costs memory in proportion to its length and never overflows the stack.
            case tooDeep(limit: Int)
            /// Something other than whitespace after the document.
            case trailingCharacters
        }

        /// What was wrong.
        public var reason: Reason
        /// The offset of the offending byte from the start of the input.
        public var offset: Int

        /// Creates the error.
        public init(_ reason: Reason, offset: Int) {
            self.reason = reason
            self.offset = offset
        }
    }

    /// `JSONDecoder`'s own nesting limit, the default here so that both accept the same documents.
    public static let defaultMaximumDepth = 512

    /// Parses a JSON document in one linear pass over its bytes.
    ///
    /// It reads what `JSONDecoder` reads (UTF-8, an optional byte order mark, a comma before a
    /// closing bracket, which `JSONDecoder` tolerates too) and keeps its choices: integers
    /// that fit `Int64` exactly, the first of duplicate keys. Nesting is kept on a heap stack,
    /// so no input can overflow the call stack.
    ///
    /// - Parameters:
    ///   - data: The document, in UTF-8.
    ///   - maximumDepth: The deepest nesting of arrays and objects accepted.
    /// - Throws: ``ParseError``, with the byte offset where the input stopped being JSON.
    public init(parsing data: Data, maximumDepth: Int = JSON.defaultMaximumDepth) throws(ParseError) {
        let result: Result<JSON, ParseError> = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            do throws(ParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    /// Parses JSON text; see ``init(parsing:maximumDepth:)-(Data,_)``.
    public init(parsing text: String, maximumDepth: Int = JSON.defaultMaximumDepth) throws(ParseError) {
        try self.init(parsing: Data(text.utf8), maximumDepth: maximumDepth)
    }
}

extension JSON.ParseError: CustomStringConvertible {
    /// The reason and the byte offset, for logs.
    public var description: String {
        let what = switch reason {
        case .unexpectedEnd: "unexpected end of input"
        case .unexpectedByte(let byte): "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
        case .invalidEscape: "invalid escape"
        case .invalidUnicodeEscape: "invalid \\u escape"
        case .controlCharacterInString: "unescaped control character in a string"
        case .invalidUTF8: "invalid UTF-8 in a string"
        case .invalidNumber: "invalid number"
        case .tooDeep(let limit): "nesting deeper than \(limit)"
        case .trailingCharacters: "characters after the document"
        }
        return "Invalid JSON at byte \(offset): \(what)."
    }
}

extension JSON.ParseError: LocalizedError {
    /// The reason and the byte offset.
    public var errorDescription: String? { description }
}

/// The iterative parser behind ``JSON/init(parsing:maximumDepth:)-(Data,_)``.
private struct JSONParser {
    typealias Failure = JSON.ParseError

    /// An array or object under construction. A struct with both kinds' storage, so that
    /// adding to it through `stack[index]` changes it in place instead of copying it.
    private struct Frame {
        var isObject: Bool
        var elements: [JSON] = []
        var members: [String: JSON] = [:]
        /// The key of the member being read.
        var key = ""
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0
    private var stack: [Frame] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private func fail(_ reason: Failure.Reason, at offset: Int? = nil) -> Failure {
        Failure(reason, offset: offset ?? position)
    }

    /// The error for the byte at `position`, or for the end.
    private func unexpected() -> Failure {
        position < bytes.count ? fail(.unexpectedByte(bytes[position])) : fail(.unexpectedEnd)
    }

    mutating func parseDocument() throws(Failure) -> JSON {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw fail(.unexpectedEnd) }
            var value: JSON
            switch bytes[position] {
            case UInt8(ascii: "{"):
                guard stack.count < maximumDepth else { throw fail(.tooDeep(limit: maximumDepth)) }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    value = .object([:])
                } else {
                    stack.append(Frame(isObject: true, key: try parseKey()))
                    continue
                }
            case UInt8(ascii: "["):
                guard stack.count < maximumDepth else { throw fail(.tooDeep(limit: maximumDepth)) }
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    stack.append(Frame(isObject: false))
                    continue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            default:
                throw unexpected()
            }
            // A value ended: add it to its container, closing containers until one continues.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    guard position == bytes.count else { throw fail(.trailingCharacters) }
                    return value
                }
                store(value)
                skipWhitespace()
                guard position < bytes.count else { throw fail(.unexpectedEnd) }
                let isObject = stack[stack.count - 1].isObject
                let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                var byte = bytes[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    guard position < bytes.count else { throw fail(.unexpectedEnd) }
                    byte = bytes[position]
                    // `JSONDecoder` accepts a comma before a closing bracket or brace.
                    if byte != closing {
                        if isObject {
                            stack[stack.count - 1].key = try parseKey()
                        }
                        break
                    }
                }
                guard byte == closing else { throw unexpected() }
                position += 1
                value = close()
            }
        }
    }

    /// Adds a finished value to the innermost container; of duplicate keys, the first stays.
    private mutating func store(_ value: JSON) {
        let index = stack.count - 1
        if stack[index].isObject {
            let key = stack[index].key
            if stack[index].members[key] == nil { stack[index].members[key] = value }
        } else {
            stack[index].elements.append(value)
        }
    }

    private mutating func close() -> JSON {
        let frame = stack.removeLast()
        return frame.isObject ? .object(frame.members) : .array(frame.elements)
    }

    /// A member's key and its colon, from the key's opening quote.
    private mutating func parseKey() throws(Failure) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw unexpected() }
        let key = try parseString()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw unexpected() }
        position += 1
        return key
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                position += 1
            default:
                return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        let start = position
        let matches = literal.withUTF8Buffer { expected in
            var offset = 0
            while offset < count {
                guard start + offset < bytes.count, bytes[start + offset] == expected[offset] else { return false }
                offset += 1
            }
            return true
        }
        guard matches else {
            // Point at the first byte that differs.
            var offset = 0
            literal.withUTF8Buffer { expected in
                while start + offset < bytes.count, offset < count, bytes[start + offset] == expected[offset] { offset += 1 }
            }
            position = start + offset
            throw unexpected()
        }
        position += count
    }

    // MARK: Strings

    /// A string from its opening quote; escapes resolved, UTF-8 checked.
    private mutating func parseString() throws(Failure) -> String {
        position += 1
        let start = position
        // Most strings have no escapes and are ASCII: one scan, then one copy.
        var isASCII = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = isASCII
                    ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    : try validatedString(start..<position)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail(.controlCharacterInString) }
            if byte >= 0x80 { isASCII = false }
            position += 1
        }
        guard position < bytes.count else { throw fail(.unexpectedEnd) }
        // An escape: build the text piece by piece from here.
        var utf8: [UInt8] = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try utf8.withUnsafeBufferPointer { buffer throws(Failure) in
                    try Self.validate(buffer, offsetOfFirstByte: start, reportAt: start)
                    return String(decoding: buffer, as: UTF8.self)
                }
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw fail(.controlCharacterInString)
            default:
                utf8.append(byte)
                position += 1
            }
        }
        throw fail(.unexpectedEnd)
    }

    private func validatedString(_ range: Range<Int>) throws(Failure) -> String {
        let buffer = UnsafeBufferPointer(rebasing: bytes[range])
        try Self.validate(buffer, offsetOfFirstByte: range.lowerBound, reportAt: nil)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Checks that `buffer` is UTF-8, because `String(decoding:)` would silently repair it
    /// where `JSONDecoder` rejects it. `reportAt` replaces the offset when the buffer is not a
    /// slice of the input (an unescaped copy).
    private static func validate(_ buffer: UnsafeBufferPointer<UInt8>, offsetOfFirstByte: Int, reportAt: Int?) throws(Failure) {
        var index = 0
        while index < buffer.count {
            let lead = buffer[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07)
            default: throw Failure(.invalidUTF8, offset: reportAt ?? offsetOfFirstByte + index)
            }
            guard index + length <= buffer.count else {
                throw Failure(.invalidUTF8, offset: reportAt ?? offsetOfFirstByte + index)
            }
            for next in 1..<length {
                let byte = buffer[index + next]
                guard byte & 0xC0 == 0x80 else { throw Failure(.invalidUTF8, offset: reportAt ?? offsetOfFirstByte + index) }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            // Overlong forms, surrogates and values beyond U+10FFFF are not UTF-8.
            let minimum: UInt32 = length == 3 ? 0x800 : (length == 4 ? 0x10000 : 0x80)
            guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw Failure(.invalidUTF8, offset: reportAt ?? offsetOfFirstByte + index)
            }
            index += length
        }
    }

    /// One escape from its backslash, appended as UTF-8.
    private mutating func parseEscape(into utf8: inout [UInt8]) throws(Failure) {
        let escapeStart = position
        position += 1
        guard position < bytes.count else { throw fail(.unexpectedEnd) }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw fail(.invalidUnicodeEscape, at: escapeStart)
                }
                position += 2
                let low = try hex4(escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(low) else { throw fail(.invalidUnicodeEscape, at: escapeStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw fail(.invalidUnicodeEscape, at: escapeStart)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail(.invalidUnicodeEscape, at: escapeStart) }
            if let encoded = UTF8.encode(unicode) { utf8.append(contentsOf: encoded) }
        default:
            throw fail(.invalidEscape, at: escapeStart)
        }
    }

    private mutating func hex4(escapeStart: Int) throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail(.unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail(.invalidUnicodeEscape, at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(Failure) -> JSON {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") else {
            throw fail(.invalidNumber, at: start)
        }
        // Accumulated negatively, so that Int64.min fits.
        var integer: Int64 = 0
        var fitsInteger = true
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                throw fail(.invalidNumber, at: start)
            }
        } else {
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                if fitsInteger {
                    let digit = Int64(bytes[position] - UInt8(ascii: "0"))
                    let (times10, overflow1) = integer.multipliedReportingOverflow(by: 10)
                    let (next, overflow2) = times10.subtractingReportingOverflow(digit)
                    if overflow1 || overflow2 { fitsInteger = false } else { integer = next }
                }
                position += 1
            }
        }
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard skipDigits() > 0 else { throw fail(.invalidNumber, at: start) }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard skipDigits() > 0 else { throw fail(.invalidNumber, at: start) }
        }
        if isInteger, fitsInteger {
            if negative { return .integer(integer) }
            if integer != .min { return .integer(-integer) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw fail(.invalidNumber, at: start) }
        // A whole value such as `5.0` or `5e0` is the integer, as `JSONDecoder` reads it into
        // `Int64`, so that both ways of decoding agree.
        if value.rounded(.towardZero) == value, let exact = Int64(exactly: value) {
            return .integer(exact)
        }
        return .number(value)
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            position += 1
        }
        return position - start
    }
}
