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

    var description: String {
        switch self {
        case let .duplicateSpecName(stem, first, second):
            return "\(second.path): error: two specs are named '\(stem)' (the other is \(first.path)); "
                + "the generated files would clash, so rename one"
        case let .unusableSpecName(url):
            return "\(url.path): error: a spec's file name must not start with '-' or '.', "
                + "because it prefixes the generated Swift files"
        case let .repeatedOption(name):
            return "error: --\(name) may be given once"
        case let .missingSpecs(folder, package):
            return "error: \(package.path) has no '\(folder)' folder; name the specs with --specs PATH "
                + "(repeatable) and the output folder with --output DIR"
        case let .generatorFailed(status, arguments):
            return "error: 'courier \(arguments.joined(separator: " "))' failed with exit status \(status)"
        case let .generatorNotStarted(url, reason):
            return "error: could not run \(url.path): \(reason)"
        }
    }
}
