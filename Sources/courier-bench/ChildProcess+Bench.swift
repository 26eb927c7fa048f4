import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import CourierTestSupport
import Foundation

/// A benchmark step that went wrong.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}

// The harness runs its children (samples of itself, courier, swift build) through the tests'
// ChildProcess. Its figures need only the exit status, the output and the wall time: peak memory
// comes from the child itself (`sample` reports its VmHWM) or from GNU time, because the
// parent's `wait4` figure on Linux starts from the spawning parent's own high-water mark.
extension ChildProcess {
    /// How long one child may run: far above a clean build of the compile benchmark's module.
    static let benchTimeLimit = Duration.seconds(2 * 60 * 60)

    /// Runs `executable` (a path or a name on the `PATH`) in `directory` and throws unless it
    /// exits with status 0.
    static func runChecked(_ executable: String, _ arguments: [String], in directory: String? = nil) async throws -> Result {
        let result = try await run(executable, arguments, in: directory.map { URL(fileURLWithPath: $0, isDirectory: true) },
                                   timeLimit: benchTimeLimit)
        guard result.succeeded else {
            throw BenchFailure(description: "\(result.commandLine) exited with \(result.status)\(result.exited ? "" : " (killed)"):\n"
                + "\(result.standardError.suffix(3000))\(result.standardOutput.suffix(3000))")
        }
        return result
    }

    /// The running executable's own path, for re-executing it.
    static var currentExecutable: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}

/// Runs `body` once per real transport (URLSession, then AsyncHTTPClient over a client of its
/// own), then shuts that client down and stops `server`, also when `body` throws.
func forEachLoopbackTransport(
    stopping server: TestServer,
    maximumResponseBodySize: Int = 32 * 1024 * 1024,
    _ body: (_ name: String, _ transport: any HTTPTransport) async throws -> Void
) async throws {
    let httpClient = AsyncHTTPClientTransport.makeHTTPClient()
    let transports: [(String, any HTTPTransport)] = [
        ("URLSession", URLSessionTransport(maximumResponseBodySize: maximumResponseBodySize)),
        ("AsyncHTTPClient", AsyncHTTPClientTransport(client: httpClient, maximumResponseBodySize: maximumResponseBodySize)),
    ]
    do {
        for (name, transport) in transports {
            try await body(name, transport)
        }
    } catch {
        try? await httpClient.shutdown()
        await server.stop()
        throw error
    }
    try? await httpClient.shutdown()
    await server.stop()
}
