/// Gathers the diagnostics of one run, keeping warnings apart from errors and capping errors.
///
/// Like compilers, it reports every problem in one run, but stops storing errors after `errorLimit`
/// so that a broken multi-megabyte file cannot flood the terminal; the rest are only counted.
public struct DiagnosticCollector: Sendable {
    /// How many errors are kept by default.
    public static let defaultErrorLimit = 50

    /// The most errors kept; further errors only increase `suppressedErrorCount`.
    public let errorLimit: Int
    /// The errors kept, in the order they were found.
    public private(set) var errors: [Diagnostic] = []
    /// The warnings, kept apart from errors. Warnings are not capped by `errorLimit`, but by the same number.
    public private(set) var warnings: [Diagnostic] = []
    /// Errors found after the limit was reached.
    public private(set) var suppressedErrorCount = 0
    /// Warnings found after the limit was reached.
    public private(set) var suppressedWarningCount = 0
    /// What was reported, so that a problem in a file included by several specs prints once.
    private var seen: Set<Diagnostic> = []

    /// Creates an empty collector that keeps at most `errorLimit` errors.
    public init(errorLimit: Int = DiagnosticCollector.defaultErrorLimit) {
        self.errorLimit = max(1, errorLimit)
    }

    /// Whether any error was reported, including suppressed ones.
    public var hasErrors: Bool { !errors.isEmpty || suppressedErrorCount > 0 }

    /// How many errors were reported, including suppressed ones.
    public var errorCount: Int { errors.count + suppressedErrorCount }

    /// How many warnings were reported, including suppressed ones.
    public var warningCount: Int { warnings.count + suppressedWarningCount }

    /// Records `diagnostic`, unless the same diagnostic was recorded before. A bare note (one not
    /// attached to another diagnostic) is kept with the warnings.
    public mutating func report(_ diagnostic: Diagnostic) {
        guard seen.insert(diagnostic).inserted else { return }
        switch diagnostic.severity {
        case .error:
            if errors.count < errorLimit {
                errors.append(diagnostic)
            } else {
                suppressedErrorCount += 1
            }
        case .warning, .note:
            if warnings.count < errorLimit {
                warnings.append(diagnostic)
            } else {
                suppressedWarningCount += 1
            }
        }
    }

    /// Records every diagnostic in `diagnostics`, in order.
    public mutating func report(contentsOf diagnostics: some Sequence<Diagnostic>) {
        for diagnostic in diagnostics { report(diagnostic) }
    }

    /// Records the diagnostics of `other`, including its suppressed counts.
    public mutating func merge(_ other: DiagnosticCollector) {
        report(contentsOf: other.errors)
        report(contentsOf: other.warnings)
        suppressedErrorCount += other.suppressedErrorCount
        suppressedWarningCount += other.suppressedWarningCount
    }

    /// Every kept diagnostic, errors and warnings interleaved in source order.
    public var diagnostics: [Diagnostic] {
        (errors + warnings).sorted { lhs, rhs in
            if lhs.location != rhs.location { return lhs.location < rhs.location }
            return lhs.severity > rhs.severity
        }
    }

    /// The lines to print: each diagnostic with its notes, in source order, then the count of
    /// what was not shown (`3 more errors not shown`).
    public var renderedLines: [String] {
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
