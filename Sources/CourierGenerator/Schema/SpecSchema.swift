import Foundation

/// JSON Schemas of the spec and overlay formats, for editors: with a schema, VS Code's YAML
/// extension (and any editor using yaml-language-server) completes keys, shows what each means,
/// and marks unknown keys and wrong values as you type.
///
/// The schemas are written from the same table the parser checks keys against, so they accept
/// every key the parser accepts and no other. They are as loose as the parser about scalars
/// (`timeout: "20"` is as good as `timeout: 20`), so that no spec the parser reads is marked wrong;
/// what only the validator knows (that a type is declared, that a path's parameters are) is left
/// to `courier validate`.
///
/// ```swift
/// let text = SpecSchema.json(for: .spec)
/// try SpecSchema.write(.spec, to: folder.appendingPathComponent(SpecSchema.fileName(for: .spec)))
/// let firstLine = SpecSchema.modeline(schemaPath: "../Schemas/" + SpecSchema.fileName(for: .spec))
/// ```
package enum SpecSchema {
    /// Which format a schema describes.
    package enum Kind: String, CaseIterable, Sendable {
        /// A Courier spec, or a shared file a spec includes.
        case spec
        /// An overlay over an OpenAPI document.
        case overlay
    }

    /// The JSON Schema (draft-07) of `kind`, as pretty-printed JSON ending in a line break. The
    /// same text on every run of the same courier version.
    package static func json(for kind: Kind) -> String {
        SchemaWriter(kind: kind).document().text()
    }

    /// The schema's conventional file name: `courier-spec.schema.json` or
    /// `courier-overlay.schema.json`. Neither is read by `courier generate` as a spec.
    package static func fileName(for kind: Kind) -> String {
        "courier-\(kind.rawValue).schema.json"
    }

    /// The comment that tells yaml-language-server which schema checks the file it is in:
    /// `# yaml-language-server: $schema=<schemaPath>`. A relative `schemaPath` is resolved against
    /// the spec's folder, so a schema kept beside the specs works offline.
    package static func modeline(schemaPath: String) -> String {
        modelinePrefix + schemaPath
    }

    /// The start of every modeline.
    static let modelinePrefix = "# yaml-language-server: $schema="

    /// The schema path the modeline in a text's first 20 lines names, if there is one there.
    package static func schemaPath(inModelineOf text: String) -> String? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(20) where line.hasPrefix(modelinePrefix) {
            return String(line.dropFirst(modelinePrefix.count)).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Writes the schema of `kind` to `url` unless the file already holds exactly that text.
    ///
    /// - Returns: Whether the file was written.
    /// - Throws: When the folder cannot be made or the file cannot be written.
    @discardableResult
    package static func write(_ kind: Kind, to url: URL) throws -> Bool {
        let text = json(for: kind)
        if let existing = try? String(contentsOf: url, encoding: .utf8), existing == text { return false }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
        return true
    }
}

/// Builds a schema document from ``SpecShape``'s table.
struct SchemaWriter {
    let kind: SpecSchema.Kind

    /// The shapes a document of this kind starts from.
    var roots: [SpecShape] {
        switch kind {
        case .spec: [.service, .sharedFile]
        case .overlay: [.overlay]
        }
    }

    /// Every shape reachable from the roots, in the table's order.
    var shapes: [SpecShape] {
        var found = Set<SpecShape>()
        var pending = roots
        while let shape = pending.popLast() {
            guard found.insert(shape).inserted else { continue }
            pending += shape.keys.flatMap { $0.value.shapes }
            if let (_, value) = shape.names { pending += value.shapes }
        }
        return SpecShape.allCases.filter(found.contains)
    }

    func document() -> JSONValue {
        let title = kind == .spec ? "Courier spec" : "Courier overlay"
        let about = kind == .spec
            ? "A Courier spec (docs/SpecFormat.md) or a shared file it includes."
            : "A Courier overlay over an OpenAPI document (docs/OpenAPI.md)."
        let root: (String, JSONValue) = roots.count == 1
            ? ("allOf", .array([reference(roots[0])]))
            : ("anyOf", .array(roots.map(reference)))
        return .object([
            ("$schema", .string("http://json-schema.org/draft-07/schema#")),
            ("title", .string("\(title) (courier \(GeneratorVersion.current))")),
            ("description", .string(about + " Written by `courier schema`; every key the parser accepts, and no other.")),
            root,
            ("definitions", .object(shapes.map { ($0.rawValue, definition(of: $0)) })),
        ])
    }

    func reference(_ shape: SpecShape) -> JSONValue {
        .object([("$ref", .string("#/definitions/\(shape.rawValue)"))])
    }

    func definition(of shape: SpecShape) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string("object")),
            ("description", .string(shape.summary)),
            ("properties", .object(shape.keys.map { ($0.name, schema(of: $0)) })),
        ]
        if !shape.required.isEmpty { members.append(("required", .array(shape.required.map(JSONValue.string)))) }
        if let (names, value) = shape.names, let pattern = names.pattern {
            members.append(("patternProperties", .object([(pattern, described(schema(of: value), names.summary))])))
        }
        members.append(("additionalProperties", .boolean(false)))
        return .object(members)
    }

    func schema(of key: SpecKey) -> JSONValue {
        var extra: [(String, JSONValue)] = [("description", .string(key.summary))]
        if let value = key.defaultValue { extra.append(("default", value)) }
        return adding(extra, to: schema(of: key.value))
    }

    /// `schema` with `members` added; a bare `$ref` is wrapped in `allOf`, because draft-07 ignores
    /// the siblings of `$ref`.
    func adding(_ members: [(String, JSONValue)], to schema: JSONValue) -> JSONValue {
        guard case .object(let existing) = schema else { return schema }
        if existing.contains(where: { $0.0 == "$ref" }) {
            return .object(members + [("allOf", .array([schema]))])
        }
        return .object(members + existing)
    }

    func described(_ schema: JSONValue, _ summary: String) -> JSONValue {
        adding([("description", .string(summary))], to: schema)
    }

    func schema(of value: SpecValue) -> JSONValue {
        switch value {
        case .text:
            return .object([("type", .array([.string("string"), .string("number"), .string("boolean")]))])
        case .type:
            // Completion offers the built-in types; any name is still accepted (a model's, or
            // `True`, which YAML reads as a boolean).
            return .object([("anyOf", .array([
                .object([("enum", .array(PrimitiveType.allCases.map { .string($0.rawValue) }))]),
                .object([("type", .array([.string("string"), .string("boolean")]))]),
            ]))])
        case .url:
            return .object([("type", .string("string")), ("pattern", .string("^[hH][tT][tT][pP][sS]?://"))])
        case .choice(let words):
            return .object([("enum", .array(words.map(JSONValue.string)))])
        case .flag:
            return .object([("anyOf", .array([
                .object([("type", .string("boolean"))]),
                .object([("type", .string("string")), ("pattern", .string("^(true|false)$"))]),
            ]))])
        case .whole(let range):
            var number: [(String, JSONValue)] = [("type", .string("integer")), ("minimum", .integer(range.lowerBound))]
            if range.upperBound != Int.max { number.append(("maximum", .integer(range.upperBound))) }
            return .object([("anyOf", .array([
                .object(number),
                .object([("type", .string("string")), ("pattern", .string(Self.wholeNumberPattern))]),
            ]))])
        case .seconds(let allowingZero):
            return .object([("anyOf", .array([
                .object([("type", .string("number")), (allowingZero ? "minimum" : "exclusiveMinimum", .integer(0))]),
                .object([("type", .string("string")), ("pattern", .string(Self.numberPattern))]),
            ]))])
        case .fraction:
            return .object([("anyOf", .array([
                .object([("type", .string("number")), ("exclusiveMinimum", .integer(0)), ("maximum", .integer(1))]),
                .object([("type", .string("string")), ("pattern", .string(Self.numberPattern))]),
            ]))])
        case .word(let word):
            // `false` is a boolean to an editor and text to the parser: both are the word.
            let values: [JSONValue] = word == "false" || word == "true" ? [.boolean(word == "true"), .string(word)] : [.string(word)]
            return .object([("enum", .array(values))])
        case .shape(let shape):
            return reference(shape)
        case .names(let names, let value):
            var members: [(String, JSONValue)] = [("type", .string("object"))]
            var rules: [JSONValue] = []
            if let pattern = names.pattern { rules.append(.object([("pattern", .string(pattern))])) }
            if !names.excluded.isEmpty { rules.append(.object([("not", .object([("enum", .array(names.excluded.map(JSONValue.string)))]))])) }
            // Each key's rule is described once, where an editor shows it for the key.
            let keyRule: [(String, JSONValue)] = switch rules.count {
            case 0: []
            case 1: if case .object(let rule) = rules[0] { rule } else { [] }
            default: [("allOf", .array(rules))]
            }
            members.append(("propertyNames", .object([("description", .string("Each key: " + names.summary))] + keyRule)))
            members.append(("additionalProperties", schema(of: value)))
            return .object(members)
        case .list(let item):
            return .object([("type", .string("array")), ("items", schema(of: item))])
        case .oneOrList(let item):
            let single = schema(of: item)
            return .object([("anyOf", .array([single, .object([("type", .string("array")), ("items", single)])]))])
        case .either(let values):
            // An alternative that is itself only a choice of alternatives joins this one.
            let alternatives = values.map { schema(of: $0) }.flatMap { alternative -> [JSONValue] in
                if case .object(let members) = alternative, members.count == 1, members[0].0 == "anyOf", case .array(let inner) = members[0].1 {
                    return inner
                }
                return [alternative]
            }
            return .object([("anyOf", .array(alternatives))])
        }
    }

    /// What `Int(_:)` reads: digits with an optional sign.
    static let wholeNumberPattern = "^[+-]?[0-9]+$"
    /// What `Double(_:)` reads as a finite number: decimal or hexadecimal, with an exponent.
    static let numberPattern = "^[+-]?(([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?|0[xX]([0-9a-fA-F]+[.]?[0-9a-fA-F]*|[.][0-9a-fA-F]+)([pP][+-]?[0-9]+)?)$"
}

extension SpecValue {
    /// The shapes this value names directly or inside lists, names and alternatives.
    var shapes: [SpecShape] {
        switch self {
        case .shape(let shape): [shape]
        case .names(_, let value), .list(let value), .oneOrList(let value): value.shapes
        case .either(let values): values.flatMap(\.shapes)
        default: []
        }
    }
}
