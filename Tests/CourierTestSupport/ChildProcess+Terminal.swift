#if canImport(Glibc)
import Foundation
import Glibc
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

extension ChildProcess {
    /// What a child run with its standard error on a terminal printed.
    public struct TerminalResult: Sendable {
        /// The exit status, or 128 + the signal number.
        public var status: Int32
        /// Standard output (a pipe).
        public var standardOutput: String
        /// What reached the terminal from standard error, after the terminal's own line-ending
        /// translation (`\n` arrives as `\r\n`).
        public var terminal: String
    }

    /// Runs `executable` with standard error on a new pseudo-terminal, as a user at a terminal
    /// would, and standard output on a pipe: for output that a program shows only to people.
    ///
    /// For children that print little to the terminal (less than the terminal's buffer, some
    /// kilobytes): the terminal is read after the child ends.
    public static func runWithTerminal(
        _ executable: String, _ arguments: [String], in directory: URL, timeLimit: Duration = .seconds(5 * 60)
    ) async throws -> TerminalResult {
        var controller: Int32 = -1
        var terminal: Int32 = -1
        guard openpty(&controller, &terminal, nil, nil, nil) == 0 else {
            throw TerminalError(description: "openpty failed: \(String(cString: strerror(errno)))")
        }
        defer { close(controller) }
        var platformOptions = PlatformOptions()
        platformOptions.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .seconds(5))]
        let configuration = Configuration(
            executable: .path(FilePath(executable)), arguments: Arguments(arguments),
            workingDirectory: FilePath(directory.path), platformOptions: platformOptions)
        let run = Task {
            try await Subprocess.run(
                configuration, input: .none, output: .string(limit: outputLimit),
                error: .fileDescriptor(FileDescriptor(rawValue: terminal), closeAfterSpawningProcess: true))
        }
        let guardTask = Task {
            try await Task.sleep(for: timeLimit)
            run.cancel()
        }
        defer { guardTask.cancel() }
        let result = try await run.value
        // The child has ended and the terminal's other end is closed: what it wrote is buffered
        // here, and reading without blocking takes it all.
        _ = fcntl(controller, F_SETFL, fcntl(controller, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(controller, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        let status: Int32
        switch result.terminationStatus {
        case .exited(let code): status = Int32(code)
        case .signaled(let number): status = 128 + Int32(number)
        }
        return TerminalResult(status: status, standardOutput: result.standardOutput,
                              terminal: String(decoding: bytes, as: UTF8.self))
    }

    /// Why a terminal could not be made.
    public struct TerminalError: Error, CustomStringConvertible {
        public var description: String
    }
}
#endif
