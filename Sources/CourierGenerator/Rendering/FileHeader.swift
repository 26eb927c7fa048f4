/// The view model of the `header` template: the first line of every generated file.
///
/// The line names the generator version and the source spec, and it starts with
/// ``GeneratedFileMarker/prefix``: that is how ``OutputDirectory`` recognises, on a later run, the
/// files it may replace or remove.
struct FileHeader: TemplateModel {
    /// The generator version, ``GeneratorVersion/current`` unless a test pins another.
    var version: String
    /// The spec's path as the user gave it, made safe for a `//` comment.
    var specPath: String

    /// A header for the spec at `specPath`.
    ///
    /// The path is cleaned with ``SwiftComment/inline(_:)``, because a file name may contain a line
    /// break that would otherwise end the comment.
    init(specPath: String, version: String = GeneratorVersion.current) {
        self.version = SwiftComment.inline(version)
        self.specPath = SwiftComment.inline(specPath)
    }

    /// The fields the `header` template reads.
    static let templateFields: TemplateFields<Self> = [
        "version": \.version,
        "specPath": \.specPath,
    ]
}
