@testable import CourierGenerator
import Foundation
import Testing

/// What a new user meets on the command line in the first hour.
extension CLITests {
    @Test func topLevelHelpListsTheUsersCommandsAndEveryExitStatus() async throws {
        let help = try await courier("--help")
        #expect(help.status == 0)
        let text = help.outputLines.joined(separator: "\n")
        // A benchmark tool is not what a user came for; it still runs when named.
        #expect(!text.contains("synthesize"), "\(text)")
        for command in ["init", "validate", "generate", "import", "schema"] {
            #expect(text.contains("  \(command) "), "\(command) missing from:\n\(text)")
        }
        let statuses = help.outputLines.drop { $0 != "Exit status:" }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.flatMap { Int($0) } }
        #expect(statuses == [0, 1, 2, 3, 64, 130], "\(text)")
        let synthesize = try await courier("synthesize", "--help")
        #expect(synthesize.status == 0)
    }

    @Test func initFindsCourierThroughDotDotPartsWhenTheOutputFolderIsNew() async throws {
        try await withTemporaryFolder { folder in
            // Courier's checkout beside a deep output folder that does not exist yet.
            let checkout = folder.appendingPathComponent("courier")
            try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
            try "// swift-tools-version: 6.0\n".write(to: checkout.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

            let written = try await courier("init", "Weather", "--package", "--courier-path", "../../../courier",
                                            "--output", "apps/ios/Weather", in: folder)
            #expect(written.status == 0, "\(written.standardError)")
            let manifest = try String(contentsOf: folder.appendingPathComponent("apps/ios/Weather/Package.swift"), encoding: .utf8)
            #expect(manifest.contains(#".package(name: "Courier", path: "../../../courier")"#))

            let wrong = try await courier("init", "Weather", "--package", "--courier-path", "../../courier",
                                          "--output", "apps/android/Weather", in: folder)
            #expect(wrong.status == 64)
            #expect(wrong.standardError.contains("no Package.swift at \(folder.standardizedFileURL.path)/apps/courier"), "\(wrong.standardError)")
        }
    }

    @Test func theStarterSpecOfAPackageSaysHowToCheckItFromThePackage() async throws {
        let starter = StarterProject(serviceName: "Weather")
        let files = starter.packageFiles(dependency: .path("../courier"))
        let spec = try #require(files.first { $0.path == "Sources/WeatherAPI/Weather.courier.yaml" }?.contents)
        #expect(spec.contains("swift run courier validate Sources/WeatherAPI/Weather.courier.yaml"), "\(spec)")
        #expect(!spec.contains("courier validate Weather.yaml"))
        // The lone spec names itself.
        #expect(starter.specText.contains("# Check the file with `courier validate Weather.yaml`."))
        // The starter's tests show the generated fake first.
        let tests = try #require(files.first { $0.path.hasSuffix("WeatherClientTests.swift") }?.contents)
        #expect(tests.contains("let fake = WeatherFake()"))
        #expect(tests.contains("StubTransport()"))
    }

    @Test func validateVerboseListsRenamesAndWhatAClientWithoutCredentialsDoes() async throws {
        try await withTemporaryFolder { folder in
            try """
                service: Shop
                baseURL: https://shop.example.com
                auth: bearer
                models:
                  Item:
                    item_id: Int
                    created_at: String
                endpoints:
                  getItem:
                    get: /items/{itemId}
                    path: { itemId: Int }
                    response: Item
                """.write(to: folder.appendingPathComponent("Shop.yaml"), atomically: true, encoding: .utf8)
            let plain = try await courier("validate", "Shop.yaml", in: folder)
            #expect(plain.outputLines == ["Shop.yaml: ok, service Shop: 1 endpoint, 1 model, 0 error schemas"])
            let verbose = try await courier("validate", "Shop.yaml", "--verbose", in: folder)
            #expect(verbose.status == 0, "\(verbose.standardError)")
            #expect(verbose.outputLines == [
                "Shop.yaml: ok, service Shop: 1 endpoint, 1 model, 0 error schemas",
                "  renamed: path parameter 'itemId' of endpoint getItem → itemID  (Shop.yaml:11:13)",
                "  renamed: property 'item_id' of model Item → itemID  (Shop.yaml:6:5)",
                "  auth: ShopClient(auth:) defaults to Authentication.none: a client made without it sends no credentials, "
                    + "and logs so at debug level on its first call that needs them",
            ])
        }
    }
}
