@testable import CourierGenerator
import Foundation
import Testing

/// Files that are not readable YAML get one exact `path:line:column: error: message` line each.
@Suite struct BadYAMLTests {
    @Test func yamlSyntaxErrorIsReportedAtLibyamlsPosition() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int, name: String
            endpoints: {}
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:10: error: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 4, column 8)",
        ])
    }

    /// A JSON document is read by the YAML parser, but its author wrote JSON: the message names
    /// the format the file is in.
    @Test func jsonSyntaxErrorNamesJSON() {
        let json = """
            {"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
             "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}
            """
        let lines = diagnosticLines(json, path: "openapi.json")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("openapi.json:") == true)
        #expect(lines.first?.contains("error: JSON syntax error: did not find expected ',' or '}'") == true, "\(lines)")
        // Named by its first character where the extension says nothing.
        #expect(diagnosticLines("{\"service\": \"S\",\n \"baseURL\" \"x\"}", path: "Specs/x.yaml").first?
            .contains("error: JSON syntax error:") == true)
    }

    /// JSON allows C1 control characters raw inside strings (DocuSign's description has one);
    /// YAML does not, yet a JSON document that has one is valid and reads.
    @Test func aJSONDocumentMayHoldControlCharactersInStrings() throws {
        let json = "{\"openapi\": \"3.0.0\", \"info\": {\"title\": \"T\", \"description\": \"a\u{80}b\"},\n"
            + " \"servers\": [{\"url\": \"https://t.example.com\"}],\n"
            + " \"paths\": {\"/a\": {\"get\": {\"operationId\": \"getA\", \"responses\": {\"204\": {\"description\": \"ok\"}}}}}}"
        let (spec, lines) = loadSpec(json, path: "openapi.json")
        #expect(lines == [])
        #expect(spec?.description == "a\u{80}b")
    }

    @Test func badIndentationIsASyntaxError() {
        let yaml = """
            service: Petstore
              baseURL: https://petstore.example.com
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:2:10: error: YAML syntax error: mapping values are not allowed in this context",
        ])
    }

    @Test func duplicateKeyInYAML() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int }
              Owner: { name: String }
              Pet: { name: String }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:6:3: error: duplicate key 'Pet' in the same mapping",
            "Specs/x.yaml:4:3: note: 'Pet' is first written here",
        ])
    }

    @Test func duplicateKeyInFlowMapping() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int, name: String, id: String }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:33: error: duplicate key 'id' in the same mapping",
            "Specs/x.yaml:4:10: note: 'id' is first written here",
        ])
    }

    @Test func emptyFile() {
        #expect(diagnosticLines("") == [
            "Specs/x.yaml:1:1: error: the file is empty; a spec needs at least 'service', 'baseURL' and 'endpoints'",
        ])
        #expect(diagnosticLines("# only a comment\n\n") == [
            "Specs/x.yaml:1:1: error: the file is empty; a spec needs at least 'service', 'baseURL' and 'endpoints'",
        ])
    }

    @Test func topLevelIsNotAMapping() {
        #expect(diagnosticLines("- service: Petstore\n") == [
            "Specs/x.yaml:1:1: error: the top level must be a mapping with keys such as 'service' and 'endpoints', found a list",
        ])
        #expect(diagnosticLines("just some text\n") == [
            "Specs/x.yaml:1:1: error: the top level must be a mapping with keys such as 'service' and 'endpoints', found 'just some text'",
        ])
    }

    @Test func nonUTF8Bytes() {
        var data = Data("service: Petstore\nbaseURL: https://petstore.example.com\ndescription: caf".utf8)
        data.append(contentsOf: [0xE9, 0x0A])  // Latin-1 é
        let result = loadValidated(data: data, displayPath: "Specs/x.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/x.yaml:3:17: error: the file is not valid UTF-8 (byte 0xE9); save it as UTF-8",
        ])
        #expect(result.spec == nil)
    }

    @Test func controlCharacters() {
        let yaml = "service: Pet\u{1}store\nbaseURL: https://petstore.example.com\n"
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:1:13: error: invalid character U+0001 in the file: control characters are not allowed",
        ])
    }

    @Test func tabsAreASyntaxError() {
        let yaml = "service: Petstore\nmodels:\n\tPet: { id: Int }\n"
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:3:1: error: YAML syntax error: found character that cannot start any token (while scanning for the next token at line 3, column 1)",
        ])
    }
}

/// Looking a key up in a mapping: short mappings are scanned, long ones (a document's `paths`,
/// `components/schemas`) indexed; both find the first entry of a key and skip non-scalar keys.
@Suite struct MappingLookupTests {
    @Test(arguments: [3, 15, 16, 400])
    func aKeyFindsItsFirstEntryWhateverTheMappingsLength(count: Int) {
        var pairs: [(Node, Node)] = (0..<count).map { (.scalar(.init("key\($0)")), .scalar(.init("value\($0)"))) }
        pairs.insert((.sequence(.init([.scalar(.init("key0"))])), .scalar(.init("not a scalar key"))), at: 0)
        pairs.append((.scalar(.init("key1")), .scalar(.init("a later duplicate"))))
        let mapping = Node.Mapping(pairs)
        #expect(mapping["key0"]?.scalar?.string == "value0")
        #expect(mapping["key1"]?.scalar?.string == "value1")
        #expect(mapping["key\(count - 1)"]?.scalar?.string == "value\(count - 1)")
        #expect(mapping.position(of: "key1") == 2)
        #expect(mapping["key\(count)"] == nil)
        #expect(mapping[""] == nil)
    }
}
