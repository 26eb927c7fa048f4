/// The type of a property, parameter, body or response, as written in a spec (`Int`, `[Pet]`,
/// `[String: Int]`, `Pet?`).
public indirect enum TypeReference: Hashable, Sendable, CustomStringConvertible {
    /// A built-in type such as `String` or `Date`.
    case primitive(PrimitiveType)
    /// A model, string enum or error schema declared in the spec (or an included file), by its spec name.
    case named(String)
    /// `[Element]`.
    case array(TypeReference)
    /// `[String: Value]`: a JSON object with arbitrary keys.
    case map(TypeReference)
    /// `Wrapped?`: the value may be absent or `null`.
    case optional(TypeReference)

    /// Whether the outermost type is optional.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The type with one level of optionality removed (`Pet?` becomes `Pet`); other types unchanged.
    public var nonOptional: TypeReference {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// Every spec name this type refers to, in order of appearance.
    public var referencedNames: [String] {
        switch self {
        case .primitive: []
        case .named(let name): [name]
        case .array(let inner), .map(let inner), .optional(let inner): inner.referencedNames
        }
    }

    /// The spelling of the type in spec syntax, for example `[String: Pet]?`.
    public var description: String {
        switch self {
        case .primitive(let primitive): primitive.rawValue
        case .named(let name): name
        case .array(let element): "[\(element)]"
        case .map(let value): "[String: \(value)]"
        case .optional(let wrapped): "\(wrapped)?"
        }
    }

    /// The spelling of the type in Swift source, with named types converted by ``SwiftIdentifier``
    /// and escaped when they are keywords (`[Pet]?`, `` [String: `Type`] ``).
    public var swiftSpelling: String {
        switch self {
        case .primitive(let primitive): primitive.swiftSpelling
        case .named(let name): SwiftIdentifier(typeNamed: name).escaped
        case .array(let element): "[\(element.swiftSpelling)]"
        case .map(let value): "[String: \(value.swiftSpelling)]"
        case .optional(let wrapped): "\(wrapped.swiftSpelling)?"
        }
    }
}

/// The built-in types a spec can name.
public enum PrimitiveType: String, CaseIterable, Hashable, Sendable {
    /// A JSON string.
    case string = "String"
    /// A JSON number that fits in a platform `Int`.
    case int = "Int"
    /// A JSON number that must be read as 64 bits even on 32-bit platforms.
    case int64 = "Int64"
    /// A JSON number with a fraction.
    case double = "Double"
    /// A JSON boolean.
    case bool = "Bool"
    /// A date, encoded as the service's `coding.dates` strategy says.
    case date = "Date"
    /// Bytes, encoded in JSON as a Base64 string.
    case data = "Data"
    /// A URL, encoded in JSON as a string.
    case url = "URL"
    /// Any JSON value, kept as it was sent: `CourierRuntime.JSON`.
    case json = "JSON"
    /// Bytes that stream (`CourierRuntime.HTTPBody`): only an endpoint's body or response body.
    case binary = "Binary"

    /// How the type is written in Swift (`Foundation.Date` is written `Date`, and so on).
    public var swiftSpelling: String { self == .binary ? "HTTPBody" : rawValue }

    /// Whether a value of this type can be written in a URL path, query or header: everything
    /// but `Data`. Dates are written as the service's `coding.dates` says, URLs as their absolute string.
    public var isScalarParameterType: Bool {
        switch self {
        case .string, .int, .int64, .double, .bool, .date, .url: true
        case .data, .json, .binary: false
        }
    }
}
