import ArgumentParser
import CourierAsyncHTTPClient
import CourierLocking
import CourierRuntime
import Foundation

/// `courier-bench transfer`: one large upload or download through Courier, reporting the bytes
/// moved and how far this process's resident memory rose while it ran.
///
/// It runs as a child process of the test that starts the server, so that the figure is the
/// client's alone: the server, and the rest of the test suite, live in another process.
struct TransferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Streams one large body to or from a URL and prints the memory it took (JSON).",
        discussion: """
            Example: courier-bench transfer --direction download --url http://127.0.0.1:8080/large --file /tmp/out
            Prints {"bytes":…,"seconds":…,"startResidentBytes":…,"peakResidentBytes":…,"peakSource":…}.
            """
    )

    enum Direction: String, ExpressibleByArgument, CaseIterable {
        /// `APIClient.download` to `--file`.
        case download
        /// A PUT of `--file` as an `application/octet-stream` body read in chunks.
        case upload
        /// A POST of a multipart form: a text field and `--file` as a streamed file part.
        case multipart
    }

    enum Transport: String, ExpressibleByArgument, CaseIterable {
        case urlsession, asynchttpclient
    }

    @Option(help: "What to do: \(Direction.allCases.map(\.rawValue).joined(separator: ", ")).")
    var direction: Direction

    @Option(help: "urlsession or asynchttpclient.")
    var transport: Transport

    @Option(help: "The URL to send to or download from.")
    var url: String

    @Option(help: "The file to upload, or where to save the download.")
    var file: String

    func run() async throws {
        guard let target = URL(string: url), let scheme = target.scheme, let host = target.host else {
            throw ValidationError("--url must be an absolute URL")
        }
        let base = URL(string: "\(scheme)://\(host)\(target.port.map { ":\($0)" } ?? "")")!
        let path = target.path.isEmpty ? "/" : target.path
        var configuration = APIClient.Configuration()
        configuration.timeouts.attempt = .seconds(120)
        let client = APIClient(baseURL: base, transport: transport == .urlsession ? URLSessionTransport() : AsyncHTTPClientTransport(),
                               configuration: configuration)
        let fileURL = URL(fileURLWithPath: file)
        let memory = PeakMemory()
        let clock = ContinuousClock()
        let start = clock.now
        let bytes: Int64
        switch direction {
        case .download:
            bytes = try await client.download(TransferRequest(method: .get, path: path), to: fileURL) { _ in memory.sample() }.byteCount
        case .upload:
            let body = try HTTPBody(contentsOf: fileURL).reportingProgress { _ in memory.sample() }
            _ = try await client.send(TransferRequest(method: .put, path: path, body: .stream(body, contentType: "application/octet-stream")))
            bytes = Self.size(of: fileURL)
        case .multipart:
            let part = MultipartForm.Part(name: "file", filename: fileURL.lastPathComponent, contentType: "application/octet-stream",
                                          body: try HTTPBody(contentsOf: fileURL).reportingProgress { _ in memory.sample() })
            let form = MultipartForm(parts: [.field("purpose", "transfer check"), part])
            _ = try await client.send(TransferRequest(method: .post, path: path, body: .multipart(form)))
            bytes = Self.size(of: fileURL)
        }
        let seconds = Double((clock.now - start).components.attoseconds) / 1e18 + Double((clock.now - start).components.seconds)
        let (peak, source) = memory.peak()
        print(#"{"bytes":\#(bytes),"seconds":\#(seconds),"startResidentBytes":\#(memory.start),"peakResidentBytes":\#(peak),"peakSource":"\#(source)"}"#)
    }
}

extension TransferCommand {
    static func size(of file: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.int64Value ?? -1
    }
}

/// A request to a path, with the body given.
private struct TransferRequest: APIRequest {
    var method: HTTPRequest.Method
    var path: RequestPath
    var body: RequestBody?
    var timeout: Duration? { .seconds(120) }

    init(method: HTTPRequest.Method, path: String, body: RequestBody? = nil) {
        self.method = method
        // The path is the benchmark's own, without placeholders.
        self.path = RequestPath(stringLiteral: path)
        self.body = body
    }
}

/// The resident set before the transfer and the highest seen during it: on Linux the kernel's
/// own high-water mark (`VmHWM`, reset to the current size first through `clear_refs`), which
/// catches spikes between samples; elsewhere the highest of the samples taken at each chunk.
private final class PeakMemory: Sendable {
    let start: Int
    private let sampled: Locked<Int>
    private let kernelMark: Bool

    init() {
        start = SoakCommand.residentBytes()
        sampled = Locked(start)
        #if os(Linux)
        // Writing 5 resets the peak resident size to the current one (Linux 4.0 and later).
        kernelMark = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        #else
        kernelMark = false
        #endif
    }

    func sample() {
        // The kernel's mark sees every peak; reading /proc at each chunk would only slow the
        // reader down, and a slower reader is what makes bytes pile up.
        guard !kernelMark else { return }
        let now = SoakCommand.residentBytes()
        sampled.withLock { $0 = max($0, now) }
    }

    func peak() -> (Int, String) {
        let now = SoakCommand.residentBytes()
        let sampled = sampled.withLock { sampled in
            sampled = max(sampled, now)
            return sampled
        }
        #if os(Linux)
        if kernelMark, let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            return (max(kilobytes * 1024, sampled), "VmHWM after clear_refs")
        }
        #endif
        return (sampled, "resident size sampled at each chunk")
    }
}
