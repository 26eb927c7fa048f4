@testable import CourierGenerator
import Foundation
import Testing

/// `courier init`, run as the real binary in a scratch folder.
extension CLITests {
    static let modeline = "# yaml-language-server: $schema=courier-spec.schema.json"

    @Test func initWritesAStarterSpecThatGeneratesWithoutADiagnostic() async throws {
        try await withTemporaryFolder { folder in
            let written = try await courier("init", "Weather", in: folder)
            #expect(written.status == 0, "\(written.standardError)")
            #expect(written.outputLines.first == "Wrote Weather.yaml")
            let text = try String(contentsOf: folder.appendingPathComponent("Weather.yaml"), encoding: .utf8)
            #expect(text.hasPrefix(Self.modeline + "\n"))
            // The schema the modeline names is beside the spec, so that an editor finds it offline.
            let schema = try String(contentsOf: folder.appendingPathComponent("courier-spec.schema.json"), encoding: .utf8)
            #expect(schema.contains("\"$schema\""))

            let generated = try await courier("generate", "Weather.yaml", "--output", "Generated", in: folder)
            #expect(generated.status == 0)
            #expect(generated.standardError.isEmpty, "diagnostics for the starter spec:\n\(generated.standardError)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Generated/Weather").path)
            #expect(files.sorted() == ["WeatherClient.swift", "WeatherErrors.swift", "WeatherModels.swift", "WeatherRequests.swift"])
        }
    }

    @Test func initWritesIntoTheOutputFolder() async throws {
        try await withTemporaryFolder { folder in
            let written = try await courier("init", "Shop", "--output", "Specs/New", in: folder)
            #expect(written.status == 0, "\(written.standardError)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Specs/New/Shop.yaml").path))
        }
    }

    @Test func initRefusesToReplaceAFileUnlessForced() async throws {
        try await withTemporaryFolder { folder in
            let spec = folder.appendingPathComponent("Weather.yaml")
            try "service: Mine\n".write(to: spec, atomically: true, encoding: .utf8)

            let refused = try await courier("init", "Weather", in: folder)
            #expect(refused.status == 3)
            #expect(refused.errorLines.first == "error: Weather.yaml exists; pass --force to replace it", "\(refused.standardError)")
            #expect(try String(contentsOf: spec, encoding: .utf8) == "service: Mine\n")

            let forced = try await courier("init", "Weather", "--force", in: folder)
            #expect(forced.status == 0, "\(forced.standardError)")
            #expect(try String(contentsOf: spec, encoding: .utf8).hasPrefix(Self.modeline))
        }
    }

    @Test func initPackageWritesThePackageAndRefusesWithoutWritingAnything() async throws {
        try await withTemporaryFolder { folder in
            let written = try await courier("init", "Weather", "--package", "--courier-path", Self.packageRoot.path,
                                            "--output", "Weather", in: folder)
            #expect(written.status == 0, "\(written.standardError)")
            let package = folder.appendingPathComponent("Weather")
            for path in ["Package.swift", "Sources/WeatherAPI/Weather.courier.yaml", "Sources/WeatherAPI/WeatherAPI.swift",
                         "Sources/WeatherExample/main.swift",
                         "Tests/WeatherAPITests/WeatherClientTests.swift", "courier-spec.schema.json"] {
                #expect(FileManager.default.fileExists(atPath: package.appendingPathComponent(path).path), "\(path) missing")
            }
            let manifest = try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
            #expect(manifest.contains(".package(name: \"Courier\", path: \"\(Self.packageRoot.path)\")"))

            // A second package in a folder where one file of it exists: refused, and nothing else written.
            let second = folder.appendingPathComponent("Second")
            try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
            try "// mine\n".write(to: second.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let refused = try await courier("init", "Weather", "--package", "--courier-path", Self.packageRoot.path,
                                            "--output", "Second", in: folder)
            #expect(refused.status == 3)
            #expect(refused.standardError.contains("Second/Package.swift exists; pass --force"), "\(refused.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: second.path) == ["Package.swift"])
        }
    }

    @Test func initRejectsBadNamesAndMissingCourierLocations() async throws {
        try await withTemporaryFolder { folder in
            let badName = try await courier("init", "my service", in: folder)
            #expect(badName.status == 64)
            #expect(badName.standardError.contains("'my service' cannot name a service"), "\(badName.standardError)")
            #expect(badName.standardError.contains("would be named MyService"), "\(badName.standardError)")
            // The starter spec was never written: no place in it is reported, and one line says it.
            #expect(!badName.standardError.contains(".yaml:"), "\(badName.standardError)")
            #expect(badName.standardError.components(separatedBy: "cannot name").count == 2, "\(badName.standardError)")

            let noLocation = try await courier("init", "Weather", "--package", in: folder)
            #expect(noLocation.status == 64)
            #expect(noLocation.standardError.contains("--courier-path"), "\(noLocation.standardError)")

            let noCheckout = try await courier("init", "Weather", "--package", "--courier-path", "../nowhere", in: folder)
            #expect(noCheckout.status == 64)
            #expect(noCheckout.standardError.contains("no Package.swift"), "\(noCheckout.standardError)")

            let urlWithoutVersion = try await courier("init", "Weather", "--package", "--courier-url", "https://git.example.com/courier.git", in: folder)
            #expect(urlWithoutVersion.status == 64)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "a refused init wrote files")
        }
    }

    @Test func initHelpShowsExamples() async throws {
        let help = try await courier("init", "--help")
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("courier init Weather --package --courier-path ../courier --output Weather"))
        #expect(help.standardOutput.contains("3   a file exists"))
    }
}
