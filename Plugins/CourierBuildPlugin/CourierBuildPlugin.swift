import Foundation
import PackagePlugin

/// Generates a Courier client at build time for every `*.courier.yaml` file in the target, and
/// for every OpenAPI document (`openapi.yaml`, `openapi.json`, `<Name>.openapi.yaml`…) that no
/// overlay among those specs extends. A bare `openapi.*` is prefixed with the target's name.
///
/// For `Sources/App/Pets.courier.yaml` it runs
/// `courier generate Pets.courier.yaml --output <work dir>/Pets --flat --file-prefix Pets` and
/// compiles `PetsModels.swift`, `PetsRequests.swift`, `PetsErrors.swift` and `PetsClient.swift`
/// into the target. The file prefix comes from the file name because the service's name is only
/// known once the spec is parsed, and SwiftPM needs the output names before anything runs; for
/// the same reason a large service is not split into numbered parts here
/// (`--declarations-per-file 0`), as `courier generate` does for checked-in code.
///
/// Inputs declared per spec (SwiftPM reruns the command when one of them changes, and only then):
/// the spec; every YAML file of the target; YAML files outside the target that the specs mention
/// (``IncludeScanner``); the target's `CourierTemplates/*.mustache` overrides; and the `courier`
/// executable, so that a new Courier version regenerates.
@main
struct CourierBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else {
            Diagnostics.warning("Courier generates Swift sources; target '\(target.name)' has no sources to add them to")
            return []
        }
        // A thrown error fails the build; SwiftPM prints it once, as `error: <path>: <message>`.
        let inputs = try TargetInputs(files: target.sourceFiles.map(\.url), targetName: target.name)
        guard !inputs.specs.isEmpty else {
            Diagnostics.warning(
                "target '\(target.name)' applies CourierBuildPlugin but has no *.courier.yaml spec and no openapi.yaml, "
                    + "openapi.json or *.openapi.yaml document; nothing is generated"
            )
            return []
        }
        let courier = try context.tool(named: "courier").url
        return inputs.specs.map { spec in
            let outputFolder = context.pluginWorkDirectoryURL.appendingPathComponent(spec.stem)
            let arguments = [
                "generate", spec.url.path,
                "--output", outputFolder.path,
                "--flat",
                "--file-prefix=\(spec.stem)",
                // The four output names are declared below, before the spec's size is known.
                "--declarations-per-file=0",
            ] + inputs.templateArguments
            return .buildCommand(
                displayName: "Generating Courier client \(spec.stem) from \(spec.url.lastPathComponent)",
                executable: courier,
                arguments: arguments,
                inputFiles: [courier] + inputs.inputFiles(of: spec),
                outputFiles: CourierConventions.generatedFileNames(prefix: spec.stem).map {
                    outputFolder.appendingPathComponent($0)
                }
            )
        }
    }
}
