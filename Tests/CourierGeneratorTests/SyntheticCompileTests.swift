import CourierGenerator
import Foundation
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

    @Test func generatedCodeForASyntheticSpecCompiles() throws {
        let synthetic = try SyntheticSpecGenerator(SyntheticSpecConfiguration(endpoints: 15, propertiesPerModel: 6)).generate()
        let folder = try TemporaryFolder()
        let specPath = try folder.write(synthetic.yaml, to: "Synthetic.yaml")

        let result = try Generator().generate(specAt: URL(fileURLWithPath: specPath), displayPath: "Synthetic.yaml")
        #expect(result.diagnostics.renderedLines == [])
        #expect(result.files.keys.sorted() == ["SyntheticClient.swift", "SyntheticErrors.swift", "SyntheticModels.swift", "SyntheticRequests.swift"])
        var sources: [String] = []
        for (name, text) in result.files.sorted(by: { $0.key < $1.key }) {
            sources.append(try folder.write(text, to: "SyntheticAPI/" + name))
        }
        try #require(!sources.isEmpty)

        let modules = try Self.modulesFolder()
        let object = folder.url.appendingPathComponent("SyntheticAPI.o").path
        let compile = try Self.run(["swiftc", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
                                    "-module-name", "SyntheticAPI", "-I", modules.path, "-wmo", "-c"] + sources + ["-o", object])
        #expect(compile.status == 0, "swiftc failed:\n\(compile.error.prefix(4000))")
        #expect(FileManager.default.fileExists(atPath: object))
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Read before waiting, so that a compiler with much to say cannot block on a full pipe.
        let error = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: error, as: UTF8.self))
    }
}
