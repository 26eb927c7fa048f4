/// A test on a response, used by `conditions:` and by a success status's `when:`.
enum PredicateSpec: Hashable, Sendable, CustomStringConvertible {
    /// The header is present, whatever its value (GitHub's secondary rate limit sends `retry-after`).
    case headerPresent(String)
    /// The header has exactly this value.
    case headerEquals(String, String)
    /// The body field is present and not `null`; it may be an object or an array.
    case fieldPresent(FieldPath)
    /// The body field is a scalar equal to this value, compared as the field's type.
    case fieldEquals(FieldPath, ScalarValueSpec)

    /// The predicate as a reader of the spec would say it.
    var description: String {
        switch self {
        case .headerPresent(let name): "header \(name) is present"
        case .headerEquals(let name, let value): "header \(name) is \(value)"
        case .fieldPresent(let path): "\(path) is present"
        case .fieldEquals(let path, let value): "\(path) is \(value)"
        }
    }

    /// The body field the predicate reads, if any.
    var fieldPath: FieldPath? {
        switch self {
        case .fieldPresent(let path), .fieldEquals(let path, _): path
        case .headerPresent, .headerEquals: nil
        }
    }
}

/// A scalar written in a spec, typed as the body field it is compared with.
enum ScalarValueSpec: Hashable, Sendable, CustomStringConvertible {
    /// A JSON string.
    case string(String)
    /// A JSON integer.
    case integer(Int64)
    /// A JSON number with a fraction (or compared as one).
    case double(Double)
    /// A JSON boolean.
    case boolean(Bool)

    /// How the value reads in messages and doc comments.
    var description: String {
        switch self {
        case .string(let text): text
        case .integer(let value): String(value)
        case .double(let value): String(value)
        case .boolean(let value): value ? "true" : "false"
        }
    }
}

/// The scalar type a discriminator or predicate field holds, from the error schema.
enum ScalarKind: String, Hashable, Sendable {
    /// `String` or a string enum; also every header.
    case string = "String"
    /// `Int` or `Int64`.
    case integer = "Int"
    /// `Double`.
    case double = "Double"
    /// `Bool`.
    case boolean = "Bool"

    /// `text` as a value of this kind, or `nil` when it is not one (`abc` is no integer).
    func value(of text: String) -> ScalarValueSpec? {
        switch self {
        case .string:
            return .string(text)
        case .integer:
            return Int64(text).map(ScalarValueSpec.integer)
        case .double:
            guard let value = Double(text), value.isFinite else { return nil }
            return .double(value)
        case .boolean:
            switch text {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: return nil
            }
        }
    }
}

/// One entry of `conditions:`: a predicate and the case it selects, checked in the order written.
struct ErrorConditionSpec: Hashable, Sendable, SourceLocated {
    /// What the response must satisfy.
    var predicate: PredicateSpec
    /// The case selected when it does.
    var errorCase: ErrorCaseSpec
    /// Where the condition is written.
    var location: SourceLocation

    /// Creates a condition.
    init(predicate: PredicateSpec, errorCase: ErrorCaseSpec, location: SourceLocation) {
        self.predicate = predicate
        self.errorCase = errorCase
        self.location = location
    }
}
