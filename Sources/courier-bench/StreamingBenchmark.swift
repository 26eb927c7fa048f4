import AsyncHTTPClient
import CourierAsyncHTTPClient
import CourierLocking
import CourierRuntime
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes

/// Streaming throughput: a 50 MB response read through `APIClient.stream` and
/// `APIClient.download`, against the transport's own `stream` and against the plain client
/// under it (a `URLSession` data task with a delegate, an AsyncHTTPClient `execute`), reading
/// the same bytes from the same loopback server, with and without writing them to a file, and
/// the transport's buffered `send` for scale; through both transports, interleaved.
struct StreamingBenchmark {
    let context: BenchContext
    static let size = 50 * 1024 * 1024

    /// One way of reading the same body; returns the bytes read.
    private struct Variant {
        let name: String
        /// Whether it writes the body to a file, so that it is compared with the plain client
        /// writing the same chunks to a file.
        let writesFile: Bool
        let read: @Sendable () async throws -> Int
    }

    func run() async throws {
        let server = try await TestServer.start()
        // A response object serves one request, so each request gets its own.
        server.route("GET", "/large") { _ in
            .stream(ResponseStream(headers: [("Content-Length", String(Self.size))], parts: [.pattern(count: Self.size)]))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-streaming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plainSession = PlainURLSession()
        let plainHTTPClient = HTTPClient(eventLoopGroupProvider: .singleton)
        var table = Table(
            "Streaming throughput (a 50 MB body from the loopback server, \(context.runs * 2 + 1) reads per variant, interleaved)",
            command: "swift run -c release courier-bench --sections streaming --runs \(context.runs)",
            header: ["Transport", "Read", "MB/s (median)", "spread (min–max MB/s)", "× raw stream", "× plain client"])
        do {
            try await forEachLoopbackTransport(stopping: server, maximumResponseBodySize: 64 * 1024 * 1024) { name, transport in
                progress("streaming: \(name)")
                let plain = name == "URLSession"
                    ? Self.plainURLSessionVariants(plainSession, baseURL: server.baseURL, directory: directory)
                    : Self.plainHTTPClientVariants(plainHTTPClient, baseURL: server.baseURL, directory: directory)
                try await measure(plain + variants(transport: transport, baseURL: server.baseURL, directory: directory), transport: name, into: &table)
            }
        } catch {
            try? await plainHTTPClient.shutdown()
            throw error
        }
        try await plainHTTPClient.shutdown()
        table.notes = [
            "plain client: what a user without Courier would write. URLSession: an ephemeral session's data task whose delegate receives the body; AsyncHTTPClient: `HTTPClient.execute` with its body iterated. \"→ file\": each chunk written to a file with `FileHandle.write(contentsOf:)`, as `download` writes it, and nothing else.",
            "raw stream: `transport.stream` with a hand-built `HTTPRequest`, its body iterated to the end.",
            "APIClient.stream: the same request as an `APIRequest` through `APIClient.stream` (retry policy and a per-host breaker on), its body iterated to the end.",
            "APIClient.download: the same request saved with `download(_:to:)`: the same writes to a temporary file beside the destination, then `synchronize()` (fsync) and a rename into place.",
            "raw stream → file: `transport.stream` with the same writes, no sync and no rename.",
            "buffered send: `transport.send`, the whole body collected in memory, as a decoded call does.",
            "× plain client: against the plain client's row that does the same (\"→ file\" rows against the plain client writing to a file, the others against the plain client iterating).",
            "URLSession's streamed bodies pass through a spill buffer (at most 1 MiB unread in memory, the rest in a temporary file).",
        ]
        table.print()
    }

    private static func plainURLSessionVariants(_ session: PlainURLSession, baseURL: URL, directory: URL) -> [Variant] {
        let url = baseURL.appendingPathComponent("large")
        let file = directory.appendingPathComponent("plain-urlsession")
        return [
            Variant(name: "plain URLSession", writesFile: false) { try await session.read(url, writingTo: nil) },
            Variant(name: "plain URLSession → file", writesFile: true) { try await session.read(url, writingTo: file) },
        ]
    }

    private static func plainHTTPClientVariants(_ client: HTTPClient, baseURL: URL, directory: URL) -> [Variant] {
        let url = baseURL.appendingPathComponent("large").absoluteString
        let file = directory.appendingPathComponent("plain-asynchttpclient")
        @Sendable func read(writingTo file: URL?) async throws -> Int {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
            let writer = try FileWriter(file)
            defer { writer?.close() }
            var count = 0
            for try await buffer in response.body {
                try writer?.write(Data(buffer.readableBytesView))
                count += buffer.readableBytes
            }
            return count
        }
        return [
            Variant(name: "plain AsyncHTTPClient", writesFile: false) { try await read(writingTo: nil) },
            Variant(name: "plain AsyncHTTPClient → file", writesFile: true) { try await read(writingTo: file) },
        ]
    }

    private func variants(transport: any HTTPTransport, baseURL: URL, directory: URL) -> [Variant] {
        let port = baseURL.port ?? 80
        let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/large")
        var configuration = APIClient.Configuration()
        configuration.timeouts.attempt = .seconds(60)
        let client = APIClient(baseURL: baseURL, transport: transport, configuration: configuration)
        let downloaded = directory.appendingPathComponent("download")
        let streamedFile = directory.appendingPathComponent("raw-stream")
        return [
            Variant(name: "raw stream", writesFile: false) {
                var count = 0
                for try await chunk in try await transport.stream(head, body: nil, timeout: .seconds(60)).body { count += chunk.count }
                return count
            },
            Variant(name: "APIClient.stream", writesFile: false) {
                var count = 0
                for try await chunk in try await client.stream(LargeBody()).body { count += chunk.count }
                return count
            },
            Variant(name: "APIClient.download(_:to:)", writesFile: true) {
                Int(try await client.download(LargeBody(), to: downloaded).byteCount)
            },
            Variant(name: "raw stream → file", writesFile: true) {
                let writer = try FileWriter(streamedFile)
                defer { writer?.close() }
                var count = 0
                for try await chunk in try await transport.stream(head, body: nil, timeout: .seconds(60)).body {
                    try writer?.write(chunk)
                    count += chunk.count
                }
                return count
            },
            Variant(name: "buffered send", writesFile: false) {
                try await transport.send(head, body: nil, timeout: .seconds(60)).body.count
            },
        ]
    }

    /// Measures `variants`, whose first two are the plain client iterating and writing to a
    /// file, and whose third is the raw stream.
    private func measure(_ variants: [Variant], transport: String, into table: inout Table) async throws {
        for variant in variants { _ = try await variant.read() }
        var rates = Array(repeating: Samples(), count: variants.count)
        let clock = ContinuousClock()
        for round in 0..<(context.runs * 2 + 1) {
            for offset in variants.indices {
                let index = (round + offset) % variants.count
                let start = clock.now
                let count = try await variants[index].read()
                guard count == Self.size else {
                    throw BenchFailure(description: "\(variants[index].name) read \(count) bytes, expected \(Self.size)")
                }
                rates[index].append(Double(count) / 1e6 / (clock.now - start).seconds)
            }
        }
        let plain = rates[0].median
        let plainToFile = rates[1].median
        let raw = rates[2].median
        for (index, variant) in variants.enumerated() {
            table.add([transport, variant.name, String(format: "%.0f", rates[index].median),
                       String(format: "%.0f–%.0f", rates[index].quantile(0), rates[index].quantile(1)),
                       Format.ratio(rates[index].median / raw),
                       Format.ratio(rates[index].median / (variant.writesFile ? plainToFile : plain))])
        }
    }
}

/// `GET /large`, read as a stream.
private struct LargeBody: APIRequest {
    var method: HTTPRequest.Method { .get }
    var path: RequestPath { "/large" }
    var operationName: String { "large" }
}

/// Writes chunks to a file as `APIClient.download` does, without its sync and rename.
private final class FileWriter: Sendable {
    private let handle: FileHandle

    /// A writer of a new, empty file at `url`; `nil` for no file.
    init?(_ url: URL?) throws {
        guard let url else { return nil }
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchFailure(description: "could not create \(url.path)")
        }
        handle = try FileHandle(forWritingTo: url)
    }

    func write(_ data: Data) throws {
        try handle.write(contentsOf: data)
    }

    func close() {
        try? handle.close()
    }
}

/// A plain `URLSession` reader, as a user without Courier would write one: a data task whose
/// delegate receives the body chunk by chunk (the delegate is what streams on Linux, where
/// FoundationNetworking has no `bytes(for:)`).
private final class PlainURLSession: NSObject, URLSessionDataDelegate, Sendable {
    private struct Read {
        var continuation: CheckedContinuation<Int, any Error>
        var writer: FileWriter?
        var count = 0
        var failure: (any Error)?
    }

    private let reads = Locked<[Int: Read]>([:])
    private let session = Locked<URLSession?>(nil)

    override init() {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session.withLock { $0 = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: queue) }
    }

    /// Reads `url` to the end, writing each chunk to `file` when one is given; returns the bytes read.
    func read(_ url: URL, writingTo file: URL?) async throws -> Int {
        guard let session = session.withLock({ $0 }) else { throw BenchFailure(description: "no session") }
        let writer = try FileWriter(file)
        defer { writer?.close() }
        let task = session.dataTask(with: url)
        return try await withCheckedThrowingContinuation { continuation in
            reads.withLock { $0[task.taskIdentifier] = Read(continuation: continuation, writer: writer) }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let writer = reads.withLock({ reads -> FileWriter?? in
            reads[dataTask.taskIdentifier]?.count += data.count
            return reads[dataTask.taskIdentifier].map { $0.writer }
        }) else { return }
        do {
            try writer?.write(data)
        } catch {
            reads.withLock { $0[dataTask.taskIdentifier]?.failure = error }
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let read = reads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = read.failure ?? error {
            read.continuation.resume(throwing: failure)
        } else {
            read.continuation.resume(returning: read.count)
        }
    }
}
