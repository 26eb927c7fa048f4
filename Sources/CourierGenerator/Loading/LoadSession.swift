import Foundation

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
        /// The files reading this one read or tried to read besides itself: an overlay's
        /// document and every file a `$ref` of an OpenAPI document named.
        var readAlongside: [URL] = []
    }

    /// How deep includes may nest; far beyond any real layout, it bounds the work a
    /// pathological tree of files can cause.
    static let maximumIncludeDepth = 16

    /// Whether a document read directly infers error cases (``SpecLoader/infersErrorCases``).
    let infersErrorCases: Bool

    init(infersErrorCases: Bool = false) {
        self.infersErrorCases = infersErrorCases
    }

    private(set) var files: [LoadedFile] = []
    /// Included files in the order their contents should appear (dependencies first).
    private(set) var includeOrder: [URL] = []
    private(set) var includeDiagnostics: [Diagnostic] = []
    private var stack: [(url: URL, displayPath: String)] = []
    /// Every file the session read or tried to read, in order, each once: the root (when read
    /// from disk), its includes (a missing one too, so that a watcher notices it appear), an
    /// overlay's document and the files `$ref`s name.
    private(set) var sourceFiles: [URL] = []

    private mutating func noteSource(_ url: URL) {
        if !sourceFiles.contains(url) { sourceFiles.append(url) }
    }

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
            noteSource(url)
            do {
                let data = try Data(contentsOf: url)
                outcome = YAMLSource.compose(data, path: displayPath)
            } catch {
                outcome = .failure(.error("cannot read the file: \(SourceFiles.reason(error, url: url))", at: .start(of: displayPath)))
            }
        }

        var loaded: LoadedFile
        switch outcome {
        case .failure(let diagnostic):
            var collector = DiagnosticCollector()
            collector.report(diagnostic.singleLined())
            loaded = LoadedFile(url: url, parsed: nil, diagnostics: collector)
        case .document(let root?) where OpenAPIReader.isOpenAPI(root):
            var options = OpenAPIReadOptions()
            options.infersErrorCases = infersErrorCases
            var reader = OpenAPIReader(root: root, url: url, displayPath: displayPath, options: options)
            let parsed = reader.read()
            loaded = LoadedFile(url: url, parsed: parsed, diagnostics: reader.document.diagnostics,
                                readAlongside: reader.document.referencedURLs)
        case .document(let root?) where SpecFileParser.isOverlay(root):
            loaded = loadOverlay(root, url: url, displayPath: displayPath)
        case .document(let root):
            var parser = SpecFileParser(path: displayPath)
            let parsed = parser.parse(root: root)
            loaded = LoadedFile(url: url, parsed: parsed, diagnostics: parser.reader.diagnostics)
        }
        files.append(loaded)
        loaded.readAlongside.forEach { noteSource($0) }

        if let parsed = loaded.parsed {
            stack.append((url, displayPath))
            for include in parsed.includes {
                loadInclude(include.path, at: include.location, from: url, displayPath: displayPath)
            }
            stack.removeLast()
        }
        return loaded
    }

    /// An overlay and the OpenAPI document it names, read as one service: the document with the
    /// overlay's options, then the overlay's additions. Diagnostics of both files are the
    /// overlay's file's.
    private func loadOverlay(_ root: Node, url: URL, displayPath: String) -> LoadedFile {
        var parser = SpecFileParser(path: displayPath)
        var collector = DiagnosticCollector()
        guard let overlay = parser.parseOverlay(root: root) else {
            collector.merge(parser.reader.diagnostics)
            return LoadedFile(url: url, parsed: nil, diagnostics: collector)
        }
        let documentURL = overlay.documentPath.hasPrefix("/")
            ? URL(fileURLWithPath: overlay.documentPath).standardizedFileURL
            : url.deletingLastPathComponent().appendingPathComponent(overlay.documentPath).standardizedFileURL
        let documentDisplay = SourceFiles.displayPath(of: overlay.documentPath, includedFrom: displayPath)
        let alongside = [documentURL]
        let outcome: YAMLSource.Outcome
        do {
            outcome = YAMLSource.compose(try Data(contentsOf: documentURL), path: documentDisplay)
        } catch {
            parser.reader.error("cannot read the OpenAPI document '\(NodeReader.abbreviated(overlay.documentPath))': "
                                + SourceFiles.reason(error, url: documentURL), at: overlay.documentLocation)
            collector.merge(parser.reader.diagnostics)
            return LoadedFile(url: url, parsed: nil, diagnostics: collector, readAlongside: alongside)
        }
        switch outcome {
        case .failure(let diagnostic):
            collector.merge(parser.reader.diagnostics)
            collector.report(diagnostic.singleLined())
            return LoadedFile(url: url, parsed: nil, diagnostics: collector, readAlongside: alongside)
        case .document(let documentRoot):
            guard let documentRoot, OpenAPIReader.isOpenAPI(documentRoot) else {
                parser.reader.error("'\(NodeReader.abbreviated(overlay.documentPath))' is not an OpenAPI document (it has no top-level "
                                    + "'openapi' or 'swagger' key); an overlay extends an OpenAPI or Swagger 2.0 document",
                                    at: overlay.documentLocation)
                collector.merge(parser.reader.diagnostics)
                return LoadedFile(url: url, parsed: nil, diagnostics: collector, readAlongside: alongside)
            }
            var reader = OpenAPIReader(root: documentRoot, url: documentURL, displayPath: documentDisplay, options: overlay.reading)
            _ = reader.read()
            reader.apply(overlay)
            collector.merge(parser.reader.diagnostics)
            collector.merge(reader.document.diagnostics)
            return LoadedFile(url: url, parsed: reader.file, diagnostics: collector,
                              readAlongside: alongside + reader.document.referencedURLs)
        }
    }

    private mutating func loadInclude(_ path: String, at location: SourceLocation, from url: URL, displayPath: String) {
        let includedURL: URL
        if path.hasPrefix("/") {
            includedURL = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        } else {
            includedURL = url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL.resolvingSymlinksInPath()
        }
        let includedDisplay = SourceFiles.displayPath(of: path, includedFrom: displayPath)

        guard stack.count < Self.maximumIncludeDepth else {
            includeDiagnostics.append(.error("includes nest more than \(Self.maximumIncludeDepth) files deep", at: location))
            return
        }
        if let start = stack.firstIndex(where: { $0.url == includedURL }) {
            let chain = stack[start...].map(\.displayPath) + [includedDisplay]
            includeDiagnostics.append(.error("include cycle: \(chain.joined(separator: " includes ")); remove one of these includes",
                                             at: location))
            return
        }
        if files.contains(where: { $0.url == includedURL }) { return }
        noteSource(includedURL)
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
}
