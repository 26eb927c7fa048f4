import Foundation

/// A problem the plugins find before `courier` runs. Problems inside a spec are not found here:
/// `courier` reports those itself, as `path:line:column: error:` lines.
enum PluginError: Error, CustomStringConvertible {
    /// Two specs of one target would generate files of the same names.
    case duplicateSpecName(stem: String, first: URL, second: URL)
    /// A spec's name cannot prefix Swift file names.
    case unusableSpecName(URL)
    /// The command plugin was given an option more often than it accepts.
    case repeatedOption(String)
    /// The command plugin's default spec folder does not exist and no `--specs` was given.
    case missingSpecs(folder: String, package: URL)
    /// `courier` ran and failed; it has already printed why.
    case generatorFailed(status: Int32, arguments: [String])
    /// `courier` could not be started.
    case generatorNotStarted(URL, reason: String)

    /// The file the problem is in, when it is in one.
    var file: URL? {
        switch self {
        case let .duplicateSpecName(_, _, second): second
        case let .unusableSpecName(url): url
        case .repeatedOption, .missingSpecs, .generatorFailed, .generatorNotStarted: nil
        }
    }

    /// What went wrong, without the file.
    var message: String {
        switch self {
        case let .duplicateSpecName(stem, first, _):
            "two specs are named '\(stem)' (the other is \(first.path)); the generated files would clash, so rename one"
        case let .unusableSpecName(url) where CourierConventions.openAPIDocumentNames.contains(url.lastPathComponent):
            "the target's name does not make a Swift type name to prefix the generated files; name the document "
                + "after one instead, such as PetStore.openapi.\(url.pathExtension) (letters and digits, starting with a capital)"
        case .unusableSpecName:
            "name the spec after the Swift type name that prefixes its generated files, such as "
                + "PetStore.courier.yaml (letters and digits, starting with a capital)"
        case let .repeatedOption(name):
            "--\(name) may be given once"
        case let .missingSpecs(folder, package):
            "\(package.path) has no '\(folder)' folder; name the specs with --specs PATH (repeatable) "
                + "and the output folder with --output DIR"
        case let .generatorFailed(status, arguments):
            "'courier \(arguments.joined(separator: " "))' failed with exit status \(status)"
        case let .generatorNotStarted(url, reason):
            "could not run \(url.path): \(reason)"
        }
    }

    /// SwiftPM prints a thrown error as `error: <description>`.
    var description: String {
        if let file { "\(file.path): \(message)" } else { message }
    }
}
