import ArgumentParser
import CourierGenerator
import Foundation

/// `courier schema`: the JSON Schema of the spec format (or of the overlay's), for editors.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Prints the JSON Schema of the spec format, for editor completion and checking.",
        discussion: """
            With the schema, VS Code's YAML extension (and any editor using yaml-language-server) \
            completes keys, shows what each means and marks unknown keys as you type. Point a spec \
            at it with a first line such as

              # yaml-language-server: $schema=../Schemas/courier-spec.schema.json

            (a path relative to the spec). The schema comes from the table the parser checks keys \
            against, so it matches this courier exactly; write it again after updating courier. \
            'courier validate' still checks what a schema cannot, such as that types are declared.

            Examples:
              courier schema --output Schemas/courier-spec.schema.json
              courier schema --overlay --output Schemas/courier-overlay.schema.json
              courier schema > courier-spec.schema.json
            """
    )

    @Flag(help: "The schema of an overlay over an OpenAPI document instead of a spec's.")
    var overlay = false

    @Option(name: [.short, .long], help: "The file to write, if its content differs. Default: standard output.")
    var output: String?

    func validate() throws {
        if let output, output.isEmpty { throw ValidationError("--output needs a file path") }
    }

    func run() throws {
        let kind: SpecSchema.Kind = overlay ? .overlay : .spec
        guard let output else {
            FileHandle.standardOutput.write(Data(SpecSchema.json(for: kind).utf8))
            return
        }
        do {
            let written = try SpecSchema.write(kind, to: URL(fileURLWithPath: output))
            print(written ? "Wrote \(output)" : "\(output) is up to date")
        } catch {
            StandardError.print("error: cannot write \(output): \(error.localizedDescription)")
            throw ExitStatus.outputFailure.code
        }
    }
}
