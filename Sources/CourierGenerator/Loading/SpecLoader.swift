import Foundation

/// Loads a spec file and the files it includes, and validates the whole.
///
/// ```swift
/// let result = SpecLoader().loadSpec(at: URL(fileURLWithPath: "Specs/GitHub.yaml"), displayPath: "Specs/GitHub.yaml")
/// for line in result.diagnostics.renderedLines { print(line) }
/// if let spec = result.spec { /* generate */ }
/// ```
package struct SpecLoader: Sendable {
    /// The most errors reported per loaded file, before "N more errors not shown".
    package var errorLimit: Int
    /// Whether an OpenAPI document read without an overlay discriminates its error mappings on an
    /// error schema's enum field, as an overlay's `inferErrorCases: true` does (`courier import
    /// --infer-error-cases`). An overlay's own setting wins.
    package var infersErrorCases: Bool
    /// Whether every warning is an error (`--strict`): for teams that want no fallback taken
    /// without their say, such as an OpenAPI construct read as `JSON`.
    package var isStrict: Bool

    /// Creates a loader.
    package init(errorLimit: Int = DiagnosticCollector.defaultErrorLimit, infersErrorCases: Bool = false, isStrict: Bool = false) {
        self.errorLimit = errorLimit
        self.infersErrorCases = infersErrorCases
        self.isStrict = isStrict
    }

    /// Loads the spec at `url`. `displayPath` is how the file is named in diagnostics; it
    /// defaults to the URL's path. Included files are named relative to it.
    package func loadSpec(at url: URL, displayPath: String? = nil) -> SpecLoadResult {
        loadSpec(at: url, displayPath: displayPath, willValidate: {})
    }

    /// ``loadSpec(at:displayPath:)``, calling `willValidate` once every file is read, before the
    /// whole is validated: the boundary between the stages progress reports name.
    func loadSpec(at url: URL, displayPath: String?, willValidate: () -> Void) -> SpecLoadResult {
        let display = displayPath ?? url.path
        var session = LoadSession(infersErrorCases: infersErrorCases)
        let root = session.parseFile(at: url.standardizedFileURL.resolvingSymlinksInPath(), displayPath: display)
        willValidate()
        return finish(root: root, session: session)
    }

    /// Loads a spec from `contents`, named `displayPath` in diagnostics. Includes are resolved
    /// relative to `displayPath` on disk (relative to the current directory when it is relative).
    package func loadSpec(contents: String, displayPath: String) -> SpecLoadResult {
        var session = LoadSession(infersErrorCases: infersErrorCases)
        let url = URL(fileURLWithPath: displayPath).standardizedFileURL.resolvingSymlinksInPath()
        let root = session.parseFile(source: .text(contents), url: url, displayPath: displayPath)
        return finish(root: root, session: session)
    }

    /// Loads a spec from raw bytes, named `displayPath` in diagnostics; bytes that are not UTF-8
    /// are reported at their line and column. Includes resolve as for ``loadSpec(contents:displayPath:)``.
    package func loadSpec(data: Data, displayPath: String) -> SpecLoadResult {
        var session = LoadSession(infersErrorCases: infersErrorCases)
        let url = URL(fileURLWithPath: displayPath).standardizedFileURL.resolvingSymlinksInPath()
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
            if isStrict { collector = collector.escalatingWarnings() }
            return SpecLoadResult(spec: nil, isSharedFile: false, diagnostics: collector, sourceFiles: session.sourceFiles)
        }
        files.removeAll { $0.url == root.url }
        var validator = SpecValidator(root: parsed, included: session.includeOrder.compactMap { url in
            files.first { $0.url == url }?.parsed
        })
        let spec = validator.validate()
        collector.report(contentsOf: validator.diagnostics)
        if isStrict { collector = collector.escalatingWarnings() }
        return SpecLoadResult(spec: collector.hasErrors ? nil : spec, isSharedFile: !parsed.isService, diagnostics: collector,
                              sourceFiles: session.sourceFiles)
    }
}

/// What loading one spec produced.
package struct SpecLoadResult: Sendable {
    /// The validated service; `nil` when there were errors or the file is a shared include file.
    package var spec: ServiceSpec?
    /// Whether the file is a shared file of error schemas and models (no `service:`), meant to be
    /// included by services rather than generated on its own.
    package var isSharedFile: Bool
    /// Every error and warning, from this file and the files it includes.
    package var diagnostics: DiagnosticCollector
    /// Every file loading read or tried to read, each once, as absolute file URLs: the spec
    /// (when read from disk), its includes, an overlay's OpenAPI document and every file a
    /// `$ref` names. A file that was missing is listed too, so that `courier generate --watch`
    /// regenerates when it appears.
    package var sourceFiles: [URL]

    /// Creates a result.
    package init(spec: ServiceSpec?, isSharedFile: Bool, diagnostics: DiagnosticCollector, sourceFiles: [URL] = []) {
        self.spec = spec
        self.isSharedFile = isSharedFile
        self.diagnostics = diagnostics
        self.sourceFiles = sourceFiles
    }

    /// Whether any error was reported.
    package var hasErrors: Bool { diagnostics.hasErrors }

    /// A one-line description of what the file holds, as `courier validate` prints it:
    /// `service Bookshelf: 5 endpoints, 3 models, 1 error schema`.
    package var summary: String {
        if isSharedFile { return "shared file of error schemas and models" }
        guard let spec else { return "has errors" }
        return "service \(spec.name): \(plural(spec.endpoints.count, "endpoint")), "
            + "\(plural(spec.models.count, "model")), \(plural(spec.errorSchemas.count, "error schema"))"
    }
}
