import ArgumentParser
import CourierGenerator
import Foundation

/// The options of every command that reads specs (`validate`, `generate`): which specs, and how
/// their diagnostics are reported.
struct SpecOptions: ParsableArguments {
    @Argument(help: "Spec files or folders of spec files.")
    var specs: [String]

    @OptionGroup var reporting: DiagnosticOptions

    func validate() throws {
        guard !specs.isEmpty else { throw ValidationError("give at least one spec file or folder") }
    }

    /// The spec files named: files as given, folders expanded to the `.yaml` and `.yml` files
    /// (Courier specs, overlays and OpenAPI documents alike) and `openapi.json`/`*.openapi.json`
    /// (and Swagger 2.0's `swagger.json`/`*.swagger.json`) directly inside them (sorted, not recursive, so that shared include files can live in a
    /// subfolder such as `Specs/Shared/`), less the documents an overlay in the same folder
    /// extends.
    ///
    /// - Throws: A usage error for a path that does not exist or a folder without specs.
    func inputs() throws -> [SpecInput] {
        var inputs: [SpecInput] = []
        let fileManager = FileManager.default
        for path in specs {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("no such file or folder: \(path)")
            }
            guard isDirectory.boolValue else {
                inputs.append(SpecInput(url: URL(fileURLWithPath: path), displayPath: path))
                continue
            }
            let names = (try? fileManager.contentsOfDirectory(atPath: path)) ?? []
            // OpenAPI (and Swagger 2.0) documents in JSON count by their conventional names;
            // other JSON files are not specs.
            let specs = names.filter {
                $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0 == "openapi.json" || $0.hasSuffix(".openapi.json")
                    || $0 == "swagger.json" || $0.hasSuffix(".swagger.json")
            }.sorted()
            guard !specs.isEmpty else {
                throw ValidationError("the folder \(path) holds no .yaml or .yml files (nor an openapi.json)")
            }
            var found: [SpecInput] = []
            for name in specs {
                let display = path.hasSuffix("/") ? path + name : path + "/" + name
                var isSubdirectory: ObjCBool = false
                if fileManager.fileExists(atPath: display, isDirectory: &isSubdirectory), isSubdirectory.boolValue { continue }
                found.append(SpecInput(url: URL(fileURLWithPath: display), displayPath: display))
            }
            // A document that an overlay in the folder extends is generated through the overlay.
            inputs += SpecInput.droppingDocumentsExtendedByOverlays(found)
        }
        return inputs
    }

    /// Whether every argument is a folder: then the run sees every spec of those folders, and
    /// `generate` may remove the output of services whose spec is gone.
    var namesOnlyFolders: Bool {
        specs.allSatisfy { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }
}
