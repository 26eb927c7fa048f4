import Foundation

/// One spec to generate: where to read it, and how to name it in diagnostics and file headers.
package struct SpecInput: Sendable, Hashable {
    /// The spec file.
    package var url: URL
    /// The path as the user gave it (`Specs/GitHub.yaml`), shown instead of the absolute URL.
    package var displayPath: String

    /// An input for the spec at `url`, named `displayPath`.
    package init(url: URL, displayPath: String) {
        self.url = url
        self.displayPath = displayPath
    }
}

extension SpecInput {
    /// `inputs` without the OpenAPI documents that an overlay among them extends: a folder that
    /// holds `openapi.yaml` and an overlay naming it is one service, generated through the
    /// overlay, not two.
    ///
    /// An overlay is found by its top-level `overlay:` line, without parsing YAML, so that a
    /// folder's large documents cost one pass over their bytes here; a file that only looks like
    /// an overlay is still read properly, and reported, when it is generated.
    package static func droppingDocumentsExtendedByOverlays(_ inputs: [SpecInput]) -> [SpecInput] {
        var extended: Set<String> = []
        for input in inputs {
            guard let path = overlayDocumentPath(in: input.url) else { continue }
            let document = path.hasPrefix("/")
                ? URL(fileURLWithPath: path)
                : input.url.deletingLastPathComponent().appendingPathComponent(path)
            extended.insert(document.standardizedFileURL.path)
        }
        guard !extended.isEmpty else { return inputs }
        return inputs.filter { !extended.contains($0.url.standardizedFileURL.path) }
    }

    /// The value of a top-level `overlay:` key in the file, unquoted; `nil` when there is none.
    static func overlayDocumentPath(in url: URL) -> String? {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { return nil }
        let prefix = Array("overlay:".utf8)
        var lineStart = 0
        while lineStart < data.count {
            let lineEnd = data[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? data.count
            if lineEnd - lineStart > prefix.count, data[lineStart..<(lineStart + prefix.count)].elementsEqual(prefix) {
                var value = String(decoding: data[(lineStart + prefix.count)..<lineEnd], as: UTF8.self)
                if let comment = value.range(of: " #") { value = String(value[..<comment.lowerBound]) }
                value = value.trimmingCharacters(in: .whitespaces)
                if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                    value = String(value.dropFirst().dropLast())
                }
                return value.isEmpty ? nil : value
            }
            lineStart = lineEnd + 1
        }
        return nil
    }
}
