import AsyncHTTPClient
import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes

/// Streaming throughput: a 50 MB response read through `APIClient.stream` against the
/// transport's own `stream` read of the same bytes from the same loopback server, and the
/// transport's buffered `send` for scale, through both transports, interleaved.
struct StreamingBenchmark {
    let context: BenchContext
    static let size = 50 * 1024 * 1024

    /// One way of reading the same body; returns the bytes read.
    private struct Variant {
        let name: String
        let read: @Sendable () async throws -> Int
    }

    func run() async throws {
        let server = try await TestServer.start()
        // A response object serves one request, so each request gets its own.
        server.route("GET", "/large") { _ in
            .stream(ResponseStream(headers: [("Content-Length", String(Self.size))], parts: [.pattern(count: Self.size)]))
        }
        var table = Table(
            "Streaming throughput (a 50 MB body from the loopback server, \(context.runs * 2 + 1) reads per variant, interleaved)",
            command: "swift run -c release courier-bench --sections streaming --runs \(context.runs)",
            header: ["Transport", "Read", "MB/s (median)", "spread (min–max MB/s)", "× raw stream"])
        try await forEachLoopbackTransport(stopping: server, maximumResponseBodySize: 64 * 1024 * 1024) { name, transport in
            progress("streaming: \(name)")
            try await measure(variants(transport: transport, baseURL: server.baseURL), transport: name, into: &table)
        }
        table.notes = [
            "raw stream: `transport.stream` with a hand-built `HTTPRequest`, its body iterated to the end.",
            "APIClient.stream: the same request as an `APIRequest` through `APIClient.stream` (retry policy and a per-host breaker on), its body iterated to the end.",
            "buffered send: `transport.send`, the whole body collected in memory, as a decoded call does.",
            "URLSession's streamed bodies pass through a spill buffer (at most 1 MiB unread in memory, the rest in a temporary file).",
        ]
        table.print()
    }

    private func variants(transport: any HTTPTransport, baseURL: URL) -> [Variant] {
        let port = baseURL.port ?? 80
        let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(port)", path: "/large")
        var configuration = APIClient.Configuration()
        configuration.timeouts.attempt = .seconds(60)
        let client = APIClient(baseURL: baseURL, transport: transport, configuration: configuration)
        return [
            Variant(name: "raw stream") {
                var count = 0
                for try await chunk in try await transport.stream(head, body: nil, timeout: .seconds(60)).body { count += chunk.count }
                return count
            },
            Variant(name: "APIClient.stream") {
                var count = 0
                for try await chunk in try await client.stream(LargeBody()).body { count += chunk.count }
                return count
            },
            Variant(name: "buffered send") {
                try await transport.send(head, body: nil, timeout: .seconds(60)).body.count
            },
        ]
    }

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
        let raw = rates[0].median
        for (index, variant) in variants.enumerated() {
            table.add([transport, variant.name, String(format: "%.0f", rates[index].median),
                       String(format: "%.0f–%.0f", rates[index].quantile(0), rates[index].quantile(1)),
                       Format.ratio(rates[index].median / raw)])
        }
    }
}

/// `GET /large`, read as a stream.
private struct LargeBody: APIRequest {
    var method: HTTPRequest.Method { .get }
    var path: RequestPath { "/large" }
    var operationName: String { "large" }
}
