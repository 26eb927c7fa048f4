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
/// known once the spec is parsed, and SwiftPM needs the output names before anything runs. For
/// the same reason the plugin decides how many numbered parts of each kind a large service gets
/// (`--parts N`) from the size of the spec's files, and `courier` fills them, leaving the last
/// ones empty where the service is smaller than its size suggested: the compiler works on a
/// batch of files per core, so one large file would keep the others waiting. SwiftPM keeps a
/// plugin's commands until it plans the build again (a clean build, a manifest change), so a
/// spec that grows gets more parts then; until then the earlier count and its declared files
/// stand together, and the generated code is the same but for how it is cut into files.
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
        return try Self.commands(for: target.sourceFiles.map(\.url), targetName: target.name,
                                 courier: try context.tool(named: "courier").url, workDirectory: context.pluginWorkDirectoryURL)
    }

    /// The commands that generate the clients of a target's `files`: the same for a package's
    /// target and for an Xcode project's.
    static func commands(for files: [URL], targetName: String, courier: URL, workDirectory: URL) throws -> [Command] {
        // A thrown error fails the build; SwiftPM prints it once, as `error: <path>: <message>`.
        let inputs = try TargetInputs(files: files, targetName: targetName)
        guard !inputs.specs.isEmpty else {
            Diagnostics.warning(
                "target '\(targetName)' applies CourierBuildPlugin but has no *.courier.yaml spec and no openapi.yaml, "
                    + "openapi.json or *.openapi.yaml document; nothing is generated"
            )
            return []
        }
        return inputs.specs.map { spec in
            let outputFolder = workDirectory.appendingPathComponent(spec.stem)
            let parts = CourierConventions.partCount(specBytes: inputs.size(of: spec))
            let arguments = [
                "generate", spec.url.path,
                "--output", outputFolder.path,
                "--flat",
                "--file-prefix=\(spec.stem)",
                // The output names are declared below, before the spec is read.
                "--parts=\(parts)",
            ] + inputs.templateArguments
            return .buildCommand(
                displayName: "Generating Courier client \(spec.stem) from \(spec.url.lastPathComponent)",
                executable: courier,
                arguments: arguments,
                inputFiles: [courier] + inputs.inputFiles(of: spec),
                outputFiles: CourierConventions.generatedFileNames(prefix: spec.stem, parts: parts).map {
                    outputFolder.appendingPathComponent($0)
                }
            )
        }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same generation for an app target of an Xcode project, whose spec is one of the target's
/// files (Xcode's target membership). Linux has no Xcode, so Courier's CI builds this part only
/// on macOS, never here; docs/XcodeApps.md says so.
extension CourierBuildPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try Self.commands(for: target.inputFiles.map(\.url), targetName: target.displayName,
                          courier: try context.tool(named: "courier").url, workDirectory: context.pluginWorkDirectoryURL)
    }
}
#endif
