import ArgumentParser
import CourierGenerator

@main
struct Courier: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Generates typed, resilient Swift clients from YAML API specs.",
        version: GeneratorVersion.current
    )
}
