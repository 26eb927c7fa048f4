import Foundation

/// Loads a spec file and the files it includes, and validates the whole.
///
/// ```swift
/// let result = SpecLoader().loadSpec(at: URL(fileURLWithPath: "Specs/GitHub.yaml"), displayPath: "Specs/GitHub.yaml")
/// for line in result.diagnostics.renderedLines { print(line) }
/// if let spec = result.spec { /* generate */ }
/// ```
public struct SpecLoader: Sendable {
    /// The most errors reported per loaded file, before "N more errors not shown".
    public var errorLimit: Int

    /// Creates a loader.
    public init(errorLimit: Int = DiagnosticCollector.defaultErrorLimit) {
        self.errorLimit = errorLimit
    }

    /// Loads the spec at `url`. `displayPath` is how the file is named in diagnostics; it
    /// defaults to the URL's path. Included files are named relative to it.
    public func loadSpec(at url: URL, displayPath: String? = nil) -> SpecLoadResult {
        let display = displayPath ?? url.path
        var session = LoadSession()
        let root = session.parseFile(at: url.standardizedFileURL, displayPath: display)
        return finish(root: root, session: session)
    }

    /// Loads a spec from `contents`, named `displayPath` in diagnostics. Includes are resolved
    /// relative to `displayPath` on disk (relative to the current directory when it is relative).
    public func loadSpec(contents: String, displayPath: String) -> SpecLoadResult {
        var session = LoadSession()
        let url = URL(fileURLWithPath: displayPath).standardizedFileURL
        let root = session.parseFile(source: .text(contents), url: url, displayPath: displayPath)
        return finish(root: root, session: session)
    }

    /// Loads a spec from raw bytes, named `displayPath` in diagnostics; bytes that are not UTF-8
    /// are reported at their line and column. Includes resolve as for ``loadSpec(contents:displayPath:)``.
    public func loadSpec(data: Data, displayPath: String) -> SpecLoadResult {
        var session = LoadSession()
        let url = URL(fileURLWithPath: displayPath).standardizedFileURL
        let root = session.parseFile(source: .data(data), url: url, displayPath: displayPath)
        return finish(root: root, session: session)
    }

    private func finish(root: LoadSession.LoadedFile, session: LoadSession) -> SpecLoadResult {
        var collector = DiagnosticCollector(errorLimit: errorLimit)
        var files = session.files
        // Each file's own diagnostics, then include problems, then cross-file validation.
        for file in files { collector.merge(file.diagnostics) }
        collector.report(contentsOf: session.includeDiagnostics.map { $0.singleLined() })
        guard let parsed = root.parsed else {
            return SpecLoadResult(spec: nil, isSharedFile: false, diagnostics: collector)
        }
        files.removeAll { $0.url == root.url }
        var validator = SpecValidator(root: parsed, included: session.includeOrder.compactMap { url in
            files.first { $0.url == url }?.parsed
        })
        let spec = validator.validate()
        collector.report(contentsOf: validator.diagnostics)
        return SpecLoadResult(spec: collector.hasErrors ? nil : spec, isSharedFile: !parsed.isService, diagnostics: collector)
    }
}

/// What loading one spec produced.
public struct SpecLoadResult: Sendable {
    /// The validated service; `nil` when there were errors or the file is a shared include file.
    public var spec: ServiceSpec?
    /// Whether the file is a shared file of error schemas and models (no `service:`), meant to be
    /// included by services rather than generated on its own.
    public var isSharedFile: Bool
    /// Every error and warning, from this file and the files it includes.
    public var diagnostics: DiagnosticCollector

    /// Creates a result.
    public init(spec: ServiceSpec?, isSharedFile: Bool, diagnostics: DiagnosticCollector) {
        self.spec = spec
        self.isSharedFile = isSharedFile
        self.diagnostics = diagnostics
    }

    /// Whether any error was reported.
    public var hasErrors: Bool { diagnostics.hasErrors }
}

/// Reads a root file and, depth first, the files it includes; detects include cycles.
struct LoadSession {
    enum Source {
        case file
        case text(String)
        case data(Data)
    }

    struct LoadedFile {
        let url: URL
        let parsed: ParsedSpecFile?
        let diagnostics: DiagnosticCollector
    }

    private(set) var files: [LoadedFile] = []
    /// Included files in the order their contents should appear (dependencies first).
    private(set) var includeOrder: [URL] = []
    private(set) var includeDiagnostics: [Diagnostic] = []
    private var stack: [(url: URL, displayPath: String)] = []

    mutating func parseFile(at url: URL, displayPath: String) -> LoadedFile {
        parseFile(source: .file, url: url, displayPath: displayPath)
    }

    mutating func parseFile(source: Source, url: URL, displayPath: String) -> LoadedFile {
        let outcome: YAMLSource.Outcome
        switch source {
        case .text(let text):
            outcome = YAMLSource.compose(text, path: displayPath)
        case .data(let data):
            outcome = YAMLSource.compose(data, path: displayPath)
        case .file:
            do {
                let data = try Data(contentsOf: url)
                outcome = YAMLSource.compose(data, path: displayPath)
            } catch {
                outcome = .failure(.error("cannot read the file: \(Self.reason(error, url: url))", at: .start(of: displayPath)))
            }
        }

        var loaded: LoadedFile
        switch outcome {
        case .failure(let diagnostic):
            var collector = DiagnosticCollector()
            collector.report(diagnostic.singleLined())
            loaded = LoadedFile(url: url, parsed: nil, diagnostics: collector)
        case .document(let root, _):
            var parser = SpecFileParser(path: displayPath)
            let parsed = parser.parse(root: root)
            loaded = LoadedFile(url: url, parsed: parsed, diagnostics: parser.reader.diagnostics)
        }
        files.append(loaded)

        if let parsed = loaded.parsed {
            stack.append((url, displayPath))
            for include in parsed.includes {
                loadInclude(include.path, at: include.location, from: url, displayPath: displayPath)
            }
            stack.removeLast()
        }
        return loaded
    }

    private mutating func loadInclude(_ path: String, at location: SourceLocation, from url: URL, displayPath: String) {
        let includedURL: URL
        if path.hasPrefix("/") {
            includedURL = URL(fileURLWithPath: path).standardizedFileURL
        } else {
            includedURL = url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
        }
        let includedDisplay = Self.displayPath(of: path, includedFrom: displayPath)

        if let start = stack.firstIndex(where: { $0.url == includedURL }) {
            let chain = stack[start...].map(\.displayPath) + [includedDisplay]
            includeDiagnostics.append(.error("include cycle: \(chain.joined(separator: " includes ")); remove one of these includes",
                                             at: location))
            return
        }
        if files.contains(where: { $0.url == includedURL }) { return }
        guard FileManager.default.fileExists(atPath: includedURL.path) else {
            includeDiagnostics.append(.error("included file '\(path)' does not exist (looked for \(includedDisplay))", at: location))
            return
        }
        let loaded = parseFile(source: .file, url: includedURL, displayPath: includedDisplay)
        if let parsed = loaded.parsed, parsed.isService {
            includeDiagnostics.append(.error(
                "included file '\(path)' describes a service; include only shared files of 'errorSchemas' and 'models'", at: location))
        }
        includeOrder.append(includedURL)
    }

    /// The display path of `path` included from the file displayed as `parent`: relative
    /// includes stay relative to where the user pointed us (`Specs/Shared/Errors.yaml`).
    static func displayPath(of path: String, includedFrom parent: String) -> String {
        if path.hasPrefix("/") { return path }
        let directory = (parent as NSString).deletingLastPathComponent
        let joined = directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path)
        var components: [String] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            if component == "." { continue }
            if component == "..", let last = components.last, last != "..", !last.isEmpty {
                components.removeLast()
            } else {
                components.append(component)
            }
        }
        return components.joined(separator: "/")
    }

    static func reason(_ error: Error, url: URL) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "it is a directory" }
        return (error as NSError).localizedDescription
    }
}
