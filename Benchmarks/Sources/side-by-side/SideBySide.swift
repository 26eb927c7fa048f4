import ArgumentParser
import Foundation

/// Courier against apple/swift-openapi-generator on the same APIs, in one run, interleaved.
@main
struct SideBySide: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "side-by-side",
        abstract: "Measures Courier and swift-openapi-generator on the same APIs in one run.",
        discussion: """
            For each API, every run generates it with each tool in turn, in an order that rotates \
            from run to run, and reports medians with their spread: wall and CPU time, peak \
            memory, and the files and lines written. The synthetic APIs are written both as a \
            Courier spec and as its OpenAPI twin (`courier synthesize --openapi`); real documents \
            are read by both tools from the very same file. The baseline is Yams' compose of the \
            same file, also as a process of its own, and below it libyaml's event parse alone (what \
            Yams wraps, and the floor under any YAML reader).

            With --compile-sizes it also builds each generated module in debug, with its \
            dependencies built beforehand, so that only the generated module is timed.

            Run it through `Benchmarks/run`, which builds the tools first.

            Examples:
              Benchmarks/run
              Benchmarks/run --sizes 100,1000 --runs 3 --documents ../shared/openapi/github-rest-2021.yaml
              Benchmarks/run --sizes 1000 --runs 1 --compile-sizes 1000
              Benchmarks/run --sizes 100 --compile-documents ../shared/openapi-corpus/resend.yaml
            """
    )

    @Option(help: "The build folder holding release/ and debug/ builds of courier and swift-openapi-generator.")
    var tools: String

    @Option(help: "Endpoint counts of the synthetic API, comma-separated.", transform: Self.integers)
    var sizes: [Int] = [100, 1_000, 5_000]

    @Option(help: "Runs of each tool per API, in release.")
    var runs = 5

    @Option(help: "Endpoint counts at which the debug tools (what a build plugin runs) are measured too.", transform: Self.integers)
    var debugSizes: [Int] = [1_000]

    @Option(help: "Runs of each debug tool.")
    var debugRuns = 1

    @Flag(inversion: .prefixedNo, help: "Whether the debug courier (what a build plugin runs) is timed on each real document too.")
    var debugDocuments = true

    @Option(help: "OpenAPI documents both tools read. Default: GitHub's REST description in ../shared/openapi, if present.")
    var documents: [String] = []

    @Option(help: "Endpoint counts at which each generated module is compiled (debug, clean). None by default: it takes long.",
            transform: Self.integers)
    var compileSizes: [Int] = []

    @Option(help: "Clean builds of each generated module per compile size.")
    var compileRuns = 1

    @Option(help: "OpenAPI documents whose modules are also compiled (debug, clean), each generated as --documents are. Slow: a 1 MB document's modules take minutes.")
    var compileDocuments: [String] = []

    @Option(help: "The folder for inputs and outputs. Default: a new temporary folder.")
    var work: String?

    static func integers(_ text: String) throws -> [Int] {
        let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw ValidationError("'\(text)' is not a comma-separated list of positive whole numbers")
        }
        return values.compactMap { $0 }
    }

    func validate() throws {
        guard runs >= 1, debugRuns >= 1, compileRuns >= 1 else { throw ValidationError("run counts must be at least 1") }
        for path in [release("courier"), release("swift-openapi-generator"), release("yams-compose"), release("libyaml-parse")]
            where !FileManager.default.isExecutableFile(atPath: path) {
            throw ValidationError("\(path) is not built: run Benchmarks/run, which builds it")
        }
    }

    private func release(_ tool: String) -> String { tools + "/release/" + tool }
    private func debug(_ tool: String) -> String { tools + "/debug/" + tool }

    /// The Courier checkout these benchmarks belong to: the package's parent folder.
    private var repository: String {
        URL(fileURLWithPath: tools).standardizedFileURL.deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// `path` as the caller meant it: `Benchmarks/run` changes into the package's folder.
    private func callers(_ path: String) -> String {
        guard !path.hasPrefix("/"), let directory = ProcessInfo.processInfo.environment["SIDE_BY_SIDE_CALLER_DIRECTORY"] else {
            return path
        }
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory, isDirectory: true)).standardizedFileURL.path
    }

    func run() throws {
        try Child.checkTimeIsInstalled()
        let folder = work.map(callers) ?? FileManager.default.temporaryDirectory.appendingPathComponent("courier-side-by-side-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        log("Inputs, outputs and the report so far (report.md) go to \(folder)")
        // swift-openapi-generator's configuration, for every API and the compile: the types and
        // the client, public, as Courier writes them.
        try "generate: [types, client]\naccessModifier: public\n"
            .write(toFile: Self.openAPIConfiguration(in: folder), atomically: true, encoding: .utf8)
        var report = Report(header: try machineHeader())
        if Heap.tools == nil {
            report.notes.append("heaptrack is not installed, so the peak heap column is empty (apt-get install heaptrack); peak RSS is GNU time's.")
        }

        var apis: [API] = []
        for size in sizes {
            apis.append(try synthetic(size, in: folder))
        }
        var documentPaths = documents.map(callers).map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if documentPaths.isEmpty {
            let github = repository + "/../shared/openapi/github-rest-2021.yaml"
            if FileManager.default.fileExists(atPath: github) {
                documentPaths = [URL(fileURLWithPath: github).standardizedFileURL.path]
            } else {
                report.notes.append("GitHub's REST description was not found at \(github), so no real document was measured.")
            }
        }
        let compiledPaths = compileDocuments.map(callers).map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        for path in compiledPaths where !documentPaths.contains(path) { documentPaths.append(path) }
        for path in documentPaths {
            apis.append(try document(path, in: folder))
        }

        var readByBoth: [API] = []
        for api in apis {
            log("Generating \(api.name) (\(api.endpoints) endpoints), \(runs) runs per tool")
            do {
                var result = try generation(api, tools: releaseTools(for: api, in: folder), runs: runs, in: folder)
                try measureHeap(&result, in: folder)
                report.generation.append(result)
                readByBoth.append(api)
            } catch where api.kind == .document {
                // The comparison is of documents both tools read; one that either rejects is named, not measured.
                report.notes.append("\(api.name) was left out: \(error)")
                continue
            }
            if case .synthetic(let size) = api.kind, debugSizes.contains(size) {
                log("Generating \(api.name) with the debug tools, \(debugRuns) runs per tool")
                report.debugGeneration.append(try generation(api, tools: debugTools(for: api, in: folder), runs: debugRuns, in: folder))
            } else if api.kind == .document, debugDocuments {
                // What a build plugin costs on a real document; swift-openapi-generator's debug
                // tool takes minutes on a large one, so only Courier's runs here.
                log("Generating \(api.name) with the debug courier, \(debugRuns) runs")
                let courierOnly = debugTools(for: api, in: folder).filter { $0.role == .courierDocument }
                report.debugGeneration.append(try generation(api, tools: courierOnly, runs: debugRuns, in: folder))
            }
            try report.save(in: folder)
        }
        var compiled: [API] = []
        for size in compileSizes {
            guard let api = apis.first(where: { $0.kind == .synthetic(size) }) else {
                report.notes.append("No compile at \(size) endpoints: that size is not among --sizes.")
                continue
            }
            compiled.append(api)
        }
        compiled += readByBoth.filter { $0.kind == .document && compiledPaths.contains($0.document) }
        for api in compiled {
            log("Compiling the modules generated for \(api.name)")
            do {
                report.compiles.append(try CompileBenchmark(repository: repository, courier: release("courier"),
                                                            openAPIGenerator: release("swift-openapi-generator"),
                                                            openAPIConfiguration: Self.openAPIConfiguration(in: folder),
                                                            folder: folder + "/compile").measure(api, runs: compileRuns))
            } catch {
                // The generation tables stand on their own; a failed build is reported, not a reason to lose them.
                report.notes.append("The compile of \(api.name) failed: \(error)")
            }
            try report.save(in: folder)
        }
        print(report.markdown)
    }

    /// One more run of each Courier row under heaptrack, for its peak heap; nothing when
    /// heaptrack is not installed (the report's note says so).
    private func measureHeap(_ result: inout GenerationResult, in folder: String) throws {
        guard Heap.tools != nil else { return }
        for index in result.rows.indices where [.courierSpec, .courierDocument].contains(result.rows[index].tool.role) {
            let tool = result.rows[index].tool
            let output = "\(folder)/out/\(result.api.slug)/\(tool.role.rawValue)-heap"
            try? FileManager.default.removeItem(atPath: output)
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            result.rows[index].heap = try Heap.peak(tool.executable, tool.arguments(output))
        }
    }

    // MARK: APIs

    private func synthetic(_ size: Int, in folder: String) throws -> API {
        let spec = "\(folder)/Synthetic\(size).yaml"
        let twin = "\(folder)/Synthetic\(size).openapi.yaml"
        try Child.measure(release("courier"), ["synthesize", "--endpoints", String(size), "--output", spec])
        try Child.measure(release("courier"), ["synthesize", "--endpoints", String(size), "--openapi", "--output", twin])
        return API(name: "Synthetic \(size)", kind: .synthetic(size), spec: spec, document: twin, endpoints: size)
    }

    private func document(_ path: String, in folder: String) throws -> API {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: absolute) else { throw BenchFailure(description: "\(path) does not exist") }
        // Courier's validate counts the operations it reads: every operation is an endpoint.
        let output = try Child.measure(release("courier"), ["validate", absolute]).output
        guard let endpoints = output.firstMatch(of: /: (\d+) endpoints/).flatMap({ Int($0.1) }) else {
            throw BenchFailure(description: "courier validate \(absolute) did not say how many endpoints it read:\n\(output)")
        }
        let name = URL(fileURLWithPath: absolute).lastPathComponent
        return API(name: name, kind: .document, spec: nil, document: absolute, endpoints: endpoints)
    }

    // MARK: Tools

    private func releaseTools(for api: API, in folder: String) -> [Tool] { tools(for: api, courier: release("courier"), openAPI: release("swift-openapi-generator"), yams: true, folder: folder) }
    private func debugTools(for api: API, in folder: String) -> [Tool] { tools(for: api, courier: debug("courier"), openAPI: debug("swift-openapi-generator"), yams: false, folder: folder) }

    /// Where `run` writes swift-openapi-generator's configuration.
    static func openAPIConfiguration(in folder: String) -> String { folder + "/openapi-generator-config.yaml" }

    private func tools(for api: API, courier: String, openAPI: String, yams: Bool, folder: String) -> [Tool] {
        var list: [Tool] = []
        if let spec = api.spec {
            list.append(Tool(name: "Courier, from the Courier spec", role: .courierSpec, executable: courier,
                             arguments: { ["generate", spec, "--output", $0] }))
        }
        list.append(Tool(name: "Courier, from the OpenAPI document", role: .courierDocument, executable: courier,
                         arguments: { ["generate", api.document, "--output", $0] }))
        list.append(Tool(name: "swift-openapi-generator, from the OpenAPI document", role: .openAPIGenerator, executable: openAPI,
                         arguments: { ["generate", api.document, "--config", Self.openAPIConfiguration(in: folder), "--output-directory", $0] }))
        if yams {
            if let spec = api.spec {
                list.append(Tool(name: "Yams compose of the Courier spec", role: .yamsSpec, executable: release("yams-compose"),
                                 arguments: { _ in [spec] }))
                list.append(Tool(name: "libyaml event parse of the Courier spec (one pass, in process)", role: .libyamlSpec,
                                 executable: release("libyaml-parse"), arguments: { _ in ["--passes", "21", spec] }))
            }
            list.append(Tool(name: "Yams compose of the OpenAPI document", role: .yamsDocument, executable: release("yams-compose"),
                             arguments: { _ in [api.document] }))
            list.append(Tool(name: "libyaml event parse of the OpenAPI document (one pass, in process)", role: .libyamlDocument,
                             executable: release("libyaml-parse"), arguments: { _ in ["--passes", "21", api.document] }))
        }
        return list
    }

    /// Every run runs each tool once, starting one tool later than the run before, so that no
    /// tool always follows the same neighbour.
    private func generation(_ api: API, tools: [Tool], runs: Int, in folder: String) throws -> GenerationResult {
        var result = GenerationResult(api: api, rows: tools.map { GenerationResult.Row(tool: $0) })
        for run in 0..<runs {
            for offset in 0..<tools.count {
                let index = (run + offset) % tools.count
                let output = "\(folder)/out/\(api.slug)/\(tools[index].role.rawValue)"
                try? FileManager.default.removeItem(atPath: output)
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                var (usage, printed) = try Child.measure(tools[index].executable, tools[index].arguments(output))
                if tools[index].role.reportsOnePass {
                    // The floor is one parse, without a process's start or the file's read, which
                    // the program times itself: a whole-process timer cannot resolve 10 ms.
                    guard let pass = printed.firstMatch(of: /one pass: wall ([0-9.]+) s, cpu ([0-9.]+) s/),
                          let wall = Double(pass.1), let cpu = Double(pass.2) else {
                        throw BenchFailure(description: "\(tools[index].executable) did not report one pass:\n\(printed)")
                    }
                    (usage.wall, usage.cpu) = (wall, cpu)
                }
                result.rows[index].usage.append(usage)
                if tools[index].role.writesCode { result.rows[index].size = OutputSize(of: output) }
            }
        }
        return result
    }

    // MARK: Report

    private func machineHeader() throws -> String {
        let commit = (try? Child.measure("/usr/bin/env", ["git", "-C", repository, "rev-parse", "--short", "HEAD"]).output)?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
        let dirty = ((try? Child.measure("/usr/bin/env", ["git", "-C", repository, "status", "--porcelain", "--untracked-files=no"]).output) ?? "").isEmpty ? "" : " (with uncommitted changes)"
        let swift = (try? Child.measure("/usr/bin/env", ["swift", "--version"]).output)?
            .split(whereSeparator: \.isNewline).first.map(String.init) ?? "unknown"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824
        let date = ISO8601DateFormatter().string(from: Date())
        return """
            Command: `Benchmarks/run \(CommandLine.arguments.dropFirst().filter { !$0.hasPrefix(tools) && $0 != "--tools" }.joined(separator: " "))`
            Commit: `\(commit)`\(dirty); swift-openapi-generator 1.14.3; \(swift)
            Machine: \(cores) cores, \(String(format: "%.0f", memory)) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString); \(date)
            """
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// One API measured: a synthetic one (a Courier spec and its OpenAPI twin) or a real document.
struct API {
    enum Kind: Equatable {
        case synthetic(Int)
        case document
    }

    var name: String
    var kind: Kind
    /// The Courier spec, for synthetic APIs.
    var spec: String?
    /// The OpenAPI document both generators read.
    var document: String
    var endpoints: Int

    var slug: String { name.replacingOccurrences(of: " ", with: "-").lowercased() }
}

/// One process measured on an API.
struct Tool {
    enum Role: String {
        case courierSpec = "courier-spec", courierDocument = "courier-openapi", openAPIGenerator = "swift-openapi-generator"
        case yamsSpec = "yams-spec", yamsDocument = "yams-openapi"
        case libyamlSpec = "libyaml-spec", libyamlDocument = "libyaml-openapi"

        var writesCode: Bool { [.courierSpec, .courierDocument, .openAPIGenerator].contains(self) }
        /// Whether the tool times one pass of its work itself (the libyaml floor).
        var reportsOnePass: Bool { self == .libyamlSpec || self == .libyamlDocument }
    }

    var name: String
    var role: Role
    var executable: String
    /// The arguments, given the folder to write into.
    var arguments: (String) -> [String]
}
