import CourierTestSupport
import Foundation

/// Generation: wall time and peak memory of parse + validate and of the whole generation
/// (parse, validate, translate, render, write) per spec size, against Yams composing the same
/// file (the floor YAML parsing sets). Every sample runs in its own process.
struct GenerationBenchmark {
    let context: BenchContext
    /// A debug `courier` binary to time as a subprocess, or `nil` to skip it.
    let debugCourier: String?

    /// The medians of one task at one size.
    private struct Figures {
        var time = Samples()
        var processTime = Samples()
        var peak = Samples()
        var lines = Samples()
        var render = Samples()
        var write = Samples()
    }

    func run(sizes: [Int]) async throws {
        var table = Table(
            "Generation (release library, one fresh process per sample)",
            command: "swift run -c release courier-bench --sections generation --sizes \(sizes.map(String.init).joined(separator: ",")) --runs \(context.runs)",
            header: ["Endpoints", "Spec", "Step", "Median time", "× Yams", "Peak RSS", "Peak RSS − idle", "(RSS − idle) / spec", "Generated lines/s"])
        var phases = Table(
            "Where generation spends its time (release, medians)",
            command: table.command,
            header: ["Endpoints", "Parse + validate", "Translate + render (difference)", "Write files", "Generated lines", "Lines per endpoint"])
        var debug = Table(
            "Generation with a debug build of courier (as a SwiftPM plugin runs it), whole process",
            command: table.command,
            header: ["Endpoints", "Step", "Median process time", "× Yams process", "× release process", "Peak RSS", "Generated lines/s"])

        var idleFloors: [String] = []
        for size in sizes {
            let spec = context.work.appendingPathComponent("Synthetic\(size).yaml")
            let synthetic = try context.writeSpec(endpoints: size, to: spec)
            let specBytes = Double(synthetic.yaml.utf8.count)
            progress("generation: \(size) endpoints, \(synthetic.lineCount) lines, \(Int(specBytes)) bytes")
            let figures = try await measure(spec: spec, size: size)
            let yams = figures["yams", default: Figures()]
            let idle = figures["idle", default: Figures()]
            let specText = "\(synthetic.lineCount) lines, \(Format.bytes(specBytes))"
            for step in ["yams", "validate", "generate"] {
                let figure = figures[step, default: Figures()]
                let label = switch step {
                case "yams": "Yams.compose (baseline)"
                case "validate": "parse + validate"
                default: "parse + validate + emit + write"
                }
                let extra = figure.peak.median - idle.peak.median
                let linesPerSecond = step == "generate" ? Format.count(figure.lines.median / figure.time.median) : ""
                table.add(["\(size)", specText, label, Format.seconds(figure.time.median),
                           Format.ratio(figure.time.median / yams.time.median), Format.bytes(figure.peak.median),
                           Format.bytes(extra), Format.ratio(extra / specBytes), linesPerSecond])
            }
            let generate = figures["generate", default: Figures()]
            let validate = figures["validate", default: Figures()].time.median
            phases.add(["\(size)", Format.seconds(validate), Format.seconds(generate.render.median - validate),
                        Format.seconds(generate.write.median), Format.count(generate.lines.median),
                        Format.count(generate.lines.median / Double(size))])
            if let debugCourier {
                for step in ["validate", "generate"] {
                    let figure = try await measureExternal(debugCourier, step: step, spec: spec, size: size)
                    let release = figures[step, default: Figures()].processTime.median
                    let linesPerSecond = step == "generate" ? Format.count(generate.lines.median / figure.processTime.median) : ""
                    debug.add(["\(size)", "courier \(step)", Format.seconds(figure.processTime.median),
                               Format.ratio(figure.processTime.median / yams.processTime.median),
                               Format.ratio(figure.processTime.median / release), Format.bytes(figure.peak.median), linesPerSecond])
                }
            }
            idleFloors.append("\(Format.bytes(idle.peak.median)) (\(size))")
        }
        table.notes = [
            "Idle process peak RSS, the floor of any process of this binary, by size: \(idleFloors.joined(separator: ", ")).",
            "Times are measured inside the child around the work; peak RSS is the child's own VmHWM, read at its end.",
        ]
        table.print()
        phases.notes = ["Parse + validate is the median of the validate samples; translate + render is the median time of "
            + "Generator.generate(specAt:) in the generate samples minus it."]
        phases.print()
        if debugCourier != nil {
            debug.notes = [
                "Process time is spawn to exit as the parent sees it, start-up included; '× Yams process' divides by the whole "
                    + "process time of the Yams baseline sample, '× release process' by the release library sample's process time.",
            ]
            debug.print()
        }
    }

    /// Samples every task `runs` times, interleaved so that slow phases of the machine hit all tasks alike.
    private func measure(spec: URL, size: Int) async throws -> [String: Figures] {
        var figures: [String: Figures] = [:]
        for run in 0..<context.runs {
            for task in SampleCommand.Task.allCases {
                let output = context.work.appendingPathComponent("out-\(size)-\(run)")
                try? FileManager.default.removeItem(at: output)
                let (report, outcome) = try await context.sample(task, spec: spec, output: task == .generate ? output : nil)
                try? FileManager.default.removeItem(at: output)
                var figure = figures[task.rawValue] ?? Figures()
                figure.time.append(report["seconds"])
                figure.processTime.append(outcome.duration.seconds)
                figure.peak.append(report["peak"])
                if task == .generate {
                    figure.lines.append(report["lines"])
                    figure.render.append(report["render"])
                    figure.write.append(report["write"])
                }
                figures[task.rawValue] = figure
            }
        }
        return figures
    }

    /// Times the external binary's `validate` or `generate` as whole processes.
    private func measureExternal(_ courier: String, step: String, spec: URL, size: Int) async throws -> Figures {
        var figure = Figures()
        for run in 0..<context.runs {
            let output = context.work.appendingPathComponent("debug-out-\(size)-\(run)")
            try? FileManager.default.removeItem(at: output)
            let arguments = step == "generate" ? ["generate", spec.path, "--output", output.path] : ["validate", spec.path]
            // GNU time forks (rather than spawns from this large process) and reports its
            // child's ru_maxrss, which then starts from time's own small footprint.
            // Without GNU time the peak is left out rather than misreported.
            let hasTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")
            let outcome = hasTime
                ? try await ChildProcess.runChecked("/usr/bin/time", ["-f", "peak-kb=%M", courier] + arguments)
                : try await ChildProcess.runChecked(courier, arguments)
            try? FileManager.default.removeItem(at: output)
            figure.processTime.append(outcome.duration.seconds)
            let reported = outcome.standardError.split(separator: "\n").last { $0.hasPrefix("peak-kb=") }
            figure.peak.append(reported.flatMap { Double($0.dropFirst("peak-kb=".count)) }.map { $0 * 1024 } ?? .nan)
        }
        return figure
    }
}
