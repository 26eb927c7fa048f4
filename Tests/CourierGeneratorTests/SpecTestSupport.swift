import CourierGenerator
import Foundation

/// Loads `yaml` as if it were the file `path` and returns what the CLI would print.
func diagnosticLines(_ yaml: String, path: String = "Specs/x.yaml") -> [String] {
    SpecLoader().loadSpec(contents: yaml, displayPath: path).diagnostics.renderedLines
}

/// Loads `yaml` and returns the spec, or `nil` with the diagnostics when it has errors.
func loadSpec(_ yaml: String, path: String = "Specs/x.yaml") -> (spec: ServiceSpec?, lines: [String]) {
    let result = SpecLoader().loadSpec(contents: yaml, displayPath: path)
    return (result.spec, result.diagnostics.renderedLines)
}

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
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
