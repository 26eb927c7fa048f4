@testable import CourierGenerator
import CourierTestSupport
import Foundation
import SyntheticSpecs
import Testing
import Yams

/// Runs a real JSON Schema validator (Python's `jsonschema`, Draft 7) over every spec and overlay
/// the project keeps and every whole spec or overlay in the documentation's YAML examples, against
/// the schemas `courier schema` prints: the schemas must accept everything the parser accepts.
///
/// The YAML is read with Yams and typed as yaml-language-server types it (YAML 1.2's core schema:
/// `20` is a number, `true` a boolean, `~` null), then handed to Python as JSON, so PyYAML is not
/// needed. Skipped, saying so, where `python3` or its `jsonschema` module is missing.
@Suite("Schemas accept every spec", .enabled("needs python3 with jsonschema (python3 -m pip install jsonschema)") {
    await jsonSchemaValidatorIsInstalled()
})
struct SchemaValidationTests {
    /// One document to check, and what it was read from.
    struct Instance {
        var name: String
        var kind: SpecSchema.Kind
        var json: JSONValue
    }

    @Test("Every spec, overlay and whole documentation example validates against its schema")
    func everyKnownSpecValidates() async throws {
        var instances: [Instance] = []
        var skippedExamples = 0
        var placedExamples = 0
        for path in try Self.specFiles() {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
            guard let instance = try Self.instance(text, name: path) else { continue }
            instances.append(instance)
        }
        let fileCount = instances.count
        // Specs the project writes itself: synthetic ones (every feature the benchmarks use, in
        // many combinations) and `courier import`'s, of both OpenAPI inputs the references keep.
        for seed in [1, 2, 3] as [UInt64] {
            let synthetic = try SyntheticSpecGenerator(SyntheticSpecConfiguration(endpoints: 40, seed: seed)).generate()
            instances.append(try #require(try Self.instance(synthetic.yaml, name: "synthetic spec, seed \(seed)")))
        }
        for input in ["OpenAPIPetstore/openapi.yaml", "OpenAPIOverlay/overlay.yaml"] {
            let url = packageRoot.appendingPathComponent("Tests/References/\(input)")
            let imported = SpecImporter(schemaPath: SpecSchema.fileName(for: .spec)).importSpec(at: url, displayPath: input)
            let text = try #require(imported.text, "\(imported.diagnostics.renderedLines)")
            instances.append(try #require(try Self.instance(text, name: "courier import \(input)")))
        }
        let generatedCount = instances.count - fileCount
        for page in ["docs/SpecFormat.md", "docs/OpenAPI.md"] {
            let examples = try Self.yamlExamples(in: page)
            for example in examples where !example.isPartial {
                let name = "\(page):\(example.line)"
                do {
                    var instance = try #require(try Self.instance(example.text, name: name), "\(name) is not a mapping; mark it partial")
                    if let place = example.place {
                        instance.json = Self.placed(instance.json, at: place)
                        placedExamples += 1
                    }
                    instances.append(instance)
                } catch {
                    Issue.record("\(name) cannot be read (\(error)); mark it partial")
                }
            }
            skippedExamples += examples.filter(\.isPartial).count
        }
        #expect(fileCount >= 28, "found only \(fileCount) spec and overlay files")
        let exampleCount = instances.count - fileCount - generatedCount
        #expect(exampleCount >= 40, "found only \(exampleCount) examples in the docs")

        guard let failures = try await Self.validate(instances) else { return }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(placedExamples >= 30, "only \(placedExamples) parts of specs in the docs were checked in place")
        print("SchemaValidationTests: \(fileCount) files, \(generatedCount) synthetic and imported specs and \(exampleCount) documentation examples "
              + "(\(placedExamples) of them parts placed in a spec) validated; "
              + "\(skippedExamples) partial examples skipped")
    }

    @Test("The validator rejects an unknown key, a wrong choice and a missing required key")
    func theValidatorRejectsWhatTheParserRejects() async throws {
        let bad = [
            "service: Shop\nbaseURL: https://shop.example.com\nendpoints:\n  list:\n    get: /items\n    respnse: String\n",
            "service: Shop\nbaseURL: https://shop.example.com\naccess: open\n",
            "service: Shop\nendpoints: {}\n",
            "overlay: openapi.yaml\noperations:\n  getPet: { retry: { maxAttempts: 0 } }\n",
        ]
        var instances: [Instance] = []
        for (index, text) in bad.enumerated() {
            instances.append(try #require(try Self.instance(text, name: "bad \(index)")))
        }
        guard let failures = try await Self.validate(instances) else { return }
        for index in bad.indices {
            #expect(failures.contains { $0.hasPrefix("bad \(index):") }, "bad \(index) was accepted")
        }
    }

    @Test("A spec as loose as the parser allows (quoted numbers and booleans, numbers as text) validates")
    func looseScalarsValidate() async throws {
        // Every value here is read as text first by the parser, so each is valid however YAML types it.
        let spec = """
            service: Loose
            description: 2024
            baseURL: https://loose.example.com
            defaults:
              timeout: "20"
              retry: { maxAttempts: "3", baseDelay: "0.5", maxDelay: 0x1p3, nonIdempotent: "true" }
              breaker: { failureRate: "0.5", window: 1e1 }
              errors:
                5xx: server
                default: { case: unexpected, retryable: "false" }
            models:
              Mode: { enum: [fast, "true", 42] }
              Thing: { count: Int, on: Bool, True: String }
            endpoints:
              listThings:
                get: /things
                query:
                  limit: { type: Int, default: 20 }
                  verbose: { type: Bool, default: "false" }
                  mode: { type: Mode, default: 42 }
                response: { status: "200", body: "[Thing]" }
                retry: "false"
                idempotencyKey: "false"
                errors:
                  404: notFound

            """
        let loaded = loadSpec(spec, path: "Specs/Loose.yaml")
        #expect(loaded.spec != nil && loaded.lines.isEmpty, "\(loaded.lines)")
        let instance = try #require(try Self.instance(spec, name: "loose"))
        guard let failures = try await Self.validate([instance]) else { return }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    // MARK: Finding the documents

    /// The specs and overlays of `Specs/` and `Tests/References/`, relative to the package.
    static func specFiles() throws -> [String] {
        var paths: [String] = []
        for folder in ["Specs", "Tests/References"] {
            let root = packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") { paths.append(folder + "/" + relative) }
            }
        }
        return paths.sorted()
    }

    /// A fenced ```yaml block of a documentation page.
    struct Example {
        var line: Int
        var text: String
        /// Marked ```yaml partial: a part of a spec that cannot stand in one (it shows
        /// alternatives of one key, say), skipped on purpose.
        var isPartial: Bool
        /// Marked ```yaml at=models (or `at=.`, `at=endpoints.sample.errors`): a part of a spec,
        /// checked in place in a spec with a service name and base URL of its own.
        var place: [String]?
    }

    static func yamlExamples(in page: String) throws -> [Example] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
        var examples: [Example] = []
        var current: Example?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var example = current {
                if line.hasPrefix("```") {
                    examples.append(example)
                    current = nil
                } else {
                    example.text += line + "\n"
                    current = example
                }
            } else if line.hasPrefix("```yaml") {
                let info = line.dropFirst(3).split(separator: " ")
                let place = info.first { $0.hasPrefix("at=") }.map { $0.dropFirst(3).split(separator: ".").map(String.init) }
                current = Example(line: index + 1, text: "", isPartial: info.contains("partial"), place: place)
            }
        }
        return examples
    }

    /// A part of a spec in a whole one: `part`'s keys at `place` (`[]` or `["."]`: the top level)
    /// of a spec whose service name and base URL are made up where the part has none.
    static func placed(_ part: JSONValue, at place: [String]) -> JSONValue {
        var members: [(String, JSONValue)] = [("service", .string("Sample")), ("baseURL", .string("https://sample.example.com"))]
        let path = place.filter { $0 != "" }
        guard let first = path.first else {
            guard case .object(let own) = part else { return part }
            members.removeAll { member in own.contains { $0.0 == member.0 } }
            return .object(members + own)
        }
        let nested = path.dropFirst().reversed().reduce(part) { inner, key in .object([(key, inner)]) }
        members.append((first, nested))
        return .object(members)
    }

    /// The document as JSON and the schema that checks it; `nil` for an OpenAPI document.
    static func instance(_ text: String, name: String) throws -> Instance? {
        guard let node = try Yams.compose(yaml: text, .basic) else { return nil }
        let json = try JSONFromYAML.value(of: node)
        guard case .object = json else { return nil }
        if json["openapi"] != nil { return nil }
        return Instance(name: name, kind: json["overlay"] != nil ? .overlay : .spec, json: json)
    }

    // MARK: Running the validator

    /// The validator's complaints, one line per problem, each starting with the instance's name;
    /// `nil` (and a message) when Python or jsonschema is not installed.
    static func validate(_ instances: [Instance]) async throws -> [String]? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for kind in SpecSchema.Kind.allCases {
            try Data(SpecSchema.json(for: kind).utf8).write(to: folder.appendingPathComponent("\(kind.rawValue).json"))
        }
        let manifest = JSONValue.array(instances.map { instance in
            .object([("name", .string(instance.name)), ("schema", .string(instance.kind.rawValue)), ("instance", instance.json)])
        })
        try Data(manifest.text().utf8).write(to: folder.appendingPathComponent("instances.json"))
        try Data(validatorScript.utf8).write(to: folder.appendingPathComponent("validate.py"))

        let run: ChildProcess.Result
        do {
            run = try await ChildProcess.run("python3", ["validate.py"], in: folder, timeLimit: .seconds(5 * 60))
        } catch {
            print("SchemaValidationTests skipped: python3 cannot be started (\(error))")
            return nil
        }
        if run.status == 77 || (!run.exited && run.standardOutput.isEmpty) {
            print("SchemaValidationTests skipped: \(run.standardError.isEmpty ? "python3 did not run" : run.standardError)")
            return nil
        }
        try #require(run.exited && (run.status == 0 || run.status == 1), "the validator failed: \(run)")
        let lines = run.outputLines
        try #require(lines.last == "checked \(instances.count)", "the validator did not check every instance: \(run)")
        return Array(lines.dropLast())
    }

    /// Checks each schema itself, then each instance; prints one line per error and a count.
    /// Exits 77 (skipped) without the jsonschema module.
    static let validatorScript = """
        import json, sys
        try:
            import jsonschema
        except ImportError:
            sys.stderr.write("the Python module jsonschema is not installed (python3 -m pip install jsonschema)\\n")
            sys.exit(77)
        schemas = {}
        for kind in ("spec", "overlay"):
            with open(kind + ".json") as f:
                schema = json.load(f)
            jsonschema.Draft7Validator.check_schema(schema)
            schemas[kind] = jsonschema.Draft7Validator(schema)
        with open("instances.json") as f:
            instances = json.load(f)
        failed = False
        for item in instances:
            for error in schemas[item["schema"]].iter_errors(item["instance"]):
                failed = True
                # Under anyOf, the alternative that got deepest into the document says what is wrong.
                while error.context:
                    error = max(error.context, key=lambda e: len(e.absolute_path))
                where = "/".join(str(p) for p in error.absolute_path)
                print("%s: at /%s: %s" % (item["name"], where, error.message[:300].replace("\\n", " ")))
        print("checked %d" % len(instances))
        sys.exit(1 if failed else 0)
        """
}

/// Whether `python3` runs and imports `jsonschema`; the schema validation suite is skipped,
/// saying why, when not.
func jsonSchemaValidatorIsInstalled() async -> Bool {
    let run = try? await ChildProcess.run("python3", ["-c", "import jsonschema"], timeLimit: .seconds(60))
    return run?.succeeded == true
}

/// YAML as yaml-language-server hands it to a JSON Schema: YAML 1.2's core schema types plain
/// scalars (`20` a number, `true` a boolean, `~` null); quoted scalars stay strings.
enum JSONFromYAML {
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    static func value(of node: Yams.Node) throws -> JSONValue {
        switch node {
        case .scalar(let scalar):
            return scalar.style == .plain ? typed(scalar.string) : .string(scalar.string)
        case .sequence(let sequence):
            return .array(try sequence.map { try value(of: $0) })
        case .mapping(let mapping):
            return .object(try mapping.map { key, value in
                guard case .scalar(let name) = key else { throw Unsupported(description: "a key that is not a scalar") }
                return (name.string, try Self.value(of: value))
            })
        case .alias:
            throw Unsupported(description: "an alias")
        }
    }

    static func typed(_ text: String) -> JSONValue {
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
        if ["true", "True", "TRUE"].contains(text) { return .boolean(true) }
        if ["false", "False", "FALSE"].contains(text) { return .boolean(false) }
        if text.range(of: "^[-+]?[0-9]+$", options: .regularExpression) != nil {
            return Int(text).map(JSONValue.integer) ?? Double(text).map(JSONValue.number) ?? .string(text)
        }
        if text.range(of: "^0o[0-7]+$", options: .regularExpression) != nil, let value = Int(text.dropFirst(2), radix: 8) { return .integer(value) }
        if text.range(of: "^0x[0-9a-fA-F]+$", options: .regularExpression) != nil, let value = Int(text.dropFirst(2), radix: 16) { return .integer(value) }
        if text.range(of: "^[-+]?([.][0-9]+|[0-9]+([.][0-9]*)?)([eE][-+]?[0-9]+)?$", options: .regularExpression) != nil,
           let value = Double(text) {
            return .number(value)
        }
        // .inf and .nan have no JSON spelling; a string is as close as an editor gets.
        return .string(text)
    }
}
