@_spi(Generated) import CourierRuntime
import Foundation
import Testing

/// `message: { key:, fallback: }`: the app's table when it has the key, the spec's text otherwise,
/// which is what Linux shows.
@Suite struct LocalizedMessageTests {
    @Test func aKeyNoTableHasGivesTheSpecsText() {
        // The test runner's main bundle has no Localizable table, as no app on Linux does.
        #expect(FailureMessage.localized("errors.notFound", fallback: "The resource does not exist.") == "The resource does not exist.")
        #expect(FailureMessage.localized("", fallback: "Not found.") == "Not found.")
    }

    @Test func aBundleWithTheKeyGivesItsTranslation() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-l10n-\(UUID().uuidString).bundle")
        defer { try? FileManager.default.removeItem(at: root) }
        let table = root.appendingPathComponent("Resources/en.lproj", isDirectory: true)
        let flat = root.appendingPathComponent("en.lproj", isDirectory: true)
        let strings = #""errors.notFound" = "Nothing here.";"# + "\n" + #""errors.empty" = "";"# + "\n"
        for folder in [table, flat] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(strings.utf8).write(to: folder.appendingPathComponent("Localizable.strings"))
        }
        let bundle = try #require(Bundle(url: root))
        #expect(FailureMessage.localized("errors.notFound", fallback: "Not found.", bundle: bundle) == "Nothing here.")
        #expect(FailureMessage.localized("errors.missing", fallback: "Not found.", bundle: bundle) == "Not found.")
        // A key mapped to nothing would show the user nothing; the spec's text stands instead.
        #expect(FailureMessage.localized("errors.empty", fallback: "Empty.", bundle: bundle) == "Empty.")
    }
}
