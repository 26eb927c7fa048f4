import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a child process and reports its exit status, output, wall time from spawn to exit and
/// its `rusage` peak memory (from `wait4`, per child rather than the maximum over all children
/// that `getrusage(RUSAGE_CHILDREN)` gives).
struct Subprocess {
    /// What a finished child did.
    struct Outcome {
        /// The exit status, or 128 + the signal number when a signal ended it.
        var status: Int32
        /// Everything it wrote to standard output.
        var output: String
        /// Everything it wrote to standard error.
        var error: String
        /// From spawn to exit, as seen by the parent (includes process start-up).
        var wallTime: Duration
        /// `ru_maxrss` from `wait4`, in bytes. On Linux it is at least the spawning parent's own
        /// high-water mark (exec records the old address space's peak), so it overstates a
        /// small child of a large parent; samples report their own VmHWM instead.
        var peakMemory: Int
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `executable` with `arguments` in `directory` (the current one when `nil`).
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        let outputPath = scratch.path + ".out"
        let errorPath = scratch.path + ".err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        // Output goes to files rather than pipes, so that no child can block on a full pipe
        // while the parent is waiting for it.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // posix_spawn_file_actions_addchdir_np is not visible from Swift on every libc;
        // coreutils' `env -C` changes the folder just as well.
        let command = directory.map { ["/usr/bin/env", "-C", $0, executable] } ?? [executable]
        let argv: [UnsafeMutablePointer<CChar>?] = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let clock = ContinuousClock()
        let start = clock.now
        var pid = pid_t()
        let spawned = argv.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return EINVAL }
            return posix_spawnp(&pid, command[0], &actions, nil, UnsafeMutablePointer(mutating: base), environ)
        }
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw Failure(description: "wait4 failed for \(executable)") }
        }
        let wallTime = clock.now - start
        let signal = status & 0x7F
        let exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        // Linux reports ru_maxrss in kilobytes; macOS in bytes.
        #if os(Linux)
        let peak = Int(usage.ru_maxrss) * 1024
        #else
        let peak = Int(usage.ru_maxrss)
        #endif
        return Outcome(status: exitStatus, output: output, error: error, wallTime: wallTime, peakMemory: peak)
    }

    /// Runs and throws unless the child exits with status 0.
    static func runChecked(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> Outcome {
        let outcome = try run(executable, arguments, in: directory)
        guard outcome.status == 0 else {
            let command = ([executable] + arguments).joined(separator: " ")
            throw Failure(description: "\(command) exited with \(outcome.status):\n\(outcome.error.suffix(3000))\(outcome.output.suffix(3000))")
        }
        return outcome
    }

    /// The running executable's own path, for re-executing it.
    static var currentExecutable: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
