@testable import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

/// `courier schema`, the schemas committed in `Schemas/`, and the schema `courier import` writes.
extension CLITests {
    /// Runs courier with a list of arguments.
    func courier(_ arguments: [String], in directory: URL = CLITests.packageRoot) async throws -> Output {
        let run = try await ChildProcess.run(try TestEnvironment.courierExecutable().path, arguments, in: directory, timeLimit: .seconds(5 * 60))
        try #require(run.exited, "courier was killed: \(run)")
        return Output(status: run.status, standardOutput: run.standardOutput, standardError: run.standardError)
    }

    @Test func schemaPrintsTheCommittedSchemas() async throws {
        for (arguments, file) in [([String](), "courier-spec.schema.json"), (["--overlay"], "courier-overlay.schema.json")] {
            let result = try await courier(["schema"] + arguments)
            #expect(result.status == 0)
            #expect(result.standardError == "")
            let committed = try String(contentsOf: CLITests.packageRoot.appendingPathComponent("Schemas/\(file)"), encoding: .utf8)
            #expect(result.standardOutput == committed, """
                Schemas/\(file) is not what courier schema \(arguments.joined()) prints; write it again with \
                swift run courier schema \(arguments.joined(separator: " ")) --output Schemas/\(file)
                """)
        }
    }

    @Test func schemaWritesItsOutputOnlyWhenItChanges() async throws {
        try await withTemporaryFolder { folder in
            let first = try await courier("schema", "--output", "Schemas/spec.json", in: folder)
            #expect(first.status == 0)
            #expect(first.outputLines == ["Wrote Schemas/spec.json"])
            let written = folder.appendingPathComponent("Schemas/spec.json")
            #expect(try String(contentsOf: written, encoding: .utf8) == SpecSchema.json(for: .spec))

            let again = try await courier("schema", "--output", "Schemas/spec.json", in: folder)
            #expect(again.outputLines == ["Schemas/spec.json is up to date"])

            try Data("{}\n".utf8).write(to: written)
            let stale = try await courier("schema", "-o", "Schemas/spec.json", in: folder)
            #expect(stale.outputLines == ["Wrote Schemas/spec.json"])
            #expect(try String(contentsOf: written, encoding: .utf8) == SpecSchema.json(for: .spec))

            let help = try await courier("schema", "--help")
            #expect(help.standardOutput.contains("courier schema --overlay --output Schemas/courier-overlay.schema.json"))
            #expect(help.standardOutput.contains("# yaml-language-server: $schema="))

            let empty = try await courier("schema", "--output", "", in: folder)
            #expect(empty.status == 64)
        }
    }

    @Test func importNamesTheSchemaItWritesBesideTheSpec() async throws {
        try await withTemporaryFolder { folder in
            let document = CLITests.packageRoot.appendingPathComponent("Tests/References/OpenAPIPetstore/openapi.yaml")
            try FileManager.default.copyItem(at: document, to: folder.appendingPathComponent("openapi.yaml"))
            let schema = folder.appendingPathComponent("Specs/courier-spec.schema.json")

            let first = try await courier("import", "openapi.yaml", "--output", "Specs/Petstore.yaml", in: folder)
            #expect(first.outputLines == ["Wrote Specs/Petstore.yaml (service Petstore)", "Wrote Specs/courier-spec.schema.json"])
            let spec = try String(contentsOf: folder.appendingPathComponent("Specs/Petstore.yaml"), encoding: .utf8)
            #expect(SpecSchema.schemaPath(inModelineOf: spec) == "courier-spec.schema.json")
            #expect(spec.split(separator: "\n").contains("# yaml-language-server: $schema=courier-spec.schema.json"))
            #expect(try String(contentsOf: schema, encoding: .utf8) == SpecSchema.json(for: .spec))

            // An outdated schema is written again, even when the spec is up to date.
            try Data("{}\n".utf8).write(to: schema)
            let again = try await courier("import", "openapi.yaml", "--output", "Specs/Petstore.yaml", in: folder)
            #expect(again.outputLines == ["Specs/Petstore.yaml is up to date (service Petstore)", "Wrote Specs/courier-spec.schema.json"])
            #expect(try String(contentsOf: schema, encoding: .utf8) == SpecSchema.json(for: .spec))

            let bare = try await courier("import", "openapi.yaml", "--output", "Bare.yaml", "--no-schema", in: folder)
            #expect(bare.outputLines == ["Wrote Bare.yaml (service Petstore)"])
            let bareSpec = try String(contentsOf: folder.appendingPathComponent("Bare.yaml"), encoding: .utf8)
            #expect(SpecSchema.schemaPath(inModelineOf: bareSpec) == nil)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("courier-spec.schema.json").path))
        }
    }
}
