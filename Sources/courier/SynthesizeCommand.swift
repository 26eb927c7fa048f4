import ArgumentParser
import Foundation
import SyntheticSpecs

/// `courier synthesize`: writes a large, valid spec of a given size, for benchmarks.
struct SynthesizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synthesize",
        abstract: "Writes a synthetic spec of a given size, for benchmarks and scale tests.",
        discussion: """
            The spec looks like a typical REST API: resources with list, get, create, update and \
            delete endpoints; path, query, header and body parameters; nested models, arrays, maps, \
            enums and recursion; service defaults; error schemas, ranges and discriminators. It \
            always validates, and the same options always give the same bytes.

            Examples:
              courier synthesize --endpoints 1000 --output /tmp/Synthetic1000.yaml
              courier synthesize --endpoints 100 --models 40 --properties 12 --errors 5 --seed 7
              courier synthesize --endpoints 1000 --openapi --output /tmp/Synthetic1000.openapi.yaml

            With --openapi it writes the same API as an OpenAPI 3.1 document, for comparing \
            generators on one API. OpenAPI cannot say resilience hints, idempotency keys, error \
            discriminators or messages, so the document leaves them out, and every operation \
            documents its own errors.
            """,
        // A tool for Courier's own benchmarks: `courier --help` lists what users came for.
        shouldDisplay: false
    )

    @Option(help: "How many endpoints to declare.")
    var endpoints: Int

    @Option(help: "How many models to declare (objects and enums). Default: endpoints / 5, at least 8.")
    var models: Int?

    @Option(help: "How many properties each object model has.")
    var properties = 8

    @Option(help: "How many error mappings each endpoint declares, besides the service defaults.")
    var errors = 3

    @Option(help: "Seeds the choice of property types and parameters.")
    var seed: UInt64 = 1

    @Option(help: "The service name.")
    var service = "Synthetic"

    @Option(help: "The index of one endpoint to alter slightly; the rest of the spec stays byte-identical.")
    var editEndpoint: Int?

    @Flag(help: "Write the same API as an OpenAPI 3.1 document instead of a Courier spec.")
    var openapi = false

    @Option(name: [.short, .long], help: "The file to write. Default: standard output.")
    var output: String?

    private var synthesis: SyntheticSpecConfiguration {
        SyntheticSpecConfiguration(serviceName: service, endpoints: endpoints, models: models,
                                   propertiesPerModel: properties, errorMappingsPerEndpoint: errors,
                                   seed: seed, editedEndpoint: editEndpoint)
    }

    func validate() throws {
        do {
            try synthesis.validate()
        } catch {
            throw ValidationError(error.description)
        }
        if let output, output.isEmpty { throw ValidationError("--output needs a file path") }
    }

    func run() throws {
        let spec: SyntheticSpec
        do {
            spec = try SyntheticSpecGenerator(synthesis).generate(openapi ? .openAPI : .courier)
        } catch {
            throw ValidationError(error.description)
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(spec.yaml.utf8))
            return
        }
        do {
            try Data(spec.yaml.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            StandardError.print("error: cannot write \(output): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        print("\(output): \(spec.configuration.endpoints) endpoints, \(spec.objectModelCount) object models, "
            + "\(spec.enumModelCount) enums, \(spec.lineCount) lines")
    }
}
