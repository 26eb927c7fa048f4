import CourierGenerator
import Foundation

/// Loads and validates specs, printing diagnostics to standard error. Shared by `validate` and
/// `generate`, which differ only in what they do with valid specs.
struct SpecChecking {
    /// One checked file.
    struct Checked {
        let input: SpecInputs.Input
        let result: SpecLoadResult
    }

    let errorLimit: Int

    /// Loads every input, prints every diagnostic (errors capped at `errorLimit` for the run) to
    /// standard error, and returns the results.
    func check(_ inputs: SpecInputs) -> (checked: [Checked], diagnostics: DiagnosticCollector) {
        let loader = SpecLoader(errorLimit: errorLimit)
        var run = DiagnosticCollector(errorLimit: errorLimit)
        var checked: [Checked] = []
        for input in inputs.inputs {
            let result = loader.loadSpec(at: input.url, displayPath: input.displayPath)
            run.merge(result.diagnostics)
            checked.append(Checked(input: input, result: result))
        }
        for line in run.renderedLines {
            StandardError.print(line)
        }
        if run.errorCount > 0 || run.warningCount > 0 {
            StandardError.print(Self.summary(errors: run.errorCount, warnings: run.warningCount))
        }
        return (checked, run)
    }

    static func summary(errors: Int, warnings: Int) -> String {
        let errorText = "\(errors) \(errors == 1 ? "error" : "errors")"
        let warningText = "\(warnings) \(warnings == 1 ? "warning" : "warnings")"
        return "\(errorText), \(warningText)"
    }

    /// A one-line description of what a valid spec holds.
    static func describe(_ result: SpecLoadResult) -> String {
        if result.isSharedFile { return "shared file of error schemas and models" }
        guard let spec = result.spec else { return "has errors" }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return "service \(spec.name): \(count(spec.endpoints.count, "endpoint")), \(count(spec.models.count, "model")), "
            + "\(count(spec.errorSchemas.count, "error schema"))"
    }
}

/// Writes lines to standard error, where diagnostics belong.
enum StandardError {
    static func print(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
