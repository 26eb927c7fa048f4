import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

/// `../shared/openapi/`, beside the package: public OpenAPI documents CI provides. A git worktree
/// of the package (`worktrees/<name>` inside a checkout) finds the checkout's, a few folders up.
let sharedOpenAPIFolder: URL = {
    var folder = packageRoot.deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = folder.appendingPathComponent("shared/openapi")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/openapi")
}()

/// Every public OpenAPI document in `../shared/openapi/` read, validated, generated and compiled:
/// zero errors each and no compiler warning, with what was imported printed for
/// docs/BENCHMARKS.md. Skipped, saying so, where the folder is absent.
///
/// The compile stops after SIL: `swiftc -emit-sil` type-checks the module and runs the mandatory
/// SIL passes (definite initialisation, missing returns, unreachable code), where every compiler
/// diagnostic comes from; only machine code, which took 11 of the 12 minutes for the five
/// documents on this project's 2-core machine, is left out. Serialized, so that one compiler
/// (about 1.2 GB for GitHub's client) runs at a time beside the rest of the suite.
@Suite("OpenAPI compatibility (../shared/openapi)", .serialized,
       .enabled(if: FileManager.default.fileExists(atPath: sharedOpenAPIFolder.path),
                "../shared/openapi is absent beside the package; the real documents are not read"))
struct OpenAPICompatibilityTests {
    static let folder = sharedOpenAPIFolder
    static let documents = ["train-travel.yaml", "box.json", "discord.json", "github-rest-2021.yaml",
                            "digitalocean/specification/DigitalOcean-public.v2.yaml"]

    @Test("Each document validates without errors, generates, and compiles without warnings", arguments: documents)
    func document(_ path: String) async throws {
        let url = Self.folder.appendingPathComponent(path)
        try #require(FileManager.default.fileExists(atPath: url.path), "\(path) is missing from \(Self.folder.path)")
        let clock = ContinuousClock()
        let start = clock.now
        let loaded = SpecLoader(errorLimit: 1000).loadSpec(at: url, displayPath: path)
        let validated = clock.now - start
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics.renderedLines.prefix(20).joined(separator: "\n"))")
        let spec = try #require(loaded.spec)
        let generation = clock.now
        let result = try Generator().generate(specAt: url, displayPath: path)
        let generated = clock.now - generation
        #expect(result.succeeded)
        #expect(result.files.count >= 4)

        let operations = spec.endpoints.count
        let typed = spec.endpoints.filter { !$0.effectiveErrors.isEmpty }.count
        var kinds: [String: Int] = [:]
        for warning in loaded.diagnostics.diagnostics where warning.severity == .warning {
            // The kind is the message with its quoted names taken out.
            let kind = warning.message.replacingOccurrences(of: "'[^']*'", with: "…", options: .regularExpression)
            kinds[kind, default: 0] += 1
        }
        let lines = result.files.values.reduce(0) { $0 + $1.split(separator: "\n", omittingEmptySubsequences: false).count }
        let ratio = operations == 0 ? 0 : Double(typed) / Double(operations) * 100
        #expect(ratio > 99, "\(typed) of \(operations) operations have typed errors")

        let folder = try TemporaryFolder()
        var sources: [String] = []
        for (name, text) in result.files.sorted(by: { $0.key < $1.key }) {
            sources.append(try folder.write(text, to: "Client/" + name))
        }
        let modules = try SyntheticCompileTests.modulesFolder()
        let compileStart = clock.now
        // At a lower priority, so that the suites that measure time beside it keep the cores.
        let compile = try await ChildProcess.run("nice", ["-n", "10", "swiftc", "-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
                                                            "-module-name", "Client", "-I", modules.path, "-Onone", "-wmo",
                                                            "-emit-sil", "-o", "/dev/null"] + sources)
        let compiled = clock.now - compileStart
        let complaints = compile.standardError.split(separator: "\n").filter { $0.contains("error:") || $0.contains("warning:") }
        #expect(compile.succeeded, "swiftc failed on \(path):\n\(complaints.prefix(30).joined(separator: "\n"))")

        print("openapi-compat: \(path) operations=\(operations) typed-errors=\(typed) (\(String(format: "%.1f", ratio))%) "
              + "models=\(spec.models.count) error-schemas=\(spec.errorSchemas.count) warnings=\(loaded.diagnostics.warningCount) "
              + "load+validate=\(validated) generate=\(generated) files=\(result.files.count) lines=\(lines) "
              + "compile-to-SIL=\(compiled) (debug build)")
        for (kind, count) in kinds.sorted(by: { $0.value > $1.value }) {
            print("openapi-compat:   \(count) × warning: \(kind)")
        }
        #expect(operations > 0)
    }
}
