import CourierGenerator
import Foundation

/// Prints the diagnostics of a run to standard error, the same way for every command: each
/// diagnostic in the compiler's form, at most `errorLimit` errors and `warningLimit` warnings for
/// the whole run, then a count of errors and warnings when there were any, and the warnings by
/// kind when there were more than a glance takes in.
struct DiagnosticsPrinter {
    /// The most errors printed for the run; the rest are only counted.
    let errorLimit: Int
    /// The most warnings printed for the run; the rest are only counted, by kind.
    var warningLimit = DiagnosticCollector.defaultErrorLimit

    /// Above this many warnings, the summary lists them by kind.
    static let summaryThreshold = 5

    /// Prints the diagnostics of every spec of the run, in order, and returns them merged.
    @discardableResult
    func print(_ specs: some Sequence<DiagnosticCollector>) -> DiagnosticCollector {
        var run = DiagnosticCollector(errorLimit: errorLimit, warningLimit: warningLimit)
        for diagnostics in specs {
            run.merge(diagnostics)
        }
        for line in run.renderedLines {
            StandardError.print(line)
        }
        if run.errorCount > 0 || run.warningCount > 0 {
            StandardError.print("\(plural(run.errorCount, "error")), \(plural(run.warningCount, "warning"))")
        }
        if run.warningCount > Self.summaryThreshold || run.suppressedWarningCount > 0 {
            StandardError.print("warnings by kind:")
            let kinds = run.warningCountsByKind.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            for (kind, count) in kinds {
                StandardError.print(String(format: "%6d  ", count) + kind)
            }
        }
        return run
    }
}

/// Writes lines to standard error, where diagnostics belong.
enum StandardError {
    static func print(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
