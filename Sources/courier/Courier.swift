import ArgumentParser
import CourierGenerator

@main
struct Courier: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Generates typed, resilient Swift clients from YAML API specs and OpenAPI documents.",
        discussion: """
            One YAML file describes one service: its endpoints, models, error schemas and how \
            failed responses map to named error cases. The format is documented in docs/SpecFormat.md. \
            OpenAPI 3.0 and 3.1 documents, and Swagger 2.0 ones, are read directly, with an optional \
            overlay (docs/OpenAPI.md).

            Examples:
              courier validate Specs/GitHub.yaml
              courier validate Specs/*.yaml
              courier generate Specs --output Generated
              courier import openapi.yaml --output Specs/Store.yaml
              courier init Weather --package --courier-path ../courier --output Weather
              courier schema --output Schemas/courier-spec.schema.json

            \(ExitStatus.overviewText)
            """,
        version: GeneratorVersion.current,
        subcommands: [InitCommand.self, ValidateCommand.self, GenerateCommand.self, ImportCommand.self, SchemaCommand.self, SynthesizeCommand.self]
    )
}
