import ArgumentParser
import Foundation

/// The spec files named on the command line: files as given, folders expanded to the `.yaml`
/// and `.yml` files directly inside them (sorted, not recursive, so that shared include files
/// can live in a subfolder such as `Specs/Shared/`).
struct SpecInputs {
    /// A file to load, with the path shown in diagnostics.
    struct Input {
        let url: URL
        let displayPath: String
    }

    let inputs: [Input]

    /// Expands `paths`; throws a usage error for a path that does not exist or a folder without specs.
    init(paths: [String]) throws {
        var inputs: [Input] = []
        let fileManager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("no such file or folder: \(path)")
            }
            guard isDirectory.boolValue else {
                inputs.append(Input(url: URL(fileURLWithPath: path), displayPath: path))
                continue
            }
            let names = (try? fileManager.contentsOfDirectory(atPath: path)) ?? []
            let specs = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
            guard !specs.isEmpty else {
                throw ValidationError("the folder \(path) holds no .yaml or .yml files")
            }
            for name in specs {
                let display = path.hasSuffix("/") ? path + name : path + "/" + name
                var isSubdirectory: ObjCBool = false
                if fileManager.fileExists(atPath: display, isDirectory: &isSubdirectory), isSubdirectory.boolValue { continue }
                inputs.append(Input(url: URL(fileURLWithPath: display), displayPath: display))
            }
        }
        self.inputs = inputs
    }
}
