import CourierTestSupport
import Foundation
import Testing

/// The Swift in the guides compiles against this package: each ```swift block of a guide is
/// type-checked on its own, with Swift 6 and warnings as errors, against this build's modules
/// (CourierRuntime, CourierTesting and the example services such as BookshelfAPI).
///
/// A block may be preceded by an HTML comment that the rendered guide hides:
/// `<!-- type-check: import BookshelfAPI -->` adds lines in front of the block (what an app's
/// own module has without importing, here a module of its own), and
/// `<!-- not type-checked: <why> -->` leaves the block out (another tool's code, a manifest).
@Suite struct GuideSnippetTests {
    static let guides = ["docs/XcodeApps.md", "docs/MigratingFromSwiftOpenAPIGenerator.md", "docs/RunningTheCLI.md"]

    struct Snippet: CustomStringConvertible {
        var guide: String
        var line: Int
        var prefix: [String]
        var code: String
        var description: String { "\(guide):\(line)" }
    }

    /// Every Swift block of `guide` that is to be type-checked, with the lines a marker adds.
    static func snippets(of guide: String) throws -> (checked: [Snippet], skipped: Int) {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(guide), encoding: .utf8)
        var checked: [Snippet] = []
        var skipped = 0
        var marker: String?
        var block: (start: Int, lines: [Substring])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var open = block {
                if line == "```" {
                    let prefix = marker.flatMap { $0.hasPrefix("type-check:") ? String($0.dropFirst("type-check:".count)) : nil }
                    if marker?.hasPrefix("not type-checked:") == true {
                        skipped += 1
                    } else {
                        checked.append(Snippet(guide: guide, line: open.start, prefix: prefix.map { [$0.trimmingCharacters(in: .whitespaces)] } ?? [],
                                               code: open.lines.joined(separator: "\n")))
                    }
                    block = nil
                    marker = nil
                } else {
                    open.lines.append(line)
                    block = open
                }
            } else if line == "```swift" {
                block = (index + 2, [])
            } else if line.hasPrefix("<!--"), line.hasSuffix("-->") {
                marker = line.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
            } else if !line.isEmpty {
                marker = nil
            }
        }
        return (checked, skipped)
    }

    @Test func everyGuideExists() throws {
        for guide in Self.guides {
            #expect(FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(guide).path), "\(guide) is missing")
        }
    }

    @Test func theMarkersAreRead() throws {
        let xcode = try Self.snippets(of: "docs/XcodeApps.md")
        #expect(xcode.checked.contains { $0.prefix == ["import BookshelfAPI"] })
        // The migration guide shows swift-openapi-generator's side too, which is not ours to check.
        let migration = try Self.snippets(of: "docs/MigratingFromSwiftOpenAPIGenerator.md")
        #expect(migration.skipped > 0)
        #expect(migration.checked.count >= 3)
    }

    @Test(arguments: guides)
    func theSwiftOfTheGuideTypeChecks(guide: String) async throws {
        let snippets = try Self.snippets(of: guide).checked
        guard !snippets.isEmpty else { return }
        let modules = try SyntheticCompileTests.modulesFolder()
        let folder = try TemporaryFolder()
        for (number, snippet) in snippets.enumerated() {
            let path = try folder.write((snippet.prefix + [snippet.code]).joined(separator: "\n") + "\n", to: "Snippet\(number).swift")
            let result = try await ChildProcess.run("swiftc", ["-typecheck", "-swift-version", "6", "-warnings-as-errors",
                                                               "-I", modules.path, path])
            #expect(result.succeeded, "\(snippet) does not type-check:\n\(result.standardError.prefix(3000))\n\(snippet.code)")
        }
    }
}
