import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Runs a child process from an async test and waits for it without blocking a thread of the
/// concurrency pool.
///
/// `Process.waitUntilExit` parks the calling thread until the child ends. On a two-core machine
/// the pool has two threads, so two tests waiting on a compiler or a nested `swift build` stopped
/// every other test for minutes. Subprocess waits through the kernel's process notifications
/// instead, and reads standard output and standard error concurrently, so a child with much to say
/// cannot stall on a full pipe either.
public enum ChildProcess {
    /// What a finished child did.
    public struct Result: Sendable, CustomStringConvertible {
        /// The command line, for failure messages.
        public var commandLine: String
        /// The exit status, or 128 + the signal number when a signal ended the process.
        public var status: Int32
        /// Whether the process exited by itself, rather than being ended by a signal (such as the
        /// one sent when it outlived its time limit).
        public var exited: Bool
        /// Everything it wrote to standard output; with a log file, standard output and standard
        /// error as they were interleaved there.
        public var standardOutput: String
        /// Everything it wrote to standard error; empty with a log file.
        public var standardError: String
        /// From start to end, as the parent saw it.
        public var duration: Duration

        /// Whether the process exited with status 0.
        public var succeeded: Bool { exited && status == 0 }

        /// The lines of standard output.
        public var outputLines: [String] {
            standardOutput.split(whereSeparator: \.isNewline).map(String.init)
        }

        /// The command, how it ended, and the end of what it printed.
        public var description: String {
            "\(commandLine)\nexit status \(status)\(exited ? "" : " (killed)") after \(duration)\n"
                + String(standardError.suffix(3_000)) + String(standardOutput.suffix(6_000))
        }
    }

    /// The most bytes kept of one captured stream; far above what any test's child prints, and
    /// low enough that a runaway child fails the test instead of exhausting memory.
    public static let outputLimit = 64 * 1024 * 1024

    /// Runs `executable` with `arguments` and captures its standard output and standard error.
    ///
    /// - Parameters:
    ///   - executable: A path (anything with a `/`), or a name looked up on the `PATH`.
    ///   - directory: The working directory; the test process's own when `nil`.
    ///   - environment: The whole environment of the child; the test process's own when `nil`.
    ///   - timeLimit: After this long the child is killed and the result says it did not exit,
    ///     so that a stuck child fails its test instead of hanging the suite.
    /// - Throws: When the process cannot be started, or prints more than ``outputLimit``.
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        in directory: URL? = nil,
        environment: [String: String]? = nil,
        timeLimit: Duration = .seconds(20 * 60)
    ) async throws -> Result {
        let configuration = Self.configuration(executable, arguments, in: directory, environment: environment)
        let outcome = try await withTimeLimit(timeLimit) {
            let result = try await Subprocess.run(
                configuration, input: .none, output: .bytes(limit: outputLimit), error: .bytes(limit: outputLimit))
            return Captured(status: result.terminationStatus,
                            output: String(decoding: result.standardOutput, as: UTF8.self),
                            error: String(decoding: result.standardError, as: UTF8.self))
        }
        return Result(commandLine: commandLine(executable, arguments), status: outcome.value?.status.code ?? killed,
                      exited: outcome.value?.status.exited ?? false, standardOutput: outcome.value?.output ?? "",
                      standardError: outcome.value?.error ?? "", duration: outcome.duration)
    }

    /// Runs `executable` with `arguments`, writing standard output and standard error interleaved
    /// into `log` as they come, so that a long run (a nested `swift build`) can be followed, and a
    /// failed one read afterwards.
    ///
    /// The parameters are those of ``run(_:_:in:environment:timeLimit:)``; the result's
    /// ``Result/standardOutput`` is the log's content.
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        in directory: URL? = nil,
        environment: [String: String]? = nil,
        log: URL,
        timeLimit: Duration = .seconds(20 * 60)
    ) async throws -> Result {
        let configuration = Self.configuration(executable, arguments, in: directory, environment: environment)
        let logDescriptor = try FileDescriptor.open(
            FilePath(log.path), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead])
        // Subprocess owns the descriptor from here on: it closes it (and the duplicate it makes for
        // standard error) once the child holds its own copies, or when the start fails. Closing it
        // here as well could close an unrelated file that reused the number meanwhile.
        let outcome = try await withTimeLimit(timeLimit) {
            try await Subprocess.run(
                configuration, input: .none,
                output: .fileDescriptor(logDescriptor, closeAfterSpawningProcess: true),
                error: .combinedWithOutput
            ).terminationStatus
        }
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Result(commandLine: commandLine(executable, arguments), status: outcome.value?.code ?? killed,
                      exited: outcome.value?.exited ?? false, standardOutput: output, standardError: "",
                      duration: outcome.duration)
    }

    /// The status reported for a child killed at its time limit whose own status was lost.
    private static let killed: Int32 = 128 + SIGKILL

    /// What a captured run produced.
    private struct Captured: Sendable {
        var status: TerminationStatus
        var output: String
        var error: String
    }

    /// A value, or `nil` when the time limit ended the work first, and how long it took.
    private struct Timed<Value: Sendable>: Sendable {
        var value: Value?
        var duration: Duration
    }

    /// Runs `work` (a child process) until it ends or `timeLimit` passes. At the limit the work is
    /// cancelled, which makes Subprocess end the child (SIGTERM, then SIGKILL five seconds later).
    private static func withTimeLimit<Value: Sendable>(
        _ timeLimit: Duration, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Timed<Value> {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try await withThrowingTaskGroup(of: Value?.self, returning: Value?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: timeLimit)
                return nil
            }
            defer { group.cancelAll() }
            // The first to finish decides: the child's result, or the time limit's nil.
            guard let first = try await group.next(), let value = first else {
                group.cancelAll()
                // The child is being torn down; its own result, if it still makes one, is kept.
                while let next = try? await group.next() {
                    if let value = next { return value }
                }
                return nil
            }
            return value
        }
        return Timed(value: value, duration: clock.now - start)
    }

    private static func configuration(
        _ executable: String, _ arguments: [String], in directory: URL?, environment: [String: String]?
    ) -> Configuration {
        var platformOptions = PlatformOptions()
        platformOptions.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .seconds(5))]
        return Configuration(
            executable: executable.contains("/") ? .path(FilePath(executable)) : .name(executable),
            arguments: Arguments(arguments),
            environment: environment.map { variables in
                .custom(Dictionary(uniqueKeysWithValues: variables.compactMap { key, value in
                    Environment.Key(rawValue: key).map { ($0, value) }
                }))
            } ?? .inherit,
            workingDirectory: directory.map { FilePath($0.path) },
            platformOptions: platformOptions
        )
    }

    private static func commandLine(_ executable: String, _ arguments: [String]) -> String {
        ([executable] + arguments).joined(separator: " ")
    }
}

extension TerminationStatus {
    /// The exit status, or 128 + the signal number, as a shell reports it.
    fileprivate var code: Int32 {
        switch self {
        case .exited(let code): return Int32(code)
        case .signaled(let signal): return 128 + Int32(signal)
        }
    }

    /// Whether the process exited by itself.
    fileprivate var exited: Bool {
        if case .exited = self { return true }
        return false
    }
}
