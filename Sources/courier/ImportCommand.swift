import ArgumentParser
import CourierGenerator
import Foundation

/// `courier import`: an OpenAPI document (or an overlay over one) written once as a Courier spec
/// to keep and edit.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Writes an OpenAPI document as a Courier spec that generates the same client.",
        discussion: """
            The input is anything 'courier generate' reads: an OpenAPI 3.0 or 3.1 document or a \
            Swagger 2.0 one (YAML or JSON), an overlay naming one, or a Courier spec. The spec written keeps the \
            document's descriptions, its shared error schemas and the error mappings most \
            operations share, factored into 'defaults'. Generating from it gives the same client \
            as generating from the input.

            An existing output file is replaced only when it is an earlier import that nobody \
            has edited since (its first line says so, with a fingerprint of the text below it), \
            or with --force, so a spec edited by hand is not lost by accident.

            The spec names the spec format's JSON Schema in a comment editors read \
            ('# yaml-language-server: $schema=courier-spec.schema.json'), and the schema is \
            written beside it when missing or different from this courier's, so that VS Code's \
            YAML extension completes and checks the spec offline. --no-schema leaves both out.

            Examples:
              courier import openapi.yaml --output Specs/Store.yaml
              courier import stripe.yaml --output Specs/Stripe.yaml --infer-error-cases
              courier import Specs/Shop.courier.yaml --output Specs/Shop.yaml --force

            \(ExitStatus.helpText(for: .import))
            """
    )

    @Argument(help: "The OpenAPI document, overlay or spec to import.")
    var input: String

    @Option(name: .shortAndLong, help: "The Courier spec to write.")
    var output: String

    @Flag(help: "Replace the output file even when it is not an earlier import.")
    var force = false

    @Flag(help: "Write neither the schema modeline nor the schema file beside the spec.")
    var noSchema = false

    @Flag(help: ArgumentHelp(
        "Give each error schema's enum field (such as Stripe's error.type) an error case per value.",
        discussion: "The same as an overlay's 'inferErrorCases: true'; an overlay given as input decides for itself."))
    var inferErrorCases = false

    @OptionGroup var reporting: DiagnosticOptions

    func validate() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
            throw ValidationError("no such file: \(input)")
        }
        guard !isDirectory.boolValue else { throw ValidationError("\(input) is a folder; import one document at a time") }
    }

    func run() throws {
        let schemaName = SpecSchema.fileName(for: .spec)
        let importer = SpecImporter(errorLimit: reporting.errorLimit, infersErrorCases: inferErrorCases, schemaPath: noSchema ? nil : schemaName,
                                    isStrict: reporting.strict)
        let result = importer.importSpec(at: URL(fileURLWithPath: input), displayPath: input)
        let diagnostics = reporting.printer.print([result.diagnostics])
        guard let text = result.text, !diagnostics.hasErrors else { throw ExitStatus.specErrors.code }

        let url = URL(fileURLWithPath: output)
        if let existing = try? String(contentsOf: url, encoding: .utf8) {
            if existing == text {
                print("\(output) is up to date (service \(result.serviceName ?? "?"))")
                if !noSchema { try writeSchema(named: schemaName, beside: url) }
                return
            }
            if !force, let refusal = Self.refusal(toReplace: existing, at: output) {
                FileHandle.standardError.write(Data("error: \(refusal)\n".utf8))
                throw ExitStatus.outputFailure.code
            }
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("error: cannot write \(output): \(error.localizedDescription)\n".utf8))
            throw ExitStatus.outputFailure.code
        }
        print("Wrote \(output) (service \(result.serviceName ?? "?"))")
        // A few lines, not one per merge of a large document: the spec's comments list them all.
        for merged in result.mergedModels.prefix(Self.mergesShown) {
            let places = merged.locations.prefix(3).map(\.description).joined(separator: ", ")
                + (merged.locations.count > 3 ? ", …" : "")
            print("  \(merged.name): one model for \(merged.locations.count) alike inline schemas (\(places))")
        }
        if result.mergedModels.count > Self.mergesShown {
            print("  … and \(result.mergedModels.count - Self.mergesShown) more models for alike inline schemas, each named in a comment in \(output)")
        }
        if !noSchema { try writeSchema(named: schemaName, beside: url) }
    }

    /// The most merges of alike inline schemas listed after writing.
    static let mergesShown = 10

    /// Why the existing file at `output` may not be replaced without --force; `nil` when it is
    /// an earlier import nobody edited. An edit is told by the fingerprint the import wrote in
    /// the first line, so an edited `service:` or an appended line is not written over.
    static func refusal(toReplace existing: String, at output: String) -> String? {
        switch SpecImporter.examine(existing: existing) {
        case .unedited:
            return nil
        case .notAnImport:
            return "\(output) exists and is not an earlier import; it may hold your edits. Pass --force to replace it."
        case .edited:
            return "\(output) was edited since it was imported (its text no longer matches the fingerprint in its first line); "
                + "pass --force to replace it, edits and all."
        case .withoutFingerprint:
            return "\(output) is an earlier import without a fingerprint in its first line, so whether it was edited cannot be "
                + "told; pass --force to replace it."
        }
    }

    /// Writes the spec schema the modeline names beside the spec, unless it is there already as
    /// this courier writes it.
    private func writeSchema(named name: String, beside spec: URL) throws {
        let schema = spec.deletingLastPathComponent().appendingPathComponent(name)
        let shown = (output as NSString).deletingLastPathComponent.isEmpty ? name : (output as NSString).deletingLastPathComponent + "/" + name
        do {
            if try SpecSchema.write(.spec, to: schema) { print("Wrote \(shown)") }
        } catch {
            FileHandle.standardError.write(Data("error: cannot write \(shown): \(error.localizedDescription)\n".utf8))
            throw ExitStatus.outputFailure.code
        }
    }
}
