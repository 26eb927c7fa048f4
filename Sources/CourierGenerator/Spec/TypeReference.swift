/// The type of a property, parameter, body or response, as written in a spec (`Int`, `[Pet]`,
/// `[String: Int]`, `Pet?`).
indirect enum TypeReference: Hashable, Sendable, CustomStringConvertible {
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
    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The type with one level of optionality removed (`Pet?` becomes `Pet`); other types unchanged.
    var nonOptional: TypeReference {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// Every spec name this type refers to, in order of appearance.
    var referencedNames: [String] {
        switch self {
        case .primitive: []
        case .named(let name): [name]
        case .array(let inner), .map(let inner), .optional(let inner): inner.referencedNames
        }
    }

    /// The spelling of the type in spec syntax, for example `[String: Pet]?`.
    var description: String {
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
    var swiftSpelling: String {
        switch self {
        case .primitive(let primitive): primitive.swiftSpelling
        case .named(let name): SwiftIdentifier(typeNamed: name).escaped
        case .array(let element): "[\(element.swiftSpelling)]"
        case .map(let value): "[String: \(value.swiftSpelling)]"
        case .optional(let wrapped): "\(wrapped.swiftSpelling)?"
        }
    }
}
