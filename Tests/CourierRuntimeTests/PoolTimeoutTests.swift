import AsyncHTTPClient
import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing

/// A request that times out while it waits for a connection reports that it was never sent,
/// and the server indeed never sees it (issue 16).
///
/// Each test allows one connection per host, occupies it with a POST the server stalls, and
/// sends a second POST that cannot get a connection before its timeout.
@Suite struct PoolTimeoutTests {
    static func post(_ path: String, to server: TestServer) -> HTTPRequest {
        HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1:\(server.port)", path: path)
    }

    /// Occupies the only connection with `/stalled`, then sends `/queued` with `timeout`.
    static func queuedBehindAStall(through transport: any HTTPTransport, on server: TestServer, timeout: Duration) async -> Result<TransportResponse, TransportError> {
        server.route("POST", "/stalled", .stall)
        server.route("POST", "/queued", .respond(.json("{}")))
        let stalled = Task {
            try await transport.send(post("/stalled", to: server), body: HTTPBody("{}"), timeout: .seconds(60))
        }
        // The connection is taken once the server holds the first request.
        _ = await server.waitForRequests(count: 1)
        let result: Result<TransportResponse, TransportError>
        do {
            result = .success(try await transport.send(post("/queued", to: server), body: HTTPBody("{}"), timeout: timeout))
        } catch {
            result = .failure(error)
        }
        stalled.cancel()
        _ = await stalled.result
        return result
    }

    #if canImport(FoundationNetworking)
    /// On Linux the transport queues requests beyond `httpMaximumConnectionsPerHost` itself, so
    /// one that times out in the queue was never handed to the session.
    @Test func urlSessionReportsAQueuedRequestAsNeverSent() async throws {
        try await withServer { server in
            let configuration = URLSessionTransport.defaultConfiguration
            configuration.httpMaximumConnectionsPerHost = 1
            let transport = URLSessionTransport(configuration: configuration)
            let result = await Self.queuedBehindAStall(through: transport, on: server, timeout: .milliseconds(300))
            guard case .failure(let error) = result else {
                Issue.record("the queued request succeeded")
                return
            }
            #expect(error.kind == .timedOut, "got \(error)")
            #expect(error.requestMayHaveBeenSent == false)
            #expect(server.requestCount("POST", "/stalled") == 1)
            #expect(server.requestCount("POST", "/queued") == 0)
            // The slot comes back when the stalled request ends: the next request goes through.
            let response = try await transport.send(Self.post("/queued", to: server), body: HTTPBody("{}"), timeout: .seconds(10))
            #expect(response.head.status.code == 200)
            #expect(server.requestCount("POST", "/queued") == 1)
        }
    }

    /// Cancelling a request that waits for the only connection ends it as never sent. It cannot
    /// get past the queue while the stalled request holds the connection, so wherever the cancel
    /// lands, nothing was handed to the session.
    @Test func urlSessionReportsACancelledQueuedRequestAsNeverSent() async throws {
        try await withServer { server in
            let configuration = URLSessionTransport.defaultConfiguration
            configuration.httpMaximumConnectionsPerHost = 1
            let transport = URLSessionTransport(configuration: configuration)
            server.route("POST", "/stalled", .stall)
            server.route("POST", "/queued", .respond(.json("{}")))
            let stalled = Task {
                try await transport.send(Self.post("/stalled", to: server), body: HTTPBody("{}"), timeout: .seconds(60))
            }
            _ = await server.waitForRequests(count: 1)
            let queued = Task {
                try await transport.send(Self.post("/queued", to: server), body: HTTPBody("{}"), timeout: .seconds(60))
            }
            queued.cancel()
            let result = await queued.result
            stalled.cancel()
            _ = await stalled.result
            guard case .failure(let failure) = result, let error = failure as? TransportError else {
                Issue.record("expected a TransportError, got \(result)")
                return
            }
            #expect(error.kind == .cancelled, "got \(error)")
            #expect(error.requestMayHaveBeenSent == false)
            #expect(server.requestCount("POST", "/queued") == 0)
            #expect(server.headCount("POST", "/queued") == 0)
        }
    }

    /// A keyless POST that timed out in the queue is retried by Courier, since it was never sent.
    @Test func courierRetriesAKeylessPostThatNeverLeftTheQueue() async throws {
        try await withServer { server in
            let configuration = URLSessionTransport.defaultConfiguration
            configuration.httpMaximumConnectionsPerHost = 1
            let transport = URLSessionTransport(configuration: configuration)
            server.route("POST", "/stalled", .stall)
            server.route("POST", "/orders", .respond(.json("{}")))
            let stalled = Task {
                try await transport.send(Self.post("/stalled", to: server), body: HTTPBody("{}"), timeout: .seconds(60))
            }
            _ = await server.waitForRequests(count: 1)
            let events = EventRecorder()
            var settings = APIClient.Configuration()
            settings.timeouts.attempt = .milliseconds(300)
            // No budget: the test is about what the policy allows, not what a budget has left.
            settings.resilience = Resilience(
                retryPolicy: RetryPolicy(maxAttempts: 3, transientBackoff: RetryPolicy.Backoff(base: .milliseconds(1), cap: .milliseconds(2))),
                retryBudget: nil
            )
            settings.onEvent = events.hook
            let client = APIClient(baseURL: server.baseURL, transport: transport, configuration: settings)
            let error = await capture { () async throws(APIError<Never>) in
                try await client.send(Probe<NoContent, Never>(method: .post, path: "/orders", body: .json(User(id: 1, name: "a"))))
            }
            stalled.cancel()
            _ = await stalled.result
            #expect(error?.transportError?.requestMayHaveBeenSent == false, "got \(String(describing: error))")
            let attempts = events.events.filter { if case .attemptStarted = $0 { true } else { false } }.count
            #expect(attempts == 3, "a keyless POST that was never sent is retried")
            #expect(server.requestCount("POST", "/orders") == 0)
        }
    }
    #endif

    /// AsyncHTTPClient fails a request that waited for a connection longer than the client's
    /// connect timeout with `getConnectionFromPoolTimeout`, which proves it was never written.
    /// That holds only while the connect timeout is shorter than the attempt's timeout; a
    /// `deadlineExceeded` says nothing about where the request was.
    @Test func asyncHTTPClientReportsAQueuedRequestAsNeverSent() async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
        // Also the limit on a loopback connect, whose handshake the kernel completes without
        // waiting for the server's event loop: 1 s is far beyond it even on a loaded machine.
        configuration.timeout.connect = .seconds(1)
        let httpClient = AsyncHTTPClientTransport.makeHTTPClient(configuration: configuration)
        do {
            try await withServer { server in
                let transport = AsyncHTTPClientTransport(client: httpClient)
                let result = await Self.queuedBehindAStall(through: transport, on: server, timeout: .seconds(10))
                guard case .failure(let error) = result else {
                    Issue.record("the queued request succeeded")
                    return
                }
                #expect(error.kind == .timedOut, "got \(error)")
                #expect(error.requestMayHaveBeenSent == false, "got \(error)")
                #expect(server.requestCount("POST", "/stalled") == 1)
                #expect(server.requestCount("POST", "/queued") == 0)
            }
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }
}
