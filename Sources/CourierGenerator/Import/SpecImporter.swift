import Foundation

/// `courier import`'s work: an input `courier generate` reads (an OpenAPI document, an overlay
/// over one, or a Courier spec) written as a Courier spec that generates the same client.
public struct SpecImporter: Sendable {
    /// The most errors kept.
    public var errorLimit: Int
    /// Whether every warning is an error (`--strict`), so that nothing is imported through a fallback.
    public var isStrict: Bool
    /// Whether a document's error mappings discriminate on an error schema's enum field (Stripe's
    /// `error.type`), a case per value, in the spec written: offered for the person who keeps
    /// it to rename or trim.
    public var infersErrorCases: Bool
    /// The spec schema's path relative to the written spec, named in the spec's editor modeline
    /// (``SpecSchema/modeline(schemaPath:)``); no modeline when `nil`.
    public var schemaPath: String?

    /// An importer that keeps at most `errorLimit` errors.
    public init(errorLimit: Int = DiagnosticCollector.defaultErrorLimit, infersErrorCases: Bool = false, schemaPath: String? = nil,
                isStrict: Bool = false) {
        self.errorLimit = errorLimit
        self.isStrict = isStrict
        self.infersErrorCases = infersErrorCases
        self.schemaPath = schemaPath
    }

    /// What an import made: the spec's text, unless the input has errors or holds something the
    /// format cannot say (each an error naming it), and every diagnostic of reading the input.
    public struct Result: Sendable {
        /// The Courier spec, or `nil` when there are errors.
        public var text: String?
        /// The service's name, once the input is read.
        public var serviceName: String?
        /// The input's diagnostics, and the import's own.
        public var diagnostics: DiagnosticCollector
    }

    /// The first line of every imported spec, by which `courier import` knows a file it may
    /// overwrite.
    public static let headerPrefix = "# Imported by courier import from "

    /// Reads the input at `url` (named `displayPath` in diagnostics and in the header) and
    /// writes it as a Courier spec.
    public func importSpec(at url: URL, displayPath: String) -> Result {
        let loaded = SpecLoader(errorLimit: errorLimit, infersErrorCases: infersErrorCases, isStrict: isStrict).loadSpec(at: url, displayPath: displayPath)
        var diagnostics = loaded.diagnostics
        guard let spec = loaded.spec, !diagnostics.hasErrors else {
            if loaded.isSharedFile {
                diagnostics.report(.error("'\(displayPath)' is a shared file of error schemas and models; import a service",
                                          at: .start(of: displayPath)))
            }
            return Result(text: nil, serviceName: loaded.spec?.name, diagnostics: diagnostics)
        }
        var writer = SpecWriter(spec: spec)
        let text = writer.write(header: """
            Imported by courier import from \(displayPath).
            Edit freely: generating from this file gives the client generating from the document gave.
            """, modeline: schemaPath.map(SpecSchema.modeline(schemaPath:)))
        for problem in writer.problems {
            diagnostics.report(.error("courier import does not write \(problem) yet; generate from the input instead",
                                      at: spec.location))
        }
        return Result(text: writer.problems.isEmpty ? text : nil, serviceName: spec.name, diagnostics: diagnostics)
    }
}
