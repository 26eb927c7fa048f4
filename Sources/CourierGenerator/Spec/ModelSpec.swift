/// A model declared under `models:`: an object with properties, a string enum, a union of
/// variants (`oneOf`) or a composition of other models (`allOf`).
public struct ModelSpec: Hashable, Sendable, SourceLocated {
    /// What a model is made of.
    public enum Kind: Hashable, Sendable {
        /// A JSON object with the given properties, in declaration order.
        case object([PropertySpec])
        /// A JSON string restricted to the given values, in declaration order.
        case stringEnum([EnumCaseSpec])
        /// A value that is exactly one of several variants (`oneOf`).
        case union(UnionSpec)
        /// The parts of an `allOf` model as written. Validation flattens it into ``object(_:)``,
        /// so that later stages never see this case.
        case composition([CompositionPart])
    }

    /// The name as written in the spec, used in type references.
    public var name: String
    /// The Swift type name (UpperCamelCase).
    public var swiftName: SwiftIdentifier
    /// The documentation, if any; becomes the doc comment.
    public var description: String?
    /// The properties or enum values.
    public var kind: Kind
    /// Whether the model reaches itself through its properties (directly or through other models).
    /// Generated code must break such cycles with indirection, for example a class or a box.
    public var isRecursive: Bool
    /// Set when the model was synthesized from an endpoint's inline body: the endpoint's name.
    public var synthesizedForEndpoint: String?
    /// Where the model's name is written.
    public var location: SourceLocation

    /// Creates a model.
    public init(name: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, kind: Kind,
                isRecursive: Bool = false, synthesizedForEndpoint: String? = nil, location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(typeNamed: name)
        self.description = description
        self.kind = kind
        self.isRecursive = isRecursive
        self.synthesizedForEndpoint = synthesizedForEndpoint
        self.location = location
    }

    /// The properties of an object model; empty for an enum.
    public var properties: [PropertySpec] {
        if case .object(let properties) = kind { return properties }
        return []
    }

    /// The values of a string enum; empty for an object.
    public var enumCases: [EnumCaseSpec] {
        if case .stringEnum(let cases) = kind { return cases }
        return []
    }

    /// The union, when the model is one.
    public var union: UnionSpec? {
        if case .union(let union) = kind { return union }
        return nil
    }

    /// Whether the model is a string enum.
    public var isStringEnum: Bool {
        if case .stringEnum = kind { return true }
        return false
    }
}

/// One property of an object model or error schema.
public struct PropertySpec: Hashable, Sendable, SourceLocated {
    /// The key as written in the spec.
    public var name: String
    /// The key in JSON: `json:` when given, else `name`, converted to snake_case when the
    /// service's `coding.keys` is `snake_case`.
    public var jsonKey: String
    /// The Swift property name (lowerCamelCase).
    public var swiftName: SwiftIdentifier
    /// The property's type; optional types mean the key may be missing or `null`.
    public var type: TypeReference
    /// The documentation, if any.
    public var description: String?
    /// Where the property's key is written.
    public var location: SourceLocation
    /// Where the property's type is written, for pointing at a misspelled type.
    var typeLocation: SourceLocation?

    /// Creates a property.
    public init(name: String, jsonKey: String? = nil, swiftName: SwiftIdentifier? = nil, type: TypeReference,
                description: String? = nil, location: SourceLocation) {
        self.name = name
        self.jsonKey = jsonKey ?? name
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: name)
        self.type = type
        self.description = description
        self.location = location
    }

    /// Whether the property must be present in JSON.
    public var isRequired: Bool { !type.isOptional }
}

/// One value of a string enum.
public struct EnumCaseSpec: Hashable, Sendable, SourceLocated {
    /// The raw string sent on the wire.
    public var value: String
    /// The Swift case name (lowerCamelCase).
    public var swiftName: SwiftIdentifier
    /// The documentation, if any.
    public var description: String?
    /// Where the value is written.
    public var location: SourceLocation

    /// Creates an enum value.
    public init(value: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, location: SourceLocation) {
        self.value = value
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: value)
        self.description = description
        self.location = location
    }
}

/// An error schema declared under `errorSchemas:`: the shape of an error response body.
public struct ErrorSchemaSpec: Hashable, Sendable, SourceLocated {
    /// Where the error object sits in the response body.
    public enum Shape: Hashable, Sendable {
        /// The body is the error object: `{"message": …}` (GitHub, Laravel, RFC 9457 problem+json).
        case object
        /// The error object is the value of one key: `{"error": {"type": …}}` (Stripe).
        case wrapped(key: String)
        /// The body holds an array of error objects under one key: `{"errors": [{…}]}` (JSON:API).
        case array(key: String)
    }

    /// The name as written in the spec, used in `body:` of error mappings.
    public var name: String
    /// The Swift type name (UpperCamelCase) of the error object.
    public var swiftName: SwiftIdentifier
    /// The documentation, if any.
    public var description: String?
    /// Where the error object sits in the body.
    public var shape: Shape
    /// The properties of one error object, in declaration order.
    public var properties: [PropertySpec]
    /// Where the schema's name is written.
    public var location: SourceLocation

    /// Creates an error schema.
    public init(name: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, shape: Shape,
                properties: [PropertySpec], location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(typeNamed: name)
        self.description = description
        self.shape = shape
        self.properties = properties
        self.location = location
    }
}
