import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-clients`: regenerates checked-in
/// Courier clients in place.
///
/// By default it runs `courier generate Specs --output Generated` in the package's folder, so the
/// files equal those of `swift run courier generate Specs --output Generated`. Options:
/// - `--specs PATH` (repeatable): spec files or folders instead of `Specs`;
/// - `--output DIR`: the output folder instead of `Generated`;
/// - anything else (`--check`, `--templates DIR`, `--template NAME=FILE`, `--flat`,
///   `--file-prefix P`, `--declarations-per-file N`) goes to `courier generate` unchanged.
///
/// Paths are relative to the package's folder, and `courier` runs there, so that the headers of
/// the generated files name the specs by relative paths and the checked-in files are the same on
/// every machine.
@main
struct CourierCommandPlugin: CommandPlugin {
    static let defaultSpecs = "Specs"
    static let defaultOutput = "Generated"

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        var specs = extractor.extractOption(named: "specs")
        let outputs = extractor.extractOption(named: "output")
        let passedOn = extractor.remainingArguments
        guard outputs.count <= 1 else { throw PluginError.repeatedOption("output") }
        let packageFolder = context.package.directoryURL
        if specs.isEmpty {
            let defaultFolder = packageFolder.appendingPathComponent(Self.defaultSpecs)
            guard FileManager.default.fileExists(atPath: defaultFolder.path) else {
                throw PluginError.missingSpecs(folder: Self.defaultSpecs, package: packageFolder)
            }
            specs = [Self.defaultSpecs]
        }
        let courierArguments = ["generate"] + specs + ["--output", outputs.first ?? Self.defaultOutput] + passedOn
        try run(try context.tool(named: "courier").url, courierArguments, in: packageFolder)
    }

    /// Runs `courier` with its output and diagnostics going straight to ours, so that its
    /// `path:line:column: error:` lines reach the terminal unchanged.
    private func run(_ executable: URL, _ arguments: [String], in folder: URL) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        do {
            try process.run()
        } catch {
            throw PluginError.generatorNotStarted(executable, reason: error.localizedDescription)
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw PluginError.generatorFailed(status: process.terminationStatus, arguments: arguments)
        }
    }
}
