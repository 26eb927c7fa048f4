import Foundation

/// Any JSON value, kept as it was received: Discord's recursive `errors` tree, Box's
/// `context_info`, a metadata map.
///
/// ```swift
/// let errors = try JSON(parsing: body)
/// if let code = errors["errors"]?["name"]?["_errors"]?[0]?["code"]?.stringValue { … }
/// let metadata: JSON = ["plan": "pro", "seats": 5, "trial": false, "tags": ["a", "b"]]
/// ```
///
/// Two choices shape it:
///
/// - **Numbers.** A number whose value is a whole number that fits `Int64` is
///   ``integer(_:)``, exact; any other (a fraction, an integer beyond `Int64`) is
///   ``number(_:)``, the nearest `Double`. IDs and counts so stay exact, which a `Double`
///   cannot promise above 2^53. `5.0` and `5e0` are `.integer(5)` too, because that is how
///   `JSONDecoder` reads them and both decoding paths must give the same value; they are
///   written back as `5`, the same JSON number. ``intValue`` and ``doubleValue`` read
///   either case when the value fits, so callers rarely need to care which one it is.
/// - **Objects** are dictionaries: JSON gives member order no meaning (RFC 8259 §4), a
///   dictionary gives constant-time lookup and a `Hashable` that ignores order, and encoding
///   through the client's encoder writes sorted keys, so output is still deterministic. Of
///   duplicate keys the **first** wins, as in `JSONDecoder` and in the discriminator scanner,
///   so a free-form value never disagrees with the discriminator read from the same body.
///
/// Decoding through `JSONDecoder` (a `JSON` property in a `Codable` model) works for any
/// value; when the bytes are at hand, ``init(parsing:maximumDepth:)-(Data,_)`` reads them in one
/// linear pass, several times faster, and reports malformed input with its byte offset.
///
/// Through a decoder or encoder that converts key styles (``JSONCoding/KeyStyle/snakeCase``),
/// an object's keys are converted like any other key; ``init(parsing:maximumDepth:)-(Data,_)``
/// keeps them exactly as sent.
public enum JSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits `Int64`, exactly.
    case integer(Int64)
    /// Any other number, as the nearest `Double`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object; of duplicate keys, the first wins.
    case object([String: JSON])
}

// MARK: - Reading values

extension JSON {
    /// The member named `key`, or `nil` when this is not an object or has no such member.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index`, or `nil` when this is not an array or the index is out of
    /// bounds (negative included): a server's data never traps the client.
    public subscript(index: Int) -> JSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when it is an integer that fits; a ``number(_:)`` with no
    /// fractional part, such as `3.0` or `1e3`, counts.
    public var intValue: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .number(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number as a `Double`; an ``integer(_:)`` is converted, rounding beyond 2^53.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// MARK: - Literals

extension JSON: ExpressibleByNilLiteral {
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
    /// An integer.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSON: ExpressibleByFloatLiteral {
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSON: ExpressibleByStringLiteral {
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
    /// An array.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
    /// An object; of duplicate keys, the first wins, as when parsing.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { first, _ in first }))
    }
}

// MARK: - Codable

/// Any key of a free-form object.
private struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension JSON: Codable {
    /// Decodes any JSON value.
    ///
    /// A `Decoder` cannot say what kind of value comes next, so this asks: a `null` is found
    /// without a throw, each other wrong guess costs one `DecodingError` thrown and caught.
    /// That is a constant cost per value, so decoding stays linear; but guessing blindly would
    /// make it several times slower than decoding a `Codable` schema. So the members and
    /// elements of one value are read through their containers, each guess starting from the
    /// kind the same member name (or the previous element) held last: in the arrays of like
    /// objects real payloads are made of, the first guess is nearly always right. When the
    /// bytes are at hand, ``init(parsing:maximumDepth:)-(Data,_)`` is faster still.
    ///
    /// Numbers follow one rule on both paths: what `Int64` decodes (`5`, and also `5.0` and
    /// `5e0`, which `JSONDecoder` reads as the integer 5) is ``integer(_:)``; any other number
    /// is ``number(_:)``.
    public init(from decoder: any Decoder) throws {
        var hints = Hints()
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let value = try? single.decode(String.self) {
                self = .string(value)
                return
            }
        }
        if let keyed = try? decoder.container(keyedBy: JSONKey.self) {
            self = .object(try Self.members(of: keyed, hints: &hints))
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            self = .array(try Self.elements(of: &unkeyed, hints: &hints))
            return
        }
        let single = try decoder.singleValueContainer()
        if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else {
            self = .number(try single.decode(Double.self))
        }
    }

    /// The kinds a container is asked about.
    enum Kind: Sendable {
        case null, string, object, array, bool, integer, double

        /// The order of blind guesses: `null` costs no throw, strings are the commonest
        /// value, containers next so that a nested tree costs few wrong guesses per level.
        /// `.double` is never guessed blindly: `.integer` reads every number, whole or not.
        static let probeOrder: [Kind] = [.null, .string, .object, .array, .bool, .integer]

        /// The kind to guess first for the next value like `value`.
        init(of value: JSON) {
            switch value {
            case .null: self = .null
            case .string: self = .string
            case .object: self = .object
            case .array: self = .array
            case .bool: self = .bool
            case .integer: self = .integer
            case .number: self = .double
            }
        }
    }

    /// A number decoded as `Double` under the rule that a whole value is an integer; a large
    /// whole value, which a `Double` may have rounded, is asked for again as `Int64`.
    private static func number(_ value: Double, exactInteger: () -> Int64?) -> JSON {
        guard value.rounded(.towardZero) == value else { return .number(value) }
        if abs(value) < 9007199254740992, let exact = Int64(exactly: value) { return .integer(exact) }
        return exactInteger().map(JSON.integer) ?? .number(value)
    }

    /// The kind each member name held last, shared by one value's whole tree. A hint only
    /// orders the guesses, never decides the result, so a wrong one costs time and nothing
    /// else; the table is bounded so that endless distinct keys cannot grow it without limit.
    struct Hints {
        static let capacity = 1024
        var byName: [String: Kind] = [:]

        mutating func remember(_ kind: Kind, for name: String) {
            if byName.count < Self.capacity || byName[name] != nil {
                byName[name] = kind
            }
        }
    }

    private static func members(of keyed: KeyedDecodingContainer<JSONKey>, hints: inout Hints) throws -> [String: JSON] {
        let keys = keyed.allKeys
        var members: [String: JSON] = [:]
        members.reserveCapacity(keys.count)
        for key in keys where members[key.stringValue] == nil {
            let name = key.stringValue
            if let kind = hints.byName[name], let value = try member(kind, key, of: keyed, hints: &hints) {
                members[name] = value
                continue
            }
            var found: JSON?
            for kind in Kind.probeOrder {
                if let value = try member(kind, key, of: keyed, hints: &hints) {
                    hints.remember(Kind(of: value), for: name)
                    found = value
                    break
                }
            }
            // Nothing fitted (no JSON value does that): let the decoder say why, at its path.
            members[name] = try found ?? .number(keyed.decode(Double.self, forKey: key))
        }
        return members
    }

    /// The member at `key` if it is of `kind`, `nil` if not; throws only for an error inside
    /// a nested container, which is the member's own.
    private static func member(_ kind: Kind, _ key: JSONKey, of keyed: KeyedDecodingContainer<JSONKey>, hints: inout Hints) throws -> JSON? {
        switch kind {
        case .null:
            return (try? keyed.decodeNil(forKey: key)) == true ? .null : nil
        case .string:
            return (try? keyed.decode(String.self, forKey: key)).map(JSON.string)
        case .bool:
            return (try? keyed.decode(Bool.self, forKey: key)).map(JSON.bool)
        case .integer:
            // Reads every number: a fraction fails as `Int64` and comes back as a `Double`.
            if let value = try? keyed.decode(Int64.self, forKey: key) { return .integer(value) }
            return (try? keyed.decode(Double.self, forKey: key)).map(JSON.number)
        case .double:
            guard let value = try? keyed.decode(Double.self, forKey: key) else { return nil }
            return number(value) { try? keyed.decode(Int64.self, forKey: key) }
        case .object:
            guard let nested = try? keyed.nestedContainer(keyedBy: JSONKey.self, forKey: key) else { return nil }
            return .object(try members(of: nested, hints: &hints))
        case .array:
            guard var nested = try? keyed.nestedUnkeyedContainer(forKey: key) else { return nil }
            return .array(try elements(of: &nested, hints: &hints))
        }
    }

    private static func elements(of unkeyed: inout any UnkeyedDecodingContainer, hints: inout Hints) throws -> [JSON] {
        var elements: [JSON] = []
        if let count = unkeyed.count { elements.reserveCapacity(count) }
        // Elements of one array are usually alike: guess the previous one's kind first.
        var last: Kind?
        while !unkeyed.isAtEnd {
            if let kind = last, let value = try element(kind, of: &unkeyed, hints: &hints) {
                elements.append(value)
                continue
            }
            var found: JSON?
            for kind in Kind.probeOrder {
                // A failed guess leaves the container at the same element.
                if let value = try element(kind, of: &unkeyed, hints: &hints) {
                    last = Kind(of: value)
                    found = value
                    break
                }
            }
            elements.append(try found ?? .number(unkeyed.decode(Double.self)))
        }
        return elements
    }

    private static func element(_ kind: Kind, of unkeyed: inout any UnkeyedDecodingContainer, hints: inout Hints) throws -> JSON? {
        switch kind {
        case .null:
            return (try? unkeyed.decodeNil()) == true ? .null : nil
        case .string:
            return (try? unkeyed.decode(String.self)).map(JSON.string)
        case .bool:
            return (try? unkeyed.decode(Bool.self)).map(JSON.bool)
        case .integer:
            if let value = try? unkeyed.decode(Int64.self) { return .integer(value) }
            return (try? unkeyed.decode(Double.self)).map(JSON.number)
        case .double:
            // Decoding a `Double` would advance the container, and a large whole value must
            // then be asked for again as `Int64`; an element's own decoder can be asked twice.
            let decoder = try unkeyed.superDecoder()
            guard let single = try? decoder.singleValueContainer(), let value = try? single.decode(Double.self) else {
                return try JSON(from: decoder)
            }
            return number(value) { try? single.decode(Int64.self) }
        case .object:
            guard let nested = try? unkeyed.nestedContainer(keyedBy: JSONKey.self) else { return nil }
            return .object(try members(of: nested, hints: &hints))
        case .array:
            guard var nested = try? unkeyed.nestedUnkeyedContainer() else { return nil }
            return .array(try elements(of: &nested, hints: &hints))
        }
    }

    /// Encodes the value back as it was: the same kinds, members and elements.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements {
                try container.encode(element)
            }
        case .object(let members):
            var container = encoder.container(keyedBy: JSONKey.self)
            for (key, value) in members {
                try container.encode(value, forKey: JSONKey(stringValue: key))
            }
        }
    }
}

// MARK: - Text

extension JSON: CustomStringConvertible {
    /// Compact JSON text, object keys sorted so that equal values read the same. A
    /// non-finite ``number(_:)`` (which no parse produces) is written `null`.
    public var description: String {
        var text = ""
        JSON.write(self, to: &text)
        return text
    }

    private static func write(_ value: JSON, to text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .integer(let value): text += String(value)
        case .number(let value): text += value.isFinite ? String(value) : "null"
        case .string(let value): writeString(value, to: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                write(element, to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                writeString(key, to: &text)
                text += ":"
                if let member = members[key] { write(member, to: &text) }
            }
            text += "}"
        }
    }

    private static func writeString(_ value: String, to text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

