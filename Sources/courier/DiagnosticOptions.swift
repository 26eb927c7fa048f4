import ArgumentParser
import CourierGenerator

/// How a command that reads specs reports what it found: how many errors and warnings to print,
/// and whether warnings count as errors. Shared by `validate`, `generate` and `import`.
struct DiagnosticOptions: ParsableArguments {
    @Option(help: "The most errors to print before summarizing the rest.")
    var errorLimit = DiagnosticCollector.defaultErrorLimit

    @Option(help: ArgumentHelp(
        "The most warnings to print before summarizing the rest; 0 prints only the summary.",
        discussion: "Every warning is counted by kind in the summary at the end, printed or not."))
    var warningLimit = DiagnosticCollector.defaultErrorLimit

    @Flag(help: "Treat every warning as an error, such as an OpenAPI construct read through a fallback.")
    var strict = false

    func validate() throws {
        guard errorLimit > 0 else { throw ValidationError("--error-limit must be at least 1") }
        guard warningLimit >= 0 else { throw ValidationError("--warning-limit must be 0 or more") }
    }

    /// The printer these options ask for.
    var printer: DiagnosticsPrinter {
        DiagnosticsPrinter(errorLimit: errorLimit, warningLimit: warningLimit)
    }
}
