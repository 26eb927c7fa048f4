import Foundation

/// What to generate and how.
package struct GenerationOptions: Sendable {
    /// The templates; ``TemplateSet/builtIn`` unless the user overrides some or all.
    package var templates: TemplateSet
    /// The prefix of the four file names; the service's Swift type name when `nil`.
    package var filePrefix: String?
    /// The most errors reported per spec.
    package var errorLimit: Int
    /// The version written into file headers.
    package var version: String
    /// The most top-level declarations (models, request types, failure enums) in one models,
    /// requests or errors file; a service with more is written in numbered parts
    /// (`<Prefix>Requests.swift`, `<Prefix>Requests2.swift`, ...). `0` keeps one file per kind.
    ///
    /// The compiler works on a module's files in parallel, a batch of files per core, and one
    /// 50,000-line file keeps a single core busy while the others wait: a 1,000-endpoint
    /// service, written as 11 files instead of 4, built in 40.9 s instead of 74.0 s on two
    /// cores (docs/BENCHMARKS.md). Specs under the limit keep their four files.
    package var declarationsPerFile: Int

    /// The default of ``declarationsPerFile``: about 12,000 lines of request types or failure
    /// enums per file.
    package static let defaultDeclarationsPerFile = 250

    /// Exactly this many models, requests and errors files each, the last ones empty when the
    /// service has fewer declarations, in place of ``declarationsPerFile``; `nil` by default.
    ///
    /// For a build tool that must name its output files before the spec is read, as SwiftPM's
    /// build plugins do: the build plugin derives the count from the size of the spec's files.
    package var partsPerKind: Int?

    /// Whether every warning is an error, so that a spec with one generates nothing (`--strict`).
    package var isStrict = false

    /// Options with the built-in templates and service-named files.
    package init(templates: TemplateSet = .builtIn, filePrefix: String? = nil,
                errorLimit: Int = DiagnosticCollector.defaultErrorLimit, version: String = GeneratorVersion.current,
                declarationsPerFile: Int = GenerationOptions.defaultDeclarationsPerFile, partsPerKind: Int? = nil) {
        self.templates = templates
        self.filePrefix = filePrefix
        self.errorLimit = errorLimit
        self.version = version
        self.declarationsPerFile = declarationsPerFile
        self.partsPerKind = partsPerKind
    }
}

/// What generating one spec produced.
package struct GenerationResult: Sendable {
    /// The spec's path as given, as named in diagnostics and file headers.
    package var specPath: String
    /// The service's Swift type name (its folder under the output), when the spec loaded.
    var serviceName: String?
    /// Whether the file is a shared file (no `service`), which produces no code.
    package var isSharedFile: Bool
    /// The generated files by name (`GitHubModels.swift`, ...); empty when the spec has errors.
    package var files: [String: String]
    /// Everything the parser, validator and renderer reported.
    package var diagnostics: DiagnosticCollector
    /// Every file generating read or tried to read (``SpecLoadResult/sourceFiles``): what
    /// `courier generate --watch` watches for this spec.
    package var sourceFiles: [URL] = []

    /// Whether the spec produced its files.
    package var succeeded: Bool { !diagnostics.hasErrors && (isSharedFile || serviceName != nil) }
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
/// A generator is immutable and safe to share; ``generate(specs:progress:)`` runs specs, and the
/// files of each, as tasks in parallel.
package struct Generator: Sendable {
    /// The templates every generation needs, by name.
    static let requiredTemplates = ["header", "parameters", "failureMatching", "failureSwitch", "models", "requests", "errors", "client"]

    /// The options.
    package let options: GenerationOptions
    private let renderer: TemplateRenderer

    /// A generator; checks and compiles the templates once, before any spec is read.
    ///
    /// - Throws: ``TemplateError`` for a template that is missing, lacks the text pragma, does
    ///   not parse, or reads a value its view model does not have.
    package init(options: GenerationOptions = GenerationOptions()) throws(TemplateError) {
        self.options = options
        renderer = try TemplateRenderer(templates: options.templates)
        try renderer.requireTemplates(Self.requiredTemplates)
        try renderer.compile("models", for: ModelsFileModel.self)
        try renderer.compile("requests", for: RequestsFileModel.self)
        try renderer.compile("errors", for: ErrorsFileModel.self)
        try renderer.compile("client", for: ClientFileModel.self)
    }

    /// Loads, validates and generates the spec at `url`. Never throws: problems are diagnostics.
    ///
    /// `displayPath` names the spec in diagnostics; file headers name it relative to the working
    /// directory when it is absolute, so that no absolute path reaches generated code.
    ///
    /// The files are rendered one after another on the caller's thread, which a synchronous
    /// caller has chosen to spend; ``generate(specs:progress:)`` renders them as tasks of the
    /// concurrency pool instead.
    package func generate(specAt url: URL, displayPath: String? = nil) -> GenerationResult {
        let report: @Sendable (GenerationProgress.Stage) -> Void = { _ in }
        switch prepare(specAt: url, displayPath: displayPath, report: report) {
        case .finished(let result):
            return result
        case .rendering(var result, let jobs, let location):
            result.record(renderSequentially(jobs, report: report), at: location)
            return result
        }
    }

    /// Generates several specs in parallel; results come back in input order. A spec with errors
    /// affects only its own result.
    ///
    /// Every spec and every file of a spec is a child task, so the work is spread over the
    /// concurrency pool, as wide as the machine has cores, and no thread of the pool waits on
    /// another: a task renders one file and returns.
    ///
    /// `progress`, when given, hears each spec's stages as they begin
    /// (``GenerationProgress/Stage``), the `.finished` of each spec last.
    package func generate(specs: [SpecInput], progress: GenerationProgressHandler? = nil) async -> [GenerationResult] {
        await withTaskGroup(of: (Int, GenerationResult).self) { group in
            for (index, input) in specs.enumerated() {
                group.addTask {
                    let report: @Sendable (GenerationProgress.Stage) -> Void = { stage in
                        progress?(GenerationProgress(specPath: input.displayPath, specIndex: index, specCount: specs.count, stage: stage))
                    }
                    var result: GenerationResult
                    switch prepare(specAt: input.url, displayPath: input.displayPath, report: report) {
                    case .finished(let finished):
                        result = finished
                    case .rendering(let started, let jobs, let location):
                        result = started
                        result.record(await renderConcurrently(jobs, report: report), at: location)
                    }
                    report(.finished)
                    return (index, result)
                }
            }
            var results = [GenerationResult?](repeating: nil, count: specs.count)
            for await (index, result) in group {
                results[index] = result
            }
            return results.compactMap { $0 }
        }
    }

    /// The files for a validated spec, by file name: four, or more when a kind has more than
    /// ``GenerationOptions/declarationsPerFile`` declarations, or exactly
    /// ``GenerationOptions/partsPerKind`` of each kind and the client. Rendered one after another
    /// on the caller's thread.
    package func generate(_ spec: ServiceSpec, specPath: String) throws(TemplateError) -> [String: String] {
        let report: @Sendable (GenerationProgress.Stage) -> Void = { _ in }
        return try renderSequentially(renderJobs(for: spec, specPath: specPath, report: report), report: report).get()
    }

    /// Where a spec stands once it is loaded: done (it has errors, or is a shared file), or
    /// translated into files still to render.
    private enum Preparation {
        case finished(GenerationResult)
        case rendering(GenerationResult, [RenderJob], location: SourceLocation)
    }

    /// Loads and validates the spec, and translates it into render jobs; the stages that every
    /// way of generating shares.
    private func prepare(specAt url: URL, displayPath: String?,
                         report: @escaping @Sendable (GenerationProgress.Stage) -> Void) -> Preparation {
        let path = displayPath ?? url.path
        report(.reading)
        let loaded = SpecLoader(errorLimit: options.errorLimit, isStrict: options.isStrict).loadSpec(at: url, displayPath: path) {
            report(.validating)
        }
        var result = GenerationResult(specPath: path, serviceName: loaded.spec?.swiftName.name, isSharedFile: loaded.isSharedFile,
                                      files: [:], diagnostics: loaded.diagnostics, sourceFiles: loaded.sourceFiles)
        guard let spec = loaded.spec, !loaded.diagnostics.hasErrors, !loaded.isSharedFile else {
            if loaded.isSharedFile { result.serviceName = nil }
            return .finished(result)
        }
        let jobs = renderJobs(for: spec, specPath: HeaderPath.relative(path), report: report)
        return .rendering(result, jobs, location: spec.location)
    }

    /// Translates the spec and returns one job per file, reporting `.translating` and then that
    /// no file is rendered yet.
    ///
    /// A job builds its file's view model when it runs and drops it when the text is made, so
    /// that only the files being rendered hold theirs: the models, requests and client parts are
    /// translated in their jobs. The errors file is translated here, whole, because finding the
    /// endpoints that share an enum needs every endpoint's; its parts are slices of it.
    private func renderJobs(for spec: ServiceSpec, specPath: String,
                            report: @Sendable (GenerationProgress.Stage) -> Void) -> [RenderJob] {
        report(.translating)
        let translator = SpecTranslator(spec: spec, specPath: specPath, version: options.version)
        let prefix = options.filePrefix ?? spec.swiftName.name
        let split = options.partsPerKind.map(FileSplit.exactly) ?? .atMost(options.declarationsPerFile)
        var jobs: [RenderJob] = []
        jobs += renderJobs(translator.modelsFileParts(split), as: prefix + "Models", template: "models")
        jobs += renderJobs(translator.requestsFileParts(split), as: prefix + "Requests", template: "requests")
        jobs += renderJobs(translator.errorsFile().parts(split).map { part in { part } }, as: prefix + "Errors", template: "errors")
        jobs += renderJobs([translator.clientFile], as: prefix + "Client", template: "client")
        report(.rendering(done: 0, total: jobs.count))
        return jobs
    }

    /// One file to render: its name, and the work.
    private struct RenderJob: Sendable {
        var fileName: String
        var render: @Sendable () throws(TemplateError) -> String
    }

    private func renderJobs<Model: TemplateModel>(_ parts: [@Sendable () -> Model], as baseName: String,
                                                  template: String) -> [RenderJob] {
        parts.enumerated().map { index, part in
            RenderJob(fileName: index == 0 ? "\(baseName).swift" : "\(baseName)\(index + 1).swift") { () throws(TemplateError) in
                try render(part(), template: template)
            }
        }
    }

    /// Renders the files one after another, reporting each.
    private func renderSequentially(_ jobs: [RenderJob],
                                    report: @Sendable (GenerationProgress.Stage) -> Void) -> Result<[String: String], TemplateError> {
        var files: [String: String] = [:]
        for (index, job) in jobs.enumerated() {
            do throws(TemplateError) {
                files[job.fileName] = try job.render()
            } catch {
                return .failure(error)
            }
            report(.rendering(done: index + 1, total: jobs.count))
        }
        return .success(files)
    }

    /// Renders the files as child tasks: each file is independent, and rendering is most of
    /// generation's time once the spec is loaded (a large service is cut into parts, so that
    /// there are files to share out).
    ///
    /// Counts are reported here, as results arrive, so they come in increasing order. When
    /// several files fail, the first in file order is the error, whichever finished first, so
    /// that the diagnostic does not depend on scheduling.
    private func renderConcurrently(_ jobs: [RenderJob],
                                    report: @escaping @Sendable (GenerationProgress.Stage) -> Void) async -> Result<[String: String], TemplateError> {
        await withTaskGroup(of: (Int, Result<String, TemplateError>).self) { group in
            for (index, job) in jobs.enumerated() {
                group.addTask {
                    do throws(TemplateError) {
                        return (index, .success(try job.render()))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var slots = [Result<String, TemplateError>?](repeating: nil, count: jobs.count)
            var done = 0
            for await (index, result) in group {
                slots[index] = result
                done += 1
                report(.rendering(done: done, total: jobs.count))
            }
            var files: [String: String] = [:]
            for (job, slot) in zip(jobs, slots) {
                switch slot {
                case .success(let text)?: files[job.fileName] = text
                case .failure(let error)?: return .failure(error)
                // The group ends only when every child has returned, so every slot is set.
                case nil: continue
                }
            }
            return .success(files)
        }
    }

    private func render(_ model: some TemplateModel, template: String) throws(TemplateError) -> String {
        var text = try renderer.render(model, template: template)
        while text.hasSuffix("\n") { text.removeLast() }
        return text + "\n"
    }
}

extension GenerationResult {
    /// Takes the rendered files, or reports why they could not be rendered at the spec's line.
    fileprivate mutating func record(_ rendered: Result<[String: String], TemplateError>, at location: SourceLocation) {
        switch rendered {
        case .success(let rendered): files = rendered
        case .failure(let error): diagnostics.report(.error("cannot render: \(error)", at: location))
        }
    }
}
