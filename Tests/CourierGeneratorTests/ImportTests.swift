@testable import CourierGenerator
import Foundation
import Testing
import Yams

/// `courier import`: the spec it writes generates the same client as its input, file for file
/// and byte for byte after the first line (which names the file generated from).
@Suite struct ImportTests {
    /// Imports `input`, writes the spec beside a fresh folder, and compares what both generate.
    func expectRoundTrip(_ input: URL, displayPath: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let imported = SpecImporter(errorLimit: 1000).importSpec(at: input, displayPath: displayPath)
        let text = try #require(imported.text, "\(imported.diagnostics.renderedLines.prefix(20))", sourceLocation: sourceLocation)
        #expect(text.hasPrefix(SpecImporter.headerPrefix + displayPath), sourceLocation: sourceLocation)

        let folder = try TemporaryFolder()
        let specURL = URL(fileURLWithPath: try folder.write(text, to: "Imported.yaml"))
        let reloaded = SpecLoader(errorLimit: 1000).loadSpec(at: specURL, displayPath: "Imported.yaml")
        #expect(reloaded.diagnostics.renderedLines == [], "the imported spec does not validate cleanly", sourceLocation: sourceLocation)

        let generator = try Generator()
        let direct = generator.generate(specAt: input, displayPath: displayPath)
        let viaSpec = generator.generate(specAt: specURL, displayPath: "Imported.yaml")
        try #require(direct.succeeded && viaSpec.succeeded, sourceLocation: sourceLocation)
        #expect(direct.files.keys.sorted() == viaSpec.files.keys.sorted(), sourceLocation: sourceLocation)
        for (name, text) in direct.files {
            let other = viaSpec.files[name] ?? ""
            #expect(Self.droppingFirstLine(text) == Self.droppingFirstLine(other),
                    "\(name) differs: \(Self.firstDifference(text, other))", sourceLocation: sourceLocation)
        }
    }

    static func droppingFirstLine(_ text: String) -> Substring {
        text.firstIndex(of: "\n").map { text[text.index(after: $0)...] } ?? ""
    }

    static func firstDifference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 1..<max(left.count, right.count) where index >= left.count || index >= right.count || left[index] != right[index] {
            return "line \(index + 1): '\(index < left.count ? left[index] : "")' vs '\(index < right.count ? right[index] : "")'"
        }
        return "none"
    }

    @Test("The OpenAPI fixtures round-trip", arguments: ["OpenAPIPetstore/openapi.yaml", "OpenAPIOverlay/overlay.yaml"])
    func fixtureRoundTrips(path: String) throws {
        try expectRoundTrip(packageRoot.appendingPathComponent("Tests/References/" + path), displayPath: path)
    }

    @Test("Every Courier spec in Specs/ round-trips too", arguments: ["Bookshelf.yaml", "GitHub.yaml", "Marketplace.yaml", "OpenAI.yaml"])
    func exampleSpecRoundTrips(name: String) throws {
        try expectRoundTrip(packageRoot.appendingPathComponent("Specs/" + name), displayPath: "Specs/" + name)
    }

    /// The acceptance documents of `../shared/openapi/`. The corpus beside them is not imported
    /// here yet: some of its documents need a parameter renamed in Swift (a path and a query
    /// parameter of one name), which the format cannot write.
    @Test("The public documents round-trip",
          .enabled(if: CompatibilityCorpus.isPresent, "../shared/openapi is absent beside the package; the real documents are not imported"),
          arguments: CompatibilityCorpus.documents.filter { $0.hasPrefix("openapi/") })
    func publicDocumentRoundTrips(path: String) throws {
        try expectRoundTrip(sharedDocumentsFolder.appendingPathComponent(path), displayPath: path)
    }

    @Test func importOffersCasesForAnErrorSchemasEnumFieldWhenAsked() throws {
        let document = packageRoot.appendingPathComponent("Tests/References/OpenAPIOverlay/openapi.yaml")
        let plain = try #require(SpecImporter().importSpec(at: document, displayPath: "openapi.yaml").text)
        #expect(!plain.contains("discriminator:"))
        let offered = try #require(SpecImporter(infersErrorCases: true).importSpec(at: document, displayPath: "openapi.yaml").text)
        #expect(offered.contains("""
                  discriminator: error.type
                  cases:
                    api_error: apiError
                    card_error: cardError
                    idempotency_error: idempotencyError
                    invalid_request_error: invalidRequestError
                  otherwise: error
            """), "\(offered)")
        // What it offers is a spec like any other.
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(offered, to: "Shop.yaml"))
        #expect(SpecLoader().loadSpec(at: url, displayPath: "Shop.yaml").diagnostics.renderedLines == [])
    }

    @Test func whatTheFormatCannotSayIsAnErrorNotALoss() throws {
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write("""
            service: Limited
            baseURL: https://limited.example.com
            rateLimit: { remaining: X-Left }
            endpoints:
              ping: { get: /ping }
            """, to: "Limited.yaml"))
        let result = SpecImporter().importSpec(at: url, displayPath: "Limited.yaml")
        #expect(result.text == nil)
        #expect(result.diagnostics.renderedLines.contains {
            $0.hasPrefix("Limited.yaml:1:10: error: courier import does not write the service's rateLimit fields")
        }, "\(result.diagnostics.renderedLines)")
    }

    /// Every scalar the writer emits reads back, through Yams, as the same string.
    @Test func scalarsReadBackAsWritten() throws {
        let hostile = ["", " lead", "trail ", "yes", "No", "null", "~", "1", "-2.5", "1e3", "0x1F", "+1", "-1", ".5", "1_000",
                       "a: b", "a #b", "#c", "- item", "? key", "[x]", "{y}", "a,b", "quote\"d", "back\\slash", "tab\there",
                       "line\nbreak", "é ünïcödé 🎉", "@at", "`tick`", "%pct", "!tag", "&anchor", "*alias", "|block", ">fold",
                       "'single'", "ends:", "\u{7}bell", "\u{2028}sep", "<<", "plain words, with commas"]
        for value in hostile {
            for (written, key) in [(YAMLText.scalar(value), "block"), (YAMLText.flowScalar(value), "flow")] {
                let yaml = key == "block" ? "k: \(written)\n" : "k: [\(written)]\n"
                let node = try Yams.compose(yaml: yaml)
                let read = key == "block" ? node?["k"]?.string : node?["k"]?.sequence?.first?.string
                #expect(read == value, "\(key) \(written) read back as \(read ?? "nothing")")
            }
            let asKey = try Yams.compose(yaml: "\(YAMLText.key(value)): v\n")
            #expect(asKey?.mapping?.keys.first?.string == value, "key \(YAMLText.key(value))")
        }
        #expect(YAMLText.scalar("plain words") == "plain words")
        #expect(YAMLText.scalar("yes") == "\"yes\"")
    }
}
