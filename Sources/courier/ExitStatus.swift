import ArgumentParser

/// The exit statuses of the commands: the one table that every `--help` text is made from (the
/// table in docs/CLI.md says the same).
struct ExitStatus: Sendable {
    /// The commands that document their exit statuses.
    enum Command: Sendable {
        case validate
        case generate
        case `import`
        case `init`
    }

    /// The code the process exits with.
    let code: ExitCode
    /// What the status means across the commands, for `courier --help`.
    let summary: String
    /// What the status means, for each command that exits with it.
    let meanings: [Command: String]

    /// Every spec is valid or generated (warnings may have been printed).
    static let success = ExitStatus(code: .success, summary: "success (warnings may have been printed)", meanings: [
        .validate: "every spec is valid (warnings may have been printed)",
        .generate: "every spec generated (warnings may have been printed)",
        .import: "the spec was written, or was already up to date",
        .`init`: "the files were written",
    ])
    /// At least one spec has errors; they were printed to standard error.
    static let specErrors = ExitStatus(code: ExitCode(1), summary: "a spec or document has errors (printed to standard error)", meanings: [
        .validate: "a spec has errors (printed to standard error)",
        .generate: "a spec has errors (printed to standard error); the others were still generated",
        .import: "the input has errors, or holds what a Courier spec cannot say (printed to standard error)",
    ])
    /// `generate --check`: generated files would change.
    static let drift = ExitStatus(code: ExitCode(2), summary: "generate --check: files would change", meanings: [
        .generate: "--check: files would change (listed on standard output)",
    ])
    /// The templates are invalid, or the output folder could not be written.
    static let outputFailure = ExitStatus(code: ExitCode(3), summary: "nothing written: bad templates, an unwritable folder or an existing file", meanings: [
        .generate: "the templates are invalid, or the output folder could not be written",
        .import: "the output file could not be written, or is not an unedited earlier import (see --force)",
        .`init`: "a file exists (nothing was written; see --force), or could not be written",
    ])
    /// The command line was wrong: unknown option, missing argument, or a path that does not exist.
    /// ArgumentParser exits with it for a `ValidationError`.
    static let usage = ExitStatus(code: .validationFailure, summary: "usage error: bad option or argument, or a path that does not exist", meanings: [
        .validate: "usage error: bad option or argument, or a path that does not exist",
        .generate: "usage error: bad option or argument, or a path that does not exist",
        .import: "usage error: bad option or argument, or a path that does not exist",
        .`init`: "usage error: bad option or argument, a name that cannot name a service, or no Courier at --courier-path",
    ])

    /// `generate --watch` ended by Ctrl-C (SIGINT), after the run under way; 143 for SIGTERM.
    static let interrupted = ExitStatus(code: ExitCode(128 + 2), summary: "generate --watch: stopped by Ctrl-C (143 for SIGTERM)", meanings: [
        .generate: "--watch: stopped by Ctrl-C (SIGINT; 143 for SIGTERM)",
    ])

    /// Every status, in the order help lists them.
    static let all = [success, specErrors, drift, outputFailure, usage, interrupted]

    /// The `Exit status:` section of `command`'s help.
    static func helpText(for command: Command) -> String {
        section(all.compactMap { status in status.meanings[command].map { (status.code, $0) } })
    }

    /// The `Exit status:` section of `courier --help`: every status any command exits with.
    static var overviewText: String {
        section(all.map { ($0.code, $0.summary) })
    }

    private static func section(_ rows: [(code: ExitCode, meaning: String)]) -> String {
        let lines = rows.map { row in
            let code = String(row.code.rawValue)
            return "  " + code + String(repeating: " ", count: max(1, 4 - code.count)) + row.meaning
        }
        return (["Exit status:"] + lines).joined(separator: "\n")
    }
}
