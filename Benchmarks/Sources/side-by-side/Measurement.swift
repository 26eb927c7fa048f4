import Foundation

/// What one run of a child process cost.
struct Usage {
    /// Wall-clock seconds, as GNU time measures them (to 10 ms).
    var wall: Double
    /// User plus system CPU seconds of the process and the children it waited for.
    var cpu: Double
    /// The largest resident set of the process or any child it waited for, in bytes.
    var peakMemory: Double
}

/// Wall time, CPU and peak memory over the repeated runs of one tool or build.
struct UsageSamples {
    var wall = Samples()
    var cpu = Samples()
    var peakMemory = Samples()

    mutating func append(_ usage: Usage) {
        wall.append(usage.wall)
        cpu.append(usage.cpu)
        peakMemory.append(usage.peakMemory)
    }

    var count: Int { wall.values.count }
}

/// A step that went wrong, with what the child printed.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs children under GNU time, which reports the CPU time and peak memory of a process and
/// the children it waited for (a compiler driver's frontends, for instance). The runner is a
/// command-line program, not an async test, so waiting synchronously is what it should do.
enum Child {
    static let time = "/usr/bin/time"

    static func checkTimeIsInstalled() throws {
        guard FileManager.default.isExecutableFile(atPath: time) else {
            throw BenchFailure(description: "\(time) (GNU time) is needed to read CPU time and peak memory: apt-get install time")
        }
    }

    /// Runs `executable` with `arguments` in `directory`, and throws unless it exits with 0.
    @discardableResult
    static func measure(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> (usage: Usage, output: String) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("side-by-side-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let report = scratch.appendingPathComponent("time").path
        let stdout = scratch.appendingPathComponent("stdout")
        let stderr = scratch.appendingPathComponent("stderr")
        for file in [stdout, stderr] where !FileManager.default.createFile(atPath: file.path, contents: nil) {
            throw BenchFailure(description: "cannot create \(file.path)")
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: time)
        process.arguments = ["-f", "%e %U %S %M", "-o", report, executable] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true) }
        // Files, not pipes: a child that prints megabytes must never block on a full pipe.
        let out = try FileHandle(forWritingTo: stdout)
        let err = try FileHandle(forWritingTo: stderr)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice

        try process.run()
        process.waitUntilExit()

        let printed = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let errors = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            throw BenchFailure(description: "\(([executable] + arguments).joined(separator: " ")) exited with "
                + "\(process.terminationStatus):\n\(errors.suffix(4000))\(printed.suffix(2000))")
        }
        let fields = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isNewline).last?.split(separator: " ").compactMap { Double($0) } ?? []
        guard fields.count == 4 else {
            throw BenchFailure(description: "GNU time wrote no figures for \(executable)")
        }
        // The wall time is GNU time's too: Foundation's `waitUntilExit` on Linux looks in every
        // 50 ms, which a clock around it would add.
        return (Usage(wall: fields[0], cpu: fields[1] + fields[2], peakMemory: fields[3] * 1024), printed)
    }
}

/// Peak heap from heaptrack, when it is installed: what a process allocated and had not freed
/// at its worst moment, without the resident set's code, stacks and allocator slack. The
/// issue's memory target is heap, which GNU time's resident set overstates by 30 MB or more.
enum Heap {
    /// heaptrack and heaptrack_print, or `nil` when either is missing.
    static let tools: (record: String, print: String)? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        func find(_ name: String) -> String? {
            path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        guard let record = find("heaptrack"), let print = find("heaptrack_print") else { return nil }
        return (record, print)
    }()

    /// The peak heap of one run of `executable`, in bytes (heaptrack's "M" is 10⁶ bytes).
    static func peak(_ executable: String, _ arguments: [String]) throws -> Double {
        guard let tools else { throw BenchFailure(description: "heaptrack is not installed") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("side-by-side-heap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let base = scratch.appendingPathComponent("profile").path
        try Child.measure(tools.record, ["-o", base, executable] + arguments)
        guard let profile = try FileManager.default.contentsOfDirectory(atPath: scratch.path).first(where: { $0.hasPrefix("profile.") }) else {
            throw BenchFailure(description: "heaptrack wrote no profile for \(executable)")
        }
        let printed = try Child.measure(tools.print, ["-f", scratch.appendingPathComponent(profile).path,
                                                     "--print-peaks", "0", "--print-allocators", "0", "--print-temporary", "0",
                                                     "--print-leaks", "0"]).output
        guard let match = printed.firstMatch(of: /peak heap memory consumption: ([0-9.]+)([KMG]?)/), let value = Double(match.1) else {
            throw BenchFailure(description: "heaptrack_print gave no peak for \(executable):\n\(printed.prefix(2000))")
        }
        let scale: Double = switch match.2 {
        case "K": 1e3
        case "M": 1e6
        case "G": 1e9
        default: 1
        }
        return value * scale
    }
}

/// The Swift files under a folder and their lines: what a generator wrote.
struct OutputSize {
    var files = 0
    var lines = 0

    init(of folder: String) {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return }
        for case let path as String in walker where path.hasSuffix(".swift") {
            guard let data = FileManager.default.contents(atPath: folder + "/" + path) else { continue }
            files += 1
            lines += data.reduce(into: 0) { count, byte in if byte == UInt8(ascii: "\n") { count += 1 } }
        }
    }
}

/// Order statistics over repeated samples: medians, so that one noisy neighbour on a shared
/// machine moves a figure as little as possible, with the spread beside them.
struct Samples {
    private(set) var values: [Double] = []

    mutating func append(_ value: Double) { values.append(value) }

    var median: Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var minimum: Double { values.min() ?? .nan }
    var maximum: Double { values.max() ?? .nan }
}
