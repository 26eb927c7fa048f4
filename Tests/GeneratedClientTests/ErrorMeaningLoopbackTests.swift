import CourierRuntime
import CourierTestServer
import CourierTesting
import Foundation
import ReferenceErrorMeaning
import Testing

/// The ErrorMeaning reference client against the real loopback server: `retryable` honoured by
/// the retry loop over the status rule, counted at the server; localization keys falling back
/// to the spec's text on Linux; the service's rate-limit names.
@Suite("Error meaning (loopback server)", .timeLimit(.minutes(10)))
struct ErrorMeaningLoopbackTests {
    static let lock = #"{"id": "l1", "owner": "me"}"#

    static func client(_ server: TestServer, _ transport: MeaningTransport, clock: ManualClock,
                       delays: RecordedDelays) -> ErrorMeaningClient {
        ErrorMeaningClient(baseURL: server.baseURL, transport: transport.make(),
                           configuration: meaningConfiguration(clock: clock, delays: delays))
    }

    @Test("409 lock_timeout (retryable: true) is repeated although 409 is not retryable", arguments: MeaningTransport.allCases)
    func retryableConflictIsRepeated(transport: MeaningTransport) async throws {
        try await withServer { server in
            server.route("GET", "/locks/a", failingFirst: 1,
                         with: .respond(.json(#"{"code": "lock_timeout", "message": "Timed out waiting for the lock."}"#, status: 409)),
                         then: .respond(.json(Self.lock)))
            // The control: a 409 whose case says nothing is not repeated.
            server.route("GET", "/locks/b", .respond(.json(#"{"code": "other"}"#, status: 409)))
            let clock = ManualClock()
            let delays = RecordedDelays()
            let client = Self.client(server, transport, clock: clock, delays: delays)

            let result = await drivingRetries(on: clock) {
                await outcome { () async throws(APIError<GetLockFailure>) in try await client.getLock(id: "a") }
            }
            #expect((try? result.get())?.owner == "me")
            #expect(server.requestCount("GET", "/locks/a") == 2)
            #expect(delays.all.count == 1)

            let control = await drivingRetries(on: clock) {
                await outcome { () async throws(APIError<GetLockFailure>) in try await client.getLock(id: "b") }
            }
            guard case .failure(.endpoint(.conflict, _)) = control else {
                Issue.record("expected conflict, got \(control)")
                return
            }
            #expect(server.requestCount("GET", "/locks/b") == 1)
        }
    }

    @Test("503 maintenance (retryable: false) is sent once, where a 503 without the hint is repeated",
          arguments: MeaningTransport.allCases)
    func maintenanceIsNotRepeated(transport: MeaningTransport) async throws {
        try await withServer { server in
            server.route("GET", "/locks/a", .respond(.status(503)))
            // The control: putLock maps 503 only through the defaults' 5XX serverError, which says
            // nothing, so the status rule repeats it (three attempts by the default policy).
            server.route("PUT", "/locks/a", .respond(.status(503)))
            let clock = ManualClock()
            let delays = RecordedDelays()
            let client = Self.client(server, transport, clock: clock, delays: delays)

            let maintenance = await drivingRetries(on: clock) {
                await outcome { () async throws(APIError<GetLockFailure>) in try await client.getLock(id: "a") }
            }
            guard case .failure(.endpoint(.maintenance, _)) = maintenance else {
                Issue.record("expected maintenance, got \(maintenance)")
                return
            }
            #expect(server.requestCount("GET", "/locks/a") == 1)
            #expect(delays.all.isEmpty)

            let control = await drivingRetries(on: clock) {
                await outcome { () async throws(APIError<PutLockFailure>) in try await client.putLock(id: "a") }
            }
            guard case .failure(.endpoint(.serverError, _)) = control else {
                Issue.record("expected serverError, got \(control)")
                return
            }
            #expect(server.requestCount("PUT", "/locks/a") == 3)
        }
    }

    @Test("Messages: the server's text, a localization key's fallback on Linux, fixed text, status sentences",
          arguments: MeaningTransport.allCases)
    func messages(transport: MeaningTransport) async throws {
        try await withServer { server in
            server.route("GET", "/locks/m", .respond(.json(#"{"code": "gone", "message": "Lock m expired an hour ago."}"#, status: 404)))
            server.route("GET", "/locks/k", .respond(.status(401)))
            server.route("GET", "/locks/r", .respond(.json(#"{"code": "slow"}"#, status: 429, headers: [("Retry-After", "600")])))
            server.route("GET", "/locks/f", .respond(.status(403)))
            let clock = ManualClock()
            let delays = RecordedDelays()
            let client = Self.client(server, transport, clock: clock, delays: delays)
            func text(_ id: String) async -> String? {
                let result = await drivingRetries(on: clock) {
                    await outcome { () async throws(APIError<GetLockFailure>) in try await client.getLock(id: id) }
                }
                guard case .failure(.endpoint(let failure, _)) = result else {
                    Issue.record("expected a documented failure for \(id), got \(result)")
                    return nil
                }
                return failure.localizedDescription
            }
            #expect(await text("m") == "Lock m expired an hour ago.")
            // `key: errors.unauthorized`: no bundle on Linux (and none in a test runner) has the key.
            #expect(await text("k") == "Sign in again.")
            // `key` with a `field`: the body has no message, so the key's fallback.
            #expect(await text("r") == "Slow down.")
            // No message, no body: the one status the case is mapped from.
            #expect(await text("f") == "The server answered 403 Forbidden.")
            // A Retry-After beyond the policy's limit (60 s) stops the retries: one request.
            #expect(server.requestCount("GET", "/locks/r") == 1)
        }
    }

    @Test("The spec's rate-limit names reach RawResponse.rateLimit and APIError.rateLimit", arguments: MeaningTransport.allCases)
    func rateLimitNames(transport: MeaningTransport) async throws {
        try await withServer { server in
            server.route("GET", "/locks/q", .respond(.json(#"{"code": "slow"}"#, status: 400, headers: [
                ("Rate-Limit", "1000"), ("Rate-Remaining", "0"), ("Rate-Reset", "1700000000"),
            ])))
            let clock = ManualClock()
            let client = Self.client(server, transport, clock: clock, delays: RecordedDelays())
            let result = await outcome { () async throws(APIError<GetLockFailure>) in try await client.getLock(id: "q") }
            guard case .failure(let error) = result, let rateLimit = error.rateLimit else {
                Issue.record("expected a failure with a response, got \(result)")
                return
            }
            #expect(rateLimit.limit == 1000)
            #expect(rateLimit.remaining == 0)
            #expect(rateLimit.resetsAt == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(rateLimit.retryDate == Date(timeIntervalSince1970: 1_700_000_000))
        }
    }
}
