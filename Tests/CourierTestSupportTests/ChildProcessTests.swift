import CourierTestSupport
import Foundation
import Testing

/// The one way tests run child processes: what they print and how they end must come back
/// intact, and a stuck child must end at its time limit.
@Suite struct ChildProcessTests {
    @Test func capturesBothStreamsAndTheExitStatus() async throws {
        let result = try await ChildProcess.run("sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.exited)
        #expect(!result.succeeded)
        #expect(result.standardOutput == "out\n")
        #expect(result.standardError == "err\n")
        #expect(result.commandLine == "sh -c echo out; echo err >&2; exit 3")
    }

    @Test func runsInTheGivenFolderWithTheGivenEnvironment() async throws {
        let folder = FileManager.default.temporaryDirectory.resolvingSymlinksInPath()
        let result = try await ChildProcess.run("/bin/sh", ["-c", "pwd; echo \"$COURIER_PROBE\""], in: folder,
                                                environment: ["COURIER_PROBE": "probe", "PATH": "/usr/bin:/bin"])
        #expect(result.succeeded)
        #expect(result.outputLines == [folder.path, "probe"])
    }

    /// Far more than a pipe holds on each stream at once: reading one stream to its end before
    /// the other would leave the child blocked on the full one.
    @Test func aChildFillingBothPipesDoesNotStall() async throws {
        let script = "i=0; while [ $i -lt 2000 ]; do echo 0123456789012345678901234567890123456789012345678901234567890123456789; "
            + "echo 0123456789012345678901234567890123456789012345678901234567890123456789 >&2; i=$((i+1)); done"
        let result = try await ChildProcess.run("sh", ["-c", script], timeLimit: .seconds(120))
        #expect(result.succeeded)
        #expect(result.outputLines.count == 2000)
        #expect(result.standardError.utf8.count == 2000 * 71)
    }

    /// A child that would end by itself after two minutes ends as killed. When is not asserted:
    /// the kill follows the time limit's wake-up on the concurrency pool, which on a loaded
    /// two-core machine waited 35 s once and over two minutes under scripts/loaded-test with a
    /// second suite running, behind tests that kept both threads busy. A child that had ended by
    /// itself would show as exited.
    @Test func aChildOutlivingItsTimeLimitIsKilled() async throws {
        let result = try await ChildProcess.run("sleep", ["120"], timeLimit: .milliseconds(300))
        #expect(!result.exited)
        #expect(!result.succeeded)
    }

    @Test func aLogReceivesBothStreamsInterleaved() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("courier-child-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let result = try await ChildProcess.run("sh", ["-c", "echo one; echo two >&2; echo three"], log: log)
        #expect(result.succeeded)
        #expect(result.outputLines == ["one", "two", "three"])
        #expect(try String(contentsOf: log, encoding: .utf8) == "one\ntwo\nthree\n")
    }

    @Test func aMissingExecutableThrows() async {
        await #expect(throws: (any Error).self) {
            try await ChildProcess.run("/nonexistent/courier-no-such-tool")
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("courier-child-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        await #expect(throws: (any Error).self) {
            try await ChildProcess.run("/nonexistent/courier-no-such-tool", log: log)
        }
    }
}
