import Foundation

/// `courier import`'s work: an input `courier generate` reads (an OpenAPI document, an overlay
/// over one, or a Courier spec) written as a Courier spec that generates the same client.
package struct SpecImporter: Sendable {
    /// The most errors kept.
    package var errorLimit: Int
    /// Whether every warning is an error (`--strict`), so that nothing is imported through a fallback.
    package var isStrict: Bool
    /// Whether a document's error mappings discriminate on an error schema's enum field (Stripe's
    /// `error.type`), a case per value, in the spec written: offered for the person who keeps
    /// it to rename or trim.
    package var infersErrorCases: Bool
    /// The spec schema's path relative to the written spec, named in the spec's editor modeline
    /// (``SpecSchema/modeline(schemaPath:)``); no modeline when `nil`.
    package var schemaPath: String?

    /// An importer that keeps at most `errorLimit` errors.
    package init(errorLimit: Int = DiagnosticCollector.defaultErrorLimit, infersErrorCases: Bool = false, schemaPath: String? = nil,
                isStrict: Bool = false) {
        self.errorLimit = errorLimit
        self.isStrict = isStrict
        self.infersErrorCases = infersErrorCases
        self.schemaPath = schemaPath
    }

    /// What an import made: the spec's text, unless the input has errors or holds something the
    /// format cannot say (each an error naming it), and every diagnostic of reading the input.
    package struct Result: Sendable {
        /// The Courier spec, or `nil` when there are errors.
        package var text: String?
        /// The service's name, once the input is read.
        package var serviceName: String?
        /// The input's diagnostics, and the import's own.
        package var diagnostics: DiagnosticCollector
        /// Inline schemas that were alike and became one model each, for `courier import` to say.
        package var mergedModels: [MergedModelSpec] = []
    }

    /// The first line of every imported spec, by which `courier import` knows a file it may
    /// overwrite.
    static let headerPrefix = "# Imported by courier import from "

    /// What an existing output file is, for `courier import` to decide whether it may replace it.
    package enum ExistingSpec: Sendable, Equatable {
        /// A file whose first line does not say it is an import: it may be anyone's.
        case notAnImport
        /// An import whose text below the first line is what was written: nothing is lost by
        /// replacing it.
        case unedited
        /// An import whose text no longer matches the fingerprint in its first line: someone
        /// edited it.
        case edited
        /// An import whose first line has no fingerprint (an earlier courier's, or a hand-edited
        /// first line): whether it was edited cannot be told.
        case withoutFingerprint
    }

    /// Sorts an existing output file's text: an import is recognised by its first line, and an
    /// edit by the fingerprint that line carries, of the text below it.
    package static func examine(existing text: String) -> ExistingSpec {
        guard text.hasPrefix(headerPrefix) else { return .notAnImport }
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }
        guard let range = firstLine.range(of: fingerprintMarker, options: .backwards) else { return .withoutFingerprint }
        let written = firstLine[range.upperBound...].prefix { $0.isHexDigit }
        guard written.count == 16 else { return .withoutFingerprint }
        return String(written) == fingerprint(ofBody: text) ? .unedited : .edited
    }

    /// What precedes the fingerprint in the first line.
    static let fingerprintMarker = ", fingerprint "

    /// The fingerprint of a spec's text below its first line: FNV-1a, 64 bits, in hexadecimal,
    /// over the UTF-8 bytes with line ends made `\n` (so a checkout that turns them into `\r\n`
    /// is no edit). It detects edits, not tampering: the file is the user's own.
    static func fingerprint(ofBody text: String) -> String {
        let body = text.firstIndex(where: { $0 == "\n" || $0 == "\r\n" }).map { text[text.index(after: $0)...] } ?? ""
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body.replacingOccurrences(of: "\r\n", with: "\n").utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Reads the input at `url` (named `displayPath` in diagnostics and in the header) and
    /// writes it as a Courier spec.
    package func importSpec(at url: URL, displayPath: String) -> Result {
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
        // The first line is written last: it carries the fingerprint of the lines below it.
        let written = writer.write(header: """
            Imported by courier import from \(displayPath).
            Edit freely: generating from this file gives the client generating from the input gave.
            Once edited, a new 'courier import' onto this file needs --force, which replaces your edits.
            """, modeline: schemaPath.map(SpecSchema.modeline(schemaPath:)))
        let body = written.firstIndex(of: "\n").map { written[written.index(after: $0)...] } ?? ""
        let text = Self.headerPrefix + displayPath + Self.fingerprintMarker + Self.fingerprint(ofBody: "\n" + body) + ".\n" + body
        for problem in writer.problems {
            diagnostics.report(.error("courier import does not write \(problem) yet; generate from the input instead",
                                      at: spec.location))
        }
        return Result(text: writer.problems.isEmpty ? text : nil, serviceName: spec.name, diagnostics: diagnostics,
                      mergedModels: spec.mergedModels)
    }
}
