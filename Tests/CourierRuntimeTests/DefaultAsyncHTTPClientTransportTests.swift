import AsyncHTTPClient
import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// `AsyncHTTPClientTransport()` exactly as the Making requests article shows it, against a server that is down,
/// one that stalls, and a pool with no connection to spare. Nothing here measures time. Where a
/// prompt failure matters, the attempt timeout (five minutes) is far beyond the suite's time
/// limit (one minute): a client that waits for a refused connection until the attempt times
/// out hangs the test past that limit, while one that reports the refusal needs milliseconds.
@Suite(.timeLimit(.minutes(10))) struct DefaultAsyncHTTPClientTransportTests {
    static let quickPolicy = RetryPolicy(
        transientBackoff: RetryPolicy.Backoff(base: .milliseconds(5), cap: .milliseconds(50)),
        throttlingBackoff: RetryPolicy.Backoff(base: .milliseconds(10), cap: .milliseconds(50))
    )

    static let createOrder = Probe<NoContent, Never>(method: .post, path: "/orders", body: .json(["item": "tea"]))

    /// Far beyond the suite's time limit, so only a prompt failure lets a test pass.
    static let longerThanTheTimeLimit = Duration.seconds(300)

    static func attempts(in events: EventRecorder) -> Int {
        events.events.filter { if case .attemptStarted = $0 { return true } else { return false } }.count
    }

    @Test func manyCallsThroughTheDefaultTransportFailAtOnceAsRefused() async throws {
        let port = try await closedPort()
        let client = APIClient(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!,
            transport: AsyncHTTPClientTransport(),
            configuration: APIClient.Configuration(
                timeouts: APIClient.Timeouts(attempt: Self.longerThanTheTimeLimit),
                resilience: Resilience(retryPolicy: .never, sharing: .isolated)
            )
        )
        let errors = await withTaskGroup(of: APIError<UserFailure>?.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.count == 24)
        for error in errors {
            #expect(error?.category == .transport(.connectionRefused), "got \(String(describing: error))")
            #expect(error?.transportError?.requestMayHaveBeenSent == false)
        }
    }

    @Test func aKeylessPostThatFoundNoServerIsRetried() async throws {
        let port = try await closedPort()
        let events = EventRecorder()
        let client = APIClient(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!,
            transport: AsyncHTTPClientTransport(),
            configuration: APIClient.Configuration(
                onEvent: events.hook,
                timeouts: APIClient.Timeouts(attempt: Self.longerThanTheTimeLimit),
                resilience: Resilience(retryPolicy: Self.quickPolicy, sharing: .isolated)
            )
        )
        let error = await capture { () async throws(APIError<Never>) in try await client.send(Self.createOrder) }
        #expect(error?.category == .transport(.connectionRefused), "got \(String(describing: error))")
        #expect(error?.transportError?.requestMayHaveBeenSent == false)
        #expect(Self.attempts(in: events) == 3)
    }

    @Test func aKeylessPostTheServerReadIsNotRetriedAfterItsTimeout() async throws {
        try await withServer { server in
            server.route("POST", "/orders", .stall)
            let events = EventRecorder()
            let client = APIClient(
                baseURL: server.baseURL,
                transport: AsyncHTTPClientTransport(),
                configuration: APIClient.Configuration(
                    onEvent: events.hook,
                    timeouts: APIClient.Timeouts(attempt: .seconds(1)),
                    resilience: Resilience(retryPolicy: Self.quickPolicy, sharing: .isolated)
                )
            )
            let error = await capture { () async throws(APIError<Never>) in try await client.send(Self.createOrder) }
            #expect(error?.category == .transport(.timedOut), "got \(String(describing: error))")
            #expect(error?.transportError?.requestMayHaveBeenSent == true)
            #expect(Self.attempts(in: events) == 1)
            #expect(server.requestCount("POST", "/orders") == 1)
        }
    }

    /// One connection per host, held by a stalled GET: a POST queued behind it never reaches
    /// the server, and the pool's connect timeout proves that, so each attempt is retried.
    @Test func aKeylessPostThatWaitedInAFullPoolIsRetriedAndNeverArrives() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
        configuration.timeout.connect = .milliseconds(500)
        let httpClient = AsyncHTTPClientTransport.makeHTTPClient(configuration: configuration)
        do {
            try await withServer { server in
                let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
                server.route("GET", "/users/1") { _ in
                    arrived.yield()
                    return .stall
                }
                server.route("POST", "/orders", .respond(.status(201)))
                let events = EventRecorder()
                let client = APIClient(
                    baseURL: server.baseURL,
                    transport: AsyncHTTPClientTransport(client: httpClient),
                    configuration: APIClient.Configuration(
                        onEvent: events.hook,
                        timeouts: APIClient.Timeouts(attempt: .seconds(20)),
                        resilience: Resilience(retryPolicy: Self.quickPolicy, sharing: .isolated)
                    )
                )
                let holdingClient = APIClient(
                    baseURL: server.baseURL,
                    transport: AsyncHTTPClientTransport(client: httpClient),
                    configuration: APIClient.Configuration(timeouts: APIClient.Timeouts(attempt: .seconds(60)), resilience: .singleAttempt)
                )
                let holder = Task {
                    await capture { () async throws(APIError<UserFailure>) in try await holdingClient.send(GetUser(id: "1")) }
                }
                // The only connection is busy once the server has read the GET.
                for await _ in arrivals { break }
                let error = await capture { () async throws(APIError<Never>) in try await client.send(Self.createOrder) }
                holder.cancel()
                _ = await holder.value
                #expect(error?.transportError?.requestMayHaveBeenSent == false, "got \(String(describing: error))")
                #expect(server.requestCount("POST", "/orders") == 0)
                let postAttempts = events.events.filter {
                    if case .attemptStarted(let summary, _) = $0 { return summary.method == .post } else { return false }
                }
                #expect(postAttempts.count == 3)
            }
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }
}
