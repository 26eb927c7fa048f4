/// The built-in types a spec can name.
enum PrimitiveType: String, CaseIterable, Hashable, Sendable {
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
    var swiftSpelling: String { self == .binary ? "HTTPBody" : rawValue }

    /// Whether a value of this type can be written in a URL path, query or header: everything
    /// but `Data`. Dates are written as the service's `coding.dates` says, URLs as their absolute string.
    var isScalarParameterType: Bool {
        switch self {
        case .string, .int, .int64, .double, .bool, .date, .url: true
        case .data, .json, .binary: false
        }
    }
}
