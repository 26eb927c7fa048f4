@testable import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

/// `../shared/`, beside the package: the public API descriptions CI provides (`openapi/`, the
/// acceptance documents, and `openapi-corpus/`, about forty documents of thirty providers with
/// Swagger 2.0 ones in `swagger2/`). Never copied into the package: SwiftPM users clone it whole.
/// A git worktree of the package (`worktrees/<name>` inside a checkout) finds the checkout's, a
/// few folders up.
let sharedDocumentsFolder: URL = {
    var folder = packageRoot.deletingLastPathComponent()
    for _ in 0..<3 {
        let candidate = folder.appendingPathComponent("shared")
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("openapi").path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
}()

/// `../shared/openapi/`: the acceptance documents.
let sharedOpenAPIFolder = sharedDocumentsFolder.appendingPathComponent("openapi")

/// The documents of the compatibility suite, found rather than listed, so that a document added
/// to either folder is read the next run.
enum CompatibilityCorpus {
    /// The folders searched, relative to ``sharedDocumentsFolder``.
    static let folders = ["openapi", "openapi-corpus"]

    /// Every document's path relative to ``sharedDocumentsFolder``, sorted: each `.yaml`, `.yml`
    /// or `.json` file whose top level says `openapi:` or `swagger:`. A multi-file document's
    /// other files (schemas, paths, shared parts) have no such key, so only its root counts.
    static let documents: [String] = {
        var found: [String] = []
        let fileManager = FileManager.default
        for folder in folders {
            let root = sharedDocumentsFolder.appendingPathComponent(folder)
            guard let walker = fileManager.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where ["yaml", "yml", "json"].contains(url.pathExtension.lowercased()) {
                guard isDocumentRoot(url) else { continue }
                found.append(folder + "/" + url.path.dropFirst(root.path.count + 1))
            }
        }
        return found.sorted()
    }()

    /// Whether a file's top level names an OpenAPI or Swagger version: a line `openapi:` or
    /// `swagger:` at the left margin (YAML, where the key may come after megabytes of
    /// `components`), or either key in the top-level object (JSON).
    static func isDocumentRoot(_ url: URL) -> Bool {
        guard let data = try? Data(contentsOf: url) else { return false }
        if url.pathExtension.lowercased() == "json" {
            guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
            return object["openapi"] != nil || object["swagger"] != nil
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains {
            $0.hasPrefix("openapi:") || $0.hasPrefix("swagger:")
        }
    }

    /// The documents compiled in this run. Compiling is most of the suite's time (a 4 MB
    /// document's client takes minutes to type-check on two cores), so `swift test` compiles a
    /// rotating few: `COURIER_COMPAT_COMPILE=all` compiles every one (what `scripts/compat`
    /// does), a number compiles that many, and by default four a day, a different four each
    /// day of the year, so that every document is compiled every couple of weeks of CI runs.
    static let compiled: [String] = {
        let setting = ProcessInfo.processInfo.environment["COURIER_COMPAT_COMPILE"] ?? "4"
        if setting == "all" { return documents }
        let count = min(max(Int(setting) ?? 4, 0), documents.count)
        guard count > 0 else { return [] }
        let day = Calendar(identifier: .gregorian).ordinality(of: .day, in: .year, for: Date()) ?? 1
        let start = (day * count) % documents.count
        return (0..<count).map { documents[(start + $0) % documents.count] }.sorted()
    }()

    /// Whether the documents are there.
    static var isPresent: Bool { !documents.isEmpty }
}

/// Every public document beside the package read, validated and generated: no errors, and more
/// than 99% of operations with typed errors, with each document's figures printed for
/// docs/OpenAPI.md's table (`scripts/compat` gathers them). Skipped, saying so, where
/// `../shared/` is absent.
///
/// One document at a time, each on a thread of its own (``onOwnThread(_:)``): the work is long
/// and synchronous, and must neither hold the concurrency pool's threads nor hold forty
/// documents in memory at once.
@Suite("OpenAPI compatibility: every document reads and generates", .serialized,
       .enabled(if: CompatibilityCorpus.isPresent, "../shared/openapi and ../shared/openapi-corpus are absent beside the package; the real documents are not read"))
struct OpenAPICompatibilityTests {
    @Test("Validates without errors, generates, and types the errors of more than 99% of its operations",
          arguments: CompatibilityCorpus.documents)
    func document(_ path: String) async throws {
        let url = sharedDocumentsFolder.appendingPathComponent(path)
        // The work on a thread of its own; the expectations here, in the test's own context.
        let (loaded, result, inferred, validated, generated) = try await onOwnThread {
            let clock = ContinuousClock()
            let start = clock.now
            let loaded = SpecLoader(errorLimit: 1000).loadSpec(at: url, displayPath: path)
            let validated = clock.now - start
            let generation = clock.now
            let result = try Generator().generate(specAt: url, displayPath: path)
            let generated = clock.now - generation
            // What an overlay's `inferErrorCases: true` would add: cases from enum-valued error fields.
            let inferred = SpecLoader(errorLimit: 1000, infersErrorCases: true).loadSpec(at: url, displayPath: path)
            return (loaded, result, inferred, validated, generated)
        }
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics.renderedLines.filter { $0.contains(": error: ") }.prefix(20).joined(separator: "\n"))")
        let spec = try #require(loaded.spec)
        #expect(result.succeeded)
        #expect(result.files.count >= 4)

        var figures = CompatibilityFigures(spec: spec, diagnostics: loaded.diagnostics, files: result.files)
        // Reported, not required: inferring is an overlay's choice, and on some documents (Box) it
        // gives one case two bodies, which the figure shows as -1 with the first error printed.
        figures.typedByInference = inferred.spec.map(CompatibilityFigures.typedByBody) ?? -1
        #expect(figures.operations > 0)
        #expect(figures.typedShare > 99, "\(figures.typed) of \(figures.operations) operations have typed errors; untyped: \(figures.untypedExamples)")
        print("openapi-compat: \(path) \(figures.summary) load+validate=\(validated.compactSeconds) generate=\(generated.compactSeconds) (debug)")
        for (kind, count) in figures.warningKinds {
            print("openapi-compat:   \(count) × warning: \(kind)")
        }
        if let problem = inferred.diagnostics.errors.first {
            print("openapi-compat:   with inferErrorCases: \(inferred.diagnostics.errorCount) errors, the first: \(problem)")
        }
    }
}

/// The generated clients of ``CompatibilityCorpus/compiled`` type-checked with every warning an
/// error. Serialized, so that one compiler (over 1 GB for the largest clients) runs at a time
/// beside the rest of the suite.
@Suite("OpenAPI compatibility: generated clients compile warning-free", .serialized,
       .enabled(if: CompatibilityCorpus.isPresent, "../shared/openapi and ../shared/openapi-corpus are absent beside the package; no client is compiled"))
struct OpenAPICompileTests {
    /// The compile stops after SIL: `swiftc -emit-sil` type-checks the module and runs the
    /// mandatory SIL passes (definite initialisation, missing returns, unreachable code), where
    /// every compiler diagnostic comes from; only machine code, most of the time, is left out.
    @Test("Type-checks with warnings as errors", arguments: CompatibilityCorpus.compiled)
    func compiles(_ path: String) async throws {
        let url = sharedDocumentsFolder.appendingPathComponent(path)
        let result = try await onOwnThread { try Generator().generate(specAt: url, displayPath: path) }
        try #require(result.succeeded, "\(result.diagnostics.renderedLines.prefix(10).joined(separator: "\n"))")
        let folder = try TemporaryFolder()
        var sources: [String] = []
        for (name, text) in result.files.sorted(by: { $0.key < $1.key }) {
            sources.append(try folder.write(text, to: "Client/" + name))
        }
        let modules = try SyntheticCompileTests.modulesFolder()
        let clock = ContinuousClock()
        let start = clock.now
        // At the priority of everything else: under `nice`, a machine kept busy by other work
        // (scripts/loaded-test's four CPU hogs) left the compiler a few percent of a core, and a
        // client that type-checks in a minute ran into the time limit. The limit only stops a
        // compiler that hangs, so it is generous: the largest clients take minutes when idle.
        let compile = try await ChildProcess.run("swiftc", ["-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
                                                            "-module-name", "Client", "-I", modules.path, "-Onone", "-wmo",
                                                            "-emit-sil", "-o", "/dev/null"] + sources,
                                                 timeLimit: .seconds(60 * 60))
        let complaints = compile.standardError.split(separator: "\n").filter { $0.contains("error:") || $0.contains("warning:") }
        #expect(compile.succeeded, "swiftc failed on \(path):\n\(complaints.prefix(30).joined(separator: "\n"))")
        #expect(complaints.isEmpty, "\(complaints.prefix(30).joined(separator: "\n"))")
        print("openapi-compat-compile: \(path) compile-to-SIL=\((clock.now - start).compactSeconds) (debug)")
    }
}

/// What the compatibility suite reports of one document.
struct CompatibilityFigures {
    var operations = 0
    /// Operations with at least one typed failure case.
    var typed = 0
    /// Operations with a failure case chosen by the error body (an enum-valued field), beyond
    /// the cases named after statuses.
    var typedByBody = 0
    /// ``typedByBody`` when the error cases are inferred from enum-valued error fields.
    var typedByInference = 0
    var models = 0
    var warnings = 0
    var lines = 0
    var warningKinds: [(kind: String, count: Int)] = []
    var untypedExamples: [String] = []

    init(spec: ServiceSpec, diagnostics: DiagnosticCollector, files: [String: String]) {
        operations = spec.endpoints.count
        typed = spec.endpoints.filter { !$0.effectiveErrors.isEmpty }.count
        typedByBody = Self.typedByBody(spec)
        untypedExamples = spec.endpoints.filter { $0.effectiveErrors.isEmpty }.prefix(5).map(\.name)
        models = spec.models.count
        warnings = diagnostics.warningCount
        lines = files.values.reduce(0) { $0 + $1.split(separator: "\n", omittingEmptySubsequences: false).count }
        warningKinds = diagnostics.warningCountsByKind.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }

    /// How many operations of `spec` have a failure case chosen by the error body.
    static func typedByBody(_ spec: ServiceSpec) -> Int {
        spec.endpoints.filter { endpoint in
            endpoint.effectiveErrors.contains { if case .discriminated = $0.outcome { true } else { false } }
        }.count
    }

    /// The share of operations with typed errors, in percent.
    var typedShare: Double { operations == 0 ? 0 : Double(typed) / Double(operations) * 100 }

    /// One line of `key=value` figures.
    var summary: String {
        "operations=\(operations) typed=\(typed) (\(String(format: "%.1f", typedShare))%) typed-by-body=\(typedByBody) typed-by-inference=\(typedByInference) "
            + "models=\(models) warnings=\(warnings) lines=\(lines) lines/op=\(operations == 0 ? 0 : lines / operations)"
    }
}

extension Duration {
    /// Seconds with two decimals (`1.25s`), for the suite's figures.
    var compactSeconds: String {
        let (seconds, attoseconds) = components
        return String(format: "%.2fs", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
