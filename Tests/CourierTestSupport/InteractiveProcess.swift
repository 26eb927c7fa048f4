import CourierLocking
import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A child process that a test talks to while it runs: waits for the lines it prints, changes
/// files, then signals it (a long-running `courier generate --watch`). Nothing blocks a thread of
/// the concurrency pool: lines are awaited as they arrive, and every wait has a generous limit so
/// that a stuck child fails its test instead of hanging the suite.
public final class InteractiveProcess: Sendable {
    /// Which stream a line came from.
    public enum Stream: Sendable {
        case standardOutput
        case standardError
    }

    /// Why a wait failed.
    public struct Timeout: Error, CustomStringConvertible {
        public var description: String
    }

    /// How a finished child ended.
    public struct Termination: Sendable {
        /// The exit status, or 128 + the signal number.
        public var status: Int32
        /// Whether it exited by itself rather than being ended by a signal's default action.
        public var exited: Bool
    }

    private let log = LineLog()
    private let signal: @Sendable (Int32) throws -> Void
    private let waitLimit: Duration

    private init(waitLimit: Duration, signal: @escaping @Sendable (Int32) throws -> Void) {
        self.waitLimit = waitLimit
        self.signal = signal
    }

    /// Runs `executable`, hands the running child to `body`, and returns once the child has
    /// ended after `body` returned (`body` must end it, by a signal, say). When `body` throws,
    /// the child is killed.
    ///
    /// - Parameter waitLimit: How long ``line(on:containing:)`` waits before failing.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: URL, waitLimit: Duration = .seconds(120),
        body: @escaping @Sendable (InteractiveProcess) async throws -> Void
    ) async throws -> Termination {
        var platformOptions = PlatformOptions()
        platformOptions.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .seconds(5))]
        let configuration = Configuration(
            executable: .path(FilePath(executable)), arguments: Arguments(arguments),
            workingDirectory: FilePath(directory.path), platformOptions: platformOptions)
        let result = try await Subprocess.run(configuration, input: .none, output: .sequence, error: .sequence) { execution in
            let child = InteractiveProcess(waitLimit: waitLimit) { number in
                try execution.send(signal: Signal(rawValue: number))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await line in execution.standardOutput.strings() { child.log.append(line, on: .standardOutput) }
                    child.log.close(.standardOutput)
                }
                group.addTask {
                    for try await line in execution.standardError.strings() { child.log.append(line, on: .standardError) }
                    child.log.close(.standardError)
                }
                do {
                    try await body(child)
                } catch {
                    try? execution.send(signal: .kill)
                    throw error
                }
                try await group.waitForAll()
            }
        }
        switch result.terminationStatus {
        case .exited(let code): return Termination(status: Int32(code), exited: true)
        case .signaled(let number): return Termination(status: 128 + Int32(number), exited: false)
        }
    }

    /// Waits for the next line on `stream` that contains `text`, after the last line this
    /// returned for the stream, and returns it.
    ///
    /// - Throws: ``Timeout`` after the wait limit, or when the stream ends first; its
    ///   description holds everything the child printed.
    @discardableResult
    public func line(on stream: Stream, containing text: String) async throws -> String {
        let found = await withTaskGroup(of: String?.self) { group in
            group.addTask { await self.log.next(on: stream, containing: text) }
            group.addTask {
                try? await Task.sleep(for: self.waitLimit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            log.cancelWaits()
            return first
        }
        guard let found else {
            throw Timeout(description: "no line containing '\(text)' on \(stream) within \(waitLimit), or before it ended\n" + log.transcript)
        }
        return found
    }

    /// Sends the child `signal` (`SIGINT`, say).
    public func send(_ signal: Int32) throws {
        try self.signal(signal)
    }

    /// Everything printed so far, for failure messages.
    public var transcript: String { log.transcript }
}

/// The lines a child printed, and the waits for lines to come.
private final class LineLog: Sendable {
    private struct Wait {
        var stream: InteractiveProcess.Stream
        var text: String
        var continuation: CheckedContinuation<String?, Never>
    }

    private typealias Resumption = (CheckedContinuation<String?, Never>, String?)

    private struct State {
        var lines: [InteractiveProcess.Stream: [String]] = [:]
        var cursors: [InteractiveProcess.Stream: Int] = [:]
        var closed: Set<InteractiveProcess.Stream> = []
        var waits: [Wait] = []
        var all: [String] = []

        /// The waits that can end now, removed, with their answers.
        mutating func settle() -> [Resumption] {
            var resumed: [Resumption] = []
            waits.removeAll { wait in
                let streamLines = lines[wait.stream, default: []]
                let start = cursors[wait.stream, default: 0]
                if let index = streamLines[start...].firstIndex(where: { $0.contains(wait.text) }) {
                    cursors[wait.stream] = index + 1
                    resumed.append((wait.continuation, streamLines[index]))
                    return true
                }
                if closed.contains(wait.stream) {
                    resumed.append((wait.continuation, nil))
                    return true
                }
                return false
            }
            return resumed
        }
    }

    private let state = Locked(State())

    func append(_ line: String, on stream: InteractiveProcess.Stream) {
        let resumed = state.withLock { state in
            state.lines[stream, default: []].append(line)
            state.all.append((stream == .standardError ? "stderr| " : "stdout| ") + line)
            return state.settle()
        }
        resumed.forEach { $0.0.resume(returning: $0.1) }
    }

    func close(_ stream: InteractiveProcess.Stream) {
        let resumed = state.withLock { state in
            state.closed.insert(stream)
            return state.settle()
        }
        resumed.forEach { $0.0.resume(returning: $0.1) }
    }

    func next(on stream: InteractiveProcess.Stream, containing text: String) async -> String? {
        await withCheckedContinuation { continuation in
            let resumed = state.withLock { state in
                state.waits.append(Wait(stream: stream, text: text, continuation: continuation))
                return state.settle()
            }
            resumed.forEach { $0.0.resume(returning: $0.1) }
        }
    }

    /// Ends every wait with `nil` (a time limit passed).
    func cancelWaits() {
        let ended = state.withLock { state in
            defer { state.waits = [] }
            return state.waits.map(\.continuation)
        }
        ended.forEach { $0.resume(returning: nil) }
    }

    var transcript: String { state.withLock { $0.all.joined(separator: "\n") } }
}
