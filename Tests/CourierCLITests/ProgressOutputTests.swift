import CourierTestSupport
import Foundation
import Testing

/// What `courier generate` prints besides diagnostics: a progress line only on a terminal, and
/// nothing but diagnostics with `--quiet`.
@Suite(.serialized) struct ProgressOutputTests {
    /// Two services, so that the run has several specs to show.
    func withSpecs<T>(broken: Bool = false, _ body: (URL) async throws -> T) async throws -> T {
        try await CLITests().withTemporaryFolder { folder in
            let specs = folder.appendingPathComponent("Specs")
            try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
            for name in ["Alpha", "Beta"] {
                try Data("""
                    service: \(name)
                    baseURL: https://\(name.lowercased()).example.com
                    models:
                      Item: { id: String }
                    endpoints:
                      getItem:
                        get: /items/{id}
                        path: { id: String }
                        response: \(broken && name == "Beta" ? "Itm" : "Item")
                    """.utf8).write(to: specs.appendingPathComponent("\(name).yaml"))
            }
            return try await body(folder)
        }
    }

    @Test func withoutATerminalThereIsNoProgress() async throws {
        try await withSpecs { folder in
            let result = try await CLITests().courier("generate", "Specs", "--output", "Generated", in: folder)
            #expect(result.status == 0)
            #expect(result.standardError == "")
            #expect(result.standardOutput.contains("Generated 2 services into Generated: 8 files written or removed."))
        }
    }

    @Test func quietPrintsOnlyDiagnostics() async throws {
        try await withSpecs { folder in
            let result = try await CLITests().courier("generate", "Specs", "--output", "Generated", "--quiet", in: folder)
            #expect(result.status == 0)
            #expect(result.standardOutput == "")
            #expect(result.standardError == "")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Generated/Beta/BetaClient.swift").path))
        }
        try await withSpecs(broken: true) { folder in
            let result = try await CLITests().courier("generate", "Specs", "--output", "Generated", "--quiet", in: folder)
            #expect(result.status == 1)
            #expect(result.standardOutput == "")
            #expect(result.errorLines.count == 2)
            #expect(result.errorLines.first?.hasPrefix("Specs/Beta.yaml:") == true)
            #expect(result.errorLines.last == "1 error, 0 warnings")
        }
    }

    #if canImport(Glibc)
    // The pseudo-terminal comes from Glibc's openpty.
    @Test func onATerminalProgressIsShownAndClearedUnlessQuiet() async throws {
        let courier = try TestEnvironment.courierExecutable().path
        try await withSpecs { folder in
            let shown = try await ChildProcess.runWithTerminal(courier, ["generate", "Specs", "--output", "Generated"], in: folder)
            #expect(shown.status == 0)
            // Specs run in parallel, and repeated stages are drawn a few times a second at most:
            // which spec's line shows each stage varies, but the first of each stage is drawn.
            #expect(shown.terminal.contains("/2] Specs/"))
            #expect(shown.terminal.contains(".yaml: reading"))
            #expect(shown.terminal.contains(".yaml: rendering "))
            #expect(shown.terminal.contains("writing 8 files"))
            // The line is erased before the run ends, so that the shell's prompt starts clean.
            #expect(shown.terminal.hasSuffix("\r\u{1B}[K"))
            #expect(shown.standardOutput.contains("Generated 2 services"))

            let quiet = try await ChildProcess.runWithTerminal(courier, ["generate", "Specs", "--output", "Generated", "--quiet"], in: folder)
            #expect(quiet.status == 0)
            #expect(quiet.terminal == "")
            #expect(quiet.standardOutput == "")
        }
    }
    #endif
}
