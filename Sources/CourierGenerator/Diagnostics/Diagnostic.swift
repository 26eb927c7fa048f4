/// One problem found in a spec, with where it is.
///
/// Renders in the form compilers print, which SwiftPM and Xcode turn into clickable issues:
/// `Specs/x.yaml:12:5: error: unknown key 'respnse' in endpoint 'getPet'; did you mean 'response'?`
package struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    enum Severity: String, Hashable, Sendable, Comparable {
        /// Supplementary information attached to an error or warning, such as where a name was first declared.
        case note
        /// Something that is probably a mistake but does not stop generation.
        case warning
        /// A problem that stops generation; the CLI exits non-zero.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders by seriousness: note < warning < error.
        static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// How serious the problem is.
    var severity: Severity
    /// What is wrong, in one line, naming the offending key or value.
    package var message: String
    /// Where the problem is.
    var location: SourceLocation
    /// Notes that point at related places, printed right after this diagnostic.
    var notes: [Diagnostic]

    /// Creates a diagnostic.
    init(_ severity: Severity, _ message: String, at location: SourceLocation, notes: [Diagnostic] = []) {
        self.severity = severity
        self.message = message
        self.location = location
        self.notes = notes
    }

    /// An error at `location`.
    static func error(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) -> Diagnostic {
        Diagnostic(.error, message, at: location, notes: notes)
    }

    /// A warning at `location`.
    static func warning(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) -> Diagnostic {
        Diagnostic(.warning, message, at: location, notes: notes)
    }

    /// A note at `location`, to attach to an error or warning.
    static func note(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.note, message, at: location)
    }

    /// The message with its quoted names taken out (`schema '…' is …`): what diagnostics of one
    /// kind share, so that a run's warnings can be summarized by kind.
    var kind: String {
        var result = ""
        var quoted = false
        var previous: Character = " "
        for character in message {
            // A quote opens a name only after a space or an opening bracket, so that `don't` stays whole.
            if character == "'" && (quoted || previous == " " || previous == "(" || previous == "[") {
                if !quoted { result.append("…") }
                quoted.toggle()
            } else if !quoted {
                result.append(character)
            }
            previous = character
        }
        return result
    }

    /// The first line only: `path:line:column: severity: message`.
    package var description: String { "\(location): \(severity.rawValue): \(message)" }

    /// This diagnostic followed by its notes, one per line.
    var renderedLines: [String] { [description] + notes.flatMap(\.renderedLines) }
}
