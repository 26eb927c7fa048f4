/// A spec element that knows where it was written, so that later phases (validation, code
/// generation) can report problems at the right line.
protocol SourceLocated {
    /// Where the element starts in its spec file.
    var location: SourceLocation { get }
}
