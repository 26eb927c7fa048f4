import Foundation
import Testing

/// What a new user reads first says only what holds for them: every Swift block of the README that
/// makes a generated client imports the module that client lives in, and the user-facing docs
/// point at the public documents beside the project's own checkout only where they say so.
@Suite struct UserDocsTests {
    static func swiftBlocks(of path: String) throws -> [String] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func aReadmeBlockThatImportsTheRuntimeAlsoImportsTheClientsModule() throws {
        let blocks = try Self.swiftBlocks(of: "README.md")
        #expect(!blocks.isEmpty)
        for block in blocks where block.contains("import CourierRuntime") {
            let clients = block.matches(of: /([A-Z][A-Za-z]*)Client\(/).map { String($0.output.1) }
            for service in Set(clients) {
                #expect(block.contains("import \(service)API"), "a README block uses \(service)Client without importing \(service)API:\n\(block)")
            }
        }
    }

    @Test func userDocsMentionTheSharedFolderOnlyAsTheProjectsOwn() throws {
        // docs/OpenAPI.md's section on the public documents says they are outside the
        // repository; anywhere else, a user would look for a folder they do not have.
        let text = try String(contentsOf: packageRoot.appendingPathComponent("docs/OpenAPI.md"), encoding: .utf8)
        let sectionStart = try #require(text.range(of: "## The public documents"))
        let before = text[..<sectionStart.lowerBound]
        #expect(!before.contains("../shared/openapi"), "docs/OpenAPI.md points at ../shared/openapi before the section that says it is CI's")
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!readme.contains("../shared/openapi"))
    }
}
