/// Gathers the diagnostics of one run, keeping warnings apart from errors and capping both.
///
/// Like compilers, it reports every problem in one run, but stops storing errors after `errorLimit`
/// (and warnings after `warningLimit`) so that a broken multi-megabyte file cannot flood the
/// terminal; the rest are only counted, warnings by kind so that a summary still covers them all.
package struct DiagnosticCollector: Sendable {
    /// How many errors are kept by default.
    package static let defaultErrorLimit = 50

    /// The most errors kept; further errors only increase `suppressedErrorCount`.
    package let errorLimit: Int
    /// The errors kept, in the order they were found.
    package private(set) var errors: [Diagnostic] = []
    /// The most warnings kept; further warnings only increase `suppressedWarningCount`. Unlimited
    /// unless asked, so that the stages keep every warning and only what prints them caps them.
    package let warningLimit: Int
    /// The warnings, kept apart from errors.
    package private(set) var warnings: [Diagnostic] = []
    /// Errors found after the limit was reached.
    private(set) var suppressedErrorCount = 0
    /// Warnings found after the limit was reached.
    package private(set) var suppressedWarningCount = 0
    /// How many suppressed warnings there were of each ``Diagnostic/kind``.
    private var suppressedWarningKinds: [String: Int] = [:]
    /// What was reported, so that a problem in a file included by several specs prints once.
    private var seen: Set<Diagnostic> = []

    /// Creates an empty collector that keeps at most `errorLimit` errors and `warningLimit` warnings.
    package init(errorLimit: Int = DiagnosticCollector.defaultErrorLimit, warningLimit: Int = .max) {
        self.errorLimit = max(1, errorLimit)
        self.warningLimit = max(0, warningLimit)
    }

    /// Whether any error was reported, including suppressed ones.
    package var hasErrors: Bool { !errors.isEmpty || suppressedErrorCount > 0 }

    /// How many errors were reported, including suppressed ones.
    package var errorCount: Int { errors.count + suppressedErrorCount }

    /// How many warnings were reported, including suppressed ones.
    package var warningCount: Int { warnings.count + suppressedWarningCount }

    /// Records `diagnostic`, unless the same diagnostic was recorded before. A bare note (one not
    /// attached to another diagnostic) is kept with the warnings.
    package mutating func report(_ diagnostic: Diagnostic) {
        guard seen.insert(diagnostic).inserted else { return }
        switch diagnostic.severity {
        case .error:
            if errors.count < errorLimit {
                errors.append(diagnostic)
            } else {
                suppressedErrorCount += 1
            }
        case .warning, .note:
            if warnings.count < warningLimit {
                warnings.append(diagnostic)
            } else {
                suppressedWarningCount += 1
                suppressedWarningKinds[diagnostic.kind, default: 0] += 1
            }
        }
    }

    /// Records every diagnostic in `diagnostics`, in order.
    package mutating func report(contentsOf diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { report(diagnostic) }
    }

    /// Records the diagnostics of `other`, including its suppressed counts.
    package mutating func merge(_ other: DiagnosticCollector) {
        report(contentsOf: other.errors)
        report(contentsOf: other.warnings)
        suppressedErrorCount += other.suppressedErrorCount
        suppressedWarningCount += other.suppressedWarningCount
        suppressedWarningKinds.merge(other.suppressedWarningKinds, uniquingKeysWith: +)
    }

    /// How many warnings of each ``Diagnostic/kind`` were reported, suppressed ones included.
    package var warningCountsByKind: [String: Int] {
        var counts = suppressedWarningKinds
        for warning in warnings { counts[warning.kind, default: 0] += 1 }
        return counts
    }

    /// This collector with every warning made an error (`--strict`): for teams that accept no
    /// fallback silently. Notes attached to a warning stay notes.
    func escalatingWarnings() -> DiagnosticCollector {
        var strict = DiagnosticCollector(errorLimit: errorLimit, warningLimit: warningLimit)
        for diagnostic in diagnostics {
            var escalated = diagnostic
            if escalated.severity == .warning { escalated.severity = .error }
            strict.report(escalated)
        }
        strict.suppressedErrorCount = suppressedErrorCount + suppressedWarningCount
        return strict
    }

    /// Every kept diagnostic, errors and warnings interleaved in source order.
    package var diagnostics: [Diagnostic] {
        (errors + warnings).sorted { lhs, rhs in
            if lhs.location != rhs.location { return lhs.location < rhs.location }
            return lhs.severity > rhs.severity
        }
    }

    /// The lines to print: each diagnostic with its notes, in source order, then the count of
    /// what was not shown (`3 more errors not shown`).
    package var renderedLines: [String] {
        var lines = diagnostics.flatMap(\.renderedLines)
        if suppressedErrorCount > 0 {
            lines.append("\(suppressedErrorCount) more \(suppressedErrorCount == 1 ? "error" : "errors") not shown")
        }
        if suppressedWarningCount > 0 {
            lines.append("\(suppressedWarningCount) more \(suppressedWarningCount == 1 ? "warning" : "warnings") not shown")
        }
        return lines
    }
}
