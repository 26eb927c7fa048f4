@testable import CourierGenerator
import Foundation
import Testing

/// What `courier init` writes: the starter spec validates and generates without a single
/// diagnostic, starts with the schema modeline, and the package's files put the spec where the
/// build plugin finds it.
@Suite struct StarterProjectTests {
    @Test(arguments: ["Weather", "GitHub", "Shop2"])
    func theStarterSpecGeneratesWithoutADiagnostic(service: String) throws {
        let starter = StarterProject(serviceName: service)
        #expect(starter.diagnostics().diagnostics.isEmpty, "\(starter.diagnostics().renderedLines)")

        let loaded = SpecLoader().loadSpec(contents: starter.specText, displayPath: starter.specFileName)
        let spec = try #require(loaded.spec, "\(loaded.diagnostics.renderedLines)")
        let files = try Generator().generate(spec, specPath: starter.specFileName)
        #expect(files.keys.sorted() == ["\(service)Client.swift", "\(service)Errors.swift", "\(service)Models.swift", "\(service)Requests.swift"])
        let client = try #require(files["\(service)Client.swift"])
        for method in ["func listItems(", "func getItem(", "func createItem("] {
            #expect(client.contains(method), "\(method) missing from the client")
        }
    }

    @Test func theFirstLineIsTheSchemaModeline() {
        let text = StarterProject(serviceName: "Weather").specText
        #expect(text.split(separator: "\n").first == "# yaml-language-server: $schema=courier-spec.schema.json")
        #expect(SpecSchema.schemaPath(inModelineOf: text) == SpecSchema.fileName(for: .spec))
        let files = StarterProject(serviceName: "Weather").specFiles
        #expect(files.map(\.path) == ["Weather.yaml", "courier-spec.schema.json"])
        #expect(files[1].contents == SpecSchema.json(for: .spec))
    }

    @Test func everySectionPointsToTheFormatDocumentation() {
        // Blocks of lines between blank lines: each that holds a top-level key opens with a comment
        // naming its part of SpecFormat.md.
        let blocks = StarterProject(serviceName: "Weather").specText.components(separatedBy: "\n\n")
        var sections = 0
        for block in blocks where block.split(separator: "\n").contains(where: { $0.first?.isLetter == true }) {
            sections += 1
            #expect(block.hasPrefix("#"), "no comment opens the section:\n\(block)")
            #expect(block.contains("(SpecFormat.md: "), "the section's comment names no part of SpecFormat.md:\n\(block)")
        }
        #expect(sections == 7)
    }

    @Test func aNameThatCannotNameAServiceIsADiagnostic() {
        for name in ["my service", "weather", "class", "9Lives", ""] {
            let diagnostics = StarterProject(serviceName: name).diagnostics()
            #expect(diagnostics.hasErrors, "'\(name)' was accepted")
        }
    }

    @Test func thePackagePutsTheSpecWhereTheBuildPluginFindsIt() throws {
        let starter = StarterProject(serviceName: "Weather")
        let files = starter.packageFiles(dependency: .path("../courier"))
        #expect(files.map(\.path) == ["Package.swift", "Sources/WeatherAPI/Weather.courier.yaml", "Sources/WeatherAPI/WeatherAPI.swift",
                                      "Sources/WeatherExample/main.swift", "Tests/WeatherAPITests/WeatherClientTests.swift",
                                      "courier-spec.schema.json"])
        // The modeline climbs from the target's folder to the schema at the package's root.
        #expect(SpecSchema.schemaPath(inModelineOf: files[1].contents) == "../../courier-spec.schema.json")
        #expect(files[5].contents == SpecSchema.json(for: .spec))
        let manifest = files[0].contents
        #expect(manifest.contains(#".package(name: "Courier", path: "../courier")"#))
        #expect(manifest.contains(#".plugin(name: "CourierBuildPlugin", package: "Courier")"#))
    }

    @Test func aURLDependencyIsNamedByItsIdentity() {
        let manifest = StarterProject(serviceName: "Weather")
            .packageFiles(dependency: .url("https://git.example.com/team/courier-swift.git", from: "0.1.0"))[0].contents
        #expect(manifest.contains(#".package(url: "https://git.example.com/team/courier-swift.git", from: "0.1.0")"#))
        #expect(manifest.contains(#".product(name: "CourierRuntime", package: "courier-swift")"#))
        #expect(!manifest.contains(#"package: "Courier")"#))
    }
}
