@testable import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

/// Every name the validator accepts compiles: a spec built from every Swift keyword, every
/// name of ``ReservedNames`` and common standard-library type names, in every position a spec
/// can put a name, is generated and compiled against this build's CourierRuntime with warnings
/// as errors. The names the validator rejects get a `file:line:col` diagnostic instead.
@Suite struct KeywordCompileTests {
    /// Every Swift keyword: declaration, statement, expression and type keywords, and the
    /// contextual ones (attributes' and `#` directives' words are not names a spec can spell
    /// differently from these).
    static let keywords = [
        // Declarations
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // Statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "switch", "throw", "where", "while",
        // Expressions and types
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        // Contextual
        "associativity", "async", "convenience", "didSet", "dynamic", "final", "get", "indirect", "infix", "lazy",
        "left", "mutating", "none", "nonmutating", "optional", "override", "postfix", "precedence", "prefix",
        "Protocol", "required", "right", "set", "some", "Type", "unowned", "weak", "willSet", "any", "actor",
        "macro", "each", "consume", "copy", "discard", "isolated", "sending", "distributed", "unsafe", "then",
        "yield", "get", "modify", "read", "package",
    ]

    /// Type names of Swift, Foundation and the runtime that a model could plausibly take.
    static let libraryTypes = [
        "String", "Int", "Int64", "Double", "Bool", "Date", "URL", "Data", "Array", "Dictionary", "Set", "Optional",
        "Result", "Error", "Never", "Void", "Character", "Substring", "Float", "UInt", "Int32", "Task", "Equatable",
        "Hashable", "Codable", "Sendable", "Identifiable", "Comparable", "Sequence", "Collection", "Decimal", "UUID",
        "JSON", "AnyObject", "Encoder", "Decoder", "Duration", "CodingKeys", "Response", "Failure", "Value", "Schema",
        "Inner", "Configuration", "Client", "Request", "Indirect", "HTTPField", "APIClient", "string", "url",
    ]

    /// Names the templates use for members, parameters and locals, so that each is tried where
    /// it could collide.
    static let memberNames = [
        "client", "request", "response", "failure", "configuration", "transport", "baseURL", "auth", "fields",
        "name", "value", "hashValue", "description", "encode", "rawValue", "unknown", "map", "errorDescription",
        "defaultBaseURL", "bearer", "method", "path", "query", "headers", "body", "successStatuses", "isIdempotent",
        "idempotencyKeyHeader", "timeout", "resilience", "secretHeaderNames", "operationName", "payload",
        "selfValue", "requestBody", "pathValue", "CodingKeys", "newValue", "decoder", "encoder",
    ]

    static var allNames: [String] { uniqued(keywords + libraryTypes + memberNames + Array(ReservedNames.types.keys).sorted()) }

    static func uniqued(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// `names` without those that become the same Swift name as an earlier one (`Type` and `type`
    /// as members), and without those `isRejected` says the validator rejects.
    static func accepted(_ names: [String], swiftName: (String) -> String, isRejected: (String) -> Bool) -> [String] {
        var seen = Set<String>()
        return names.filter { name in
            let swift = swiftName(name)
            return swift != "_" && !isRejected(swift) && seen.insert(swift).inserted
        }
    }

    static func member(_ name: String) -> String { SwiftIdentifier(memberNamed: name).name }
    static func type(_ name: String) -> String { SwiftIdentifier(typeNamed: name).name }

    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The accepted names in each position, and the spec that uses them all.
    struct AcceptedSpec {
        var typeNames: [String]
        var propertyNames: [String]
        var enumValues: [String]
        var unionCases: [String]
        var errorCases: [String]
        var endpointNames: [String]
        var parameterNames: [String]
        var headerArguments: [String]
        var yaml: String
    }

    static func acceptedSpec() -> AcceptedSpec {
        let names = allNames
        let typeNames = accepted(names, swiftName: type) { swift in
            ReservedNames.types[swift] != nil || PrimitiveType(rawValue: swift) != nil
                || ["NamesClient", "NamesFailure"].contains(swift) || swift.hasSuffix("Request") || swift.hasSuffix("Failure")
                || swift.hasSuffix("Envelope") || ["Everything", "Words", "Problem", "Uses", "Tagged", "Choice", "Holder", "Numbers", "Coded"].contains(swift)
        }
        let propertyNames = accepted(names, swiftName: member) { ReservedNames.properties[$0] != nil || $0 == "selfValue" }
        let enumValues = accepted(names, swiftName: member) { ReservedNames.enumValues[$0] != nil }
        let unionCases = accepted(names, swiftName: member) { ReservedNames.unionCases[$0] != nil }
        let errorCases = accepted(names, swiftName: member) { _ in false }
        let endpointNames = accepted(names, swiftName: member) { ReservedNames.endpoints[$0] != nil }
        // `selfValue` is what a `self` parameter is called inside its method, `pathValue` what a
        // `path` parameter is stored as, `requestBody` the body's label beside a `body` parameter.
        let parameterNames = accepted(names, swiftName: member) { ["selfValue", "requestBody"].contains($0) || $0.hasSuffix("Value") && $0 != "value" }
        let headerArguments = accepted(names.filter { !$0.contains(" ") }, swiftName: member) { ReservedNames.headerArguments[$0] != nil }

        var yaml = """
            service: Names
            baseURL: https://names.example.com
            headers:

            """
        for name in headerArguments { yaml += "  \(quoted(name)): { description: An argument. }\n" }
        yaml += "models:\n"
        for name in typeNames { yaml += "  \(quoted(name)): { a: String }\n" }
        yaml += "  Everything:\n    properties:\n"
        for name in propertyNames { yaml += "      \(quoted(name)): String?\n" }
        yaml += "  Uses:\n    properties:\n"
        for (index, name) in typeNames.enumerated() { yaml += "      p\(index): \(quoted(name + "?"))\n" }
        yaml += "  Words:\n    enum: [" + enumValues.map(quoted).joined(separator: ", ") + "]\n"
        // Union cases, each picked by its own discriminator value (the variants may share a type then).
        yaml += "  Tagged: { a: String }\n  Choice:\n    oneOf:\n"
        for name in unionCases { yaml += "      - { type: Tagged, case: \(quoted(name)) }\n" }
        yaml += "    discriminator:\n      property: kind\n      mapping:\n"
        for (index, name) in unionCases.enumerated() { yaml += "        v\(index): \(quoted(name))\n" }
        yaml += "  Holder: { choice: Choice?, choices: \"[Choice]\" }\n"
        // Number enums take their case names from `case:`, a position of its own.
        yaml += "  Numbers:\n    enum:\n"
        for (index, name) in enumValues.enumerated() { yaml += "      - { value: \(index), case: \(quoted(name)) }\n" }
        // A default makes a model write its own `init(from:)` and `encode(to:)`, where every
        // property name meets the locals `container`, `decoder` and `encoder`.
        yaml += "  Coded:\n    properties:\n"
        for name in propertyNames { yaml += "      \(quoted(name)): { type: String?, default: x }\n" }
        yaml += "      numberEnumProperty: { type: Numbers, default: \(enumValues.firstIndex(of: "none") ?? 0), readOnly: true }\n"
        yaml += "errorSchemas:\n  Problem:\n    properties:\n"
        for name in propertyNames { yaml += "      \(quoted(name)): String?\n" }
        yaml += "endpoints:\n"
        for (index, name) in endpointNames.enumerated() {
            yaml += "  \(quoted(name)): { get: /e/\(index) }\n"
        }
        yaml += "  queries:\n    get: /q\n    response: Uses\n    query:\n"
        for name in parameterNames { yaml += "      \(quoted(name)): Int?\n" }
        yaml += "      choice: { type: Words?, default: none }\n"
        yaml += "      other: { type: Words, default: some }\n"
        yaml += "  fieldHeaders:\n    get: /h\n    headers:\n"
        for name in parameterNames where name.allSatisfy({ $0.isLetter || $0.isNumber }) { yaml += "      \(quoted(name)): String?\n" }
        let pathNames = parameterNames.filter { $0.allSatisfy { $0.isLetter || $0.isNumber } }
        yaml += "  paths:\n    get: /p/" + pathNames.map { "{\($0)}" }.joined(separator: "/") + "\n    path:\n"
        for name in pathNames { yaml += "      \(quoted(name)): String\n" }
        yaml += "  withBody:\n    post: /b/{body}/{self}\n    path: { body: String, self: String }\n    body: Everything\n"
        yaml += "    response: Everything\n"
        yaml += "  coded:\n    post: /c\n    body: Coded\n    response: Coded\n    query: { number: { type: Numbers, default: 0 } }\n"
        // `none` and `some` without a payload, where a bare `.none` would be `Optional.none`.
        yaml += "  optionalCases:\n    get: /o\n    errors: { 404: none, 410: some }\n"
        // At most 200 statuses (400...599) per endpoint.
        for (part, start) in stride(from: 0, to: errorCases.count, by: 150).enumerated() {
            yaml += "  failing\(part):\n    get: /f\(part)\n    errors:\n"
            for (index, name) in errorCases[start..<min(start + 150, errorCases.count)].enumerated() {
                yaml += "      \(400 + index): { case: \(quoted(name))\(index.isMultiple(of: 2) ? ", body: Problem" : "") }\n"
            }
        }
        return AcceptedSpec(typeNames: typeNames, propertyNames: propertyNames, enumValues: enumValues, unionCases: unionCases, errorCases: errorCases, endpointNames: endpointNames,
                            parameterNames: parameterNames, headerArguments: headerArguments, yaml: yaml)
    }

    @Test("Every accepted name, in every position, compiles without warnings")
    func acceptedNamesCompile() async throws {
        let spec = Self.acceptedSpec()
        // The positions really hold the names this test is about.
        for name in ["class", "self", "Self", "none", "some", "init", "Type", "Protocol", "willSet", "async", "await", "actor", "any"] {
            #expect(spec.propertyNames.contains(name) || spec.propertyNames.contains { Self.member($0) == Self.member(name) }, "\(name)")
            #expect(spec.parameterNames.contains { Self.member($0) == Self.member(name) }, "\(name)")
            #expect(spec.endpointNames.contains { Self.member($0) == Self.member(name) }, "\(name)")
        }
        #expect(spec.enumValues.contains("none") && spec.enumValues.contains("some") && spec.enumValues.contains("self")
                && spec.enumValues.contains("init"))
        #expect(spec.endpointNames.contains("defaultBaseURL"))
        #expect(spec.unionCases.contains("none") && spec.unionCases.contains("self") && spec.unionCases.contains("unknown")
                && spec.unionCases.contains("encode") && spec.unionCases.contains("hashValue"))
        #expect(spec.errorCases.contains("none") && spec.errorCases.contains("init") && spec.errorCases.contains("rawValue"))
        for name in ["Protocol", "Type", "Void", "Class", "Some", "Actor"] {
            #expect(spec.typeNames.contains { Self.type($0) == name }, "\(name)")
        }
        #expect(spec.headerArguments.contains("self") && spec.headerArguments.contains("class"))

        let folder = try TemporaryFolder()
        let specPath = try folder.write(spec.yaml, to: "Names.yaml")
        let result = try Generator().generate(specAt: URL(fileURLWithPath: specPath), displayPath: "Names.yaml")
        try #require(result.diagnostics.renderedLines == [], "\(result.diagnostics.renderedLines.prefix(20))")
        // `courier validate` accepts it too: validation runs the same checks.
        #expect(SpecLoader().loadSpec(at: URL(fileURLWithPath: specPath), displayPath: "Names.yaml").diagnostics.renderedLines == [])

        var sources: [String] = []
        for (name, text) in result.files.sorted(by: { $0.key < $1.key }) {
            sources.append(try folder.write(text, to: "NamesAPI/" + name))
        }
        try #require(sources.count == 4)
        let requests = try #require(result.files["NamesRequests.swift"])
        let errors = try #require(result.files["NamesErrors.swift"])
        // A default of `none` names the enum's case, not `Optional.none`; `map` returns it qualified.
        #expect(requests.contains("choice: Words? = Words.none"))
        #expect(errors.contains("return Self.none"))
        let models = try #require(result.files["NamesModels.swift"])
        #expect(models.contains("numberEnumProperty: Numbers = Numbers.none"))
        #expect(models.contains("public init(from decoder: any Decoder) throws"))

        let modules = try SyntheticCompileTests.modulesFolder()
        let object = folder.url.appendingPathComponent("NamesAPI.o").path
        let compile = try await ChildProcess.run("swiftc", ["-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
                                                            "-module-name", "NamesAPI", "-I", modules.path, "-wmo", "-c"]
                                                     + sources + ["-o", object])
        let complaints = compile.standardError.split(separator: "\n").filter { $0.contains("error:") && !$0.contains("`-") }
        #expect(compile.succeeded, "swiftc failed:\n\(complaints.prefix(60).joined(separator: "\n"))")
        #expect(FileManager.default.fileExists(atPath: object))
    }

    /// One spec per rejected name and position, the name on line 4 at column `column`.
    struct Rejected: CustomTestStringConvertible {
        var name: String
        var yaml: String
        var location: String
        var testDescription: String { "\(name) at \(location)" }
    }

    static var rejectedCases: [Rejected] {
        var cases: [Rejected] = []
        let header = "service: Names\nbaseURL: https://names.example.com\n"
        for name in ReservedNames.types.keys.sorted() where PrimitiveType(rawValue: name) == nil {
            cases.append(Rejected(name: "model \(name)", yaml: header + "models:\n  \(quoted(name)): { a: String }\n"
                                  + "endpoints:\n  ping: { get: /ping }\n", location: "x.yaml:4:3"))
            cases.append(Rejected(name: "error schema \(name)", yaml: header + "errorSchemas:\n  \(quoted(name)): { a: String }\n"
                                  + "endpoints:\n  ping: { get: /ping }\n", location: "x.yaml:4:3"))
        }
        for name in ReservedNames.properties.keys.sorted() {
            cases.append(Rejected(name: "property \(name)", yaml: header + "models:\n  M:\n    \(quoted(name)): String\n"
                                  + "endpoints:\n  ping: { get: /ping }\n", location: "x.yaml:5:5"))
            cases.append(Rejected(name: "error field \(name)", yaml: header + "errorSchemas:\n  M:\n    \(quoted(name)): String\n"
                                  + "endpoints:\n  ping: { get: /ping }\n", location: "x.yaml:5:5"))
        }
        for name in ReservedNames.enumValues.keys.sorted() {
            cases.append(Rejected(name: "enum value \(name)", yaml: header + "models:\n  M:\n    enum: [a, \(quoted(name))]\n"
                                  + "endpoints:\n  ping: { get: /ping }\n", location: "x.yaml:5:15"))
        }
        for name in ReservedNames.endpoints.keys.sorted() {
            cases.append(Rejected(name: "endpoint \(name)", yaml: header + "endpoints:\n  ping: { get: /ping }\n  \(quoted(name)): { get: /x }\n",
                                  location: "x.yaml:5:3"))
        }
        for name in ReservedNames.headerArguments.keys.sorted() {
            cases.append(Rejected(name: "header \(name)", yaml: header + "headers:\n  \(quoted(name)): { description: x }\n"
                                  + "endpoints:\n  ping: { get: /ping }\n", location: "x.yaml:4:3"))
        }
        // Names that become one Swift name only after the generator's renames.
        cases.append(Rejected(name: "properties self and selfValue", yaml: header + "models:\n  M:\n    self: String\n    selfValue: String\n"
                              + "endpoints:\n  ping: { get: /ping }\n", location: "x.yaml:6:5"))
        cases.append(Rejected(name: "parameters self and selfValue", yaml: header + "endpoints:\n  ping:\n    get: /ping\n"
                              + "    query: { self: Int, selfValue: Int }\n", location: "x.yaml:6:25"))
        cases.append(Rejected(name: "parameters path and pathValue", yaml: header + "endpoints:\n  ping:\n    get: /ping\n"
                              + "    query: { path: Int, pathValue: Int }\n", location: "x.yaml:6:25"))
        cases.append(Rejected(name: "the body and a parameter requestBody", yaml: header + "models:\n  M: { a: String }\n"
                              + "endpoints:\n  ping:\n    post: /ping\n    body: M\n    query: { body: Int, requestBody: Int }\n",
                              location: "x.yaml:9:25"))
        return cases
    }

    @Test("Every rejected name gets one diagnostic at its file:line:col", arguments: rejectedCases)
    func rejectedNames(_ item: Rejected) throws {
        let lines = diagnosticLines(item.yaml, path: "x.yaml")
        // One error; a collision adds a note at the first name.
        #expect(lines.filter { $0.contains(": error: ") }.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix(item.location + ": error: ") == true, "\(lines)")
    }
}
