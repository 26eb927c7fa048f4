@testable import CourierGenerator
import Foundation
import Testing

/// Compares the complete generated source of small focused specs with the files kept next to
/// them in `Tests/References/<Feature>/`. Each folder is also a target of the package, so the
/// expected code is compiled (without warnings) by every build.
///
/// Re-record after an intended change with:
///   COURIER_UPDATE_REFERENCES=1 swift test --filter ReferenceTests
@Suite("Reference outputs")
struct ReferenceTests {
    static let updateVariable = "COURIER_UPDATE_REFERENCES"
    static let features = ["Auth", "Discriminators", "Enums", "ErrorMatching", "ErrorMeaning", "ErrorRanges", "Escaping", "FaultSuite", "Forms", "Keywords", "OpenAPIOverlay", "OpenAPIPetstore", "Outcomes", "Pagination", "Parameters", "Payloads", "Recursion", "Resilience", "Streaming", "Unions"]

    @Test("Generated code equals the reference", arguments: features)
    func reference(feature: String) throws {
        let folder = packageRoot.appendingPathComponent("Tests/References/\(feature)")
        // A Courier spec, an overlay over an OpenAPI document, or a document read directly.
        let specName = ["spec.yaml", "overlay.yaml", "openapi.yaml", "openapi.json"].first {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        } ?? "spec.yaml"
        let displayPath = "Tests/References/\(feature)/\(specName)"
        let result = try Generator().generate(specAt: folder.appendingPathComponent(specName), displayPath: displayPath)
        #expect(result.succeeded, "\(result.diagnostics.renderedLines)")
        #expect(result.files.count == 4)
        let output = GenerationOutput(root: folder, layout: .flat)
        let update = ProcessInfo.processInfo.environment[Self.updateVariable] == "1"
        let report = output.apply([result], checkOnly: !update, removesStaleFolders: false)
        #expect(report.failures.isEmpty)
        if !update {
            #expect(report.isUpToDate, """
                \(feature): the generated code differs from the reference (\(report.changeLines.joined(separator: ", "))). \
                If the change is intended, re-record with: \(Self.updateVariable)=1 swift test --filter ReferenceTests
                """)
        }
    }

    @Test("Every reference folder is listed and is a package target")
    func everyFolderIsCovered() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Tests/References").path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
        #expect(folders == Self.features)
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for feature in Self.features {
            #expect(manifest.contains("referenceFixture(\"\(feature)\""), "\(feature) is not compiled")
        }
    }

    @Test("Every runtime type the generated references and examples name is one no spec type may take")
    func runtimeTypesInGeneratedCodeAreReserved() throws {
        // A model named like a runtime type that generated code names unqualified would shadow
        // it and the client would not compile, so validation must refuse (or, for OpenAPI,
        // rename) it.
        func swiftFiles(under path: String) -> [URL] {
            let walker = FileManager.default.enumerator(at: packageRoot.appendingPathComponent(path), includingPropertiesForKeys: nil)
            return (walker?.compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "swift" }
        }
        var runtimeTypes: Set<String> = []
        for file in swiftFiles(under: "Sources/CourierRuntime") {
            let code = FolderUses.withoutComments(try String(contentsOf: file, encoding: .utf8))
            for line in code.split(separator: "\n") {
                if let name = FolderUses.topLevelTypeName(in: line) { runtimeTypes.insert(name) }
            }
        }
        #expect(runtimeTypes.contains("APIClient") && runtimeTypes.contains("DateField"))
        var unreserved: [String: String] = [:]
        for file in swiftFiles(under: "Tests/References") + swiftFiles(under: "Generated") {
            // String literals left out: a header named `X-RateLimit-Remaining` is not a use.
            let code = FolderUses.withoutComments(try String(contentsOf: file, encoding: .utf8))
                .replacing(/"(?:\\.|[^"\\\n])*"/, with: "\"\"")
            for name in FolderUses.typeLikeWords(in: code).intersection(runtimeTypes)
            where !GeneratedNames.reservedTypes.contains(name) && ReservedNames.types[name] == nil {
                unreserved[name] = file.lastPathComponent
            }
        }
        #expect(unreserved.isEmpty, "generated code names runtime types that a spec's model could take: \(unreserved.sorted { $0.key < $1.key })")
    }

    @Test("A spec type named like a type the generated code needs is an error at its line")
    func reservedTypeNames() throws {
        let result = try generate("""
            service: Clash
            baseURL: https://clash.example.com
            models:
              Parameters: { a: String }
              PingRequest: { b: String }
            endpoints:
              ping: { get: /ping }
            """, named: "clash.yaml")
        #expect(!result.succeeded)
        #expect(result.files.isEmpty)
        #expect(result.diagnostics.renderedLines == [
            "clash.yaml:4:3: error: model 'Parameters' becomes the Swift type 'Parameters', which generated code uses for a type of its own; rename it",
            "clash.yaml:5:3: error: model 'PingRequest' becomes the Swift type 'PingRequest', the name of the request type of endpoint 'ping'; rename one",
        ])
    }

    @Test("The shared failure enum's name clashing with an endpoint's or a model's type is an error at its line")
    func sharedFailureNameClashes() throws {
        let result = try generate("""
            service: Shop
            baseURL: https://shop.example.com
            defaults:
              errors:
                404: notFound
            models:
              ShopFailure: { a: String }
            endpoints:
              shop: { get: /shop }
              ping: { get: /ping }
            """, named: "shop.yaml")
        #expect(!result.succeeded)
        #expect(result.files.isEmpty)
        let owner = "the failure type service 'Shop' shares for endpoints that document only its defaults"
        #expect(result.diagnostics.renderedLines == [
            "shop.yaml:7:3: error: model 'ShopFailure' becomes the Swift type 'ShopFailure', the name of \(owner); rename one",
            "shop.yaml:9:3: error: endpoint 'shop' has the failure type 'ShopFailure', the name of \(owner); rename the endpoint",
        ])
    }

    @Test("The shared failure name is free when every endpoint documents failures of its own")
    func sharedFailureNameUnusedIsFree() throws {
        let result = try generate("""
            service: Shop
            baseURL: https://shop.example.com
            models:
              ShopFailure: { a: String }
            endpoints:
              ping:
                get: /ping
                errors:
                  404: notFound
            """, named: "shop.yaml")
        #expect(result.succeeded)
        let errors = try #require(result.files["ShopErrors.swift"])
        #expect(!errors.contains("enum ShopFailure"))
        #expect(errors.contains("public enum PingFailure: EndpointFailure"))
    }

    @Test("A service or endpoint whose generated type would be a runtime type is an error at its line")
    func reservedGeneratedNames() throws {
        let result = try generate("""
            service: Endpoint
            baseURL: https://endpoint.example.com
            endpoints:
              api: { get: /api }
            """, named: "endpoint.yaml")
        #expect(!result.succeeded)
        #expect(result.diagnostics.renderedLines == [
            "endpoint.yaml:1:10: error: service 'Endpoint' needs the Swift type 'EndpointFailure' for the failure type service 'Endpoint' shares for endpoints that document only its defaults, but generated code uses that name for a type of its own; rename the service",
            "endpoint.yaml:4:3: error: endpoint 'api' needs the Swift type 'APIRequest', which generated code uses for a type of its own; rename the endpoint",
        ])
    }

    /// Writes `yaml` to a temporary file called `name` and generates it, after checking that
    /// validation reports exactly what generation does.
    private func generate(_ yaml: String, named name: String,
                          sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> GenerationResult {
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(yaml, to: name))
        loadValidated(at: url, displayPath: name, sourceLocation: sourceLocation)
        return try Generator().generate(specAt: url, displayPath: name)
    }
}
