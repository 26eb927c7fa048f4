import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing

/// Both transports keep their connections alive under concurrent load, counted at the server
/// (issue 16).
///
/// URLSession on Linux used to open a connection per ~20 requests: libcurl's connection cache
/// holds at most 4 connections per transfer in progress, so with 6 per host it closed the spare ones whenever
/// traffic dipped. Its default configuration now allows 4 per host.
@Suite struct ConnectionReuseTests {
    /// Sends `count` GETs through `transport`, `concurrency` at a time, and returns each one's
    /// latency.
    static func load(_ transport: any HTTPTransport, server: TestServer, count: Int, concurrency: Int, method: HTTPRequest.Method = .get) async throws -> [Duration] {
        let request = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/load")
        let body: HTTPBody? = method == .get ? nil : HTTPBody(#"{"id":1,"name":"a"}"#)
        return try await withThrowingTaskGroup(of: [Duration].self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    let clock = ContinuousClock()
                    var latencies: [Duration] = []
                    for _ in stride(from: worker, to: count, by: concurrency) {
                        let start = clock.now
                        let response = try await transport.send(request, body: body, timeout: .seconds(30))
                        guard response.head.status.code == 200 else { throw UnexpectedStatus(code: response.head.status.code) }
                        latencies.append(clock.now - start)
                    }
                    return latencies
                }
            }
            var all: [Duration] = []
            for try await latencies in group { all += latencies }
            return all
        }
    }

    struct UnexpectedStatus: Error {
        var code: Int
    }

    /// One connection per concurrent caller is the most a pooling transport has any reason to
    /// open; URLSession measured 4 and AsyncHTTPClient at most 8 (its soft limit per host) here,
    /// while URLSession with 6 per host opened 27 for 500 requests.
    @Test(arguments: TransportKind.allCases)
    func concurrentGetsReuseConnections(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/load", .respond(.json(#"{"id":1,"name":"a"}"#)))
            let requests = 500
            let concurrency = 16
            let latencies = try await Self.load(kind.make(), server: server, count: requests, concurrency: concurrency)
            #expect(latencies.count == requests)
            #expect(server.requestCount("GET", "/load") == requests)
            #expect(server.acceptedConnectionCount <= concurrency, "\(server.acceptedConnectionCount) connections for \(requests) requests")
        }
    }
}

/// The figures of docs/Transports.md. Off unless `COURIER_TRANSPORT_FIGURES=1`, because they
/// take a while and only mean something on an otherwise idle machine:
///
///     COURIER_TRANSPORT_FIGURES=1 swift test --filter TransportFigures
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["COURIER_TRANSPORT_FIGURES"] == "1"))
struct TransportFigures {
    static func describe(_ latencies: [Duration], wall: Duration) -> String {
        let sorted = latencies.sorted()
        func ms(_ duration: Duration) -> String {
            String(format: "%.2f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
        }
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        return "p50 \(ms(sorted[sorted.count / 2])), p99 \(ms(sorted[sorted.count * 99 / 100])), \(Int(Double(sorted.count) / seconds)) requests/s"
    }

    static func measure(_ label: String, _ transport: any HTTPTransport, method: HTTPRequest.Method, count: Int, concurrency: Int) async throws {
        try await withServer { server in
            server.route(method.rawValue, "/load", .respond(.json(#"{"id":1,"name":"a"}"#)))
            let clock = ContinuousClock()
            let start = clock.now
            let latencies = try await ConnectionReuseTests.load(transport, server: server, count: count, concurrency: concurrency, method: method)
            let wall = clock.now - start
            print("FIGURE \(label): \(count) \(method.rawValue)s at \(concurrency)-way: \(server.acceptedConnectionCount) connections, \(describe(latencies, wall: wall))")
            #expect(server.requestCount(method.rawValue, "/load") == count)
        }
    }

    @Test func connectionsAndLatency() async throws {
        #if canImport(FoundationNetworking)
        let sixPerHost = URLSessionTransport.defaultConfiguration
        sixPerHost.httpMaximumConnectionsPerHost = 6
        try await Self.measure("URLSession, 6 per host (the old default)", URLSessionTransport(configuration: sixPerHost), method: .get, count: 2000, concurrency: 16)
        #endif
        try await Self.measure("URLSession, default", URLSessionTransport(), method: .get, count: 2000, concurrency: 16)
        try await Self.measure("AsyncHTTPClient", TransportKind.asyncHTTPClient.make(), method: .get, count: 2000, concurrency: 16)
    }

    /// A PUT goes out like any request; a POST gets a connection of its own on Linux. The same
    /// body and route, so the difference is the price of not being replayed.
    @Test func theCostOfAFreshConnectionPerPost() async throws {
        for concurrency in [1, 16] {
            try await Self.measure("URLSession PUT (reused connections)", URLSessionTransport(), method: .put, count: 500, concurrency: concurrency)
            try await Self.measure("URLSession POST (a connection each)", URLSessionTransport(), method: .post, count: 500, concurrency: concurrency)
            try await Self.measure("AsyncHTTPClient POST", TransportKind.asyncHTTPClient.make(), method: .post, count: 500, concurrency: concurrency)
        }
    }
}
