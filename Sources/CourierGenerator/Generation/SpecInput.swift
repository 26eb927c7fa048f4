import Foundation

/// One spec to generate: where to read it, and how to name it in diagnostics and file headers.
public struct SpecInput: Sendable, Hashable {
    /// The spec file.
    public var url: URL
    /// The path as the user gave it (`Specs/GitHub.yaml`), shown instead of the absolute URL.
    public var displayPath: String

    /// An input for the spec at `url`, named `displayPath`.
    public init(url: URL, displayPath: String) {
        self.url = url
        self.displayPath = displayPath
    }
}
