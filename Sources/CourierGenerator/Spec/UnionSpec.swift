/// A `oneOf` model: a value that is exactly one of several variants (Discord's channels,
/// Stripe's payment sources, GitHub's validation `errors` items).
struct UnionSpec: Hashable, Sendable {
    /// The variants, in the order written; without a discriminator, decoding tries them in this order.
    var variants: [UnionVariantSpec]
    /// The property that names the variant, if the union has one.
    var discriminator: UnionDiscriminatorSpec?

    /// Creates a union.
    init(variants: [UnionVariantSpec], discriminator: UnionDiscriminatorSpec?) {
        self.variants = variants
        self.discriminator = discriminator
    }
}

/// One variant of a union: a type and the name of its Swift case.
struct UnionVariantSpec: Hashable, Sendable, SourceLocated {
    /// The variant's type.
    var type: TypeReference
    /// The Swift case name (lowerCamelCase): `case:` when given, else derived from the type.
    var swiftName: SwiftIdentifier
    /// The documentation, if any.
    var description: String?
    /// The discriminator values that select this variant, set by validation from the mapping
    /// (or from the model name when the mapping does not name the variant).
    var tags: [UnionTag]
    /// Where the variant is written.
    var location: SourceLocation

    /// Creates a variant.
    init(type: TypeReference, swiftName: SwiftIdentifier? = nil, description: String? = nil, tags: [UnionTag] = [],
                location: SourceLocation) {
        self.type = type
        self.swiftName = swiftName ?? UnionVariantSpec.caseName(for: type)
        self.description = description
        self.tags = tags
        self.location = location
    }

    /// The case name a variant takes when `case:` is not given: the type's name in
    /// lowerCamelCase (`TextChannel` → `textChannel`, `String` → `string`, `[Tag]` → `tagArray`).
    static func caseName(for type: TypeReference) -> SwiftIdentifier {
        SwiftIdentifier(memberNamed: words(of: type))
    }

    private static func words(of type: TypeReference) -> String {
        switch type {
        case .primitive(let primitive): primitive.rawValue
        case .named(let name): name
        case .array(let element): words(of: element) + " Array"
        case .map(let value): words(of: value) + " Map"
        case .optional(let wrapped): "Optional " + words(of: wrapped)
        }
    }
}

/// The discriminator of a union: the property every variant carries, and which value picks which variant.
struct UnionDiscriminatorSpec: Hashable, Sendable, SourceLocated {
    /// One entry of `mapping:`: a value and the variant it picks, as written.
    struct MappingEntry: Hashable, Sendable, SourceLocated {
        /// The value as written (a YAML key is always text).
        var value: String
        /// Whether the key was written as a plain (unquoted) integer, such as `0` rather than `"0"`.
        var isPlainInteger: Bool
        /// The variant's model name or case name.
        var variant: String
        /// Where the value is written.
        var location: SourceLocation
        /// Where the variant is written.
        var variantLocation: SourceLocation

        /// Creates a mapping entry.
        init(value: String, isPlainInteger: Bool, variant: String, location: SourceLocation, variantLocation: SourceLocation) {
            self.value = value
            self.isPlainInteger = isPlainInteger
            self.variant = variant
            self.location = location
            self.variantLocation = variantLocation
        }
    }

    /// The JSON key of the property, exactly as sent.
    var property: String
    /// The explicit mapping, in the order written; variants it does not name are picked by their model name.
    var mapping: [MappingEntry]
    /// Where the discriminator is written.
    var location: SourceLocation

    /// Creates a discriminator.
    init(property: String, mapping: [MappingEntry], location: SourceLocation) {
        self.property = property
        self.mapping = mapping
        self.location = location
    }
}

/// A discriminator value that selects a variant, typed as it appears in JSON.
enum UnionTag: Hashable, Sendable {
    /// A JSON string, such as Stripe's `"card"`.
    case string(String)
    /// A JSON integer, such as Discord's channel `type` `0`.
    case integer(Int64)
}

/// One part of an `allOf` model.
enum CompositionPart: Hashable, Sendable {
    /// Another model, by its spec name, and where the name is written.
    case model(String, location: SourceLocation)
    /// Properties declared in place.
    case properties([PropertySpec])
}
