@testable import CourierGenerator
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

        let result = loadValidated(contents: yaml, displayPath: "Specs/huge.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/huge.yaml:\(lines.count):27: error: type 'Missing' used by the response of endpoint 'broken' is not defined",
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
        #expect(lines.first == "Specs/x.yaml:4:12: error: type 'Nope0' used by property 'a' is not defined")
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
        let result = loadValidated(at: URL(fileURLWithPath: "/nonexistent/courier/spec.yaml"), displayPath: "missing.yaml")
        #expect(result.diagnostics.renderedLines == ["missing.yaml:1:1: error: cannot read the file: no such file"])
    }
}

@Suite struct EncodingTests {
    @Test func byteOrderMarkIsSkipped() {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("service: S\nbaseURL: https://s.example.com\nmodels:\n  A: { b: Nope }\n".utf8))
        let result = loadValidated(data: data, displayPath: "Specs/bom.yaml")
        #expect(result.diagnostics.renderedLines == ["Specs/bom.yaml:4:11: error: type 'Nope' used by property 'b' is not defined"])
    }

    @Test func windowsLineEndingsKeepLineNumbers() {
        let yaml = "service: S\r\nbaseURL: https://s.example.com\r\nmodels:\r\n  A: { b: Nope }\r\n"
        #expect(diagnosticLines(yaml) == ["Specs/x.yaml:4:11: error: type 'Nope' used by property 'b' is not defined"])
    }

    @Test func columnsCountCharactersNotBytes() {
        let yaml = "service: S\nbaseURL: https://s.example.com\nmodels:\n  Café: { prénom: Nope }\n"
        #expect(diagnosticLines(yaml) == ["Specs/x.yaml:4:19: error: type 'Nope' used by property 'prénom' is not defined"])
    }

    @Test func invalidEscapeIsASyntaxError() {
        #expect(diagnosticLines("service: \"\\uD800\"\n") == [
            "Specs/x.yaml:1:13: error: YAML syntax error: found invalid Unicode character escape code (while parsing a quoted scalar at line 1, column 10)",
        ])
    }

    @Test func truncatedMultibyteSequenceIsReported() {
        var data = Data("service: S\nbaseURL: https://s.example.com\ndescription: é".utf8)
        data.removeLast()  // half of the two-byte é
        let result = loadValidated(data: data, displayPath: "Specs/x.yaml")
        #expect(result.diagnostics.renderedLines == ["Specs/x.yaml:3:14: error: the file is not valid UTF-8 (byte 0xC3); save it as UTF-8"])
    }

    @Test func overlongEncodingIsNotUTF8() {
        // 0xC0 0xAF is an overlong "/": well-formed looking, but not UTF-8.
        let data = Data([0x61, 0x3A, 0x20, 0xC0, 0xAF])
        let result = loadValidated(data: data, displayPath: "Specs/x.yaml")
        #expect(result.diagnostics.renderedLines == ["Specs/x.yaml:1:4: error: the file is not valid UTF-8 (byte 0xC0); save it as UTF-8"])
    }
}

@Suite struct YAMLTagTests {
    @Test func explicitTagsAreIgnoredWithAWarning() {
        let yaml = "service: !!binary U2hvcA==\nbaseURL: !custom https://s.example.com\ndescription: !!str Fine\n"
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [
            "Specs/x.yaml:1:10: warning: YAML tag 'tag:yaml.org,2002:binary' is ignored; values are read as written",
            "Specs/x.yaml:2:10: warning: YAML tag '!custom' is ignored; values are read as written",
        ])
        #expect(spec?.name == "U2hvcA==")
    }
}

@Suite struct MessageShapeTests {
    @Test func namesWithLineBreaksStayOnOneLine() {
        let yaml = "service: S\nbaseURL: https://s.example.com\nendpoints:\n  \"get\\nuser\": { get: /a }\n  getUser: { get: /b }\n"
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:3: error: endpoint 'getUser' and endpoint 'get\\nuser' both become the Swift name 'getUser'; rename one",
            "Specs/x.yaml:4:3: note: 'get\\nuser' is declared here",
        ])
    }

    @Test func hugeValuesAreCutInMessages() throws {
        let name = String(repeating: "X", count: 1_000_000)
        let lines = diagnosticLines("service: S\nbaseURL: https://s.example.com\nendpoints:\n  e: { get: /e, response: \(name) }\n")
        let line = try #require(lines.first)
        #expect(lines.count == 1)
        #expect(line.hasPrefix("Specs/x.yaml:4:17: error: type 'XXXX"))
        #expect(line.count < 500)
    }
}
