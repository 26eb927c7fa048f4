import Foundation

/// A value that can travel in a path segment, a query item, a header field or a form body.
///
/// The value stays typed until the client renders it, because dates and booleans are
/// spelled the way the client's ``JSONCoding`` and ``QueryEncoding`` say, not the way the
/// request type would guess.
public enum ParameterValue: Sendable, Hashable {
    /// Text, sent as given (and percent-encoded where the place requires it).
    case string(String)
    /// A whole number.
    case integer(Int64)
    /// A floating-point number.
    case number(Double)
    /// A boolean, spelled per ``QueryEncoding/BooleanStyle``.
    case bool(Bool)
    /// A point in time, spelled per ``JSONCoding/DateFormat``.
    case date(Date)
    /// Several values; how they are joined depends on where they go.
    case list([ParameterValue])
    /// Several values sent as one query item joined by `separator`, whatever the client's
    /// ``QueryEncoding/ArrayStyle``: OpenAPI's `explode: false` (`ids=1,2,3`),
    /// `spaceDelimited` (`tags=a%20b`) and `pipeDelimited` (`tags=a|b`).
    case joined([ParameterValue], separator: ListSeparator)
    /// A model sent as one query item per field, `filter[status]=open&filter[labels][]=bug`
    /// (OpenAPI's `deepObject`), spelled by ``FormEncoder`` with the client's coding.
    case object(EncodableObject)

    /// `values` as one query item joined by `separator`.
    public static func joining<Element: ParameterConvertible>(_ values: [Element], by separator: ListSeparator) -> ParameterValue {
        .joined(values.map(\.parameterValue), separator: separator)
    }

    /// `value` as a `deepObject` query parameter.
    public static func deepObject(_ value: some Encodable & Sendable) -> ParameterValue {
        .object(EncodableObject(value))
    }
}

extension ParameterValue {
    /// What joins the elements of a ``ParameterValue/joined(_:separator:)`` list.
    public enum ListSeparator: String, Sendable, Hashable {
        /// `1,2,3` (OpenAPI `form` or `simple` with `explode: false`).
        case comma = ","
        /// `a b`, sent as `a%20b` (OpenAPI `spaceDelimited`).
        case space = " "
        /// `a|b`, sent as `a%7Cb` (OpenAPI `pipeDelimited`); `|` is not allowed unencoded in a URL.
        case pipe = "|"
    }
}

extension ParameterValue {
    /// A model carried as a parameter value until the client encodes it with its own coding.
    ///
    /// Two values are equal when they encode to the same fields with the default coding, which
    /// is what a request built from them would send under any one client.
    public struct EncodableObject: Sendable, Hashable {
        /// The model.
        public var value: any Encodable & Sendable

        /// Wraps `value`.
        public init(_ value: any Encodable & Sendable) {
            self.value = value
        }

        private var fields: [String] {
            ((try? FormEncoder().collect(value, named: "")) ?? []).map { $0.name + "=" + $0.pieces.joined(separator: ",") }
        }

        /// Whether both encode to the same fields.
        public static func == (lhs: EncodableObject, rhs: EncodableObject) -> Bool {
            lhs.fields == rhs.fields
        }

        /// Hashes the encoded fields.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(fields)
        }
    }
}

/// A type that can be sent as a path, query, header or form value.
///
/// Generated string enums conform through their raw value; nothing else needs doing.
public protocol ParameterConvertible: Sendable {
    /// This value in the form the client renders.
    var parameterValue: ParameterValue { get }
}

extension String: ParameterConvertible {
    /// The string itself.
    public var parameterValue: ParameterValue { .string(self) }
}

extension Substring: ParameterConvertible {
    /// The substring as a string.
    public var parameterValue: ParameterValue { .string(String(self)) }
}

extension Int: ParameterConvertible {
    /// The number as an integer.
    public var parameterValue: ParameterValue { .integer(Int64(self)) }
}

extension Int32: ParameterConvertible {
    /// The number as an integer.
    public var parameterValue: ParameterValue { .integer(Int64(self)) }
}

extension Int64: ParameterConvertible {
    /// The number as an integer.
    public var parameterValue: ParameterValue { .integer(self) }
}

extension Double: ParameterConvertible {
    /// The number as a floating-point value.
    public var parameterValue: ParameterValue { .number(self) }
}

extension Float: ParameterConvertible {
    /// The number as a floating-point value.
    public var parameterValue: ParameterValue { .number(Double(self)) }
}

extension Decimal: ParameterConvertible {
    /// The decimal's exact text, so no precision is lost to `Double`.
    public var parameterValue: ParameterValue { .string(description) }
}

extension Bool: ParameterConvertible {
    /// The boolean.
    public var parameterValue: ParameterValue { .bool(self) }
}

extension Date: ParameterConvertible {
    /// The date, formatted later per the client's date format.
    public var parameterValue: ParameterValue { .date(self) }
}

extension UUID: ParameterConvertible {
    /// The UUID's canonical text.
    public var parameterValue: ParameterValue { .string(uuidString) }
}

extension Array: ParameterConvertible where Element: ParameterConvertible {
    /// The elements as a list.
    public var parameterValue: ParameterValue { .list(map(\.parameterValue)) }
}

extension ParameterValue: ParameterConvertible {
    /// The value itself.
    public var parameterValue: ParameterValue { self }
}

extension ParameterConvertible where Self: RawRepresentable, RawValue: ParameterConvertible {
    /// The raw value, so generated string enums need only declare the conformance.
    public var parameterValue: ParameterValue { rawValue.parameterValue }
}

/// An ordered list of named values for a query string, header fields or a form body.
///
/// Written as a dictionary literal; `nil` values are left out, which is how optional
/// parameters that were not given disappear from the request:
///
/// ```swift
/// var query: Parameters { ["limit": limit, "tags": tags, "since": since] }
/// ```
public struct Parameters: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One named value.
    public struct Item: Sendable, Hashable {
        /// The name, sent as given (and percent-encoded in a query or form body).
        public var name: String
        /// The value.
        public var value: ParameterValue

        /// Creates an item.
        public init(name: String, value: ParameterValue) {
            self.name = name
            self.value = value
        }
    }

    /// The items in the order they were written.
    public private(set) var items: [Item]

    /// Creates an empty list.
    public init() {
        items = []
    }

    /// Creates a list from a literal, leaving out `nil` values.
    public init(dictionaryLiteral elements: (String, (any ParameterConvertible)?)...) {
        items = []
        for (name, value) in elements {
            append(name, value)
        }
    }

    /// Appends a value unless it is `nil`.
    public mutating func append(_ name: String, _ value: (any ParameterConvertible)?) {
        guard let value else { return }
        items.append(Item(name: name, value: value.parameterValue))
    }

    /// Whether the list holds no items.
    public var isEmpty: Bool { items.isEmpty }
}

/// How query strings and form bodies spell values that have more than one spelling.
public struct QueryEncoding: Sendable, Hashable {
    /// How an array value is written.
    public enum ArrayStyle: Sendable, Hashable {
        /// `tags=a&tags=b`, what most servers expect (OpenAPI `form`, `explode: true`).
        case repeatedKey
        /// `tags=a,b` (OpenAPI `form`, `explode: false`).
        case commaSeparated
        /// `tags[]=a&tags[]=b`, what Rails and PHP servers expect.
        case bracketed
    }

    /// How a boolean value is written.
    public enum BooleanStyle: Sendable, Hashable {
        /// `true` / `false`.
        case literal
        /// `1` / `0`.
        case numeric
    }

    /// How arrays are written; `.repeatedKey` by default.
    public var arrayStyle: ArrayStyle
    /// How booleans are written; `.literal` by default.
    public var booleanStyle: BooleanStyle

    /// Creates a query encoding.
    public init(arrayStyle: ArrayStyle = .repeatedKey, booleanStyle: BooleanStyle = .literal) {
        self.arrayStyle = arrayStyle
        self.booleanStyle = booleanStyle
    }
}
