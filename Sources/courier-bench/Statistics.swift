import Foundation

/// Order statistics over repeated samples. Medians, not means: one noisy neighbour on a shared
/// machine should move a figure as little as possible.
struct Samples {
    private(set) var values: [Double] = []

    init(_ values: [Double] = []) {
        self.values = values
    }

    mutating func append(_ value: Double) {
        values.append(value)
    }

    var count: Int { values.count }

    /// The `fraction` quantile (0.5 for the median), by the nearest-rank method.
    func quantile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { quantile(0.5) }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Formatting for table cells.
enum Format {
    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if value >= 1 { return String(format: "%.2f s", value) }
        if value >= 0.001 { return String(format: "%.1f ms", value * 1e3) }
        return String(format: "%.1f µs", value * 1e6)
    }

    static func nanoseconds(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return String(format: "%.0f ns", value)
    }

    static func ratio(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return String(format: "%.2f×", value)
    }

    static func bytes(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if value >= 1_048_576 { return String(format: "%.1f MiB", value / 1_048_576) }
        return String(format: "%.0f KiB", value / 1024)
    }

    static func count(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if value >= 100 || value == value.rounded() { return String(format: "%.0f", value) }
        return String(format: "%.1f", value)
    }

    static func percent(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        return String(format: "%+.1f%%", value * 100)
    }
}

/// A Markdown table, printed to standard output as the benchmark goes.
struct Table {
    var title: String
    var command: String
    var header: [String]
    var rows: [[String]] = []
    var notes: [String] = []

    init(_ title: String, command: String, header: [String]) {
        self.title = title
        self.command = command
        self.header = header
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    func print() {
        var lines = ["", "### \(title)", "", "`\(command)`", ""]
        lines.append("| " + header.joined(separator: " | ") + " |")
        lines.append("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
        for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
        if !notes.isEmpty {
            lines.append("")
            lines += notes.map { "- " + $0 }
        }
        printReport(lines.joined(separator: "\n"))
    }
}

/// Writes report text to standard output at once, so that it interleaves sensibly with progress
/// lines on standard error.
func printReport(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Progress on standard error, so that standard output stays a clean Markdown report.
func progress(_ message: String) {
    FileHandle.standardError.write(Data(("courier-bench: " + message + "\n").utf8))
}
