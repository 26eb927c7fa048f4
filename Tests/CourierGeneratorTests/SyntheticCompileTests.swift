@testable import CourierGenerator
import CourierTestSupport
import Foundation
import SyntheticSpecs
import Testing

/// Keeps the benchmark pipeline from rotting: a small synthetic spec goes through the generator,
/// and its output compiles against the CourierRuntime module of this very build, warnings as errors.
@Suite struct SyntheticCompileTests {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The build's `Modules` folder, which holds `CourierRuntime.swiftmodule` and its dependencies.
    /// The test bundle lives in the same products folder (`.build/<triple>/debug`).
    static func modulesFolder() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var searched: [String] = []
        for _ in 0..<5 {
            let candidate = folder.appendingPathComponent("Modules")
            searched.append(candidate.path)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("CourierRuntime.swiftmodule").path) {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        throw Failure(description: "CourierRuntime.swiftmodule not found; build the whole package first (swift build --build-tests). Searched: \(searched)")
    }

    /// Once as four files, and once split into parts of at most four declarations, which must
    /// compile as one module too: the `Indirect` helper and the shared resilience hints declared
    /// once, and the errors file's private helper in every part that uses it.
    @Test(arguments: [0, 4])
    func generatedCodeForASyntheticSpecCompiles(declarationsPerFile: Int) async throws {
        let synthetic = try SyntheticSpecGenerator(SyntheticSpecConfiguration(endpoints: 15, propertiesPerModel: 6)).generate()
        let folder = try TemporaryFolder()
        let specPath = try folder.write(synthetic.yaml, to: "Synthetic.yaml")

        let generator = try Generator(options: GenerationOptions(declarationsPerFile: declarationsPerFile))
        let result = generator.generate(specAt: URL(fileURLWithPath: specPath), displayPath: "Synthetic.yaml")
        #expect(result.diagnostics.renderedLines == [])
        if declarationsPerFile == 0 {
            #expect(result.files.keys.sorted() == ["SyntheticClient.swift", "SyntheticErrors.swift", "SyntheticModels.swift", "SyntheticRequests.swift"])
        } else {
            // 15 request types in 4 parts of 3 or 4, never a small remainder.
            #expect(result.files.keys.filter { $0.hasPrefix("SyntheticRequests") }.sorted() == [
                "SyntheticRequests.swift", "SyntheticRequests2.swift", "SyntheticRequests3.swift", "SyntheticRequests4.swift",
            ])
            #expect(result.files.keys.contains("SyntheticModels2.swift"))
            #expect(result.files.keys.contains("SyntheticErrors2.swift"))
            let declaringIndirect = result.files.filter { $0.value.contains("indirect enum Indirect<") }.keys.sorted()
            #expect(declaringIndirect == ["SyntheticModels.swift"])
            let declaringHints = result.files.filter { $0.value.contains("extension EndpointResilience {") }.keys.sorted()
            #expect(declaringHints == ["SyntheticRequests.swift"])
            for (name, text) in result.files where name.hasPrefix("SyntheticErrors") {
                #expect(text.contains(".unwrapped(") == text.contains("fileprivate func unwrapped"), "\(name)")
            }
        }
        var sources: [String] = []
        for (name, text) in result.files.sorted(by: { $0.key < $1.key }) {
            sources.append(try folder.write(text, to: "SyntheticAPI/" + name))
        }
        try #require(!sources.isEmpty)

        let modules = try Self.modulesFolder()
        let object = folder.url.appendingPathComponent("SyntheticAPI.o").path
        let compile = try await ChildProcess.run("swiftc", ["-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
                                                            "-module-name", "SyntheticAPI", "-I", modules.path, "-wmo", "-c"]
                                                     + sources + ["-o", object])
        #expect(compile.succeeded, "swiftc failed:\n\(compile.standardError.prefix(4000))")
        #expect(FileManager.default.fileExists(atPath: object))
    }
}
