@testable import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

// Serialized: one courier process at a time. Waiting for one blocks no thread, but a dozen at
// once would take both cores of a two-core machine from the timing-sensitive runtime tests.

/// Runs the real `courier` binary, built next to this test bundle, and checks what it prints
/// and how it exits.
@Suite(.serialized) struct CLITests {
    struct Output {
        let status: Int32
        let standardOutput: String
        let standardError: String

        var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
        var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }
    }

    static let packageRoot = TestEnvironment.repositoryRoot

    /// Runs courier with `arguments` in `directory` (the package root by default).
    func courier(_ arguments: String..., in directory: URL = CLITests.packageRoot) async throws -> Output {
        let run = try await ChildProcess.run(try TestEnvironment.courierExecutable().path, arguments, in: directory,
                                             timeLimit: .seconds(5 * 60))
        try #require(run.exited, "courier was killed: \(run)")
        return Output(status: run.status, standardOutput: run.standardOutput, standardError: run.standardError)
    }

    /// A folder for scratch specs, removed afterwards.
    func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    @Test func versionPrintsTheGeneratorVersion() async throws {
        let result = try await courier("--version")
        #expect(result.status == 0)
        #expect(result.standardOutput == "0.1.0\n")
    }

    @Test func helpShowsExamplesAndExitCodes() async throws {
        let result = try await courier("--help")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("courier generate Specs --output Generated"))
        #expect(result.standardOutput.contains("courier validate Specs/*.yaml"))
        #expect(result.standardOutput.contains("0   success"))
        #expect(result.standardOutput.contains("1   a spec or document has errors"))
        #expect(result.standardOutput.contains("64  usage error"))
        #expect(result.standardOutput.contains("validate"))
        #expect(result.standardOutput.contains("generate"))

        let validateHelp = try await courier("validate", "--help")
        #expect(validateHelp.status == 0)
        #expect(validateHelp.standardOutput.contains("courier validate Specs/GitHub.yaml"))
        #expect(validateHelp.standardOutput.contains("--error-limit"))

        let importHelp = try await courier("import", "--help")
        #expect(importHelp.status == 0)
        #expect(importHelp.standardOutput.contains("courier import openapi.yaml --output Specs/Store.yaml"))
        #expect(importHelp.standardOutput.contains("--force"))
        #expect(importHelp.standardOutput.contains("3   the output file could not be written"))
    }

    @Test func exampleSpecsValidateCleanly() async throws {
        let result = try await courier("validate", "Specs/Bookshelf.yaml", "Specs/GitHub.yaml", "Specs/Marketplace.yaml", "Specs/Qiita.yaml")
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.outputLines == [
            "Specs/Bookshelf.yaml: ok, service Bookshelf: 9 endpoints, 10 models, 1 error schema",
            "Specs/GitHub.yaml: ok, service GitHub: 12 endpoints, 18 models, 1 error schema",
            "Specs/Marketplace.yaml: ok, service Marketplace: 9 endpoints, 12 models, 1 error schema",
            "Specs/Qiita.yaml: ok, service Qiita: 10 endpoints, 7 models, 1 error schema",
        ])
    }

    /// A folder's `swagger.json` is a Swagger 2.0 document read like its `openapi.json`; other
    /// JSON files in it are still not specs.
    @Test func aFolderStandsForItsSwaggerJSON() async throws {
        try await withTemporaryFolder { folder in
            let document = """
                { "swagger": "2.0", "info": { "title": "Tiny", "version": "1" }, "host": "tiny.example.com",
                  "paths": { "/items": { "get": { "operationId": "listItems",
                    "responses": { "200": { "description": "ok", "schema": { "type": "array", "items": { "type": "string" } } } } } } } }
                """
            try Data(document.utf8).write(to: folder.appendingPathComponent("swagger.json"))
            try Data("{ \"not\": \"a spec\" }".utf8).write(to: folder.appendingPathComponent("package.json"))
            let result = try await courier("validate", ".", in: folder)
            #expect(result.status == 0, "\(result.errorLines)")
            #expect(result.standardOutput.split(separator: "\n") == ["./swagger.json: ok, service Tiny: 1 endpoint, 0 models, 0 error schemas"])
        }
    }

    @Test func badSpecPrintsCompilerStyleDiagnosticsAndExitsOne() async throws {
        try await withTemporaryFolder { folder in
            let spec = """
                service: Petstore
                baseURL: https://petstore.example.com
                endpoints:
                  getPet:
                    get: /pets/{petId}
                    respnse: Pet

                """
            try Data(spec.utf8).write(to: folder.appendingPathComponent("x.yaml"))
            let result = try await courier("validate", "x.yaml", in: folder)
            #expect(result.status == 1)
            #expect(result.standardOutput == "")
            #expect(result.errorLines == [
                "x.yaml:5:10: error: path parameter '{petId}' of endpoint 'getPet' is not declared under 'path:'",
                "x.yaml:6:5: error: unknown key 'respnse' in endpoint 'getPet'; did you mean 'response'?",
                "2 errors, 0 warnings",
            ])
        }
    }

    /// `validate` is a CI gate for `generate`: on every kind of bad spec, from unreadable YAML to
    /// a model whose Swift name the generated code needs for itself, both commands print the same
    /// diagnostics and exit with the same status.
    @Test func validateAndGenerateAgreeOnBadSpecs() async throws {
        let header = "service: Petstore\nbaseURL: https://petstore.example.com\n"
        let getPet = "endpoints:\n  getPet:\n    get: /pets\n    response: Pet\n"
        let specs: [String: String] = [
            "syntax.yaml": "service: [Petstore\n",
            "unknownKey.yaml": header + "endpoints:\n  getPet:\n    get: /pets\n    respnse: Pet\n",
            "undefinedModel.yaml": header + getPet,
            "runtimeName.yaml": header + "models:\n  APIClient: { id: Int }\n  Pet: { id: Int }\n" + getPet,
            "optional.yaml": header + "models:\n  Optional: { id: Int }\n  Pet: { id: Int }\n" + getPet,
            "requestName.yaml": header + "models:\n  GetPetRequest: { id: Int }\n  Pet: { id: Int }\n" + getPet,
            "clientName.yaml": header + "models:\n  PetstoreClient: { id: Int }\n  Pet: { id: Int }\n" + getPet,
            "sharedFailure.yaml": header + "models:\n  PetstoreFailure: { id: Int }\n  Pet: { id: Int }\n" + getPet,
            "valid.yaml": header + "models:\n  Pet: { id: Int }\n" + getPet,
        ]
        try await withTemporaryFolder { folder in
            for (name, text) in specs {
                try Data(text.utf8).write(to: folder.appendingPathComponent(name))
            }
            for name in specs.keys.sorted() {
                let validated = try await courier("validate", name, in: folder)
                let generated = try await courier("generate", name, "--output", "Out", in: folder)
                #expect(validated.status == generated.status, "\(name)")
                #expect(validated.errorLines == generated.errorLines, "\(name)")
                #expect(validated.status == (name == "valid.yaml" ? 0 : 1), "\(name): \(validated.standardError)")
            }
        }
    }

    @Test func eachBadFileIsReportedAndNoneCrashes() async throws {
        try await withTemporaryFolder { folder in
            try Data().write(to: folder.appendingPathComponent("empty.yaml"))
            try Data([0x73, 0x3A, 0x20, 0xFF, 0x0A]).write(to: folder.appendingPathComponent("latin1.yaml"))
            try Data("- a\n- b\n".utf8).write(to: folder.appendingPathComponent("list.yaml"))
            try Data(("description: " + String(repeating: "[", count: 200_000) + "\n").utf8)
                .write(to: folder.appendingPathComponent("deep.yaml"))
            let result = try await courier("validate", "empty.yaml", "latin1.yaml", "list.yaml", "deep.yaml", in: folder)
            #expect(result.status == 1)
            #expect(result.errorLines == [
                "deep.yaml:1:15: error: YAML nesting is too deep (libyaml allows at most 1000 levels)",
                "empty.yaml:1:1: error: the file is empty; a spec needs at least 'service', 'baseURL' and 'endpoints'",
                "latin1.yaml:1:4: error: the file is not valid UTF-8 (byte 0xFF); save it as UTF-8",
                "list.yaml:1:1: error: the top level must be a mapping with keys such as 'service' and 'endpoints', found a list",
                "4 errors, 0 warnings",
            ])
        }
    }

    @Test func errorsBeyondTheLimitAreCounted() async throws {
        try await withTemporaryFolder { folder in
            var spec = "service: S\nbaseURL: https://s.example.com\nmodels:\n"
            for index in 0..<8 { spec += "  M\(index): { a: Missing\(index) }\n" }
            try Data(spec.utf8).write(to: folder.appendingPathComponent("many.yaml"))
            let result = try await courier("validate", "--error-limit", "3", "many.yaml", in: folder)
            #expect(result.status == 1)
            #expect(result.errorLines == [
                "many.yaml:4:12: error: type 'Missing0' used by property 'a' is not defined",
                "many.yaml:5:12: error: type 'Missing1' used by property 'a' is not defined",
                "many.yaml:6:12: error: type 'Missing2' used by property 'a' is not defined",
                "5 more errors not shown",
                "8 errors, 0 warnings",
            ])
        }
    }

    @Test func warningsDoNotFailValidation() async throws {
        try await withTemporaryFolder { folder in
            let spec = "service: S\nbaseURL: https://s.example.com\nendpoints:\n  read:\n    get: /read\n    idempotencyKey: true\n"
            try Data(spec.utf8).write(to: folder.appendingPathComponent("s.yaml"))
            let result = try await courier("validate", "s.yaml", in: folder)
            #expect(result.status == 0)
            #expect(result.errorLines == [
                "s.yaml:4:3: warning: endpoint 'read' uses GET, which is already idempotent; 'idempotencyKey' is not needed",
                "0 errors, 1 warning",
            ])
            #expect(result.outputLines == ["s.yaml: ok, service S: 1 endpoint, 0 models, 0 error schemas"])
        }
    }

    @Test func aFolderWithAnOverlayAndItsDocumentGeneratesOneService() async throws {
        try await withTemporaryFolder { folder in
            let fixture = CLITests.packageRoot.appendingPathComponent("Tests/References/OpenAPIOverlay")
            let specs = folder.appendingPathComponent("Specs")
            try FileManager.default.createDirectory(at: specs, withIntermediateDirectories: true)
            for name in ["openapi.yaml", "overlay.yaml"] {
                try FileManager.default.copyItem(at: fixture.appendingPathComponent(name), to: specs.appendingPathComponent(name))
            }
            let validated = try await courier("validate", "Specs", in: folder)
            #expect(validated.status == 0, "\(validated.errorLines)")
            // The document is read through the overlay only, not also as a service of its own.
            #expect(validated.outputLines == ["Specs/overlay.yaml: ok, service Shop: 4 endpoints, 8 models, 1 error schema"])
            let generated = try await courier("generate", "Specs", "--output", "Out", in: folder)
            #expect(generated.status == 0, "\(generated.errorLines)")
            let services = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Out").path)
            #expect(services == ["Shop"])
        }
    }

    @Test func importWritesASpecOnceAndKeepsHandEditedFiles() async throws {
        try await withTemporaryFolder { folder in
            let document = CLITests.packageRoot.appendingPathComponent("Tests/References/OpenAPIPetstore/openapi.yaml")
            try FileManager.default.copyItem(at: document, to: folder.appendingPathComponent("openapi.yaml"))

            let first = try await courier("import", "openapi.yaml", "--output", "Specs/Petstore.yaml", in: folder)
            #expect(first.status == 0, "\(first.errorLines)")
            #expect(first.outputLines == ["Wrote Specs/Petstore.yaml (service Petstore)", "Wrote Specs/courier-spec.schema.json"])
            let spec = try String(contentsOf: folder.appendingPathComponent("Specs/Petstore.yaml"), encoding: .utf8)
            #expect(spec.hasPrefix("# Imported by courier import from openapi.yaml, fingerprint "))
            #expect(spec.contains("\nservice: Petstore\n"))

            let again = try await courier("import", "openapi.yaml", "--output", "Specs/Petstore.yaml", in: folder)
            #expect(again.status == 0)
            #expect(again.outputLines == ["Specs/Petstore.yaml is up to date (service Petstore)"])

            // The written spec generates, and validates like any spec.
            let validated = try await courier("validate", "Specs/Petstore.yaml", in: folder)
            #expect(validated.status == 0, "\(validated.errorLines)")

            // An import someone edited (its service renamed, a line appended) no longer matches the
            // fingerprint in its first line: refused without --force, and left as it is.
            let edited = spec.replacingOccurrences(of: "\nservice: Petstore\n", with: "\nservice: MyPetstore\n") + "# my note\n"
            try Data(edited.utf8).write(to: folder.appendingPathComponent("Specs/Petstore.yaml"))
            let onEdited = try await courier("import", "openapi.yaml", "--output", "Specs/Petstore.yaml", in: folder)
            #expect(onEdited.status == 3)
            #expect(onEdited.errorLines.contains {
                $0.contains("Specs/Petstore.yaml was edited since it was imported") && $0.contains("--force")
            }, "\(onEdited.errorLines)")
            #expect(try String(contentsOf: folder.appendingPathComponent("Specs/Petstore.yaml"), encoding: .utf8) == edited)
            let overEdited = try await courier("import", "openapi.yaml", "--output", "Specs/Petstore.yaml", "--force", in: folder)
            #expect(overEdited.status == 0, "\(overEdited.errorLines)")
            #expect(try String(contentsOf: folder.appendingPathComponent("Specs/Petstore.yaml"), encoding: .utf8) == spec)

            // An import from before fingerprints cannot be told unedited: refused too, saying why.
            let unfingerprinted = spec.replacingOccurrences(of: ", fingerprint ", with: ". ")
            try Data(unfingerprinted.utf8).write(to: folder.appendingPathComponent("Specs/Petstore.yaml"))
            let onOld = try await courier("import", "openapi.yaml", "--output", "Specs/Petstore.yaml", in: folder)
            #expect(onOld.status == 3)
            #expect(onOld.errorLines.contains { $0.contains("without a fingerprint") && $0.contains("--force") }, "\(onOld.errorLines)")

            // A file that is not an earlier import may hold edits: refused without --force.
            try Data("service: Mine\n".utf8).write(to: folder.appendingPathComponent("Specs/Mine.yaml"))
            let refused = try await courier("import", "openapi.yaml", "--output", "Specs/Mine.yaml", in: folder)
            #expect(refused.status == 3)
            #expect(refused.errorLines.contains { $0.contains("Specs/Mine.yaml exists and is not an earlier import") })
            #expect(try String(contentsOf: folder.appendingPathComponent("Specs/Mine.yaml"), encoding: .utf8) == "service: Mine\n")
            let forced = try await courier("import", "openapi.yaml", "--output", "Specs/Mine.yaml", "--force", in: folder)
            #expect(forced.status == 0)

            // A broken input writes nothing and says where.
            try Data("openapi: 3.1.0\ninfo: { title: Broken }\npaths: { /a: { get: { responses: { \"200\": { $ref: '#/nope' } } } } }\n".utf8)
                .write(to: folder.appendingPathComponent("broken.yaml"))
            let broken = try await courier("import", "broken.yaml", "--output", "Broken.yaml", in: folder)
            #expect(broken.status == 1)
            #expect(broken.errorLines.contains { $0.hasPrefix("broken.yaml:3:") && $0.contains("points at nothing") }, "\(broken.errorLines)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Broken.yaml").path))
        }
    }

    @Test func missingPathIsAUsageError() async throws {
        let result = try await courier("validate", "Specs/DoesNotExist.yaml")
        #expect(result.status == 64)
        #expect(result.standardError.contains("no such file or folder: Specs/DoesNotExist.yaml"))
    }

    @Test func missingArgumentsAreUsageErrors() async throws {
        #expect(try await courier("validate").status == 64)
        #expect(try await courier("generate", "Specs").status == 64)
        #expect(try await courier("frobnicate").status == 64)
    }

    @Test func generateWritesFourFilesPerServiceThenNothing() async throws {
        try await withTemporaryFolder { folder in
            let output = folder.appendingPathComponent("Generated")
            let result = try await courier("generate", "Specs", "--output", output.path)
            #expect(result.status == 0)
            #expect(result.standardError == "")
            #expect(result.outputLines.count == 33)
            #expect(result.outputLines.first == "added: Bookshelf/BookshelfClient.swift")
            #expect(result.outputLines.last == "Generated 8 services into \(output.path): 32 files written or removed.")
            let qiita = try String(contentsOf: output.appendingPathComponent("Qiita/QiitaModels.swift"), encoding: .utf8)
            #expect(qiita.hasPrefix("// Generated by Courier \(GeneratorVersion.current) from Specs/Qiita.yaml. Do not edit.\n"))

            let again = try await courier("generate", "Specs", "--output", output.path)
            #expect(again.status == 0)
            #expect(again.outputLines == ["Generated 8 services into \(output.path): 0 files written or removed."])

            let check = try await courier("generate", "Specs", "--output", output.path, "--check")
            #expect(check.status == 0)
            #expect(check.outputLines == ["\(output.path) is up to date (8 services)."])

            try Data("// Generated by Courier, then edited\n".utf8).write(to: output.appendingPathComponent("Qiita/QiitaModels.swift"))
            let drift = try await courier("generate", "Specs", "--output", output.path, "--check")
            #expect(drift.status == 2)
            #expect(drift.outputLines == [
                "would be changed: Qiita/QiitaModels.swift",
                "1 file in \(output.path) would change; run the same command without --check.",
            ])
        }
    }

    @Test func generateFlatNeedsOneSpecAndTemplatesMustBeNamed() async throws {
        #expect(try await courier("generate", "Specs", "--output", "/tmp/courier-unused", "--flat").status == 64)
        #expect(try await courier("generate", "Specs", "--output", "/tmp/courier-unused", "--template", "client").status == 64)
        #expect(try await courier("generate", "Specs", "--output", "/tmp/courier-unused", "--file-prefix", "not a name").status == 64)
        try await withTemporaryFolder { folder in
            let result = try await courier("generate", "Specs/Qiita.yaml", "--output", folder.path, "--flat", "--file-prefix", "API")
            #expect(result.status == 0)
            #expect(result.outputLines.prefix(4) == [
                "added: APIClient.swift", "added: APIErrors.swift", "added: APIModels.swift", "added: APIRequests.swift",
            ])
        }
    }

    @Test func aServiceOverTheDeclarationLimitIsSplitIntoPartsAndJoinedAgain() async throws {
        #expect(try await courier("generate", "Specs", "--output", "/tmp/courier-unused", "--declarations-per-file", "-1").status == 64)
        try await withTemporaryFolder { folder in
            // With two declarations per file, Qiita's models, requests and errors come in parts.
            let split = try await courier("generate", "Specs/Qiita.yaml", "--output", folder.path, "--declarations-per-file", "2")
            #expect(split.status == 0)
            #expect(split.outputLines.filter { $0.hasPrefix("added: ") }.sorted() == [
                "added: Qiita/QiitaClient.swift",
                "added: Qiita/QiitaErrors.swift",
                "added: Qiita/QiitaErrors2.swift",
                "added: Qiita/QiitaErrors3.swift",
                "added: Qiita/QiitaErrors4.swift",
                "added: Qiita/QiitaErrors5.swift",
                "added: Qiita/QiitaErrors6.swift",
                "added: Qiita/QiitaModels.swift",
                "added: Qiita/QiitaModels2.swift",
                "added: Qiita/QiitaModels3.swift",
                "added: Qiita/QiitaModels4.swift",
                "added: Qiita/QiitaRequests.swift",
                "added: Qiita/QiitaRequests2.swift",
                "added: Qiita/QiitaRequests3.swift",
                "added: Qiita/QiitaRequests4.swift",
                "added: Qiita/QiitaRequests5.swift",
            ])
            // Back to the default: the parts go, and the four files are what a direct run writes.
            let joined = try await courier("generate", "Specs/Qiita.yaml", "--output", folder.path)
            #expect(joined.status == 0)
            #expect(joined.outputLines.filter { $0.hasPrefix("removed: ") }.sorted() == [
                "removed: Qiita/QiitaErrors2.swift",
                "removed: Qiita/QiitaErrors3.swift",
                "removed: Qiita/QiitaErrors4.swift",
                "removed: Qiita/QiitaErrors5.swift",
                "removed: Qiita/QiitaErrors6.swift",
                "removed: Qiita/QiitaModels2.swift",
                "removed: Qiita/QiitaModels3.swift",
                "removed: Qiita/QiitaModels4.swift",
                "removed: Qiita/QiitaRequests2.swift",
                "removed: Qiita/QiitaRequests3.swift",
                "removed: Qiita/QiitaRequests4.swift",
                "removed: Qiita/QiitaRequests5.swift",
            ])
            for name in ["QiitaModels.swift", "QiitaRequests.swift", "QiitaErrors.swift", "QiitaClient.swift"] {
                let written = try Data(contentsOf: folder.appendingPathComponent("Qiita/" + name))
                let checkedIn = try Data(contentsOf: Self.packageRoot.appendingPathComponent("Generated/Qiita/" + name))
                #expect(written == checkedIn, "\(name)")
            }
        }
    }

    @Test func partsAskForExactlyThatManyFilesOfEachKindTheLastOnesEmpty() async throws {
        #expect(try await courier("generate", "Specs", "--output", "/tmp/courier-unused", "--parts", "0").status == 64)
        try await withTemporaryFolder { folder in
            // Qiita has 10 request types: 12 parts leave the last two requests parts empty.
            let result = try await courier("generate", "Specs/Qiita.yaml", "--output", folder.path, "--flat", "--parts", "12")
            #expect(result.status == 0, "\(result)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            let expected = ["Errors", "Models", "Requests"].flatMap { kind in
                (1...12).map { "Qiita\(kind)\($0 == 1 ? "" : String($0)).swift" }
            } + ["QiitaClient.swift"]
            #expect(names == expected.sorted())
            func declarations(_ name: String) throws -> [String] {
                try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                    .split(separator: "\n").filter { $0.hasPrefix("public struct") }.map(String.init)
            }
            // Every request type once, in the unsplit file's order.
            let parts = try (1...12).flatMap { try declarations("QiitaRequests\($0 == 1 ? "" : String($0)).swift") }
            let unsplit = try String(contentsOf: Self.packageRoot.appendingPathComponent("Generated/Qiita/QiitaRequests.swift"), encoding: .utf8)
                .split(separator: "\n").filter { $0.hasPrefix("public struct") }.map(String.init)
            #expect(parts == unsplit)
            #expect(try declarations("QiitaRequests11.swift").isEmpty)
            #expect(try declarations("QiitaRequests12.swift").isEmpty)
            #expect(try !declarations("QiitaRequests10.swift").isEmpty)
        }
    }

    @Test func generateWithTheTemplatesFolderMatchesTheBuiltInSet() async throws {
        try await withTemporaryFolder { folder in
            let builtIn = folder.appendingPathComponent("builtIn")
            let fromFolder = folder.appendingPathComponent("fromFolder")
            #expect(try await courier("generate", "Specs/Bookshelf.yaml", "--output", builtIn.path).status == 0)
            #expect(try await courier("generate", "Specs/Bookshelf.yaml", "--output", fromFolder.path, "--templates", "Templates").status == 0)
            for name in ["BookshelfModels.swift", "BookshelfRequests.swift", "BookshelfErrors.swift", "BookshelfClient.swift"] {
                let left = try Data(contentsOf: builtIn.appendingPathComponent("Bookshelf/" + name))
                let right = try Data(contentsOf: fromFolder.appendingPathComponent("Bookshelf/" + name))
                #expect(left == right, "\(name)")
            }
            let partial = folder.appendingPathComponent("partial")
            try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
            try Data("{{% CONTENT_TYPE: TEXT }}\n// Generated by Courier\n".utf8).write(to: partial.appendingPathComponent("header.mustache"))
            let missing = try await courier("generate", "Specs/Bookshelf.yaml", "--output", folder.appendingPathComponent("out").path, "--templates", partial.path)
            #expect(missing.status == 3)
            #expect(missing.errorLines == ["error: the template set lacks required templates: client, errors, failureMatching, failureSwitch, models, parameters, requests"])
        }
    }

    @Test func generateRejectsATemplateWithoutThePragma() async throws {
        try await withTemporaryFolder { folder in
            let template = folder.appendingPathComponent("client.mustache")
            try Data("// {{name}}\n".utf8).write(to: template)
            let result = try await courier("generate", "Specs/Qiita.yaml", "--output", folder.path, "--template", "client=\(template.path)")
            #expect(result.status == 3)
            #expect(result.standardError.contains("must start with the line '{{% CONTENT_TYPE: TEXT }}'"))
        }
    }

    @Test func generateSkipsSharedFilesAndStopsOnErrors() async throws {
        let shared = try await courier("generate", "Specs/Shared/PlatformErrors.yaml", "--output", "/tmp/courier-unused")
        #expect(shared.status == 0)
        #expect(shared.outputLines.first == "Specs/Shared/PlatformErrors.yaml: skipped, shared file (no 'service'); it is generated as part of the services that include it")

        try await withTemporaryFolder { folder in
            try Data("service: S\n".utf8).write(to: folder.appendingPathComponent("s.yaml"))
            let result = try await courier("generate", ".", "--output", "out", in: folder)
            #expect(result.status == 1)
            #expect(result.errorLines == ["./s.yaml:1:1: error: the service is missing required key 'baseURL'", "1 error, 0 warnings"])
            #expect(result.outputLines == ["Generated 0 services into out: 0 files written or removed; 1 spec failed and kept its earlier files."])
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
        }
    }
}
