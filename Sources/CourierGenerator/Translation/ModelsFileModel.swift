// View models only: see FileModels.swift for what the templates may assume of them.

/// `<Prefix>Models.swift`: the models, string enums and error schemas.
struct ModelsFileModel: TemplateModel {
    /// The version and spec path for the header.
    var version: String
    /// The spec path for the header.
    var specPath: String
    /// The access level of every declaration: `public`, `package` or `internal`.
    var access = "public"
    /// Object models and error schemas, as structs, in declaration order.
    var structs: [StructModel]
    /// String enums, in declaration order.
    var enums: [StringEnumModel]
    /// Unions (`oneOf` models), in declaration order.
    var unions: [UnionModel]
    /// Envelopes that hold wrapped or arrayed error objects.
    var envelopes: [EnvelopeModel]
    /// Whether a recursive model needs the `Indirect` box.
    var needsIndirect: Bool
    /// `Equatable` or `Hashable`, which structs, unions and the `Indirect` box adopt; `nil` for neither.
    var equality: String?

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "access": \.access, "version": \.version, "specPath": \.specPath, "structs": \.structs, "enums": \.enums, "unions": \.unions,
        "envelopes": \.envelopes, "needsIndirect": \.needsIndirect, "equality": \.equality,
    ]
}

/// A `Codable` struct.
struct StructModel: TemplateModel {
    /// The doc comment, indented for top level.
    var doc: String?
    /// The type name, escaped.
    var name: String
    /// The properties.
    var properties: [PropertyModel]
    /// The coding keys; one per property, in property order.
    var codingKeys: [CodingKeyModel]
    /// The initialiser's parameters, one per property.
    var parameters: [ParameterModel]
    /// The doc comment of the initialiser.
    var initDoc: String
    /// Whether the initialiser's parameters fit on its line.
    var isInline: Bool
    /// Its own `init(from:)` and `encode(to:)`, when a property needs what synthesized coding
    /// cannot do (`dates:`, `nullable:`, `default:`, `readOnly:`, `JSON?`); `nil` otherwise, so
    /// that v1 models stay exactly as they were.
    var customCoding: CustomCodingModel?

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "properties": \.properties, "codingKeys": \.codingKeys,
        "initDoc": \.initDoc, "hasProperties": \.hasProperties, "isInline": \.isInline,
        "parameters": \.parameters, "customCoding": \.customCoding, "hasCodingKeys": \.hasCodingKeys,
        "codingKeyLines": \.codingKeyLines,
    ]

    /// Whether the struct has properties (an empty struct gets a plain `init()`).
    var hasProperties: Bool { !properties.isEmpty }
    /// Whether the struct declares `CodingKeys`: not when Swift's synthesized ones would be the
    /// same, every key being its property's name and the coding synthesized.
    var hasCodingKeys: Bool { customCoding != nil || codingKeys.contains { $0.rawValue != nil } }
    /// The cases of `CodingKeys` as lines, in property order, as many to a line as fit.
    var codingKeyLines: [CodingLineModel] {
        var lines: [CodingLineModel] = []
        var line = ""
        for key in codingKeys {
            let item = key.name + (key.rawValue.map { " = " + $0 } ?? "")
            if line.isEmpty {
                line = "case " + item
            } else if SpecTranslator.fitsOnOneLine("        \(line), \(item)") {
                line += ", " + item
            } else {
                lines.append(CodingLineModel(text: line))
                line = "case " + item
            }
        }
        if !line.isEmpty { lines.append(CodingLineModel(text: line)) }
        return lines
    }
}

/// A struct's hand-written coding: how each property is read and written, in property order.
struct CustomCodingModel: TemplateModel {
    /// One per property.
    var properties: [PropertyCodingModel]

    /// Whether the struct writes its own `init(from:)`; otherwise Swift synthesizes it.
    var decodesItself = true
    /// Whether the struct writes its own `encode(to:)`; otherwise Swift synthesizes it.
    var encodesItself = true
    /// Whether some property is read-only, so that `encode(to:)` asks whether it writes a
    /// request (`RequestEncoding.isRequest`) and leaves such properties out of one.
    var leavesOutReadOnly = false

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "codedProperties": \.properties, "leavesOutReadOnly": \.leavesOutReadOnly,
        "decodesItself": \.decodesItself, "encodesItself": \.encodesItself,
    ]
}

/// How `init(from:)` reads one property and `encode(to:)` writes it, as the `models` template
/// lays out the two statements: `self.<target> = try container.<decodeMethod>(…)` and
/// `try container.<encodeMethod>(self.<target>, …)`.
struct PropertyCodingModel: TemplateModel {
    /// What is assigned and written: the property, or for a boxed one its storage (`_next`).
    var target: String
    /// The coding key's case name.
    var key: String
    /// The keyed container's method that reads it: `decode`, `decodeIfPresent`, `decodeNullable`,
    /// `decodeKeepingNull`, `decodeDate`, `decodeDateIfPresent` or `decodeNullableDate`.
    var decodeMethod: String
    /// The keyed container's method that writes it: `encode`, `encodeIfPresent`, `encodeDate`,
    /// `encodeDateIfPresent` or `encodeNullableDate`.
    var encodeMethod: String
    /// The type read, such as `Int` or `Indirect<Node>`; `nil` for the date methods, which take
    /// ``dateFormat`` instead.
    var type: String?
    /// The runtime's date format, such as `.epochSeconds`, for the date methods.
    var dateFormat: String?
    /// The literal a missing key decodes as, such as `15`.
    var defaultValue: String?
    /// Whether the property is read-only: written only when the encoder does not write a request.
    var isReadOnly: Bool

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "target": \.target, "key": \.key, "decodeMethod": \.decodeMethod, "encodeMethod": \.encodeMethod,
        "type": \.type, "dateFormat": \.dateFormat, "defaultValue": \.defaultValue, "isReadOnly": \.isReadOnly,
    ]
}

/// One line of a struct's `CodingKeys`.
struct CodingLineModel: TemplateModel {
    /// The statement.
    var text: String

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = ["text": \.text]
}

/// A stored property of a struct, possibly kept in an `Indirect` box.
struct PropertyModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String?
    /// The property name, escaped.
    var name: String
    /// The Swift type.
    var type: String
    /// The name of the initialiser's argument inside its body: the property name, or
    /// `selfValue` for a property called `self`.
    var argument: String
    /// For a boxed property: the storage's name and what it boxes.
    var boxed: BoxedStorage?

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "type": \.type, "argument": \.argument, "boxed": \.boxed,
    ]
}

/// The out-of-line storage of a property whose type leads back to its own model.
struct BoxedStorage: TemplateModel {
    /// The stored property's name, such as `_parent`.
    var storageName: String
    /// The type the box holds, such as `Category` (the property's type without its optionality).
    var valueType: String
    /// Whether the property is optional, so that the storage is an optional box.
    var isOptional: Bool

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "storageName": \.storageName, "valueType": \.valueType, "isOptional": \.isOptional,
    ]
}

/// One case of a `CodingKeys` enum.
struct CodingKeyModel: TemplateModel {
    /// The case name: the stored property's name, escaped.
    var name: String
    /// The JSON key as a Swift string literal, when it differs from the case name.
    var rawValue: String?

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = ["name": \.name, "rawValue": \.rawValue]
}

/// A string or number enum with a fallback case for values the spec does not list.
struct StringEnumModel: TemplateModel {
    /// The doc comment.
    var doc: String?
    /// The type name, escaped.
    var name: String
    /// The listed values.
    var cases: [EnumValueModel]
    /// The fallback case's name, escaped (`unknown` unless a listed value takes it).
    var fallback: String
    /// The raw value's Swift type: `String`, `Int`, `Int64` or `Double`.
    var rawType: String = "String"

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "cases": \.cases, "fallback": \.fallback, "rawType": \.rawType,
    ]
}

/// One listed value of a string enum.
struct EnumValueModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String?
    /// The case name, escaped.
    var name: String
    /// The raw value as a Swift literal (a string literal, or a number for a number enum).
    var literal: String

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "name": \.name, "literal": \.literal]
}

/// The body of a wrapped or arrayed error schema, decoded to reach the error object(s).
struct EnvelopeModel: TemplateModel {
    /// The envelope's type name.
    var name: String
    /// What the envelope holds: the error object or an array of them.
    var valueType: String
    /// The JSON key as a Swift string literal.
    var keyLiteral: String
    /// The error schema's name, for the doc comment.
    var schemaName: String

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "name": \.name, "valueType": \.valueType, "keyLiteral": \.keyLiteral, "schemaName": \.schemaName,
    ]
}

/// A union (`oneOf` model): an enum with one case per variant and a fallback that keeps the raw JSON.
struct UnionModel: TemplateModel {
    /// The doc comment.
    var doc: String?
    /// How the variant is chosen, for the doc comment: "chosen by `type`" or "tried in order".
    var how: String
    /// The type name, escaped.
    var name: String
    /// Whether a variant leads back to the union, so that the enum must be `indirect`.
    var isIndirect: Bool
    /// The variants, in declaration order.
    var variants: [UnionVariantModel]
    /// The fallback case's name (`unknown` unless a variant takes it).
    var fallback: String
    /// Whether a discriminator property picks the variant.
    var isDiscriminated: Bool
    /// The discriminator's JSON key as a Swift string literal.
    var keyLiteral: String?
    /// Whether some variant is attempted only after a shape check, so that the shape is read.
    var hasShapeChecks: Bool { variants.contains { $0.condition != nil } }
    /// Whether two or more variants are objects, attempted best fit first
    /// (`UnionShape.order(of:)`) rather than in declaration order.
    var ranksObjects: Bool { !isDiscriminated && variants.filter(\.isObject).count > 1 }

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "how": \.how, "name": \.name, "isIndirect": \.isIndirect, "variants": \.variants,
        "fallback": \.fallback, "isDiscriminated": \.isDiscriminated, "keyLiteral": \.keyLiteral,
        "hasShapeChecks": \.hasShapeChecks, "ranksObjects": \.ranksObjects,
    ]
}

/// One variant of a union.
struct UnionVariantModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String?
    /// The case name, escaped.
    var name: String
    /// The Swift type of the associated value.
    var type: String
    /// The `switch` patterns of the discriminator values that pick it, such as `.integer(0)?`.
    var patterns: String
    /// The shape test a value must pass before the variant is attempted (no discriminator);
    /// `nil` when any shape may fit (a date, which may be a string or a number; a union).
    var condition: String?
    /// The discriminator value to write after the variant, when its model does not declare it.
    var tagToWrite: String?
    /// The variant's position among the union's, from 0.
    var index: Int
    /// What values the variant fits, as a `UnionShape.Fit` expression (`.kind(.string)`,
    /// `.object(required: ["id"], known: ["id", "name"])`).
    var fit: String
    /// Whether the variant is an object model.
    var isObject: Bool

    /// The fields the `models` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "type": \.type, "patterns": \.patterns, "condition": \.condition,
        "tagToWrite": \.tagToWrite, "index": \.index, "fit": \.fit,
    ]
}
