import ArgumentParser
import CourierGenerator

/// `courier generate`: validates specs and, once code emission exists, writes a Swift module per service.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Validates specs and generates a Swift client per service into the output folder.",
        discussion: """
            Each argument is a spec file or a folder; a folder stands for the .yaml and .yml files \
            directly inside it. Shared files (no 'service' key) are checked but not generated; keep \
            them in a subfolder such as Specs/Shared/ and include them from services.

            This version parses and validates only: code emission is not built yet, and nothing is \
            written to the output folder.

            Examples:
              courier generate Specs --output Generated
              courier generate Specs/GitHub.yaml --output Generated

            \(ExitStatus.helpText)
            """
    )

    @Argument(help: "Spec files or folders of spec files.")
    var specs: [String]

    @Option(name: [.short, .long], help: "The folder that receives one subfolder of Swift sources per service.")
    var output: String

    @Option(help: "The most errors to print before summarizing the rest.")
    var errorLimit = DiagnosticCollector.defaultErrorLimit

    func validate() throws {
        guard !specs.isEmpty else { throw ValidationError("give at least one spec file or folder") }
        guard !output.isEmpty else { throw ValidationError("--output needs a folder") }
        guard errorLimit > 0 else { throw ValidationError("--error-limit must be at least 1") }
    }

    func run() throws {
        let inputs = try SpecInputs(paths: specs)
        let (checked, diagnostics) = SpecChecking(errorLimit: errorLimit).check(inputs)
        if diagnostics.hasErrors { throw ExitStatus.specErrors }
        var services: [String] = []
        for file in checked {
            if file.result.isSharedFile {
                print("\(file.input.displayPath): skipped, shared file (no 'service'); it is generated as part of the services that include it")
            } else if let spec = file.result.spec {
                print("\(file.input.displayPath): valid, \(SpecChecking.describe(file.result))")
                services.append(spec.name)
            }
        }
        print("Validated \(services.count) \(services.count == 1 ? "service" : "services"). "
            + "Code emission is not built yet: nothing was written to \(output).")
    }
}
