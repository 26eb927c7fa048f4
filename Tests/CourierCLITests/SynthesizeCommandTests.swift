import Foundation
import SyntheticSpecs
import Testing

/// `courier synthesize`, run as the real binary: what it writes validates, standard output and a
/// file get the same bytes, and bad sizes are usage errors.
@Suite struct SynthesizeCommandTests {
    private let cli = CLITests()

    @Test func writesASpecThatValidates() async throws {
        try await cli.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("Synthetic.yaml").path
            let written = try await cli.courier("synthesize", "--endpoints", "25", "--errors", "4", "--output", path)
            #expect(written.status == 0, "\(written.standardError)")
            #expect(written.standardOutput.hasPrefix("\(path): 25 endpoints, "))

            let validated = try await cli.courier("validate", path)
            #expect(validated.status == 0)
            #expect(validated.standardError == "")
            #expect(validated.standardOutput.contains("service Synthetic: 25 endpoints"))

            let printed = try await cli.courier("synthesize", "--endpoints", "25", "--errors", "4")
            #expect(printed.status == 0)
            #expect(printed.standardOutput == (try String(contentsOfFile: path, encoding: .utf8)))
        }
    }

    @Test func writesTheOpenAPITwinThatGenerates() async throws {
        try await cli.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("Synthetic.openapi.yaml").path
            let written = try await cli.courier("synthesize", "--endpoints", "25", "--openapi", "--output", path)
            #expect(written.status == 0, "\(written.standardError)")
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\nopenapi: 3.1.0\n"))

            let output = folder.appendingPathComponent("Generated").path
            let generated = try await cli.courier("generate", path, "--output", output)
            #expect(generated.status == 0, "\(generated.standardError)")
            #expect(generated.standardError == "")
            #expect(FileManager.default.fileExists(atPath: output + "/Synthetic/SyntheticClient.swift"))
        }
    }

    @Test func rejectsSizesItCannotGenerate() async throws {
        let tooMany = try await cli.courier("synthesize", "--endpoints", "5", "--errors", "1000")
        #expect(tooMany.status == 64)
        #expect(tooMany.standardError.contains("error mappings per endpoint must be from 0 to "
            + "\(SyntheticSpecConfiguration.maximumErrorMappingsPerEndpoint), not 1000"))
        let none = try await cli.courier("synthesize", "--endpoints", "0")
        #expect(none.status == 64)
        #expect(none.standardError.contains("endpoints must be at least 1, not 0"))
    }
}
