import AsyncHTTPClient
import BookshelfAPI
import CourierAsyncHTTPClient
import CourierLocking
import CourierObservability
import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes

/// Runtime overhead: a call through the generated Bookshelf client (`getBook`, retry and a
/// per-host circuit breaker on) against a raw transport call with a hand-built request and the
/// same decoding, on the loopback test server, through both transports; then the retry and
/// breaker layers' own success-path cost, and the breaker under contention.
struct RuntimeBenchmark {
    let context: BenchContext

    /// One way of fetching the same book.
    private struct Variant {
        let name: String
        let call: @Sendable () async throws -> Book
    }

    func run() async throws {
        let server = try await TestServer.start()
        let body = try Self.bookJSON()
        server.route("GET", "/api/v1/books/7", .respond(.json(String(decoding: body, as: UTF8.self))))
        let baseURL = server.baseURL.appendingPathComponent("api/v1")

        var latency = Table(
            "Loopback latency, one caller (GET one book, \(context.calls) calls per variant, interleaved in a random order)",
            command: "swift run -c release courier-bench --sections runtime --calls \(context.calls)",
            header: ["Transport", "Call", "p50", "p99", "p50 × raw", "p50 vs. client without retry/breaker"])
        var throughput = Table(
            "Loopback throughput, 64 concurrent callers (\(context.concurrentCalls) calls each)",
            command: "swift run -c release courier-bench --sections runtime --concurrent-calls \(context.concurrentCalls)",
            header: ["Transport", "Call", "Calls/s", "× raw"])

        try await forEachLoopbackTransport(stopping: server) { name, transport in
            progress("runtime: \(name)")
            let variants = makeVariants(transport: transport, baseURL: baseURL)
            try await measureLatency(variants, transport: name, into: &latency)
            try await measureThroughput(variants, transport: name, into: &throughput)
        }
        latency.notes = [
            "raw: `transport.send` with a hand-built `HTTPRequest`, then the same `JSONDecoder` decoding into the generated `Book`.",
            "client without retry/breaker: the generated request sent through `APIClient` with `EndpointResilience(maxAttempts: 1, circuitBreaker: .off)`.",
            "generated client: `BookshelfClient.getBook(book:)` with the default retry policy and a per-host circuit breaker (`circuitBreakerScope: .host`).",
            "again (noise check): the second variant once more, as a separate variant; its difference from the second row is what this run's noise alone produces.",
        ]
        latency.print()
        throughput.print()
        try await measureLayerOverhead()
        measureBreakerContention()
        measureDiscriminator()
        measureFreeFormJSON()
    }

    // MARK: The variants

    private func makeVariants(transport: any HTTPTransport, baseURL: URL) -> [Variant] {
        var configuration = APIClient.Configuration()
        configuration.resilience = Resilience(retryPolicy: .default, circuitBreakerScope: .host)
        let generated = BookshelfClient(baseURL: baseURL, transport: transport, configuration: configuration)
        let plain = BookshelfClient(baseURL: baseURL, transport: transport, configuration: APIClient.Configuration())
        let decoder = generated.client.configuration.coding.makeDecoder()
        let url = baseURL.appendingPathComponent("books/7")
        let unresilient = EndpointResilience(maxAttempts: 1, circuitBreaker: .off)
        return [
            Variant(name: "raw transport") {
                let request = HTTPRequest(method: .get, url: url, headerFields: [.accept: "application/json"])
                let response = try await transport.send(request, body: nil, timeout: .seconds(20))
                return try decoder.decode(Book.self, from: response.body)
            },
            Variant(name: "client without retry/breaker") {
                try await plain.client.send(GetBookRequest(book: 7), resilience: unresilient)
            },
            Variant(name: "generated client, retry + breaker") {
                try await generated.getBook(book: 7)
            },
            // The same call as the second variant, measured separately: how far two identical
            // variants drift apart in one run is the noise floor the layers' figure sits on.
            Variant(name: "client without retry/breaker, again (noise check)") {
                try await plain.client.send(GetBookRequest(book: 7), resilience: unresilient)
            },
        ]
    }

    /// The book every runtime figure fetches, as the generated client encodes it.
    static func bookJSON() throws -> Data {
        let date = Date(timeIntervalSince1970: 1_714_564_800)
        let book = Book(
            id: 7, title: "The Left Hand of Darkness", isbn: "9780441478125",
            author: Author(id: 3, name: "Ursula K. Le Guin", bio: "Writer of speculative fiction.", createdAt: date),
            genres: [.fiction], publishedYear: 1969, averageRating: 4.5,
            coverURL: URL(string: "https://bookshelf.example.com/covers/7.jpg"), createdAt: date, updatedAt: date)
        return try BookshelfClient(transport: URLSessionTransport()).client.configuration.coding.makeEncoder().encode(book)
    }

    // MARK: Latency and throughput

    private func measureLatency(_ variants: [Variant], transport: String, into table: inout Table) async throws {
        for variant in variants {
            for _ in 0..<100 { _ = try await variant.call() }
        }
        var samples = Array(repeating: Samples(), count: variants.count)
        let clock = ContinuousClock()
        // Every round runs the variants in a new random order (seeded, so runs are alike).
        // With a fixed order, the call right after the raw one was up to 15% faster through
        // AsyncHTTPClient whichever variant it was, which a fixed order reports as a
        // difference between the variants.
        var generator = SplitMix64(seed: 0xC0FFEE)
        for _ in 0..<context.calls {
            for index in variants.indices.shuffled(using: &generator) {
                let start = clock.now
                _ = try await variants[index].call()
                samples[index].append((clock.now - start).seconds)
            }
        }
        let raw = samples[0].median
        let plain = samples[1].median
        for (index, variant) in variants.enumerated() {
            let p50 = samples[index].median
            table.add([transport, variant.name, Format.seconds(p50), Format.seconds(samples[index].quantile(0.99)),
                       Format.ratio(p50 / raw), index < 2 ? "" : Format.percent(p50 / plain - 1)])
        }
    }

    private func measureThroughput(_ variants: [Variant], transport: String, into table: inout Table) async throws {
        var rates = Array(repeating: Samples(), count: variants.count)
        let callers = 64
        let callsPerCaller = context.concurrentCalls
        let clock = ContinuousClock()
        for round in 0..<3 {
            for offset in variants.indices {
                let index = (round + offset) % variants.count
                let variant = variants[index]
                let start = clock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<callers {
                        group.addTask {
                            for _ in 0..<callsPerCaller { _ = try await variant.call() }
                        }
                    }
                    try await group.waitForAll()
                }
                rates[index].append(Double(callers * callsPerCaller) / (clock.now - start).seconds)
            }
        }
        for (index, variant) in variants.enumerated() {
            table.add([transport, variant.name, Format.count(rates[index].median), Format.ratio(rates[index].median / rates[0].median)])
        }
    }

    // MARK: The layers alone

    /// The retry and breaker layers' success-path cost: the same generated call through an
    /// in-memory transport that answers at once, with and without the layers.
    private func measureLayerOverhead() async throws {
        let response = TransportResponse(
            head: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body: try Self.bookJSON())
        let transport = InstantTransport(response: response)
        var configuration = APIClient.Configuration()
        configuration.resilience = Resilience(retryPolicy: .default, circuitBreakerScope: .host)
        let layered = BookshelfClient(transport: transport, configuration: configuration)
        let plain = BookshelfClient(transport: transport, configuration: APIClient.Configuration())
        let unresilient = EndpointResilience(maxAttempts: 1, circuitBreaker: .off)
        let iterations = max(context.calls * 10, 1000)
        let (without, with) = try await interleavedMedians(iterations: iterations,
            baseline: { _ = try await plain.client.send(GetBookRequest(book: 7), resilience: unresilient) },
            variants: [{ _ = try await layered.getBook(book: 7) }])
        var table = Table(
            "Retry + breaker layers on the success path (in-memory transport, \(iterations) calls per sample)",
            command: "swift run -c release courier-bench --sections runtime --calls \(context.calls)",
            header: ["Call", "Median ns/call", "× without layers"])
        table.add(["generated request, retry off, breaker off (baseline)", Format.nanoseconds(without), "1.00×"])
        table.add(["generated client, retry + per-host breaker", Format.nanoseconds(with[0]), Format.ratio(with[0] / without)])
        table.notes = ["Overhead of the layers: \(Format.nanoseconds(with[0] - without)) per call (difference of medians)."]
        table.print()
        try await measureInstrumentOverhead(transport: transport, iterations: iterations)
    }

    /// What `ClientObservability` costs a call when the app has bootstrapped neither a tracer
    /// nor a metrics backend (both the libraries' no-ops), against the same call with no
    /// instrument, on the in-memory transport, where it is the largest share of a call; and,
    /// for what the runtime's seam costs a call that is observed, an instrument that observes
    /// every call and does nothing with it.
    private func measureInstrumentOverhead(transport: InstantTransport, iterations: Int) async throws {
        let plain = BookshelfClient(transport: transport, configuration: APIClient.Configuration())
        let plainAgain = BookshelfClient(transport: transport, configuration: APIClient.Configuration())
        let observed = BookshelfClient(transport: transport, configuration: APIClient.Configuration(instrument: ClientObservability()))
        let passing = BookshelfClient(transport: transport, configuration: APIClient.Configuration(instrument: PassThroughInstrument()))
        let unresilient = EndpointResilience(maxAttempts: 1, circuitBreaker: .off)
        let (without, with) = try await interleavedMedians(iterations: iterations,
            baseline: { _ = try await plain.client.send(GetBookRequest(book: 7), resilience: unresilient) },
            variants: [
                { _ = try await passing.client.send(GetBookRequest(book: 7), resilience: unresilient) },
                { _ = try await observed.client.send(GetBookRequest(book: 7), resilience: unresilient) },
                // The baseline's call once more, through a client of its own made the same way:
                // how far it drifts from the first row is what this run's noise (and another
                // client's memory) alone produces.
                { _ = try await plainAgain.client.send(GetBookRequest(book: 7), resilience: unresilient) },
            ])
        var table = Table(
            "ClientObservability with nothing bootstrapped (in-memory transport, retry off, breaker off, \(iterations) calls per sample)",
            command: "swift run -c release courier-bench --sections runtime --calls \(context.calls)",
            header: ["Call", "Median ns/call", "× without instrument"])
        table.add(["no instrument (baseline)", Format.nanoseconds(without), "1.00×"])
        table.add(["an instrument that observes every call, only running it and ignoring its events", Format.nanoseconds(with[0]), Format.ratio(with[0] / without)])
        table.add(["ClientObservability(), no tracer or metrics bootstrapped", Format.nanoseconds(with[1]), Format.ratio(with[1] / without)])
        table.add(["no instrument, another client (noise check)", Format.nanoseconds(with[2]), Format.ratio(with[2] / without)])
        table.add(["`ClientObservability().observe(_:)` alone, the decision an unobserved call pays", Format.nanoseconds(try await observeAlone(transport: transport)), ""])
        table.notes = [
            "Cost of ClientObservability with nothing to record into: \(Format.nanoseconds(with[1] - without)) per call (difference of medians); of the seam when a call is observed (the pass-through row): \(Format.nanoseconds(with[0] - without)). Compare them with the loopback p50 above.",
        ]
        table.print()
    }

    /// What `ClientObservability` spends deciding to leave a call alone (nothing bootstrapped),
    /// timed on its own, where the whole call's difference is within the in-memory calls'
    /// spread: a call's summary is taken from a real call, then offered a million times.
    private func observeAlone(transport: InstantTransport) async throws -> Double {
        let capture = SummaryCapture()
        let client = BookshelfClient(transport: transport, configuration: APIClient.Configuration(instrument: capture))
        _ = try await client.getBook(book: 7)
        guard let summary = capture.summary else { return .nan }
        let instrument: any ClientInstrument = ClientObservability()
        let clock = ContinuousClock()
        let count = 1_000_000
        var samples = Samples()
        var observed = 0
        for _ in 0..<max(context.runs, 7) {
            let start = clock.now
            for _ in 0..<count where instrument.observe(summary) != nil {
                observed += 1
            }
            samples.append((clock.now - start).seconds / Double(count) * 1e9)
        }
        return observed == 0 ? samples.median : .nan
    }

    /// The median time per call of `baseline` and of each variant, sampled in blocks of
    /// `iterations` calls whose order rotates every sample, so that a drift of the machine's
    /// speed during the run (frequency, other load) falls on all alike.
    private func interleavedMedians(
        iterations: Int,
        baseline: @escaping () async throws -> Void,
        variants: [() async throws -> Void]
    ) async throws -> (baseline: Double, variants: [Double]) {
        let blocks = [baseline] + variants
        var samples = Array(repeating: Samples(), count: blocks.count)
        for _ in 0..<100 {
            for block in blocks { try await block() }
        }
        let clock = ContinuousClock()
        for sample in 0..<max(context.runs, 7) {
            for offset in 0..<blocks.count {
                let index = (sample + offset) % blocks.count
                let start = clock.now
                for _ in 0..<iterations { try await blocks[index]() }
                samples[index].append((clock.now - start).seconds / Double(iterations) * 1e9)
            }
        }
        return (samples[0].median, samples.dropFirst().map { $0.median })
    }

    /// `discriminator(at:)` on a large error body of many small objects, the shape that made a
    /// full decode into a JSON tree cost seconds, against `JSONDecoder` decoding the same bytes
    /// as their schema: a mapping reading one field should cost no more than decoding the body.
    private func measureDiscriminator() {
        struct Item: Decodable { var code: Int }
        struct Schema: Decodable { var errors: [Item]; var code: String }
        var text = #"{"errors":["#
        for index in 0..<100_000 {
            if index > 0 { text += "," }
            text += #"{"code":\#(index)}"#
        }
        text += #"],"code":"quota"}"#
        let response = RawResponse(status: .badRequest, body: Data(text.utf8))
        let clock = ContinuousClock()
        var discriminator = Samples()
        var decoder = Samples()
        var found = 0
        // Interleaved, so a drift of the machine's speed falls on both alike.
        for _ in 0..<max(context.runs, 7) {
            var start = clock.now
            if response.discriminator(at: "code") == "quota" { found += 1 }
            discriminator.append((clock.now - start).seconds)
            start = clock.now
            if (try? JSONDecoder().decode(Schema.self, from: response.body))?.code == "quota" { found += 1 }
            decoder.append((clock.now - start).seconds)
        }
        var table = Table(
            "Discriminator on a \(Format.bytes(Double(response.body.count))) error body of 100,000 small objects",
            command: "swift run -c release courier-bench --sections runtime",
            header: ["Read", "Median", "× JSONDecoder"])
        table.add(["`JSONDecoder` decoding the body as its schema (baseline)", Format.seconds(decoder.median), "1.00×"])
        table.add(["`discriminator(at: \"code\")`", Format.seconds(discriminator.median), Format.ratio(discriminator.median / decoder.median)])
        table.notes = ["Both found the value in \(found) of \(discriminator.count + decoder.count) reads."]
        table.print()
    }

    /// Decoding a body of 100,000 small objects as free-form ``JSON``, both ways, against
    /// `JSONDecoder` decoding the same bytes into their `Codable` schema: `JSON` must stay
    /// linear and within 2× of it (issue 12).
    private func measureFreeFormJSON() {
        struct Item: Decodable { var code: Int }
        struct Schema: Decodable { var errors: [Item]; var code: String }
        var text = #"{"errors":["#
        for index in 0..<100_000 {
            if index > 0 { text += "," }
            text += #"{"code":\#(index)}"#
        }
        text += #"],"code":"quota"}"#
        let body = Data(text.utf8)
        let clock = ContinuousClock()
        var schema = Samples()
        var decoded = Samples()
        var parsed = Samples()
        var agreed = 0
        // Interleaved, so a drift of the machine's speed falls on all three alike.
        for _ in 0..<max(context.runs, 7) {
            var start = clock.now
            let viaSchema = try? JSONDecoder().decode(Schema.self, from: body)
            schema.append((clock.now - start).seconds)
            start = clock.now
            let viaDecoder = try? JSONDecoder().decode(JSON.self, from: body)
            decoded.append((clock.now - start).seconds)
            start = clock.now
            let viaParser = try? JSON(parsing: body)
            parsed.append((clock.now - start).seconds)
            if let viaSchema, let viaDecoder, viaDecoder == viaParser,
               viaDecoder["errors"]?[99_999]?["code"]?.intValue == viaSchema.errors[99_999].code {
                agreed += 1
            }
        }
        var table = Table(
            "Free-form JSON: a \(Format.bytes(Double(body.count))) body of 100,000 small objects",
            command: "swift run -c release courier-bench --sections runtime",
            header: ["Decode", "Median", "× JSONDecoder"])
        table.add(["`JSONDecoder` decoding the body as its `Codable` schema (baseline)", Format.seconds(schema.median), "1.00×"])
        table.add(["`JSONDecoder().decode(JSON.self, from:)`", Format.seconds(decoded.median), Format.ratio(decoded.median / schema.median)])
        table.add(["`JSON(parsing:)`", Format.seconds(parsed.median), Format.ratio(parsed.median / schema.median)])
        table.notes = ["The three results agreed (the same `JSON` both ways, and its last code equal to the schema's) in \(agreed) of \(schema.count) rounds."]
        table.print()
    }

    /// Permits taken and recorded per second on one breaker, by one thread and by eight.
    private func measureBreakerContention() {
        let breaker = CircuitBreaker(key: CircuitBreaker.Key(host: Resilience.Host(scheme: "http", host: "127.0.0.1", port: 8080)))
        let perThread = 200_000
        @Sendable func exercise(_ count: Int) {
            for _ in 0..<count {
                guard let permit = try? breaker.acquirePermit() else { continue }
                permit.record(.success)
            }
        }
        var single = Samples()
        var contended = Samples()
        let clock = ContinuousClock()
        exercise(10_000)
        for _ in 0..<max(context.runs, 3) {
            var start = clock.now
            exercise(perThread)
            single.append(Double(perThread) / (clock.now - start).seconds)

            start = clock.now
            let group = DispatchGroup()
            for _ in 0..<8 {
                group.enter()
                let thread = Thread {
                    exercise(perThread)
                    group.leave()
                }
                thread.start()
            }
            group.wait()
            contended.append(Double(8 * perThread) / (clock.now - start).seconds)
        }
        var table = Table(
            "Circuit breaker throughput (acquire a permit, record success; \(perThread) per thread)",
            command: "swift run -c release courier-bench --sections runtime",
            header: ["Threads", "Median operations/s", "× one thread"])
        table.add(["1 (baseline)", Format.count(single.median), "1.00×"])
        table.add(["8 on \(ProcessInfo.processInfo.activeProcessorCount) cores", Format.count(contended.median),
                   Format.ratio(contended.median / single.median)])
        table.print()
    }
}

/// Answers every request at once with the same response: the cost of the transport drops out,
/// so what remains is the client's own.
struct InstantTransport: HTTPTransport {
    let response: TransportResponse

    func send(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse {
        response
    }
}

/// An instrument that observes every call, runs it and each attempt as they come and ignores
/// every event: what the runtime's seam costs a call that is observed.
private struct PassThroughInstrument: ClientInstrument {
    struct Observation: CallObservation {
        func withCall<Output>(_ body: () async -> Output) async -> Output {
            await body()
        }

        func withAttempt<Output>(number: Int, headerFields: HTTPFields, _ body: (HTTPFields) async -> Output) async -> Output {
            await body(headerFields)
        }

        func record(_ event: ClientEvent) {}
    }

    func observe(_ call: RequestSummary) -> (any CallObservation)? {
        Observation()
    }
}

/// Keeps the summary of the calls it is offered and observes none of them.
private final class SummaryCapture: ClientInstrument, Sendable {
    private let captured = Locked<RequestSummary?>(nil)

    var summary: RequestSummary? { captured.value }

    func observe(_ call: RequestSummary) -> (any CallObservation)? {
        captured.withLock { $0 = call }
        return nil
    }
}
