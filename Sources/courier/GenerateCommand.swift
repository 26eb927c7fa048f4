import ArgumentParser
import CourierGenerator
import CourierWatching
import Foundation

/// `courier generate`: validates specs and writes four Swift files per service, and numbered
/// parts for a large one.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generates a Swift client per service into the output folder.",
        discussion: """
            Each argument is a spec file, an OpenAPI 3.0 or 3.1 document (YAML or JSON, recognised \
            by its 'openapi' key) or a Swagger 2.0 one (by its 'swagger' key), or a folder; a folder \
            stands for the .yaml and .yml files and openapi.json (or swagger.json) directly inside it. Shared files (no 'service' key) are checked but not generated; keep \
            them in a subfolder such as Specs/Shared/ and include them from services.

            Each service gets DIR/<Service>/ with <Service>Models.swift, <Service>Requests.swift, \
            <Service>Errors.swift and <Service>Client.swift. A service with more models, endpoints or \
            failure enums than --declarations-per-file gets numbered parts as well \
            (<Service>Requests2.swift, ...), so that the compiler can work on them in parallel. \
            Files are written only when their content \
            changed. A spec with errors stops nothing else, and its earlier files are kept. When every \
            argument is a folder and every spec succeeds, generated files of services that are no \
            longer there are removed; files Courier did not write are never touched.

            Examples:
              courier generate Specs --output Generated
              courier generate Specs --output Generated --check
              courier generate Specs/GitHub.yaml --output Sources/GitHubAPI --flat
              courier generate Specs --output Generated --template client=MyClient.mustache
              courier generate Specs/Big.yaml --output Sources/BigAPI --flat --declarations-per-file 0
              courier generate Specs --output Generated --watch
              courier generate Specs --output Generated --watch --poll-interval 1

            With --watch, courier generates, then regenerates whenever a file that generation read \
            changes (a spec, a file it includes, an OpenAPI document's $ref'd files, the document an \
            overlay names, the templates) or a spec appears in a folder argument, printing diagnostics \
            as they come and carrying on after errors. Ctrl-C stops it (exit status 130).

            On a terminal, progress is shown on standard error while a run takes time; --quiet \
            hides it and every line that is not a diagnostic.

            \(ExitStatus.helpText(for: .generate))
            """
    )

    @OptionGroup var specOptions: SpecOptions

    @Option(name: [.short, .long], help: "The folder that receives one subfolder of Swift sources per service.")
    var output: String

    @Flag(help: "Write nothing; list the files that would change and exit with status 2 if any would.")
    var check = false

    @Option(help: "A folder of .mustache files that replaces the built-in template set.")
    var templates: String?

    @Option(name: .customLong("template"), help: ArgumentHelp(
        "Replace one template: NAME=FILE, such as client=MyClient.mustache (repeatable).", valueName: "name=file"))
    var templateOverrides: [String] = []

    @Flag(help: "Write the files directly into the output folder, without a service folder (one spec only).")
    var flat = false

    @Option(help: "The file-name prefix instead of the service's type name.")
    var filePrefix: String?

    @Option(help: "The most declarations per models, requests or errors file before it is split into numbered parts; 0 keeps one file each.")
    var declarationsPerFile = GenerationOptions.defaultDeclarationsPerFile

    @Option(help: ArgumentHelp(
        "Write exactly N models, requests and errors files each, the last ones empty for a small service, instead of splitting by --declarations-per-file. For build tools that name their outputs before the spec is read.",
        valueName: "n"))
    var parts: Int?

    @Flag(help: "Keep running: regenerate whenever a spec, an included or referenced file, or a template changes.")
    var watch = false

    @Option(help: ArgumentHelp(
        "With --watch: notice changes by checking the files every SECONDS instead of through file-system events (for file systems without events).",
        valueName: "seconds"))
    var pollInterval: Double?

    @Flag(help: "Print only diagnostics: no progress, no list of written files, no summary.")
    var quiet = false

    func validate() throws {
        guard !output.isEmpty else { throw ValidationError("--output needs a folder") }
        guard declarationsPerFile >= 0 else {
            throw ValidationError("--declarations-per-file must be 0 (no splitting) or more; got \(declarationsPerFile)")
        }
        if let parts, parts < 1 {
            throw ValidationError("--parts must be 1 or more; got \(parts)")
        }
        for override in templateOverrides where TemplateOverride(override) == nil {
            throw ValidationError("--template expects NAME=FILE, such as client=MyClient.mustache; got '\(override)'")
        }
        if let filePrefix, SwiftIdentifier(typeNamed: filePrefix).name != filePrefix {
            throw ValidationError("--file-prefix must be a Swift type name such as 'PetStore'; got '\(filePrefix)'")
        }
        if watch && check { throw ValidationError("--watch and --check do not go together: --check reports once and exits") }
        if let pollInterval {
            guard watch else { throw ValidationError("--poll-interval applies to --watch") }
            guard pollInterval > 0, pollInterval <= 3600 else {
                throw ValidationError("--poll-interval must be more than 0 and at most 3600 seconds; got \(pollInterval)")
            }
        }
    }

    func run() async throws {
        if watch {
            try await runWatching()
            return
        }
        let run = try await generateOnce(progress: ProgressLine(enabled: !quiet))
        if let failure = run.failure { throw failure.code }
    }

    /// What one generation run ended with.
    struct Run {
        /// The status to exit with, when not success.
        var failure: ExitStatus?
        /// What the run read: the files to watch.
        var sources: WatchSet
    }

    /// Generates once and prints what happened; throws only a usage error.
    func generateOnce(progress: ProgressLine) async throws -> Run {
        let inputs = try specOptions.inputs()
        if flat && inputs.count != 1 {
            throw ValidationError("--flat writes one spec's files into the output folder; give exactly one spec file")
        }
        var sources = watchedArguments(inputs)
        let generator: Generator
        do {
            var options = GenerationOptions(
                templates: try templateSet(), filePrefix: filePrefix, errorLimit: specOptions.reporting.errorLimit,
                declarationsPerFile: declarationsPerFile, partsPerKind: parts)
            options.isStrict = specOptions.reporting.strict
            generator = try Generator(options: options)
        } catch {
            StandardError.print("\(error)")
            return Run(failure: .outputFailure, sources: sources)
        }
        let results = await generator.generate(specs: inputs, progress: progress.isEnabled ? progress.show : nil)
        for result in results {
            result.sourceFiles.forEach { sources.insert(file: $0) }
        }
        progress.clear()
        let diagnostics = specOptions.reporting.printer.print(results.map(\.diagnostics))

        if !quiet {
            for result in results where result.isSharedFile && result.succeeded {
                print("\(result.specPath): skipped, shared file (no 'service'); it is generated as part of the services that include it")
            }
        }
        let writer = GenerationOutput(root: URL(fileURLWithPath: output), layout: flat ? .flat : .serviceFolders)
        progress.showWriting(results.reduce(0) { $0 + $1.files.count })
        let report = writer.apply(results, checkOnly: check, removesStaleFolders: specOptions.namesOnlyFolders)
        progress.clear()
        if !quiet {
            for line in report.changeLines {
                print(check ? "would be \(line)" : line)
            }
        }
        for failure in report.failures {
            StandardError.print("\(failure.error)")
        }
        let generated = results.filter { $0.succeeded && !$0.isSharedFile }.count
        let failed = results.filter { !$0.succeeded }.count
        let changed = report.changeLines.count
        if !quiet {
            if check {
                print(report.isUpToDate
                    ? "\(output) is up to date (\(plural(generated, "service")))."
                    : "\(plural(changed, "file")) in \(output) would change; run the same command without --check.")
            } else {
                print("Generated \(plural(generated, "service")) into \(output): \(plural(changed, "file")) written or removed"
                    + (failed > 0 ? "; \(plural(failed, "spec")) failed and kept \(failed == 1 ? "its" : "their") earlier files." : "."))
            }
        }
        if diagnostics.hasErrors { return Run(failure: .specErrors, sources: sources) }
        if !report.failures.isEmpty { return Run(failure: .outputFailure, sources: sources) }
        if check && !report.isUpToDate { return Run(failure: .drift, sources: sources) }
        return Run(failure: nil, sources: sources)
    }

    /// What every run watches whatever it read: the specs named, the folders named (a spec
    /// added there is a change) and the templates given.
    private func watchedArguments(_ inputs: [SpecInput]) -> WatchSet {
        var set = WatchSet()
        for input in inputs { set.insert(file: input.url) }
        let fileManager = FileManager.default
        for path in specOptions.specs {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                set.insert(folder: URL(fileURLWithPath: path, isDirectory: true), nameSuffixes: [".yaml", ".yml", ".json"])
            } else {
                set.insert(file: URL(fileURLWithPath: path))
            }
        }
        if let templates {
            // A template folder is read with its subfolders.
            let root = URL(fileURLWithPath: templates, isDirectory: true)
            let suffix = "." + TemplateSet.fileExtension
            set.insert(folder: root, nameSuffixes: [suffix])
            for subpath in (try? fileManager.subpathsOfDirectory(atPath: root.path)) ?? [] {
                let url = root.appendingPathComponent(subpath)
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    set.insert(folder: url, nameSuffixes: [suffix])
                }
            }
        }
        for text in templateOverrides {
            if let override = TemplateOverride(text) { set.insert(file: URL(fileURLWithPath: override.file)) }
        }
        return set
    }

    /// The built-in templates, or `--templates`, with each `--template` override applied.
    private func templateSet() throws -> TemplateSet {
        var set = try templates.map { try TemplateSet(contentsOf: URL(fileURLWithPath: $0, isDirectory: true)) } ?? .builtIn
        for text in templateOverrides {
            guard let override = TemplateOverride(text) else { continue }
            try set.register(contentsOf: URL(fileURLWithPath: override.file), named: override.name)
        }
        return set
    }
}

/// One `--template NAME=FILE` argument.
struct TemplateOverride {
    let name: String
    let file: String

    init?(_ text: String) {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        name = String(text[..<equals])
        file = String(text[text.index(after: equals)...])
        guard !name.isEmpty, !file.isEmpty else { return nil }
    }
}
