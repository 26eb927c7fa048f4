import Foundation
import Testing

// The plugins' shared code (Plugins/Shared) is compiled into this target through the
// `PluginShared` symlink, the same way each plugin gets it, so it is tested without SwiftPM.

@Suite struct PluginInputTests {
    @Test func specNamesComeFromTheCourierSuffix() {
        #expect(CourierConventions.specStem(ofFileNamed: "Pets.courier.yaml") == "Pets")
        #expect(CourierConventions.specStem(ofFileNamed: "PetStore2.courier.yml") == "PetStore2")
        #expect(CourierConventions.specStem(ofFileNamed: "Pets.yaml") == nil)
        #expect(CourierConventions.specStem(ofFileNamed: ".courier.yaml") == nil)
        #expect(CourierConventions.generatedFileNames(prefix: "Pets", parts: 1)
            == ["PetsModels.swift", "PetsRequests.swift", "PetsErrors.swift", "PetsClient.swift"])
        #expect(CourierConventions.generatedFileNames(prefix: "Pets", parts: 2) == [
            "PetsModels.swift", "PetsModels2.swift", "PetsRequests.swift", "PetsRequests2.swift",
            "PetsErrors.swift", "PetsErrors2.swift", "PetsClient.swift",
        ])
    }

    @Test func theNumberOfPartsFollowsTheSpecsSize() {
        #expect(CourierConventions.partCount(specBytes: 0) == 1)
        #expect(CourierConventions.partCount(specBytes: 20_000) == 1)
        #expect(CourierConventions.partCount(specBytes: CourierConventions.specBytesPerPart) == 1)
        #expect(CourierConventions.partCount(specBytes: CourierConventions.specBytesPerPart + 1) == 2)
        // The synthetic 1,000-endpoint spec: as many parts as the CLI's default split makes.
        #expect(CourierConventions.partCount(specBytes: 600_000) == 4)
        #expect(CourierConventions.partCount(specBytes: 30_000_000) == CourierConventions.maximumParts)
    }

    @Test func aSpecsSizeCountsWhatItIncludes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-size-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("Pets.courier.yaml")
        let shared = folder.appendingPathComponent("Shared.yaml")
        let unrelated = folder.appendingPathComponent("Other.yaml")
        try Data("service: Pets\ninclude: [Shared.yaml]\n".utf8).write(to: spec)
        try Data(repeating: UInt8(ascii: "#"), count: 1_000).write(to: shared)
        try Data(repeating: UInt8(ascii: "#"), count: 5_000).write(to: unrelated)
        let inputs = try TargetInputs(files: [spec, shared, unrelated])
        let pets = try #require(inputs.specs.first)
        let specSize = try #require(FileManager.default.attributesOfItem(atPath: spec.path)[.size] as? Int)
        #expect(inputs.size(of: pets) == specSize + 1_000)
    }

    @Test func templateNamesArePathsInsideTheTemplatesFolder() {
        let folder = "/p/Sources/App/CourierTemplates/"
        #expect(CourierConventions.templateName(of: URL(fileURLWithPath: folder + "header.mustache")) == "header")
        #expect(CourierConventions.templateName(of: URL(fileURLWithPath: folder + "models/struct.mustache")) == "models/struct")
        #expect(CourierConventions.templateName(of: URL(fileURLWithPath: "/p/Sources/App/header.mustache")) == nil)
        #expect(CourierConventions.templateName(of: URL(fileURLWithPath: folder + "notes.txt")) == nil)
    }

    @Test func targetFilesAreSortedIntoSpecsYAMLAndTemplates() throws {
        let root = "/p/Sources/App/"
        let files = ["main.swift", "Pets.courier.yaml", "Shared/Errors.yaml", "Store.courier.yml",
                     "CourierTemplates/header.mustache", "Resources/data.json"]
            .map { URL(fileURLWithPath: root + $0) }
        let inputs = try TargetInputs(files: files)
        #expect(inputs.specs.map(\.stem) == ["Pets", "Store"])
        #expect(inputs.yamlFiles.map(\.lastPathComponent) == ["Pets.courier.yaml", "Errors.yaml", "Store.courier.yml"])
        #expect(inputs.templates.map(\.name) == ["header"])
        #expect(inputs.templateArguments == ["--template", "header=\(root)CourierTemplates/header.mustache"])
    }

    @Test func specsWhoseOutputsWouldClashAreRejected() {
        let files = ["/p/A/Pets.courier.yaml", "/p/B/PETS.courier.yml"].map { URL(fileURLWithPath: $0) }
        #expect {
            try TargetInputs(files: files)
        } throws: { error in
            "\(error)".contains("two specs are named 'PETS'") && "\(error)".contains("/p/A/Pets.courier.yaml")
        }
        for name in ["pets", "pet-store", "Pet Store", "-x", "Pétanque"] {
            #expect(throws: PluginError.self, "\(name)") {
                try TargetInputs(files: [URL(fileURLWithPath: "/p/\(name).courier.yaml")])
            }
        }
    }

    @Test func includesAreFoundInEveryYAMLSpellingAndThroughOtherIncludes() throws {
        try withTemporaryFolder { folder in
            try write("""
                service: Pets
                include:
                  - Shared/Errors.yaml
                  - "../Outside/Quoted Name.yaml"   # a comment naming Missing.yaml
                models: { Pet: { id: Int } }
                """, to: folder, "Target/Pets.courier.yaml")
            try write("include: [Nested.yml, 'Pets.courier.yaml']\n", to: folder, "Target/Shared/Errors.yaml")
            try write("errorSchemas: {}\n", to: folder, "Target/Shared/Nested.yml")
            try write("include: \(folder.path)/Elsewhere/Absolute.yaml\n", to: folder, "Outside/Quoted Name.yaml")
            try write("models: {}\n", to: folder, "Elsewhere/Absolute.yaml")

            let spec = folder.appendingPathComponent("Target/Pets.courier.yaml")
            let found = IncludeScanner.referencedFiles(from: [spec]).map { String($0.path.dropFirst(folder.path.count + 1)) }
            #expect(found == ["Elsewhere/Absolute.yaml", "Outside/Quoted Name.yaml", "Target/Shared/Errors.yaml", "Target/Shared/Nested.yml"])
        }
    }

    @Test func inputsOfASpecListEachFileOnceSpecFirst() throws {
        try withTemporaryFolder { folder in
            try write("service: Pets\ninclude: Shared/Errors.yaml\n", to: folder, "Target/Pets.courier.yaml")
            try write("include: ../../Outside.yaml\n", to: folder, "Target/Shared/Errors.yaml")
            try write("models: {}\n", to: folder, "Target/Other.courier.yaml")
            try write("models: {}\n", to: folder, "Outside.yaml")
            try write("{{% CONTENT_TYPE: TEXT }}\n", to: folder, "Target/CourierTemplates/header.mustache")
            let files = ["Pets.courier.yaml", "Shared/Errors.yaml", "Other.courier.yaml", "CourierTemplates/header.mustache"]
                .map { folder.appendingPathComponent("Target/" + $0) }
            let inputs = try TargetInputs(files: files)
            let pets = try #require(inputs.specs.first { $0.stem == "Pets" })
            let names = inputs.inputFiles(of: pets).map { String($0.path.dropFirst(folder.path.count + 1)) }
            #expect(names == ["Target/Pets.courier.yaml", "Target/Other.courier.yaml", "Target/Shared/Errors.yaml",
                              "Outside.yaml", "Target/CourierTemplates/header.mustache"])
        }
    }

    @Test func openAPIDocumentsAreSpecsPrefixedByTheirNameOrTheTarget() throws {
        #expect(CourierConventions.openAPIStem(ofFileNamed: "openapi.yaml", targetName: "store-api") == "StoreApi")
        #expect(CourierConventions.openAPIStem(ofFileNamed: "openapi.json", targetName: "PetStore") == "PetStore")
        #expect(CourierConventions.openAPIStem(ofFileNamed: "Billing.openapi.yml", targetName: "App") == "Billing")
        #expect(CourierConventions.openAPIStem(ofFileNamed: "petstore.yaml", targetName: "App") == nil)
        #expect(CourierConventions.openAPIStem(ofFileNamed: ".openapi.json", targetName: "App") == nil)

        let root = "/p/Sources/StoreAPI/"
        let files = ["openapi.yaml", "Billing.openapi.json", "Schemas/pet.yaml", "main.swift"].map { URL(fileURLWithPath: root + $0) }
        let inputs = try TargetInputs(files: files, targetName: "StoreAPI")
        #expect(inputs.specs.map(\.stem) == ["Billing", "StoreAPI"])
        #expect(inputs.yamlFiles.map(\.lastPathComponent) == ["pet.yaml", "openapi.yaml"])
        // A target whose name makes no type name needs the document named instead.
        #expect {
            try TargetInputs(files: [URL(fileURLWithPath: "/p/Sources/9lives/openapi.yaml")], targetName: "9lives")
        } throws: { error in
            "\(error)".contains("/p/Sources/9lives/openapi.yaml: the target's name does not make a Swift type name")
        }
    }

    @Test func aDocumentAnOverlayExtendsIsGeneratedThroughTheOverlayOnly() throws {
        try withTemporaryFolder { folder in
            try write("overlay: 'api/openapi.yaml'   # the vendor's document\nservice: Shop\n", to: folder, "Target/Shop.courier.yaml")
            try write("openapi: 3.1.0\npaths: {}\n", to: folder, "Target/api/openapi.yaml")
            try write("openapi: 3.1.0\npaths: {}\n", to: folder, "Target/Other.openapi.yaml")
            let files = ["Shop.courier.yaml", "api/openapi.yaml", "Other.openapi.yaml"].map { folder.appendingPathComponent("Target/" + $0) }
            let inputs = try TargetInputs(files: files, targetName: "Target")
            #expect(inputs.specs.map(\.stem) == ["Other", "Shop"])
            let shop = try #require(inputs.specs.first { $0.stem == "Shop" })
            // The document is an input of the overlay, so that fetching a new one regenerates.
            #expect(inputs.inputFiles(of: shop).map(\.lastPathComponent).prefix(2) == ["Shop.courier.yaml", "openapi.yaml"])
            #expect(IncludeScanner.overlayDocument(of: files[1]) == nil)
        }
    }

    @Test func referencesOfADocumentAreFoundInYAMLAndJSONWithoutTheirFragment() throws {
        try withTemporaryFolder { folder in
            try write("""
                openapi: 3.0.3
                paths:
                  /pets: { $ref: 'paths/pets.yml' }
                components:
                  schemas:
                    Pet: { $ref: "models/pet.json#/Pet" }
                """, to: folder, "Target/openapi.yaml")
            try write("get: { responses: { default: { $ref: ../../shared/responses.yaml#/problem } } }\n", to: folder, "Target/paths/pets.yml")
            try write(#"{"Pet": {"type": "object", "properties": {"owner": {"$ref": "owner.json"}}}}"# + "\n", to: folder, "Target/models/pet.json")
            try write("{}\n", to: folder, "Target/models/owner.json")
            try write("problem: { description: x }\n", to: folder, "shared/responses.yaml")
            let found = IncludeScanner.referencedFiles(from: [folder.appendingPathComponent("Target/openapi.yaml")])
                .map { String($0.path.dropFirst(folder.path.count + 1)) }
            #expect(found == ["Target/models/owner.json", "Target/models/pet.json", "Target/paths/pets.yml", "shared/responses.yaml"])
        }
    }

    // MARK: - Helpers

    private func withTemporaryFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-plugin-tests-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    private func write(_ text: String, to folder: URL, _ relativePath: String) throws {
        let url = folder.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
