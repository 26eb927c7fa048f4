import Foundation

extension Diagnostic {
    /// The diagnostic with its message and notes made fit for one line each.
    ///
    /// Parsing, loading and validation all quote names from the spec, which may hold line breaks
    /// (quoted YAML keys can) or be very long (values can be megabytes); every diagnostic they
    /// report passes through here so that one problem prints as one line.
    func singleLined() -> Diagnostic {
        Diagnostic(severity, Self.singleLine(message), at: location, notes: notes.map { $0.singleLined() })
    }

    /// `message` with line breaks escaped and cut to 400 characters.
    static func singleLine(_ message: String) -> String {
        let escaped = message.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
        return escaped.count > 400 ? String(escaped.prefix(400)) + "…" : escaped
    }
}
