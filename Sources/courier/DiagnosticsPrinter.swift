import CourierGenerator
import Foundation

/// Prints the diagnostics of a run to standard error, the same way for every command: each
/// diagnostic in the compiler's form, at most `errorLimit` errors for the whole run, then a count
/// of errors and warnings when there were any.
struct DiagnosticsPrinter {
    /// The most errors printed for the run; the rest are only counted.
    let errorLimit: Int

    /// Prints the diagnostics of every spec of the run, in order, and returns them merged.
    @discardableResult
    func print(_ specs: some Sequence<DiagnosticCollector>) -> DiagnosticCollector {
        var run = DiagnosticCollector(errorLimit: errorLimit)
        for diagnostics in specs {
            run.merge(diagnostics)
        }
        for line in run.renderedLines {
            StandardError.print(line)
        }
        if run.errorCount > 0 || run.warningCount > 0 {
            StandardError.print("\(plural(run.errorCount, "error")), \(plural(run.warningCount, "warning"))")
        }
        return run
    }
}

/// `3 errors`, `1 warning`: a number and its noun, plural when the number is not 1.
func plural(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}

/// Writes lines to standard error, where diagnostics belong.
enum StandardError {
    static func print(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
