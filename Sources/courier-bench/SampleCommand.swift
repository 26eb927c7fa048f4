import ArgumentParser
import CourierGenerator
import Foundation
import Yams

/// One measured sample in a fresh process, so that the parent can read this process's own peak
/// memory from `wait4`. Prints `key=value` lines; the parent parses them.
struct SampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Runs one measured task in this process (used by the harness; not for direct use).",
        shouldDisplay: false
    )

    enum Task: String, ExpressibleByArgument, CaseIterable {
        /// Nothing: the memory and time floor of a process of this binary.
        case idle
        /// The baseline: Yams composing the file into a node tree, as the spec loader does.
        case yams
        /// Parse and validate (SpecLoader).
        case validate
        /// Parse, validate, translate, render and write the files (what `courier generate` does).
        case generate
    }

    @Argument var task: Task
    @Option var spec: String
    @Option var output: String?

    func run() async throws {
        try await measure()
        // Read last, so that it covers the whole task.
        print("peak=\(Self.peakResidentBytes())")
    }

    /// This process's peak resident set size (VmHWM), which unlike the parent's `wait4` figure
    /// covers only this program: on Linux a spawned child's `ru_maxrss` starts from the
    /// spawning parent's high-water mark.
    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return -1 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? -1
        return kilobytes < 0 ? -1 : kilobytes * 1024
    }

    private func measure() async throws {
        let url = URL(fileURLWithPath: spec)
        let clock = ContinuousClock()
        switch task {
        case .idle:
            print("seconds=0")
        case .yams:
            let start = clock.now
            let data = try Data(contentsOf: url)
            let text = String(decoding: data, as: UTF8.self)
            let node = try Yams.compose(yaml: text, .basic, .default, .utf8)
            let elapsed = clock.now - start
            guard let node else { throw ValidationError("\(spec) holds no YAML document") }
            print("seconds=\(elapsed.seconds)")
            print("nodes=\(Self.count(node))")
        case .validate:
            let start = clock.now
            let result = SpecLoader().loadSpec(at: url, displayPath: spec)
            let elapsed = clock.now - start
            guard result.spec != nil, result.diagnostics.errorCount == 0 else {
                throw ValidationError("\(spec) is not valid:\n" + result.diagnostics.renderedLines.prefix(5).joined(separator: "\n"))
            }
            print("seconds=\(elapsed.seconds)")
        case .generate:
            guard let output else { throw ValidationError("generate needs --output") }
            try await generate(url, into: output, clock: clock)
        }
    }

    /// Times generation as `courier generate` does it (load, validate, translate, render), then
    /// writing the files.
    private func generate(_ url: URL, into output: String, clock: ContinuousClock) async throws {
        let start = clock.now
        // The path `courier generate` takes: files rendered as tasks of the concurrency pool.
        let generator = try Generator()
        let results = await generator.generate(specs: [SpecInput(url: url, displayPath: spec)])
        guard let result = results.first else { throw ValidationError("\(spec) produced no result") }
        let afterRender = clock.now
        guard result.succeeded else {
            throw ValidationError("\(spec) is not valid:\n" + result.diagnostics.renderedLines.prefix(5).joined(separator: "\n"))
        }
        let report = GenerationOutput(root: URL(fileURLWithPath: output)).apply([result], checkOnly: false, removesStaleFolders: false)
        let end = clock.now
        guard report.failures.isEmpty else { throw ValidationError("cannot write: \(report.failures.map { "\($0.error)" })") }
        let lines = result.files.values.reduce(0) { total, text in
            total + text.utf8.reduce(into: 0) { count, byte in if byte == UInt8(ascii: "\n") { count += 1 } }
        }
        print("seconds=\((end - start).seconds)")
        print("render=\((afterRender - start).seconds)")
        print("write=\((end - afterRender).seconds)")
        print("lines=\(lines)")
        print("files=\(result.files.count)")
        print("written=\(report.changeLines.count)")
        for line in report.changeLines { print("change=\(line)") }
    }

    private static func count(_ node: Node) -> Int {
        switch node {
        case .scalar: 1
        case .alias: 1
        case .mapping(let mapping): 1 + mapping.reduce(0) { $0 + count($1.key) + count($1.value) }
        case .sequence(let sequence): 1 + sequence.reduce(0) { $0 + count($1) }
        }
    }
}

/// The `key=value` lines a sample printed.
struct SampleReport {
    var values: [String: Double] = [:]
    var changes: [String] = []

    init(_ output: String) {
        for line in output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            let value = String(line[line.index(after: equals)...])
            if key == "change" {
                changes.append(value)
            } else if let number = Double(value) {
                values[key] = number
            }
        }
    }

    subscript(key: String) -> Double {
        values[key] ?? .nan
    }
}
