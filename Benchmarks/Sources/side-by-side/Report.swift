import Foundation

/// The samples of one API's generation, a row per tool.
struct GenerationResult {
    struct Row {
        var tool: Tool
        var usage = UsageSamples()
        var size: OutputSize?
        /// Peak heap of one more run under heaptrack, for Courier's rows when heaptrack is installed.
        var heap: Double?
    }

    var api: API
    var rows: [Row]

    func row(_ role: Tool.Role) -> Row? { rows.first { $0.tool.role == role } }
}

/// The clean debug builds of the modules generated for one API.
struct CompileResult {
    struct Row {
        var name: String
        var usage = UsageSamples()
        var size: OutputSize
        var warnings: Int
    }

    var api: API
    var rows: [Row]
}

/// The tables, in Markdown, for docs/BENCHMARKS.md.
struct Report {
    var header: String
    var generation: [GenerationResult] = []
    var debugGeneration: [GenerationResult] = []
    var compiles: [CompileResult] = []
    var notes: [String] = []

    /// Writes the tables so far to `report.md` in `folder`, so that a long run that fails late
    /// keeps what it measured.
    func save(in folder: String) throws {
        try markdown.write(toFile: folder + "/report.md", atomically: true, encoding: .utf8)
    }

    var markdown: String {
        var text = header + "\n"
        if !generation.isEmpty {
            text += "\n#### Generation (release tools, whole process)\n"
            for result in generation { text += table(result) }
        }
        if !debugGeneration.isEmpty {
            text += "\n#### Generation with debug tools (what a build plugin runs)\n"
            for result in debugGeneration { text += table(result) }
        }
        if !compiles.isEmpty {
            text += "\n#### Clean debug build of each generated module (dependencies built beforehand)\n"
            for result in compiles { text += table(result) }
        }
        text += documentSummary
        for note in notes { text += "\nNote: \(note)\n" }
        return text
    }

    /// One line per real document: both tools' generation CPU and, where the modules were
    /// compiled, their compiler CPU, against the target of at least 10× less for Courier.
    private var documentSummary: String {
        let documents = generation.filter { $0.api.kind == .document }
        guard !documents.isEmpty else { return "" }
        var text = "\n#### Real documents: Courier against swift-openapi-generator (target: ≥ 10× less CPU in each column)\n\n"
        text += "| Document | Operations | Generation CPU, Courier | Generation CPU, sog | sog ÷ Courier | Compiler CPU, Courier | Compiler CPU, sog | sog ÷ Courier |\n"
        text += "|---|---|---|---|---|---|---|---|\n"
        for result in documents {
            let ours = result.row(.courierDocument)?.usage.cpu.median ?? .nan
            let theirs = result.row(.openAPIGenerator)?.usage.cpu.median ?? .nan
            let compile = compiles.first { $0.api.slug == result.api.slug }
            let oursCompiled = compile?.rows.first?.usage.cpu.median ?? .nan
            let theirsCompiled = compile?.rows.last?.usage.cpu.median ?? .nan
            text += "| \(result.api.name) | \(result.api.endpoints) | \(Self.seconds(ours)) | \(Self.seconds(theirs)) | \(Self.verdict(theirs, ours)) "
                + "| \(compile == nil ? "not compiled" : Self.seconds(oursCompiled)) | \(compile == nil ? "" : Self.seconds(theirsCompiled)) "
                + "| \(compile == nil ? "" : Self.verdict(theirsCompiled, oursCompiled)) |\n"
        }
        return text
    }

    /// A ratio and whether it meets the 10× target.
    static func verdict(_ numerator: Double, _ denominator: Double) -> String {
        let value = numerator / denominator
        guard value.isFinite else { return "n/a" }
        return ratio(numerator, denominator) + (value >= 10 ? " (met)" : " (missed)")
    }

    private func table(_ result: GenerationResult) -> String {
        let api = result.api
        var text = "\n**\(api.name)** (\(api.endpoints) endpoints; \(Self.fileSizes(api))), "
            + "\(result.rows.first?.usage.count ?? 0) runs per tool, medians (min–max):\n\n"
        text += "| Tool | Wall | CPU | Peak RSS | Peak heap | Files | Lines | Lines per endpoint |\n|---|---|---|---|---|---|---|---|\n"
        for row in result.rows {
            let size = row.size
            text += "| \(row.tool.name) | \(Self.spread(row.usage.wall, Self.seconds)) | \(Self.spread(row.usage.cpu, Self.seconds)) "
                + "| \(Self.megabytes(row.usage.peakMemory.median)) | \(row.heap.map(Self.megabytes) ?? "") | \(size.map { String($0.files) } ?? "") "
                + "| \(size.map { Self.grouped($0.lines) } ?? "") "
                + "| \(size.map { String(format: "%.0f", Double($0.lines) / Double(max(api.endpoints, 1))) } ?? "") |\n"
        }
        text += "\n"
        if let theirs = result.row(.openAPIGenerator) {
            for role in [Tool.Role.courierDocument, .courierSpec] {
                guard let ours = result.row(role) else { continue }
                text += "- swift-openapi-generator ÷ \(ours.tool.name): wall \(Self.ratio(theirs.usage.wall.median, ours.usage.wall.median)), "
                    + "CPU \(Self.ratio(theirs.usage.cpu.median, ours.usage.cpu.median)), "
                    + "peak memory \(Self.ratio(theirs.usage.peakMemory.median, ours.usage.peakMemory.median)), "
                    + "lines \(Self.ratio(Double(theirs.size?.lines ?? 0), Double(ours.size?.lines ?? 0))).\n"
            }
        }
        let floors: [(Tool.Role, Tool.Role)] = [(.courierSpec, .yamsSpec), (.courierSpec, .libyamlSpec),
                                                (.courierDocument, .yamsDocument), (.courierDocument, .libyamlDocument)]
        for (ours, baseline) in floors {
            guard let ours = result.row(ours), let baseline = result.row(baseline) else { continue }
            text += "- \(ours.tool.name) ÷ \(baseline.tool.name): wall \(Self.ratio(ours.usage.wall.median, baseline.usage.wall.median)), "
                + "CPU \(Self.ratio(ours.usage.cpu.median, baseline.usage.cpu.median)).\n"
        }
        for (role, path) in [(Tool.Role.courierSpec, api.spec), (.courierDocument, api.document)] {
            guard let row = result.row(role), let path, let bytes = Self.fileSize(path) else { continue }
            text += "- \(row.tool.name): peak RSS \(Self.ratio(row.usage.peakMemory.median, bytes)) the input's size"
                + (row.heap.map { ", peak heap \(Self.ratio($0, bytes)) (target ≤ 10×: \($0 <= 10 * bytes ? "met" : "missed"))" } ?? "") + ".\n"
        }
        return text
    }

    private func table(_ result: CompileResult) -> String {
        var text = "\n**\(result.api.name)** (\(result.api.endpoints) endpoints), "
            + "\(result.rows.first?.usage.count ?? 0) clean builds each, medians (min–max):\n\n"
        text += "| Module | Wall | CPU | Peak compiler memory | Files | Lines | Distinct warnings |\n|---|---|---|---|---|---|---|\n"
        for row in result.rows {
            text += "| \(row.name) | \(Self.spread(row.usage.wall, Self.seconds)) | \(Self.spread(row.usage.cpu, Self.seconds)) "
                + "| \(Self.megabytes(row.usage.peakMemory.median)) | \(row.size.files) | \(Self.grouped(row.size.lines)) | \(row.warnings) |\n"
        }
        text += "\n"
        if let theirs = result.rows.last {
            for ours in result.rows.dropLast() {
                text += "- \(theirs.name) ÷ \(ours.name): CPU \(Self.ratio(theirs.usage.cpu.median, ours.usage.cpu.median)), "
                    + "wall \(Self.ratio(theirs.usage.wall.median, ours.usage.wall.median)), "
                    + "peak memory \(Self.ratio(theirs.usage.peakMemory.median, ours.usage.peakMemory.median)).\n"
            }
        }
        return text
    }

    // MARK: Formatting

    static func fileSize(_ path: String) -> Double? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.map(\.doubleValue)
    }

    static func fileSizes(_ api: API) -> String {
        var parts: [String] = []
        if let spec = api.spec, let bytes = fileSize(spec) { parts.append("Courier spec \(megabytes(bytes))") }
        if let bytes = fileSize(api.document) { parts.append("OpenAPI document \(megabytes(bytes))") }
        return parts.joined(separator: ", ")
    }

    static func spread(_ samples: Samples, _ format: (Double) -> String) -> String {
        samples.values.count > 1
            ? "\(format(samples.median)) (\(format(samples.minimum))–\(format(samples.maximum)))"
            : format(samples.median)
    }

    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if value < 0.1 { return String(format: "%.1f ms", value * 1000) }
        return value >= 10 ? String(format: "%.1f s", value) : String(format: "%.2f s", value)
    }

    static func megabytes(_ bytes: Double) -> String {
        guard bytes.isFinite else { return "n/a" }
        return String(format: "%.1f MB", bytes / 1_000_000)
    }

    static func ratio(_ numerator: Double, _ denominator: Double) -> String {
        guard numerator.isFinite, denominator.isFinite, denominator > 0 else { return "n/a" }
        let value = numerator / denominator
        return value >= 10 ? String(format: "%.0f×", value) : String(format: "%.1f×", value)
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
