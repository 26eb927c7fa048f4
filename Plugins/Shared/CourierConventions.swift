import Foundation

// This folder is compiled into both plugins: each plugin's folder holds a `Shared` symlink to
// it, because a plugin target cannot depend on a library target.

/// The file names through which the plugins find Courier's inputs in a target, and the file names
/// `courier generate` writes.
enum CourierConventions {
    /// A target file whose name ends in one of these is a spec the build plugin generates. Plain
    /// `.yaml` files are not generated on their own: they are what specs `include`.
    static let specSuffixes = [".courier.yaml", ".courier.yml"]

    /// The extensions of YAML files, which specs may include.
    static let yamlExtensions: Set<String> = ["yaml", "yml"]

    /// The extensions of files a spec or an OpenAPI document may reach: includes and `$ref`s.
    static let referencedExtensions: Set<String> = ["yaml", "yml", "json"]

    /// A target file of one of these names is an OpenAPI document the build plugin generates,
    /// prefixed with the target's name, as swift-openapi-generator's users name theirs.
    /// (`courier generate <folder>` takes the same names, in the CLI's `SpecOptions`.)
    static let openAPIDocumentNames: Set<String> = ["openapi.yaml", "openapi.yml", "openapi.json"]

    /// A target file whose name ends in one of these is an OpenAPI document prefixed with the
    /// rest of its name (`Billing.openapi.yaml` → `Billing`).
    static let openAPISuffixes = [".openapi.yaml", ".openapi.yml", ".openapi.json"]

    /// The file prefix of an OpenAPI document in a target named `targetName`: the rest of its
    /// name before an OpenAPI suffix, or for a bare `openapi.*`, the target's name made a Swift
    /// type name (`store-api` → `StoreApi`). `nil` when the file is not an OpenAPI document.
    static func openAPIStem(ofFileNamed name: String, targetName: String) -> String? {
        if openAPIDocumentNames.contains(name) {
            var prefix = ""
            for word in targetName.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }) {
                prefix += word.prefix(1).uppercased() + word.dropFirst()
            }
            return prefix
        }
        for suffix in openAPISuffixes where name.hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count))
        }
        return nil
    }

    /// The folder, anywhere in a target, whose `.mustache` files override the generator's
    /// templates of the same name (`CourierTemplates/header.mustache` overrides `header`,
    /// `CourierTemplates/models/struct.mustache` overrides `models/struct`).
    static let templatesFolder = "CourierTemplates"

    /// The extension of template files.
    static let templateExtension = "mustache"

    /// The kinds of file `courier generate` writes in numbered parts (`PetsRequests.swift`,
    /// `PetsRequests2.swift`…), after the file prefix; the client is one file.
    static let splitKinds = ["Models", "Requests", "Errors"]

    /// The names of the files `courier generate --parts <parts>` writes for a spec with the
    /// given file prefix, such as `PetsModels.swift` and `PetsModels2.swift`.
    static func generatedFileNames(prefix: String, parts: Int) -> [String] {
        splitKinds.flatMap { kind in
            (1...max(parts, 1)).map { part in prefix + kind + (part == 1 ? "" : String(part)) + ".swift" }
        } + [prefix + "Client.swift"]
    }

    /// About how many bytes of spec make one part of each kind: the CLI's default split
    /// (250 declarations a file) cuts the synthetic 1,000-endpoint spec, 0.6 MB, into 4.
    static let specBytesPerPart = 150_000

    /// The most parts of each kind; a build compiles a batch of files per core, so more than a
    /// few per core gain nothing.
    static let maximumParts = 8

    /// How many parts of each kind to ask for, from the total size of a spec's files. SwiftPM
    /// needs the output names before anything runs, and the plugin cannot parse the spec, so the
    /// size stands in for the number of declarations; a small spec gets the four files.
    static func partCount(specBytes: Int) -> Int {
        min(max((specBytes + specBytesPerPart - 1) / specBytesPerPart, 1), maximumParts)
    }

    /// The spec's name without its spec suffix (`Pets` for `Pets.courier.yaml`), or `nil` when
    /// the file is not a spec.
    static func specStem(ofFileNamed name: String) -> String? {
        for suffix in specSuffixes where name.hasSuffix(suffix) && name.count > suffix.count {
            return String(name.dropLast(suffix.count))
        }
        return nil
    }

    /// Whether `stem` can be the file prefix `courier generate --file-prefix` takes: a Swift type
    /// name such as `PetStore`. `courier` has the last word; this check only lets the plugin name
    /// the spec file in its error, which `courier` cannot.
    static func isUsableFilePrefix(_ stem: String) -> Bool {
        guard let first = stem.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return stem.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    /// The name of the template that `file` overrides, or `nil` when it is not in a
    /// ``templatesFolder`` or not a `.mustache` file. The name is the path after the innermost
    /// ``templatesFolder``, without the extension.
    static func templateName(of file: URL) -> String? {
        guard file.pathExtension == templateExtension else { return nil }
        let components = file.standardizedFileURL.pathComponents
        guard let folder = components.lastIndex(of: templatesFolder), folder < components.count - 1 else {
            return nil
        }
        let relative = components[(folder + 1)...].joined(separator: "/")
        return String(relative.dropLast(templateExtension.count + 1))
    }

    /// Whether the file is YAML, judged by its extension.
    static func isYAML(_ url: URL) -> Bool {
        yamlExtensions.contains(url.pathExtension.lowercased())
    }
}
