import ArgumentParser
import CourierGenerator

@main
struct Courier: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Generates typed, resilient Swift clients from YAML API specs.",
        discussion: """
            One YAML file describes one service: its endpoints, models, error schemas and how \
            failed responses map to named error cases. The format is documented in docs/SpecFormat.md.

            Examples:
              courier validate Specs/GitHub.yaml
              courier validate Specs/*.yaml
              courier generate Specs --output Generated

            \(ExitStatus.helpText(for: .validate))
            """,
        version: GeneratorVersion.current,
        subcommands: [ValidateCommand.self, GenerateCommand.self, SynthesizeCommand.self]
    )
}
