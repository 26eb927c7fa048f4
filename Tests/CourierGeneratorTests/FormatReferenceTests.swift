@testable import CourierGenerator
import Foundation
import Testing

@Suite struct FormatReferenceTests {
    /// The YAML blocks of docs/SpecFormat.md, in order.
    static func yamlBlocks() throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/SpecFormat.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```yaml" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append((current ?? []).joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func completeExampleIsAValidSpec() throws {
        let example = try #require(try Self.yamlBlocks().first)
        let (spec, lines) = loadSpec(example, path: "docs/SpecFormat.md")
        #expect(lines == [])
        #expect(spec?.endpoints.map(\.name) == ["getPet", "listPets", "createPet", "deletePet"])
    }

    @Test func errorSchemaExamplesAreValidSharedFiles() throws {
        let block = try #require(try Self.yamlBlocks().first { $0.hasPrefix("errorSchemas:") && $0.contains("StripeError") })
        let result = loadValidated(contents: block + "\nmodels:\n  ValidationIssue: { code: String }\n", displayPath: "docs/SpecFormat.md")
        #expect(result.isSharedFile)
        #expect(result.diagnostics.renderedLines == [])
    }
}
