import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes

/// Paginated iteration overhead: walking 10 Link-paginated pages of 100 items through
/// `APIClient.pages(…).items()` against 10 plain `send` calls for the same pages on the same
/// loopback server, interleaved, through both transports.
struct PaginationBenchmark {
    let context: BenchContext

    private struct NumbersPage: APIRequest {
        typealias Response = [Int]
        var page: Int
        var method: HTTPRequest.Method { .get }
        var path: RequestPath { "/numbers" }
        var query: Parameters { ["page": page] }
    }

    private func measure(transport: any HTTPTransport, name: String, server: TestServer, walks: Int, into table: inout Table) async throws {
        let client = APIClient(baseURL: server.baseURL, transport: transport)
        let variants: [(String, @Sendable () async throws -> Int)] = [
            ("10 plain `send` calls (baseline)", {
                var sum = 0
                for page in 1...10 { sum += try await client.send(NumbersPage(page: page)).count }
                return sum
            }),
            ("`pages(…).items()`", {
                var sum = 0
                for try await _ in client.pages(NumbersPage(page: 1), pagination: .link(items: { $0 })).items() { sum += 1 }
                return sum
            }),
        ]
        for (_, walk) in variants { _ = try await walk() }
        var samples = [Samples(), Samples()]
        let clock = ContinuousClock()
        for round in 0..<walks {
            for offset in 0..<2 {
                let index = (round + offset) % 2
                let start = clock.now
                let count = try await variants[index].1()
                guard count == 1000 else { throw BenchFailure(description: "\(variants[index].0) saw \(count) items") }
                samples[index].append((clock.now - start).seconds)
            }
        }
        for (index, variant) in variants.enumerated() {
            table.add([name, variant.0, Format.seconds(samples[index].median), Format.ratio(samples[index].median / samples[0].median)])
        }
    }

    func run() async throws {
        let server = try await TestServer.start()
        let origin = server.baseURL.absoluteString
        let bodies = (1...10).map { page in "[" + ((page - 1) * 100..<page * 100).map(String.init).joined(separator: ",") + "]" }
        server.route("GET", "/numbers") { request in
            let page = request.query.split(separator: "&").first { $0.hasPrefix("page=") }.flatMap { Int($0.dropFirst(5)) } ?? 1
            let headers = page < 10 ? [("Link", "<\(origin)/numbers?page=\(page + 1)>; rel=\"next\"")] : []
            return .respond(.json(bodies[min(max(page, 1), 10) - 1], headers: headers))
        }
        let walks = context.runs * 20
        var table = Table(
            "Paginated iteration (10 pages of 100 items, \(walks) walks per variant, interleaved)",
            command: "swift run -c release courier-bench --sections pagination --runs \(context.runs)",
            header: ["Transport", "Walk", "Median per walk", "× plain sends"])
        try await forEachLoopbackTransport(stopping: server) { name, transport in
            progress("pagination: \(name)")
            try await measure(transport: transport, name: name, server: server, walks: walks, into: &table)
        }
        table.notes = ["Both walks decode the same 10 bodies; the sequence adds following the `Link` header, resolving and checking its URL, and remembering the pages seen."]
        table.print()
    }
}
