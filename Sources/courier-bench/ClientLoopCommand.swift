import ArgumentParser
import BookshelfAPI
import CourierObservability
import CourierRuntime
import Foundation
import HTTPTypes

/// `courier-bench client-loop`: the runtime section's in-memory call, alone and as many times as
/// asked, for a profiler to record (`perf record -g courier-bench client-loop`).
///
/// The runtime section interleaves variants and prints medians, which is right for figures but
/// leaves a profile mixing them with the loopback server, the transports and the other tables;
/// this runs one variant only, in one task, and prints its mean time per call.
struct ClientLoopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client-loop",
        abstract: "Calls the generated Bookshelf client on an in-memory transport in a loop, for a profiler.",
        discussion: """
            Example: perf record -g courier-bench client-loop --variant layers --iterations 200000
            Prints the mean wall time per call; the figures to compare belong to --sections runtime.
            """,
        shouldDisplay: false
    )

    enum Variant: String, ExpressibleByArgument, CaseIterable {
        /// The runtime section's baseline: the generated request, retry off, breaker off.
        case plain
        /// `getBook(book:)` with the default retry policy and a per-host breaker.
        case layers
        /// The baseline through `ClientObservability()` with nothing bootstrapped.
        case observability
        /// `JSONDecoder` decoding the same body into `Book`, as the client does: its share of a call.
        case decode
    }

    @Option(help: "Which call: \(Variant.allCases.map(\.rawValue).joined(separator: ", ")).")
    var variant: Variant = .plain

    // Not `--calls`, which is courier-bench's own option (the runtime section's latency calls).
    @Option(help: "Calls to make after 1,000 to warm up.")
    var iterations = 200_000

    func validate() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
    }

    func run() async throws {
        let body = try RuntimeBenchmark.bookJSON()
        let transport = InstantTransport(response: TransportResponse(
            head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body: body))
        var configuration = APIClient.Configuration()
        switch variant {
        case .layers: configuration.resilience = Resilience(retryPolicy: .default, circuitBreakerScope: .host)
        case .observability: configuration.instrument = ClientObservability()
        case .plain, .decode: break
        }
        let client = BookshelfClient(transport: transport, configuration: configuration)
        let unresilient = EndpointResilience(maxAttempts: 1, circuitBreaker: .off)
        let decoder = client.client.configuration.coding.makeDecoder()
        let variant = variant
        func call() async throws {
            switch variant {
            case .plain, .observability: _ = try await client.client.send(GetBookRequest(book: 7), resilience: unresilient)
            case .layers: _ = try await client.getBook(book: 7)
            case .decode: _ = try decoder.decode(Book.self, from: body)
            }
        }
        for _ in 0..<1000 { try await call() }
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<iterations { try await call() }
        let perCall = (clock.now - start).seconds / Double(iterations) * 1e9
        print("\(variant.rawValue): \(Format.nanoseconds(perCall)) per call, mean of \(iterations)")
    }
}
