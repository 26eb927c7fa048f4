import CourierRuntime
import CourierTestServer
import CourierTesting
import Foundation
import ReferenceFaultSuite
import Testing

/// Cancellation, checked at the server: a call cancelled while it waits out a backoff or while
/// its request stalls at the server returns at once with `.transport(.cancelled)`, and no later
/// attempt of it reaches the server.
///
/// RetryPolicy.Backoff runs on a ``ManualClock``: the retry can only happen when the test moves the clock,
/// so moving it past the retry's time and then sending a sentinel request proves that the retry
/// is gone, with no wall-clock wait.
@Suite("Fault suite: cancellation", .timeLimit(.minutes(10)))
struct FaultSuiteCancellationTests {
    /// Cancelling is a flag and a continuation resumed; "a few milliseconds" is the expectation
    /// (the figures show it), and half a second, plus however long an immediately answered
    /// control call through the same transport took beside it (see
    /// ``timed(expecting:control:through:_:)``), is what the figures report as the bound. The
    /// test does not fail on it: a whole-process stall once held the cancelled call 120 ms longer
    /// than the control call (2.72 s against 2.60 s), with the client doing nothing wrong.
    static let returnBound = Duration.milliseconds(500)
    /// What the test fails on: half the 30 s attempt timeout that a client which missed the
    /// cancellation would wait at the stalled server. During the backoff the clock is a
    /// ``ManualClock`` that nothing moves, so only the cancellation can end that wait at all; the
    /// error kind says which way the call ended.
    static let missedCancellation = Duration.seconds(15)
    static let ok = TestServer.Behavior.respond(.json(#"{"id":"sentinel"}"#))

    enum Moment: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// Waiting out the 5 s `Retry-After` of a 503.
        case duringBackoff
        /// The request is at the server, which never answers.
        case duringStalledRequest

        var testDescription: String { rawValue }
    }

    @Test("A cancelled call returns at once with .cancelled, and the server sees no later attempt",
          arguments: FaultTransport.allCases, Moment.allCases)
    func cancellation(transport: FaultTransport, moment: Moment) async throws {
        try await withFaultServer(.timed) { server in
            let path = "/items/\(moment.rawValue)"
            switch moment {
            case .duringBackoff: server.route("GET", path, TestServer.throttled(503, retryAfterSeconds: 5))
            case .duringStalledRequest: server.route("GET", path, .stall)
            }
            server.route("GET", "/items/sentinel", Self.ok)
            let clock = ManualClock()
            let events = EventLog()
            let client = faultClient(server.baseURL, transport, events: events) {
                $0.resilience = Resilience(clock: clock)
            }

            let call = Task {
                await outcome { () async throws(APIError<GetItemFailure>) in try await client.getItem(id: moment.rawValue) }
            }
            switch moment {
            case .duringBackoff:
                await events.waitForScheduledRetries(1)
                await clock.waitForSleepers(1)
            case .duringStalledRequest:
                _ = await server.waitForRequests(count: 1)
            }
            let measured = await timed(expecting: .zero, control: server, through: transport) {
                call.cancel()
                return await call.value
            }
            let result = measured.value
            let wall = measured.wall
            let bound = Self.returnBound + measured.lateness

            #expect(result.category() == .transport(.cancelled), "\(result)")
            #expect(wall < Self.missedCancellation, "returned after \(wall); the control call was \(measured.lateness) late")
            // Nothing of the call sleeps any more; had a retry been left behind, moving the
            // clock past its time would release it before the sentinel goes out.
            #expect(clock.sleeperDeadlines.isEmpty)
            clock.advance(by: .seconds(60))
            let sentinel = try await client.getItem(id: "sentinel")
            #expect(sentinel.id == "sentinel")
            let attempts = server.requestCount("GET", path)
            #expect(attempts == 1, "the server saw \(attempts) attempts of the cancelled call")
            #expect(server.receivedRequests.last?.path == "/items/sentinel")

            figure("cancel-\(moment.rawValue)", transport, [
                "return-after-cancel": wall.milliseconds,
                "bound": bound.milliseconds,
                "control-lateness": measured.lateness.milliseconds,
                "attempts-at-server": "\(attempts)",
                "error": result.category()?.figureName ?? "success",
            ])
        }
    }
}
