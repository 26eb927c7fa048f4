import ArgumentParser

/// The exit statuses of every subcommand, documented in `--help` and the README.
enum ExitStatus {
    /// Every spec is valid (warnings may have been printed).
    static let success = ExitCode.success
    /// At least one spec has errors; they were printed to standard error.
    static let specErrors = ExitCode(1)
    /// `generate --check`: generated files would change.
    static let drift = ExitCode(2)
    /// The templates are invalid, or the output folder could not be written.
    static let outputFailure = ExitCode(3)
    /// The command line was wrong: unknown option, missing argument, or a path that does not exist.
    static let usage = ExitCode.validationFailure

    static let helpText = """
        Exit status:
          0   every spec is valid (warnings may have been printed)
          1   a spec has errors (printed to standard error)
          64  usage error: bad option or argument, or a path that does not exist
        """
}
