@testable import CourierGenerator
import Foundation

/// The example specs in `Specs/` as the CLI sees them when run from the package root.
func exampleSpecInputs() throws -> [SpecInput] {
    let folder = packageRoot.appendingPathComponent("Specs")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        .filter { $0.hasSuffix(".yaml") }
        .sorted()
    return names.map { SpecInput(url: folder.appendingPathComponent($0), displayPath: "Specs/" + $0) }
}

/// Every regular file under `folder`, by path relative to it.
func filesUnder(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
        return files
    }
    let base = folder.standardizedFileURL.resolvingSymlinksInPath().path
    for case let url as URL in enumerator {
        guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        let relative = String(path.dropFirst(base.count + 1))
        files[relative] = try Data(contentsOf: url)
    }
    return files
}

/// The differences between two folders' files, one line per path, sorted; empty when equal.
func differences(expected: [String: Data], actual: [String: Data]) -> [String] {
    var lines: [String] = []
    for path in Set(expected.keys).union(actual.keys).sorted() {
        switch (expected[path], actual[path]) {
        case (nil, _?): lines.append("unexpected file \(path)")
        case (_?, nil): lines.append("missing file \(path)")
        case (let left?, let right?) where left != right: lines.append("different content in \(path)")
        default: break
        }
    }
    return lines
}

/// A spec written for a test: a small service with the given YAML after the header lines.
func serviceYAML(_ name: String, _ body: String = "") -> String {
    """
    service: \(name)
    baseURL: https://\(name.lowercased()).example.com
    \(body)
    """
}
