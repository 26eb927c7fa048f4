import ArgumentParser
import CourierGenerator
import CourierTestSupport
import Foundation
import SyntheticSpecs

/// `courier-bench`: generation speed and memory on synthetic specs, incremental regeneration,
/// compile time of generated code, and runtime overhead per request. Prints Markdown tables.
@main
struct CourierBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier-bench",
        abstract: "Measures Courier's generator and runtime; prints Markdown tables (see docs/BENCHMARKS.md).",
        discussion: """
            Run it in release from the package root: swift run -c release courier-bench
            Every figure is a median over --runs samples and is also given as a ratio to a \
            baseline measured in the same run, because shared machines are noisy.
            """,
        subcommands: [SampleCommand.self, SoakCommand.self, TransferCommand.self, ClientLoopCommand.self]
    )

    enum Section: String, ExpressibleByArgument, CaseIterable {
        case generation, incremental, compile, runtime, streaming, pagination
    }

    @Option(help: "Which measurements to run, comma-separated: generation, incremental, compile, runtime, streaming, pagination.")
    var sections = "generation,incremental,compile,runtime,streaming,pagination"

    @Option(help: "Spec sizes in endpoints, comma-separated.")
    var sizes = "100,1000,5000"

    @Option(help: "Samples per generation figure (each in a fresh process).")
    var runs = 5

    @Option(help: "The size (endpoints) of the spec for incremental regeneration and compile time.")
    var referenceSize = 1000

    @Option(help: "Clean builds per target for the compile-time figure.")
    var compileRuns = 3

    @Option(help: "A debug build of courier to time as a subprocess; built with 'swift build' when not given.")
    var debugCourier: String?

    @Flag(help: "Skip timing a debug build of courier.")
    var skipDebugCourier = false

    @Option(help: "Sequential calls per latency figure.")
    var calls = 2000

    @Option(help: "Calls per caller in the 64-caller throughput figure.")
    var concurrentCalls = 100

    @Option(help: "A folder for specs, outputs and the compile package; a fresh temporary one by default.")
    var workDirectory: String?

    func validate() throws {
        guard runs >= 1, compileRuns >= 1, calls >= 10, concurrentCalls >= 1 else {
            throw ValidationError("--runs, --compile-runs and --concurrent-calls must be at least 1, --calls at least 10")
        }
        _ = try parsedSizes()
        _ = try parsedSections()
    }

    func parsedSizes() throws -> [Int] {
        let values = sizes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) >= 1 }) else {
            throw ValidationError("--sizes takes positive numbers such as 100,1000,5000")
        }
        return values.compactMap { $0 }
    }

    func parsedSections() throws -> [Section] {
        try sections.split(separator: ",").map { name in
            guard let section = Section(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("unknown section '\(name)'; use \(Section.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return section
        }
    }

    func run() async throws {
        let chosen = try parsedSections()
        let work = try prepareWorkDirectory()
        let context = BenchContext(
            work: work, packageRoot: Self.packageRoot(), runs: runs, referenceSize: referenceSize,
            compileRuns: compileRuns, calls: calls, concurrentCalls: concurrentCalls)
        progress("work directory \(work.path)")
        await printMachine()

        if chosen.contains(.generation) {
            let debug = skipDebugCourier ? nil : try await locateDebugCourier(context)
            try await GenerationBenchmark(context: context, debugCourier: debug).run(sizes: try parsedSizes())
        }
        if chosen.contains(.incremental) {
            try await IncrementalBenchmark(context: context).run()
        }
        if chosen.contains(.compile) {
            try await CompileBenchmark(context: context).run()
        }
        if chosen.contains(.runtime) {
            try await RuntimeBenchmark(context: context).run()
        }
        if chosen.contains(.streaming) {
            try await StreamingBenchmark(context: context).run()
        }
        if chosen.contains(.pagination) {
            try await PaginationBenchmark(context: context).run()
        }
    }

    private func prepareWorkDirectory() throws -> URL {
        let url = workDirectory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.standardizedFileURL
    }

    /// The package root: the current folder when it is this package (as with `swift run`),
    /// otherwise the folder this source file was compiled from.
    static func packageRoot() -> URL {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let manifest = try? String(contentsOf: current.appendingPathComponent("Package.swift"), encoding: .utf8),
           manifest.contains("courier-bench") {
            return current
        }
        return TestEnvironment.repositoryRoot
    }

    private func locateDebugCourier(_ context: BenchContext) async throws -> String {
        if let debugCourier { return debugCourier }
        progress("building a debug courier (swift build --product courier), as SwiftPM builds plugin tools")
        let build = try await ChildProcess.runChecked("swift", ["build", "--product", "courier"], in: context.packageRoot.path)
        _ = build
        let binPath = try await ChildProcess.runChecked("swift", ["build", "--show-bin-path"], in: context.packageRoot.path)
        return binPath.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) + "/courier"
    }

    private func printMachine() async {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
        let memory = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("MemTotal") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown"
        let swift = (try? await ChildProcess.run("swift", ["--version"]))?.standardOutput.split(separator: "\n").first.map(String.init) ?? "unknown"
        printReport("""
            ## Machine

            - CPU: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores available (nproc)
            - Memory: \(memory)
            - Toolchain: \(swift)
            - Courier generator version: \(GeneratorVersion.current)
            """)
    }
}

/// What every measurement needs to know.
struct BenchContext {
    let work: URL
    let packageRoot: URL
    let runs: Int
    let referenceSize: Int
    let compileRuns: Int
    let calls: Int
    let concurrentCalls: Int

    /// Writes the synthetic spec of `endpoints` endpoints (optionally with one endpoint edited)
    /// to `path` and returns it.
    @discardableResult
    func writeSpec(endpoints: Int, editedEndpoint: Int? = nil, to path: URL) throws -> SyntheticSpec {
        let spec = try SyntheticSpecGenerator(SyntheticSpecConfiguration(endpoints: endpoints, editedEndpoint: editedEndpoint)).generate()
        try Data(spec.yaml.utf8).write(to: path)
        return spec
    }

    /// Runs one sample of `task` in a fresh process of this executable.
    func sample(_ task: SampleCommand.Task, spec: URL, output: URL? = nil) async throws -> (SampleReport, ChildProcess.Result) {
        var arguments = ["sample", task.rawValue, "--spec", spec.path]
        if let output { arguments += ["--output", output.path] }
        let outcome = try await ChildProcess.runChecked(ChildProcess.currentExecutable, arguments)
        return (SampleReport(outcome.standardOutput), outcome)
    }
}
