import ArgumentParser
import BookshelfAPI
import CourierAsyncHTTPClient
import CourierLocking
import CourierRuntime
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Darwin)
import Darwin
#endif

/// `courier-bench soak`: resident memory over a long run of calls with faults (issue 16).
///
/// The generated Bookshelf client calls `getBook` on the loopback test server, `--concurrency`
/// calls at a time, while the server answers a seeded `--fault-rate` share of requests with a
/// 503, a connection reset or a close without an answer. After every `--sample-every` calls the
/// process's resident set size is read, and at the end a verdict says whether it levelled off
/// after the warm-up. The server keeps only per-route counts between samples, not a record of
/// every request, so that its own bookkeeping does not pass for a leak.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Resident memory over many calls with 10% faults, through both transports (see docs/Reliability.md).",
        discussion: "Run it in release from the package root: swift run -c release courier-bench soak"
    )

    enum TransportKind: String, ExpressibleByArgument, CaseIterable {
        case urlsession, asynchttpclient
        /// A baseline, not a Courier transport: plain `URLSession` data tasks with no Courier
        /// code in the path (no client, no retries, no `URLSessionTransport`), so that growth
        /// seen through `URLSessionTransport` can be told apart from FoundationNetworking's own.
        case rawurlsession

        var name: String {
            switch self {
            case .urlsession: "URLSession"
            case .asynchttpclient: "AsyncHTTPClient"
            case .rawurlsession: "plain URLSession without Courier"
            }
        }
    }

    /// One call; `nil` for a success, otherwise what it failed with.
    typealias Call = @Sendable () async -> String?

    // Not `--calls`: the parent command's option of that name takes it even after `soak`.
    @Option(help: "Calls per transport.")
    var callsPerTransport = 40_000

    @Option(help: "Calls in flight at once.")
    var concurrency = 64

    @Option(help: "Calls between two memory samples.")
    var sampleEvery = 2_000

    @Option(help: "Calls before the warm-up sample, from which growth is measured.")
    var warmUp = 4_000

    @Option(help: "The share of requests the server answers with a fault, from 0 to 1.")
    var faultRate = 0.10

    @Option(help: "The seed of the server's fault draws.")
    var seed: UInt64 = 0x5EED_0016

    @Option(help: "Growth allowed over the second half of the run, as a share of the resident size at half-way.")
    var growthThreshold = 0.05

    @Option(help: "Transports, comma-separated: urlsession, asynchttpclient.")
    var transports = "urlsession,asynchttpclient"

    func validate() throws {
        guard callsPerTransport >= 2, concurrency >= 1, sampleEvery >= 1, warmUp >= 0, warmUp < callsPerTransport,
              (0...1).contains(faultRate), growthThreshold >= 0 else {
            throw ValidationError("--calls-per-transport, --concurrency and --sample-every must be positive, --warm-up below --calls-per-transport, --fault-rate within 0...1")
        }
        _ = try parsedTransports()
    }

    func parsedTransports() throws -> [TransportKind] {
        try transports.split(separator: ",").map { name in
            guard let kind = TransportKind(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased()) else {
                throw ValidationError("unknown transport '\(name)'; use \(TransportKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return kind
        }
    }

    func run() async throws {
        for kind in try parsedTransports() {
            try await soak(kind)
        }
    }

    /// One memory sample.
    private struct Checkpoint {
        var calls: Int
        var residentBytes: Int
        var succeeded: Int
        var serverReceipts: Int
        var clientAttempts: Int
        var faults: Int
        var elapsed: Double
    }

    private func soak(_ kind: TransportKind) async throws {
        progress("soak: \(kind.name), \(callsPerTransport) calls")
        let server = try await TestServer.start()
        let faults = TestServer.FaultInjector(seed: seed, rate: faultRate)
        server.route("GET", "/books/7", faults.handler(otherwise: .respond(.json(Self.bookJSON))))
        let attempts = AttemptCounter()
        var configuration = APIClient.Configuration()
        configuration.onEvent = { event in
            if case .attemptStarted = event { attempts.increment() }
        }
        let call: Call
        switch kind {
        case .urlsession, .asynchttpclient:
            let transport: any HTTPTransport = kind == .urlsession ? URLSessionTransport() : AsyncHTTPClientTransport()
            let client = BookshelfClient(baseURL: server.baseURL, transport: transport, configuration: configuration)
            call = {
                do throws(APIError<GetBookFailure>) {
                    _ = try await client.client.send(GetBookRequest(book: 7), resilience: Self.resilience)
                    return nil
                } catch {
                    return "\(error.category)"
                }
            }
        case .rawurlsession:
            let session = URLSession(configuration: .ephemeral)
            let url = server.baseURL.appendingPathComponent("books/7")
            call = {
                await withCheckedContinuation { continuation in
                    session.dataTask(with: url) { data, response, error in
                        let status = (response as? HTTPURLResponse)?.statusCode
                        continuation.resume(returning: error.map { "error \(($0 as NSError).code)" }
                            ?? (status == 200 && data?.isEmpty == false ? nil : "status \(status ?? 0)"))
                    }.resume()
                }
            }
        }

        let clock = ContinuousClock()
        let start = clock.now
        var checkpoints = [Checkpoint(calls: 0, residentBytes: Self.residentBytes(), succeeded: 0, serverReceipts: 0,
                                      clientAttempts: 0, faults: 0, elapsed: 0)]
        var made = 0
        var succeeded = 0
        var failures: [String: Int] = [:]
        // Batches end at every sample and at the warm-up, so each sample falls after exactly
        // that many calls; within a batch, `concurrency` calls are in flight until it drains.
        var boundaries = Set(stride(from: sampleEvery, through: callsPerTransport, by: sampleEvery))
        boundaries.insert(callsPerTransport)
        if warmUp > 0 { boundaries.insert(warmUp) }
        for boundary in boundaries.sorted() {
            let batch = await Self.callBatch(call, calls: boundary - made, concurrency: concurrency)
            made = boundary
            succeeded += batch.succeeded
            failures.merge(batch.failures, uniquingKeysWith: +)
            server.discardReceivedRequests()
            checkpoints.append(Checkpoint(
                calls: made, residentBytes: Self.residentBytes(), succeeded: succeeded,
                serverReceipts: server.requestCount("GET", "/books/7"), clientAttempts: attempts.value,
                faults: faults.injectedTotal, elapsed: (clock.now - start).seconds))
        }
        await server.stop()
        report(kind, checkpoints: checkpoints, failures: failures)
    }

    private func report(_ kind: TransportKind, checkpoints: [Checkpoint], failures: [String: Int]) {
        let mib = { (bytes: Int) in String(format: "%.1f", Double(bytes) / 1_048_576) }
        guard let last = checkpoints.last else { return }
        let warm = checkpoints.first { $0.calls >= warmUp } ?? checkpoints[0]
        let halfway = checkpoints.last { $0.calls <= warm.calls + (last.calls - warm.calls) / 2 } ?? warm
        var table = Table(
            "Soak, \(kind.name): \(callsPerTransport) calls, \(concurrency) at a time, \(Int(faultRate * 100))% faults (seed \(seed))",
            command: "swift run -c release courier-bench soak --transports \(kind.rawValue) --calls-per-transport \(callsPerTransport)",
            header: ["Calls", "RSS MiB", "Success so far", "Attempts at server", "Client attempts", "Faults injected", "Elapsed"])
        for checkpoint in checkpoints {
            let marker = checkpoint.calls == warm.calls && warmUp > 0 ? " (warm-up done)" : ""
            table.add([
                "\(checkpoint.calls)\(marker)",
                mib(checkpoint.residentBytes),
                checkpoint.calls == 0 ? "–" : String(format: "%.2f%%", Double(checkpoint.succeeded) / Double(checkpoint.calls) * 100),
                "\(checkpoint.serverReceipts)",
                "\(checkpoint.clientAttempts)",
                "\(checkpoint.faults)",
                checkpoint.calls == 0 ? "–" : Format.seconds(checkpoint.elapsed),
            ])
        }
        let growth = last.residentBytes - halfway.residentBytes
        let share = Double(growth) / Double(max(halfway.residentBytes, 1))
        let levelsOff = share < growthThreshold
        table.notes = [
            "RSS: resident set size of the whole process (client, transport and loopback server), " + Self.residentSource + ".",
            "Growth after warm-up (\(warm.calls) → \(last.calls) calls): \(mib(last.residentBytes - warm.residentBytes)) MiB; "
                + "over the second half (\(halfway.calls) → \(last.calls) calls): \(mib(growth)) MiB, \(Format.percent(share)) of \(mib(halfway.residentBytes)) MiB.",
            "Verdict: \(levelsOff ? "levels off" : "does NOT level off") (threshold: growth over the second half below "
                + "\(String(format: "%.0f", growthThreshold * 100))% of the resident size at half-way).",
            "Failed calls: \(failures.isEmpty ? "none" : failures.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")).",
        ]
        table.print()
    }

    /// Runs `calls` calls, `concurrency` at a time, and tallies how they ended.
    private static func callBatch(_ call: @escaping Call, calls: Int, concurrency: Int) async -> (succeeded: Int, failures: [String: Int]) {
        await withTaskGroup(of: (Int, [String: Int]).self) { group in
            for worker in 0..<min(concurrency, calls) {
                group.addTask {
                    var succeeded = 0
                    var failures: [String: Int] = [:]
                    for _ in stride(from: worker, to: calls, by: concurrency) {
                        if let failure = await call() {
                            failures[failure, default: 0] += 1
                        } else {
                            succeeded += 1
                        }
                    }
                    return (succeeded, failures)
                }
            }
            var succeeded = 0
            var failures: [String: Int] = [:]
            for await part in group {
                succeeded += part.0
                failures.merge(part.1, uniquingKeysWith: +)
            }
            return (succeeded, failures)
        }
    }

    /// As in the soak test (Tests/GeneratedClientTests/SoakTests.swift): the spec's 3 attempts
    /// and the default budget, but at most 20 ms of backoff, since the run is about memory
    /// over many calls, not about waiting, and no breaker, whose 30 s break after 5
    /// consecutive failures a 10% random fault rate trips now and then.
    private static let resilience = EndpointResilience(
        backoffBase: .milliseconds(5),
        backoffCap: .milliseconds(20),
        circuitBreaker: .off
    )

    private static let bookJSON = """
        {"id": 7, "title": "The Left Hand of Darkness", "isbn": "9780441478125",
         "author": {"id": 3, "name": "Ursula K. Le Guin", "bio": null, "created_at": "2024-05-01T12:00:00.250Z"},
         "genres": ["fiction"], "published_year": 1969, "average_rating": 4.5, "cover_url": null,
         "created_at": "2024-05-01T12:00:00.250Z", "updated_at": "2024-05-01T12:00:00Z"}
        """

    #if os(Linux)
    static let residentSource = "`/proc/self/statm` resident pages × page size"
    #else
    static let residentSource = "`task_info(MACH_TASK_BASIC_INFO)` resident_size"
    #endif

    /// This process's resident set size now, in bytes; -1 when it cannot be read.
    static func residentBytes() -> Int {
        #if os(Linux)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #elseif canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        return result == KERN_SUCCESS ? Int(info.resident_size) : -1
        #else
        return -1
        #endif
    }
}

/// Counts attempts from the client's event hook, which 64 calling tasks run at once.
private final class AttemptCounter: Sendable {
    private let count = Locked(0)

    func increment() {
        count.withLock { $0 += 1 }
    }

    var value: Int { count.value }
}
