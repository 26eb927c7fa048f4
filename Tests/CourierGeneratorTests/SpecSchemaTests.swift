@testable import CourierGenerator
import Foundation
import Testing

/// The schemas and the parser accept the same keys.
///
/// The parser's key checks take their lists only from ``SpecShape`` (``NodeReader/fields`` has no
/// other way to be told a key), and the schema is written from the same table; these tests check
/// both ends against each other through what each actually does:
///
/// - the written schema, read back as JSON, lists exactly the table's keys for every mapping;
/// - for every mapping in each schema, a document is built that puts that mapping where the
///   schema says it goes, holding every key the *written schema* lists there plus one key it does
///   not; the real parser must report the one key as unknown (so it checks keys at that place)
///   and no other (so it accepts every key the schema offers). A key the parser accepted beyond
///   the schema's would need a `fields` call that is not given a shape, which the last test
///   looks for in the parser's source.
@Suite("Spec schema matches the parser")
struct SpecSchemaTests {
    static let probeKey = "courierProbeKey"

    /// The written schema of `kind`, parsed back.
    static func writtenSchema(_ kind: SpecSchema.Kind) throws -> [String: Any] {
        let data = Data(SpecSchema.json(for: kind).utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Both schemas' text, for the order of keys.
    static let orderText = SpecSchema.json(for: .spec) + SpecSchema.json(for: .overlay)

    /// The keys the written schema lists for one mapping, in order, and its required keys.
    static func schemaKeys(_ schema: [String: Any], _ shape: SpecShape) throws -> (keys: [String], required: [String]) {
        let definitions = try #require(schema["definitions"] as? [String: Any])
        let definition = try #require(definitions[shape.rawValue] as? [String: Any], "no definition for \(shape)")
        #expect(definition["additionalProperties"] as? Bool == false, "\(shape) accepts any key")
        let properties = try #require(definition["properties"] as? [String: Any])
        // JSONSerialization forgets the order; the text keeps it.
        let text = orderText
        let keys = properties.keys.sorted { text.range(of: "\"\($0)\"")!.lowerBound < text.range(of: "\"\($1)\"")!.lowerBound }
        return (keys, definition["required"] as? [String] ?? [])
    }

    @Test("The written schemas list exactly the table's keys, and every mapping of the table is in one of them")
    func schemasListTheTable() throws {
        var covered = Set<SpecShape>()
        for kind in SpecSchema.Kind.allCases {
            let schema = try Self.writtenSchema(kind)
            let definitions = try #require(schema["definitions"] as? [String: Any])
            let shapes = SchemaWriter(kind: kind).shapes
            #expect(Set(definitions.keys) == Set(shapes.map(\.rawValue)))
            for shape in shapes {
                let (keys, required) = try Self.schemaKeys(schema, shape)
                #expect(Set(keys) == Set(shape.allowed), "\(kind) schema, \(shape)")
                #expect(Set(required) == Set(shape.required), "\(kind) schema, \(shape)")
                for key in shape.keys {
                    let properties = (definitions[shape.rawValue] as? [String: Any])?["properties"] as? [String: Any]
                    let property = properties?[key.name] as? [String: Any]
                    #expect((property?["description"] as? String)?.isEmpty == false, "\(shape).\(key.name) has no description")
                }
            }
            covered.formUnion(shapes)
        }
        #expect(covered == Set(SpecShape.allCases), "not in any schema: \(Set(SpecShape.allCases).subtracting(covered))")
    }

    @Test("The parser accepts every key the schema lists, at every place the schema lists it, and reports any other", arguments: SpecSchema.Kind.allCases)
    func parserAcceptsTheSchemasKeys(kind: SpecSchema.Kind) throws {
        let schema = try Self.writtenSchema(kind)
        let probes = Probes(kind: kind).all()
        #expect(Set(probes.map(\.shape)) == Set(SchemaWriter(kind: kind).shapes), "a mapping of the schema was not reached")
        for probe in probes {
            let keys = try Self.schemaKeys(schema, probe.shape).keys
            let document = probe.document(with: keys)
            let messages = try Self.parse(document, kind: kind)
            let unknown = messages.filter { $0.contains("unknown key '") }
            let what = "\(kind) schema, \(probe.shape) at \(probe.path.joined(separator: "."))"
            #expect(unknown.filter { $0.contains("'\(Self.probeKey)'") }.count == 1,
                    "\(what): the parser does not check the keys here\n\(document.text())\n\(messages.joined(separator: "\n"))")
            #expect(unknown.filter { !$0.contains("'\(Self.probeKey)'") }.isEmpty,
                    "\(what): the parser rejects keys the schema offers: \(unknown)\n\(document.text())")
        }
    }

    @Test("Every key check in the parser is given a shape of the table, never a list of its own")
    func parserCallSitesUseTheTable() throws {
        let folder = packageRoot.appendingPathComponent("Sources/CourierGenerator")
        let walker = try #require(FileManager.default.enumerator(atPath: folder.path))
        var checked = 0
        var comparisons = 0
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasPrefix("Schema/") else { continue }
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            // `allowed: [...]` was how a key list reached `fields`; nothing may pass one again.
            for call in text.components(separatedBy: "fields(of:").dropFirst() {
                checked += 1
                // The arguments before `owner:`, which every call passes after the keys.
                let arguments = call.range(of: "owner:").map { call[..<$0.lowerBound] } ?? call.prefix(300)
                #expect(arguments.contains("shape:") && !arguments.contains("allowed:"),
                        "\(path): a fields(of:) call not given a shape: \(arguments.prefix(160))")
            }
            if path != "Parsing/NodeReader.swift" {
                #expect(!text.contains("func fields("), "\(path) declares another way to check keys")
            }
            // Outside `fields`, the parser looks at keys only to choose a branch (a mapping with
            // `schemes` is named auth schemes): each key it compares with must be one the table has.
            let comparison = try NSRegularExpression(pattern: #"(?:key(?:\.string)?|\$0\.key) == "([^"]*)""#)
            for match in comparison.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let key = String(text[range])
                comparisons += 1
                let known = SpecShape.allCases.contains { $0.accepts(key) } || SpecNames.errorStatus.accepts(key)
                #expect(known, "\(path) compares a key with '\(key)', which no mapping of the table has")
            }
        }
        #expect(checked >= 40, "found only \(checked) key checks")
        #expect(comparisons >= 4, "found only \(comparisons) comparisons with keys")
    }

    // MARK: Parsing

    static func parse(_ document: JSONValue, kind: SpecSchema.Kind) throws -> [String] {
        guard case .document(let root?) = YAMLSource.compose(document.text(), path: "probe.yaml") else {
            Issue.record("the probe is not YAML")
            return []
        }
        var parser = SpecFileParser(path: "probe.yaml")
        switch kind {
        case .spec: _ = parser.parse(root: root)
        case .overlay: _ = parser.parseOverlay(root: root)
        }
        let diagnostics = parser.reader.diagnostics
        #expect(diagnostics.suppressedErrorCount == 0)
        return diagnostics.diagnostics.map(\.message)
    }
}

/// One mapping of a schema placed where the schema puts it, in a document the parser reads as far
/// as that place.
struct Probe {
    var shape: SpecShape
    /// The keys from the root to the mapping, for messages.
    var path: [String]
    /// The document with the mapping's contents in place of the probe.
    var wrap: (JSONValue) -> JSONValue

    /// The document with every one of `keys`, each with a value the parser can read, and one key
    /// the schema does not list.
    func document(with keys: [String]) -> JSONValue {
        var members: [(String, JSONValue)] = keys.map { name in
            (name, shape.key(name).map { Probes.sample($0.value) } ?? .string("Probe"))
        }
        if let (names, value) = shape.names { members.append((names.example, Probes.sample(value))) }
        members.append((SpecSchemaTests.probeKey, .string("Probe")))
        return wrap(.object(members))
    }
}

/// Finds a way from a schema's root to each of its mappings, by the table.
struct Probes {
    let kind: SpecSchema.Kind

    func all() -> [Probe] {
        var found: [Probe] = []
        var seen = Set<SpecShape>()
        var pending: [Probe] = SchemaWriter(kind: kind).roots.map { Probe(shape: $0, path: [$0.rawValue], wrap: { $0 }) }
        while !pending.isEmpty {
            let probe = pending.removeFirst()
            guard seen.insert(probe.shape).inserted else { continue }
            found.append(probe)
            var steps: [(String, SpecValue)] = probe.shape.keys.map { ($0.name, $0.value) }
            if let (names, value) = probe.shape.names { steps.append((names.example, value)) }
            for (step, value) in steps {
                // In the table's order: the first way to a mapping is its plainest (an enum value
                // through a model's `enum`, not through a union's, where `enum` is an error).
                for child in value.shapes where !seen.contains(child) && !pending.contains(where: { $0.shape == child }) {
                    let parent = probe
                    pending.append(Probe(shape: child, path: probe.path + [step]) { inner in
                        guard let placed = Self.place(inner, at: child, in: value) else { return inner }
                        var members = Self.skeleton(parent.shape, step: step)
                        members.append((step, placed))
                        return parent.wrap(.object(members))
                    })
                }
            }
        }
        return found
    }

    /// `inner` where `value` holds `shape`: under a name, as a list's item, as one alternative.
    static func place(_ inner: JSONValue, at shape: SpecShape, in value: SpecValue) -> JSONValue? {
        switch value {
        case .shape(let candidate): return candidate == shape ? inner : nil
        case .names(let names, let item): return place(inner, at: shape, in: item).map { .object([(name(names), $0)]) }
        case .list(let item), .oneOrList(let item): return place(inner, at: shape, in: item).map { .array([$0]) }
        case .either(let values): return values.lazy.compactMap { place(inner, at: shape, in: $0) }.first
        default: return nil
        }
    }

    /// The keys a mapping needs around `step` for the parser to read `step`: its required keys,
    /// and what makes the parser take the branch that reads `step`.
    static func skeleton(_ shape: SpecShape, step: String) -> [(String, JSONValue)] {
        var members = shape.keys.filter { $0.isRequired && $0.name != step }.map { ($0.name, sample($0.value)) }
        switch shape {
        case .errorMapping:
            // The sample status is 200, which only a mapping with `when` may use; `cases` and
            // `otherwise` are read only beside a `discriminator`.
            if step != "when" { members.append(("when", .object([("field", .string("ok"))]))) }
            if step == "cases" || step == "otherwise" { members.append(("discriminator", .string("code"))) }
        case .composedModel:
            if step != "oneOf" && step != "allOf" { members.append(("oneOf", .array([.string("String")]))) }
        default:
            break
        }
        return members
    }

    /// A key for a mapping of names: the example, but 200 for a status of `errors:`, which lets a
    /// mapping's `when` be read too (see ``skeleton(_:step:)``).
    static func name(_ names: SpecNames) -> String {
        names.pattern == SpecNames.errorStatus.pattern ? "200" : names.example
    }

    /// A value the parser reads without complaint where it can, so that it goes on to what is inside.
    static func sample(_ value: SpecValue) -> JSONValue {
        switch value {
        case .text: return .string("Probe")
        case .type: return .string("String")
        case .url: return .string("https://probe.example.com")
        case .choice(let words): return .string(words[0])
        case .flag: return .boolean(true)
        case .whole(let range): return .integer(range.lowerBound)
        case .seconds: return .integer(1)
        case .fraction: return .number(0.5)
        case .word(let word): return .string(word)
        case .shape(let shape): return .object(skeleton(shape, step: ""))
        case .names(let names, let item): return .object([(name(names), sample(item))])
        case .list(let item): return .array([sample(item)])
        case .oneOrList(let item): return sample(item)
        case .either(let values): return sample(values[0])
        }
    }
}

/// The schemas kept in `Schemas/` and the modelines of the example specs.
@Suite("Committed schemas and modelines")
struct CommittedSchemaTests {
    @Test("Schemas/ holds what this courier writes", arguments: SpecSchema.Kind.allCases)
    func committedSchemaIsCurrent(kind: SpecSchema.Kind) throws {
        let file = packageRoot.appendingPathComponent("Schemas").appendingPathComponent(SpecSchema.fileName(for: kind))
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(committed == SpecSchema.json(for: kind), """
            Schemas/\(SpecSchema.fileName(for: kind)) is stale; write it again with \
            swift run courier schema\(kind == .overlay ? " --overlay" : "") --output Schemas/\(SpecSchema.fileName(for: kind))
            """)
    }

    @Test("Every spec in Specs/ names the committed spec schema in its modeline, the reference overlay the overlay schema")
    func examplesNameTheSchema() throws {
        let specs = try SchemaValidationTests.specFiles().filter { $0.hasPrefix("Specs/") }
        #expect(specs.count >= 9)
        let schema = packageRoot.appendingPathComponent("Schemas/courier-spec.schema.json").standardizedFileURL
        for path in specs {
            let url = packageRoot.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.hasPrefix(SpecSchema.modelinePrefix), "\(path) does not start with a modeline")
            let named = try #require(SpecSchema.schemaPath(inModelineOf: text), "\(path) has no modeline")
            #expect(url.deletingLastPathComponent().appendingPathComponent(named).standardizedFileURL == schema,
                    "\(path) names \(named), not Schemas/courier-spec.schema.json")
        }
        // The reference overlay shows an overlay's modeline.
        let overlay = packageRoot.appendingPathComponent("Tests/References/OpenAPIOverlay/overlay.yaml")
        let named = try #require(SpecSchema.schemaPath(inModelineOf: try String(contentsOf: overlay, encoding: .utf8)))
        #expect(overlay.deletingLastPathComponent().appendingPathComponent(named).standardizedFileURL
                == packageRoot.appendingPathComponent("Schemas/courier-overlay.schema.json").standardizedFileURL)
    }

    @Test("A modeline names its schema, and the path is read back")
    func modelineRoundTrip() {
        let line = SpecSchema.modeline(schemaPath: "../Schemas/courier-spec.schema.json")
        #expect(line == "# yaml-language-server: $schema=../Schemas/courier-spec.schema.json")
        #expect(SpecSchema.schemaPath(inModelineOf: "# A spec\n" + line + "\nservice: A\n") == "../Schemas/courier-spec.schema.json")
        #expect(SpecSchema.schemaPath(inModelineOf: "service: A\n") == nil)
        #expect(SpecSchema.fileName(for: .overlay) == "courier-overlay.schema.json")
    }
}
