import CourierTestSupport
import Foundation

/// Runs `swift build`, `swift package` and built executables from the tests, in a process of
/// their own, with output captured in a log file.
struct SwiftPMRun: CustomStringConvertible {
    /// The command line, for failure messages.
    var commandLine: String
    /// The exit status (or the signal that stopped the process).
    var status: Int32
    /// Whether the process exited by itself (rather than being killed).
    var exited: Bool
    /// Standard output and standard error, interleaved.
    var output: String
    /// How long the process ran.
    var duration: Duration

    /// Whether the process exited with status 0.
    var succeeded: Bool { exited && status == 0 }

    var description: String {
        "\(commandLine)\nexit status \(status)\(exited ? "" : " (killed)") after \(duration)\n"
            + String(output.suffix(6_000))
    }

    /// The lines of output.
    var lines: [String] {
        output.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Runs `executable` with `arguments` in `folder` and waits for it, without blocking a thread
    /// of the concurrency pool.
    ///
    /// The environment is the test's own without the variables that `swift test` may set for the
    /// test process (XCTest's configuration on macOS, `LLVM_PROFILE_FILE` with code coverage):
    /// a nested `swift build` must behave as if a user had typed it.
    ///
    /// - Parameter timeLimit: After this long the process is terminated, so that a stuck build
    ///   (such as one waiting for a lock) fails the test instead of hanging the suite.
    static func run(
        _ executable: URL,
        _ arguments: [String],
        in folder: URL,
        log: URL,
        timeLimit: Duration = .seconds(20 * 60)
    ) async throws -> SwiftPMRun {
        let run = try await ChildProcess.run(executable.path, arguments, in: folder, environment: cleanEnvironment(),
                                             log: log, timeLimit: timeLimit)
        return SwiftPMRun(commandLine: run.commandLine, status: run.status, exited: run.exited,
                          output: run.standardOutput, duration: run.duration)
    }

    /// `swift` with the given arguments, found on the `PATH`.
    static func swift(_ arguments: [String], in folder: URL, log: URL) async throws -> SwiftPMRun {
        try await run(try swiftExecutable(), arguments, in: folder, log: log)
    }

    /// The `swift` driver: the one next to the running toolchain's tools when `PATH` has it.
    static func swiftExecutable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw MissingSwift(path: path)
    }

    /// The test process's environment without what `swift test` adds for the test process.
    static func cleanEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { key, _ in
            !(key.hasPrefix("SWIFTPM_") || key.hasPrefix("SWIFT_TESTING") || key.hasPrefix("XCTest")
                || key == "LLVM_PROFILE_FILE" || key == "SWIFT_BACKTRACE")
        }
    }
}

/// `swift` is not on the `PATH`.
struct MissingSwift: Error, CustomStringConvertible {
    var path: String
    var description: String { "no 'swift' executable on the PATH (\(path))" }
}
