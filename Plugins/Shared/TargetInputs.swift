import Foundation

/// Courier's inputs among a target's files: the specs to generate, the YAML files they may
/// include, and the templates that override the generator's own.
struct TargetInputs {
    /// One spec to generate.
    struct Spec {
        /// The spec file.
        var url: URL
        /// Its name without the spec suffix; it names the output folder and prefixes the files.
        var stem: String
    }

    /// One template that replaces the generator's template of the same name.
    struct TemplateOverride {
        /// The template's name, as `courier generate --template NAME=FILE` takes it.
        var name: String
        /// The template file.
        var url: URL
    }

    /// The specs, sorted by path.
    var specs: [Spec]
    /// Every YAML file of the target, specs included, sorted by path.
    var yamlFiles: [URL]
    /// The overriding templates, sorted by name.
    var templates: [TemplateOverride]

    /// Sorts `files` (a target's files, as absolute paths) into specs, YAML files and templates.
    ///
    /// Specs are the `*.courier.yaml` files and the OpenAPI documents (`openapi.yaml`,
    /// `Billing.openapi.json`…), less the documents an overlay among the specs extends: those
    /// are generated through the overlay, once.
    ///
    /// - Throws: ``PluginError/duplicateSpecName(stem:first:second:)`` when two specs would
    ///   generate the same files, ``PluginError/unusableSpecName(_:)`` for a name that cannot
    ///   prefix a file name.
    init(files: [URL], targetName: String = "") throws {
        let files = files.map(\.standardizedFileURL).sorted { $0.path < $1.path }

        var candidates: [Spec] = []
        var yamlFiles: [URL] = []
        var templates: [TemplateOverride] = []
        for file in files {
            if let name = CourierConventions.templateName(of: file) {
                templates.append(TemplateOverride(name: name, url: file))
                continue
            }
            let name = file.lastPathComponent
            if let stem = CourierConventions.openAPIStem(ofFileNamed: name, targetName: targetName) {
                if CourierConventions.isYAML(file) { yamlFiles.append(file) }
                candidates.append(Spec(url: file, stem: stem))
                continue
            }
            guard CourierConventions.isYAML(file) else { continue }
            yamlFiles.append(file)
            if let stem = CourierConventions.specStem(ofFileNamed: name) {
                candidates.append(Spec(url: file, stem: stem))
            }
        }
        let extended = Set(candidates.compactMap { IncludeScanner.overlayDocument(of: $0.url)?.path })
        var specs: [Spec] = []
        var specsByStem: [String: URL] = [:]
        for spec in candidates where !extended.contains(spec.url.path) {
            guard CourierConventions.isUsableFilePrefix(spec.stem) else {
                throw PluginError.unusableSpecName(spec.url)
            }
            // Output folders and Swift file names clash when names differ only in case on a
            // case-insensitive file system (macOS by default).
            let key = spec.stem.lowercased()
            if let first = specsByStem[key] {
                throw PluginError.duplicateSpecName(stem: spec.stem, first: first, second: spec.url)
            }
            specsByStem[key] = spec.url
            specs.append(spec)
        }
        self.specs = specs
        self.yamlFiles = yamlFiles
        self.templates = templates.sorted { $0.name < $1.name }
    }

    /// The files whose change must regenerate `spec`: the spec, the OpenAPI document it extends
    /// if it is an overlay, every YAML file of the target (whatever it includes from there), the
    /// YAML and JSON files outside the target that it may include or `$ref` (see
    /// ``IncludeScanner``), and the overriding templates.
    ///
    /// Declaring every YAML file of the target, rather than only those the spec includes, is
    /// deliberate: the plugin cannot parse YAML, and an extra input costs at most a needless
    /// regeneration, while a missing one leaves stale code behind.
    func inputFiles(of spec: Spec) -> [URL] {
        var seen = Set<String>()
        var files: [URL] = []
        let sources = Self.sources(of: spec) + yamlFiles
        for file in sources + IncludeScanner.referencedFiles(from: sources)
            + templates.map(\.url) where seen.insert(file.path).inserted {
            files.append(file)
        }
        return files
    }

    /// The bytes of `spec`, of the OpenAPI document it extends if it is an overlay, and of the
    /// files those include or `$ref`: what the service's size is judged by. A file that cannot be
    /// read counts as empty; `courier` reports it.
    func size(of spec: Spec) -> Int {
        let sources = Self.sources(of: spec)
        var seen = Set<String>()
        return (sources + IncludeScanner.referencedFiles(from: sources)).reduce(0) { total, file in
            guard seen.insert(file.path).inserted,
                  let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int else { return total }
            return total + size
        }
    }

    /// The spec, and the OpenAPI document it extends if it is an overlay.
    private static func sources(of spec: Spec) -> [URL] {
        [spec.url] + (IncludeScanner.overlayDocument(of: spec.url).map { [$0] } ?? [])
    }

    /// The `--template NAME=FILE` options that apply the overriding templates.
    var templateArguments: [String] {
        templates.flatMap { ["--template", "\($0.name)=\($0.url.path)"] }
    }
}
