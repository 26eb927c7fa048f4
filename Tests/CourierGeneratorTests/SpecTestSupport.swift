@testable import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

/// Loads `yaml` as if it were the file `path` and returns what the CLI would print; also checks
/// that generation reports exactly the same about it (``expectValidationMatchesGeneration(_:path:sourceLocation:)``).
func diagnosticLines(_ yaml: String, path: String = "Specs/x.yaml",
                     sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String] {
    expectValidationMatchesGeneration(yaml, path: path, sourceLocation: sourceLocation)
    return SpecLoader().loadSpec(contents: yaml, displayPath: path).diagnostics.renderedLines
}

/// Loads `yaml` and returns the spec, or `nil` with the diagnostics when it has errors; also
/// checks that generation reports exactly the same about it.
func loadSpec(_ yaml: String, path: String = "Specs/x.yaml",
              sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (spec: ServiceSpec?, lines: [String]) {
    expectValidationMatchesGeneration(yaml, path: path, sourceLocation: sourceLocation)
    let result = SpecLoader().loadSpec(contents: yaml, displayPath: path)
    return (result.spec, result.diagnostics.renderedLines)
}

/// ``SpecLoader/loadSpec(contents:displayPath:)``, after checking the same text with
/// ``expectValidationMatchesGeneration(_:path:sourceLocation:)``.
func loadValidated(contents: String, displayPath: String,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SpecLoadResult {
    expectValidationMatchesGeneration(Data(contents.utf8), path: displayPath, sourceLocation: sourceLocation)
    return SpecLoader().loadSpec(contents: contents, displayPath: displayPath)
}

/// ``SpecLoader/loadSpec(data:displayPath:)``, after checking the same bytes with
/// ``expectValidationMatchesGeneration(_:path:sourceLocation:)``.
func loadValidated(data: Data, displayPath: String,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SpecLoadResult {
    expectValidationMatchesGeneration(data, path: displayPath, sourceLocation: sourceLocation)
    return SpecLoader().loadSpec(data: data, displayPath: displayPath)
}

/// Writes `yaml` to a file of its own and checks it with ``loadValidated(at:displayPath:sourceLocation:)``.
///
/// The file sits in a fresh folder, so includes resolve (or fail to) the same way for both runs;
/// `path` only names it in diagnostics.
func expectValidationMatchesGeneration(_ yaml: String, path: String,
                                       sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    expectValidationMatchesGeneration(Data(yaml.utf8), path: path, sourceLocation: sourceLocation)
}

/// Writes `bytes` to a file of its own and checks it with ``loadValidated(at:displayPath:sourceLocation:)``.
func expectValidationMatchesGeneration(_ bytes: Data, path: String,
                                       sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    do {
        let folder = try TemporaryFolder()
        let file = URL(fileURLWithPath: try folder.write(bytes, to: "spec.yaml"))
        loadValidated(at: file, displayPath: path, sourceLocation: sourceLocation)
    } catch {
        Issue.record(error, sourceLocation: sourceLocation)
    }
}

/// Validates the spec at `url` as `courier validate` does and returns the result, after checking
/// that generating it, as `courier generate` does, reports exactly the same: the same errors and
/// warnings at the same places, and so the same exit status. A spec validation accepts is one
/// generation writes, and one it rejects is rejected for the same reasons.
@discardableResult
func loadValidated(at url: URL, displayPath: String,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SpecLoadResult {
    let validated = SpecLoader().loadSpec(at: url, displayPath: displayPath)
    guard let generator = sharedGenerator else {
        Issue.record("the built-in templates do not load", sourceLocation: sourceLocation)
        return validated
    }
    let generated = generator.generate(specAt: url, displayPath: displayPath)
    #expect(generated.diagnostics.renderedLines == validated.diagnostics.renderedLines,
            "validation and generation disagree about \(displayPath)", sourceLocation: sourceLocation)
    #expect(generated.diagnostics.hasErrors == validated.hasErrors, sourceLocation: sourceLocation)
    #expect(generated.succeeded == !validated.hasErrors, sourceLocation: sourceLocation)
    if !validated.hasErrors && !validated.isSharedFile {
        #expect(!generated.files.isEmpty, "a spec validation accepts must generate files", sourceLocation: sourceLocation)
    }
    return validated
}

/// One generator with the built-in templates for every check, since loading templates is the
/// costly part of creating one.
private let sharedGenerator = try? Generator()

/// A folder under the system's temporary directory, removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` to `name` (which may contain subfolders) and returns its path.
    @discardableResult
    func write(_ contents: String, to name: String) throws -> String {
        try write(Data(contents.utf8), to: name)
    }

    /// Writes `data` to `name` (which may contain subfolders) and returns its path.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file.path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The package's root folder, found from this file's path.
let packageRoot = TestEnvironment.repositoryRoot

/// A spec, and the diagnostic lines validation and generation must both print for it: the
/// argument of the table-driven bad-name suites.
struct SpecDiagnosticCase: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    var lines: [String]
    var testDescription: String { name }
}
