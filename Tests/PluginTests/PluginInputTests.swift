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
        #expect(CourierConventions.generatedFileNames(prefix: "Pets")
            == ["PetsModels.swift", "PetsRequests.swift", "PetsErrors.swift", "PetsClient.swift"])
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
