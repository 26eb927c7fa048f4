import Foundation
import Testing

/// `--warning-limit`, the summary of warnings by kind, `--strict` and `--names`, through the
/// real `courier` binary.
extension CLITests {
    /// An OpenAPI document with eight warnings of two kinds: six operations whose query
    /// parameter is an object without a style (left out), and two stray `examples` keys.
    static let noisyDocument: String = {
        var paths = ""
        for index in 1...6 {
            paths += """
                  /things\(index):
                    get:
                      operationId: getThings\(index)
                      parameters: [{ name: filter, in: query, schema: { type: object, properties: { a: { type: string } } } }]
                      responses: { "200": { description: ok, content: { examples: {}, application/json: { schema: { type: string } } } } }

                """
        }
        return """
            openapi: 3.0.3
            info: { title: Noisy }
            servers: [{ url: https://noisy.example.com }]
            paths:
            \(paths)
            """
    }()

    @Test func warningLimitCapsWhatPrintsAndTheSummaryCountsEveryWarning() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("noisy.yaml").path
            try Self.noisyDocument.write(toFile: path, atomically: true, encoding: .utf8)
            let capped = try await courier("validate", path, "--warning-limit", "2")
            #expect(capped.status == 0, "\(capped.standardError)")
            #expect(capped.errorLines.filter { $0.contains(": warning: ") }.count == 2)
            #expect(capped.errorLines.contains("10 more warnings not shown"), "\(capped.errorLines)")
            #expect(capped.errorLines.contains("0 errors, 12 warnings"))
            #expect(capped.errorLines.contains("warnings by kind:"))
            #expect(capped.errorLines.contains {
                $0.hasSuffix("6  query parameter … of type … cannot be sent as Courier sends parameters; it is left out")
            }, "\(capped.errorLines)")
            #expect(capped.errorLines.contains {
                $0.hasSuffix("6  … under … is not a media type (such as …); it is ignored")
            }, "\(capped.errorLines)")

            let all = try await courier("validate", path, "--warning-limit", "100")
            #expect(all.errorLines.filter { $0.contains(": warning: ") }.count == 12)
            #expect(!all.errorLines.contains { $0.contains("more warnings not shown") })
        }
    }

    @Test func strictMakesEveryWarningAnErrorAndGeneratesNothing() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("noisy.yaml").path
            try Self.noisyDocument.write(toFile: path, atomically: true, encoding: .utf8)
            let validated = try await courier("validate", path, "--strict")
            #expect(validated.status == 1)
            #expect(validated.errorLines.filter { $0.contains(": error: ") }.count == 12, "\(validated.errorLines)")
            #expect(!validated.errorLines.contains { $0.contains(": warning: ") })

            let output = folder.appendingPathComponent("Out")
            let generated = try await courier("generate", path, "--output", output.path, "--strict")
            #expect(generated.status == 1)
            #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("Noisy").path))
        }
    }

    @Test func namesListsWhatTheClientCallsEachDeclaration() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("noisy.yaml").path
            try Self.noisyDocument.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try await courier("validate", path, "--names")
            #expect(result.status == 0)
            #expect(result.outputLines.contains("  service Noisy → NoisyClient, NoisyAPIProtocol"), "\(result.outputLines)")
            #expect(result.outputLines.contains {
                $0.hasPrefix("  endpoint getThings1 → func getThings1, GetThings1Request, GetThings1Failure  (\(path):")
            }, "\(result.outputLines)")
        }
    }
}
