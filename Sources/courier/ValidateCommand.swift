import ArgumentParser
import CourierGenerator

/// `courier validate`: parses and validates specs, and reports every problem.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks specs and prints every problem as path:line:column: error: message.",
        discussion: """
            Each argument is a spec file or a folder; a folder stands for the .yaml and .yml files \
            directly inside it. Files without a 'service' key are shared files (error schemas and \
            models for 'include') and are checked on their own.

            Examples:
              courier validate Specs/GitHub.yaml
              courier validate Specs/*.yaml Specs/Shared/*.yaml

            \(ExitStatus.helpText)
            """
    )

    @Argument(help: "Spec files or folders of spec files.")
    var specs: [String]

    @Option(help: "The most errors to print before summarizing the rest.")
    var errorLimit = DiagnosticCollector.defaultErrorLimit

    func validate() throws {
        guard !specs.isEmpty else { throw ValidationError("give at least one spec file or folder") }
        guard errorLimit > 0 else { throw ValidationError("--error-limit must be at least 1") }
    }

    func run() throws {
        let inputs = try SpecInputs(paths: specs)
        let (checked, diagnostics) = SpecChecking(errorLimit: errorLimit).check(inputs)
        for file in checked where !file.result.hasErrors {
            print("\(file.input.displayPath): ok, \(SpecChecking.describe(file.result))")
        }
        if diagnostics.hasErrors { throw ExitStatus.specErrors }
    }
}
