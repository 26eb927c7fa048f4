import CourierGenerator
import Foundation
import Testing

/// Hostile and huge inputs: each gets a diagnostic, none crashes.
@Suite struct RobustnessTests {
    /// A valid spec of several megabytes, with one mistake on its last line.
    @Test func severalMegabyteSpecReportsTheExactLine() {
        var lines = ["service: Huge", "baseURL: https://huge.example.com", "models:"]
        let modelCount = 16_000
        for index in 0..<modelCount {
            lines.append("  Model\(index):")
            lines.append("    description: Model number \(index), with a description long enough to make the file large.")
            lines.append("    properties: { id: Int64, name: String, tags: \"[String]\", next: Model\(index + 1 < modelCount ? index + 1 : 0)? }")
        }
        lines.append("endpoints:")
        for index in 0..<2_000 {
            // Braces are flow indicators in YAML, so a path with parameters is quoted inside `{ }`.
            lines.append("  get\(index): { get: \"/things/\(index)/{id}\", path: { id: Int }, response: Model\(index) }")
        }
        lines.append("  broken: { get: /broken, response: Missing }")
        let yaml = lines.joined(separator: "\n") + "\n"
        #expect(yaml.utf8.count > 3_000_000)

        let result = SpecLoader().loadSpec(contents: yaml, displayPath: "Specs/huge.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/huge.yaml:\(lines.count):27: error: model 'Missing' used by the response of endpoint 'broken' is not defined",
        ])
    }

    @Test func severalMegabyteLineIsParsed() {
        let description = String(repeating: "All work and no play. ", count: 200_000)
        let yaml = "service: Long\nbaseURL: https://long.example.com\ndescription: \(description)\nendpoints: { ping: { get: /ping } }\n"
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        #expect(spec?.description?.count == description.count - 1)
    }

    @Test func nestingLimitErrorDoesNotQuoteTheLine() {
        // libyaml stops at 1000 levels; its message would quote the whole (megabyte) line.
        let yaml = "service: Deep\nbaseURL: https://deep.example.com\ndescription: " + String(repeating: "[", count: 1_000_000) + "\n"
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:3:15: error: YAML nesting is too deep (libyaml allows at most 1000 levels)",
        ])
    }

    @Test func deepButAllowedNestingIsAWrongType() {
        let depth = 900
        let yaml = "service: Deep\nbaseURL: https://deep.example.com\ndescription: "
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        #expect(diagnosticLines(yaml) == ["Specs/x.yaml:3:14: error: 'description' must be a string, found a list"])
    }

    @Test func longUnknownKeyIsAbbreviated() {
        let key = String(repeating: "k", count: 500)
        #expect(diagnosticLines("service: Pets\nbaseURL: https://pets.example.com\n\(key): 1\n") == [
            "Specs/x.yaml:3:1: error: unknown key '\(String(repeating: "k", count: 60))…' in the service",
        ])
    }

    @Test func keyLongerThanLibyamlAllowsIsASyntaxError() {
        // libyaml gives up on plain keys longer than 1024 characters; the line is not quoted back.
        let key = String(repeating: "k", count: 100_000)
        #expect(diagnosticLines("service: Pets\nbaseURL: https://pets.example.com\n\(key): 1\n") == [
            "Specs/x.yaml:3:100001: error: YAML syntax error: could not find expected ':' (while scanning a simple key at line 3, column 1)",
        ])
    }

    @Test func manyErrorsAreCappedAtFifty() {
        var yaml = "service: Pets\nbaseURL: https://pets.example.com\nmodels:\n"
        for index in 0..<120 {
            yaml += "  M\(index): { a: Nope\(index) }\n"
        }
        let lines = diagnosticLines(yaml)
        #expect(lines.count == 51)
        #expect(lines.first == "Specs/x.yaml:4:12: error: model 'Nope0' used by property 'a' is not defined")
        #expect(lines.last == "70 more errors not shown")
    }

    @Test func aliasesAndAnchorsAreResolved() {
        let yaml = """
            service: Pets
            baseURL: https://pets.example.com
            models:
              Pet: &pet { id: Int, name: String }
              Cat: *pet
            """
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        #expect(spec?.model(named: "Cat")?.properties.map(\.name) == ["id", "name"])
    }

    @Test func undefinedAliasIsReported() {
        let yaml = "service: Pets\nbaseURL: https://pets.example.com\nmodels:\n  Cat: *pet\n"
        #expect(diagnosticLines(yaml) == ["Specs/x.yaml:4:8: error: YAML error: found undefined alias"])
    }

    @Test func multipleDocumentsAreRejected() {
        let yaml = "service: Pets\nbaseURL: https://pets.example.com\n---\nservice: Other\n"
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:3:1: error: YAML error: but found another document (expected a single document in the stream at line 1, column 1)",
        ])
    }

    @Test func unreadableFileIsReported() {
        let result = SpecLoader().loadSpec(at: URL(fileURLWithPath: "/nonexistent/courier/spec.yaml"), displayPath: "missing.yaml")
        #expect(result.diagnostics.renderedLines == ["missing.yaml:1:1: error: cannot read the file: no such file"])
    }
}
