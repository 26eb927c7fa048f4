/// A model declared under `models:`: an object with properties, a string or number enum, a
/// union of variants (`oneOf`) or a composition of other models (`allOf`).
struct ModelSpec: Hashable, Sendable, SourceLocated {
    /// What a model is made of.
    package enum Kind: Hashable, Sendable {
        /// A JSON object with the given properties, in declaration order.
        case object([PropertySpec])
        /// A JSON string restricted to the given values, in declaration order.
        case stringEnum([EnumCaseSpec])
        /// A JSON number restricted to the given values, in declaration order; the raw type is
        /// `Int`, `Int64` or `Double`, and each case's `value` is the number's canonical spelling.
        case numberEnum(PrimitiveType, [EnumCaseSpec])
        /// A value that is exactly one of several variants (`oneOf`).
        case union(UnionSpec)
        /// The parts of an `allOf` model as written. Validation flattens it into ``object(_:)``,
        /// so that later stages never see this case.
        case composition([CompositionPart])
    }

    /// The name as written in the spec, used in type references.
    var name: String
    /// The Swift type name (UpperCamelCase).
    var swiftName: SwiftIdentifier
    /// The documentation, if any; becomes the doc comment.
    var description: String?
    /// The properties or enum values.
    var kind: Kind
    /// Whether the model reaches itself through its properties (directly or through other models).
    /// Generated code must break such cycles with indirection, for example a class or a box.
    var isRecursive: Bool
    /// Set when the model was synthesized from an endpoint's inline body: the endpoint's name.
    var synthesizedForEndpoint: String?
    /// Where the model's name is written.
    var location: SourceLocation

    /// Creates a model.
    init(name: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, kind: Kind,
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
    var properties: [PropertySpec] {
        if case .object(let properties) = kind { return properties }
        return []
    }

    /// The values of a string or number enum; empty for an object.
    var enumCases: [EnumCaseSpec] {
        switch kind {
        case .stringEnum(let cases), .numberEnum(_, let cases): cases
        case .object, .union, .composition: []
        }
    }

    /// Whether the model is a string or number enum: a scalar with listed values.
    var isEnum: Bool {
        switch kind {
        case .stringEnum, .numberEnum: true
        case .object, .union, .composition: false
        }
    }

    /// The case of an enum model whose raw value is `value` as written in a spec (numbers
    /// compared as numbers, so that `1`, `1.0` and `1e0` are one value of a `Double` enum).
    func enumCase(matching value: String) -> EnumCaseSpec? {
        switch kind {
        case .stringEnum(let cases): return cases.first { $0.value == value }
        case .numberEnum(let raw, let cases):
            if raw == .double {
                guard let number = Double(value) else { return nil }
                return cases.first { Double($0.value) == number }
            }
            guard let number = Int64(value) else { return nil }
            return cases.first { Int64($0.value) == number }
        case .object, .union, .composition: return nil
        }
    }

    /// The union, when the model is one.
    var union: UnionSpec? {
        if case .union(let union) = kind { return union }
        return nil
    }

    /// Whether the model is an enum of `Int` or `Int64` values.
    var isIntegerEnum: Bool {
        if case .numberEnum(let raw, _) = kind { return raw != .double }
        return false
    }

    /// Whether the model is a string enum.
    var isStringEnum: Bool {
        if case .stringEnum = kind { return true }
        return false
    }
}

/// One property of an object model or error schema.
struct PropertySpec: Hashable, Sendable, SourceLocated {
    /// The key as written in the spec.
    var name: String
    /// The key in JSON: `json:` when given, else `name`, converted to snake_case when the
    /// service's `coding.keys` is `snake_case`.
    var jsonKey: String
    /// The Swift property name (lowerCamelCase).
    var swiftName: SwiftIdentifier
    /// The property's type; optional types mean the key may be missing or `null`.
    var type: TypeReference
    /// The documentation, if any.
    var description: String?
    /// Where the property's key is written.
    var location: SourceLocation
    /// Where the property's type is written, for pointing at a misspelled type.
    var typeLocation: SourceLocation?
    /// How a `Date` property's dates are written, when `dates:` overrides the service's `coding.dates`.
    var dates: PropertyDateFormat?
    /// Whether an explicit `null` differs from a missing key (`nullable: true`); only for optional types.
    var isNullable = false
    /// The memberwise initialiser's default, also used when the key is missing (`default:`).
    var defaultValue: LiteralValue?
    /// Whether the server sets the property and request bodies leave it out (`readOnly: true`).
    var isReadOnly = false
    /// Where `default:`'s value is written, for the validator's check of an enum default.
    var defaultLocation: SourceLocation?

    /// Creates a property.
    init(name: String, jsonKey: String? = nil, swiftName: SwiftIdentifier? = nil, type: TypeReference,
                description: String? = nil, location: SourceLocation) {
        self.name = name
        self.jsonKey = jsonKey ?? name
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: name)
        self.type = type
        self.description = description
        self.location = location
    }

    /// Whether the property must be present in JSON.
    var isRequired: Bool { !type.isOptional && defaultValue == nil }

    /// Whether the generated struct needs its own `init(from:)` and `encode(to:)` for this
    /// property, because synthesized coding cannot express it.
    var needsCustomCoding: Bool { needsCustomDecoding || needsCustomEncoding }

    /// Whether synthesized decoding cannot read this property: its own dates, `null` kept
    /// apart from absence, or a default for a missing key.
    var needsCustomDecoding: Bool {
        dates != nil || isNullable || defaultValue != nil || type == .optional(.primitive(.json))
    }

    /// Whether synthesized encoding cannot write this property: its own dates, `null` kept
    /// apart from absence, or a read-only property left out.
    var needsCustomEncoding: Bool { dates != nil || isNullable || isReadOnly }
}

/// How one property's dates are written (`dates:`): the vocabulary of `coding.dates`, plus
/// `date`, a calendar date without time.
enum PropertyDateFormat: String, Hashable, Sendable, CaseIterable {
    /// ISO 8601 without fractional seconds: `2024-05-01T12:00:00Z`.
    case iso8601
    /// ISO 8601 with fractional seconds: `2024-05-01T12:00:00.123Z`.
    case iso8601WithFractionalSeconds
    /// Seconds since 1970 as a number: `1714564800`.
    case epochSeconds
    /// A calendar date, `2024-05-01` (Asana's `due_on`), read as midnight UTC.
    case date
}

/// One value of a string or number enum.
struct EnumCaseSpec: Hashable, Sendable, SourceLocated {
    /// The raw value sent on the wire: the string of a string enum, or the canonical spelling of
    /// a number enum's number (`4`, `0.5`), which is also its Swift literal.
    var value: String
    /// The Swift case name (lowerCamelCase).
    var swiftName: SwiftIdentifier
    /// The documentation, if any.
    var description: String?
    /// Where the value is written.
    var location: SourceLocation

    /// Creates an enum value.
    init(value: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, location: SourceLocation) {
        self.value = value
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: value)
        self.description = description
        self.location = location
    }
}

/// An error schema declared under `errorSchemas:`: the shape of an error response body.
struct ErrorSchemaSpec: Hashable, Sendable, SourceLocated {
    /// Where the error object sits in the response body.
    enum Shape: Hashable, Sendable {
        /// The body is the error object: `{"message": …}` (GitHub, Laravel, RFC 9457 problem+json).
        case object
        /// The error object is the value of one key: `{"error": {"type": …}}` (Stripe).
        case wrapped(key: String)
        /// The body holds an array of error objects under one key: `{"errors": [{…}]}` (JSON:API).
        case array(key: String)
    }

    /// The name as written in the spec, used in `body:` of error mappings.
    var name: String
    /// The Swift type name (UpperCamelCase) of the error object.
    var swiftName: SwiftIdentifier
    /// The documentation, if any.
    var description: String?
    /// Where the error object sits in the body.
    var shape: Shape
    /// The properties of one error object, in declaration order.
    var properties: [PropertySpec]
    /// Where the schema's name is written.
    var location: SourceLocation

    /// Creates an error schema.
    init(name: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, shape: Shape,
                properties: [PropertySpec], location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(typeNamed: name)
        self.description = description
        self.shape = shape
        self.properties = properties
        self.location = location
    }
}

/// Inline schemas of an OpenAPI document that are alike, field for field, and were read as one
/// model (train-travel's three `links` objects are `ResponseLinks`): reported by `courier
/// import`, so that a person sees why a model serves several places.
package struct MergedModelSpec: Hashable, Sendable {
    /// The model's spec name.
    package var name: String
    /// Where each of the alike schemas is, in the order the reader met them.
    package var locations: [SourceLocation]

    /// A merge of the schemas at `locations` into the model `name`.
    init(name: String, locations: [SourceLocation]) {
        self.name = name
        self.locations = locations
    }
}
