import Foundation

/// What to generate and how.
public struct GenerationOptions: Sendable {
    /// The templates; ``TemplateSet/builtIn`` unless the user overrides some or all.
    public var templates: TemplateSet
    /// The prefix of the four file names; the service's Swift type name when `nil`.
    public var filePrefix: String?
    /// The most errors reported per spec.
    public var errorLimit: Int
    /// The version written into file headers.
    public var version: String
    /// The most top-level declarations (models, request types, failure enums) in one models,
    /// requests or errors file; a service with more is written in numbered parts
    /// (`<Prefix>Requests.swift`, `<Prefix>Requests2.swift`, ...). `0` keeps one file per kind.
    ///
    /// The compiler works on a module's files in parallel, a batch of files per core, and one
    /// 50,000-line file keeps a single core busy while the others wait: a 1,000-endpoint
    /// service, written as 11 files instead of 4, built in 40.9 s instead of 74.0 s on two
    /// cores (docs/BENCHMARKS.md). Specs under the limit keep their four files.
    public var declarationsPerFile: Int

    /// The default of ``declarationsPerFile``: about 12,000 lines of request types or failure
    /// enums per file.
    public static let defaultDeclarationsPerFile = 250

    /// Options with the built-in templates and service-named files.
    public init(templates: TemplateSet = .builtIn, filePrefix: String? = nil,
                errorLimit: Int = DiagnosticCollector.defaultErrorLimit, version: String = GeneratorVersion.current,
                declarationsPerFile: Int = GenerationOptions.defaultDeclarationsPerFile) {
        self.templates = templates
        self.filePrefix = filePrefix
        self.errorLimit = errorLimit
        self.version = version
        self.declarationsPerFile = declarationsPerFile
    }
}

/// What generating one spec produced.
public struct GenerationResult: Sendable {
    /// The spec's path as given, as named in diagnostics and file headers.
    public var specPath: String
    /// The service's Swift type name (its folder under the output), when the spec loaded.
    public var serviceName: String?
    /// Whether the file is a shared file (no `service`), which produces no code.
    public var isSharedFile: Bool
    /// The generated files by name (`GitHubModels.swift`, ...); empty when the spec has errors.
    public var files: [String: String]
    /// Everything the parser, validator and renderer reported.
    public var diagnostics: DiagnosticCollector

    /// Whether the spec produced its files.
    public var succeeded: Bool { !diagnostics.hasErrors && (isSharedFile || serviceName != nil) }
}

/// Turns specs into Swift sources: load and validate, translate into view models, render.
///
/// ```swift
/// let generator = try Generator()
/// let result = generator.generate(specAt: URL(fileURLWithPath: "Specs/GitHub.yaml"), displayPath: "Specs/GitHub.yaml")
/// for line in result.diagnostics.renderedLines { print(line) }
/// // result.files: ["GitHubModels.swift": "...", "GitHubRequests.swift": "...", ...]
/// ```
///
/// A generator is immutable and safe to share; ``generate(specs:)`` runs specs in parallel.
public struct Generator: Sendable {
    /// The templates every generation needs, by name.
    public static let requiredTemplates = ["header", "parameters", "models", "requests", "errors", "client"]

    /// The options.
    public let options: GenerationOptions
    private let renderer: TemplateRenderer

    /// A generator; checks the templates once, before any spec is read.
    ///
    /// - Throws: ``TemplateError`` for a template that is missing, lacks the text pragma or does
    ///   not parse.
    public init(options: GenerationOptions = GenerationOptions()) throws(TemplateError) {
        self.options = options
        renderer = try TemplateRenderer(templates: options.templates)
        try renderer.requireTemplates(Self.requiredTemplates)
    }

    /// Loads, validates and generates the spec at `url`. Never throws: problems are diagnostics.
    ///
    /// `displayPath` names the spec in diagnostics; file headers name it relative to the working
    /// directory when it is absolute, so that no absolute path reaches generated code.
    public func generate(specAt url: URL, displayPath: String? = nil) -> GenerationResult {
        let path = displayPath ?? url.path
        let loaded = SpecLoader(errorLimit: options.errorLimit).loadSpec(at: url, displayPath: path)
        var diagnostics = loaded.diagnostics
        guard let spec = loaded.spec, !diagnostics.hasErrors else {
            return GenerationResult(specPath: path, serviceName: loaded.spec?.swiftName.name,
                                    isSharedFile: loaded.isSharedFile, files: [:], diagnostics: diagnostics)
        }
        if loaded.isSharedFile {
            return GenerationResult(specPath: path, serviceName: nil, isSharedFile: true, files: [:], diagnostics: diagnostics)
        }
        let headerPath = HeaderPath.relative(path)
        do {
            let files = try generate(spec, specPath: headerPath)
            return GenerationResult(specPath: path, serviceName: spec.swiftName.name, isSharedFile: false,
                                    files: files, diagnostics: diagnostics)
        } catch {
            diagnostics.report(.error("cannot render: \(error)", at: spec.location))
            return GenerationResult(specPath: path, serviceName: spec.swiftName.name, isSharedFile: false,
                                    files: [:], diagnostics: diagnostics)
        }
    }

    /// Generates several specs in parallel; results come back in input order. A spec with errors
    /// affects only its own result.
    public func generate(specs: [SpecInput]) async -> [GenerationResult] {
        await withTaskGroup(of: (Int, GenerationResult).self) { group in
            for (index, input) in specs.enumerated() {
                group.addTask { (index, generate(specAt: input.url, displayPath: input.displayPath)) }
            }
            var results = [GenerationResult?](repeating: nil, count: specs.count)
            for await (index, result) in group {
                results[index] = result
            }
            return results.compactMap { $0 }
        }
    }

    /// The files for a validated spec, by file name: four, or more when a kind has more than
    /// ``GenerationOptions/declarationsPerFile`` declarations.
    public func generate(_ spec: ServiceSpec, specPath: String) throws(TemplateError) -> [String: String] {
        let translator = SpecTranslator(spec: spec, specPath: specPath, version: options.version)
        let prefix = options.filePrefix ?? spec.swiftName.name
        let limit = options.declarationsPerFile
        var files: [String: String] = [:]
        try render(translator.modelsFile().parts(of: limit), as: prefix + "Models", template: "models", into: &files)
        try render(translator.requestsFile().parts(of: limit), as: prefix + "Requests", template: "requests", into: &files)
        try render(translator.errorsFile().parts(of: limit), as: prefix + "Errors", template: "errors", into: &files)
        try render([translator.clientFile()], as: prefix + "Client", template: "client", into: &files)
        return files
    }

    /// Renders the parts of one kind as `PetsRequests.swift`, `PetsRequests2.swift`, ...
    private func render<Model: TemplateModel>(
        _ parts: [Model], as baseName: String, template: String, into files: inout [String: String]
    ) throws(TemplateError) {
        for (index, part) in parts.enumerated() {
            files[index == 0 ? "\(baseName).swift" : "\(baseName)\(index + 1).swift"] = try render(part, template: template)
        }
    }

    /// Renders and normalises the end: exactly one line break, so that files are stable under
    /// editors and `git diff` whatever the template's last line looks like.
    private func render(_ model: some TemplateModel, template: String) throws(TemplateError) -> String {
        var text = try renderer.render(model, template: template)
        while text.hasSuffix("\n") { text.removeLast() }
        return text + "\n"
    }
}
