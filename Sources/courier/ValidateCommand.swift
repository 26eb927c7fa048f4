import ArgumentParser
import CourierGenerator

/// `courier validate`: parses and validates specs, and reports every problem.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks specs and prints every problem as path:line:column: error: message.",
        discussion: """
            Each argument is a spec file, an OpenAPI 3.0 or 3.1 document (YAML or JSON, recognised \
            by its 'openapi' key) or a Swagger 2.0 one (by its 'swagger' key), or a folder; a folder \
            stands for the .yaml and .yml files and openapi.json (or swagger.json) directly inside it. Files without a 'service' key are shared files (error schemas and \
            models for 'include') and are checked on their own.

            Examples:
              courier validate Specs/GitHub.yaml
              courier validate Specs/*.yaml Specs/Shared/*.yaml
              courier validate openapi.yaml --names
              courier validate Specs/Weather.yaml --verbose

            \(ExitStatus.helpText(for: .validate))
            """
    )

    @OptionGroup var options: SpecOptions

    @Flag(help: "List the Swift name of every endpoint, model and error schema, with where each is declared (for overlays).")
    var names = false

    @Flag(name: .shortAndLong, help: "Also list the properties and parameters whose Swift name is not their spec name in lower camel case (itemId → itemID), and what a client made without credentials does.")
    var verbose = false

    func run() throws {
        let loader = SpecLoader(errorLimit: options.reporting.errorLimit, isStrict: options.reporting.strict)
        let checked = try options.inputs().map { input in
            (input: input, result: loader.loadSpec(at: input.url, displayPath: input.displayPath))
        }
        let diagnostics = options.reporting.printer.print(checked.map(\.result.diagnostics))
        for file in checked where !file.result.hasErrors {
            print("\(file.input.displayPath): ok, \(Self.describe(file.result))")
            if names, let spec = file.result.spec {
                for line in spec.generatedNameLines { print("  " + line) }
            }
            if verbose, let spec = file.result.spec {
                for line in spec.renameLines { print("  renamed: " + line) }
                if let note = spec.authenticationNote { print("  auth: " + note) }
            }
        }
        if diagnostics.hasErrors { throw ExitStatus.specErrors.code }
    }

    /// A one-line description of what a valid spec holds.
    static func describe(_ result: SpecLoadResult) -> String {
        result.summary
    }
}
