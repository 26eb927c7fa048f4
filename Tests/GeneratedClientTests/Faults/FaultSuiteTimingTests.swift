import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceFaultSuite
import Testing

/// Time under faults, measured at the server where it can be: `Retry-After` in both forms,
/// a hint beyond the clamp or the deadline, the overall deadline whatever the backoff, and a
/// stalled attempt's timeout.
///
/// The `Retry-After` gap has a lower bound at the server and a generous upper one (1 s over the
/// demand, plus however late a control call of the same length through the same transport,
/// started beside the call, came back; see ``timed(expecting:control:through:_:)``).
///
/// The deadline is asserted by what the client decided, not by how long it took: the retry
/// loop's stop reason (`beyondDeadline`) and the error kind, with one wall bound at half of what
/// the fault it guards against would take (a 30 s attempt not cut to the deadline). A fresh-clone
/// CI run saw the whole test process stall for 7 s, which no margin over the expected time
/// survives (a control call 6.7 s late, the call itself 8.0 s); the figures still show the wall
/// time against the compensated bound. The stalled attempt keeps that compensated bound (0.6 s
/// over the attempt timeout plus the control's lateness), because it is what tells a transport
/// that honours its own timeout from the runtime's backstop a second later.
@Suite("Fault suite: Retry-After, deadline and stall", .timeLimit(.minutes(10)))
struct FaultSuiteTimingTests {
    static let margin = Duration.milliseconds(600)
    static let retryAfterMargin = Duration.seconds(1)
    static let ok = TestServer.Behavior.respond(.json(#"{"id":"ok"}"#))

    enum Form: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case seconds
        case httpDate

        /// A 503 asking for one second.
        var throttle: TestServer.Behavior {
            switch self {
            case .seconds: TestServer.throttled(503, retryAfterSeconds: 1)
            case .httpDate: TestServer.throttled(503, retryAfterDateIn: 1)
            }
        }

        var testDescription: String { rawValue }
    }

    @Test("Retry-After: the gap between the two receipts at the server is what the server asked for",
          arguments: FaultTransport.allCases, Form.allCases)
    func retryAfterGap(transport: FaultTransport, form: Form) async throws {
        try await withFaultServer(.timed) { server in
            server.route("GET", "/items/throttled", failingFirst: 1, with: form.throttle, then: Self.ok)
            let events = EventLog()
            let client = faultClient(server.baseURL, transport, events: events)
            let measured = try await timed(expecting: .seconds(1), control: server, through: transport) { try await client.getItem(id: "throttled") }
            #expect(measured.value.id == "ok")

            let gaps = server.receiptGaps("GET", "/items/throttled")
            #expect(gaps.count == 1)
            #expect(events.scheduledDelays == [.seconds(1)])
            let gap = gaps.first ?? .zero
            // The first receipt is stamped before its answer leaves, and the client waits the
            // whole second after reading that answer: the gap cannot be shorter.
            #expect(gap >= .seconds(1), "gap \(gap)")
            let bound = .seconds(1) + Self.retryAfterMargin + measured.lateness
            #expect(gap <= bound, "gap \(gap); the control call was \(measured.lateness) late")

            figure("retry-after-\(form.rawValue)", transport, [
                "asked": "1000.0ms",
                "gap-at-server": gap.milliseconds,
                "bound": "1000.0ms...\(bound.milliseconds)",
                "control-lateness": measured.lateness.milliseconds,
            ])
        }
    }

    enum Beyond: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `Retry-After: 120`, beyond the default 60 s limit.
        case clamp
        /// An HTTP-date 5 s ahead, beyond a 2 s deadline.
        case deadline

        var testDescription: String { rawValue }
    }

    @Test("A Retry-After beyond the clamp or the deadline: one attempt, and the hint on the error",
          arguments: FaultTransport.allCases, Beyond.allCases)
    func retryAfterBeyond(transport: FaultTransport, beyond: Beyond) async throws {
        try await withFaultServer(.timed) { server in
            let header: String
            let now = Date()
            switch beyond {
            case .clamp:
                header = "120"
                server.route("GET", "/items/beyond", .respond(.status(429, headers: [("Retry-After", header)])))
            case .deadline:
                header = TestServer.httpDate(now.addingTimeInterval(5))
                server.route("GET", "/items/beyond", .respond(.status(503, headers: [("Date", TestServer.httpDate(now)), ("Retry-After", header)])))
            }
            let events = EventLog()
            let client = faultClient(server.baseURL, transport, events: events) {
                if beyond == .deadline { $0.timeouts.deadline = .seconds(2) }
            }
            let start = ContinuousClock.now
            let result = await outcome { () async throws(APIError<GetItemFailure>) in try await client.getItem(id: "beyond") }
            let wall = ContinuousClock.now - start

            let attempts = server.requestCount("GET", "/items/beyond")
            #expect(attempts == 1)
            guard case .failure(let error) = result else {
                Issue.record("expected the server's refusal, got \(result)")
                return
            }
            #expect(error.status?.code == (beyond == .clamp ? 429 : 503))
            #expect(error.rateLimit?.retryAfter == RateLimit.RetryAfter(headerValue: header), "the hint reaches the caller")
            switch beyond {
            case .clamp: #expect(events.stopReasons == [.retryAfterBeyondLimit(.seconds(120))])
            case .deadline: #expect(events.stopReasons == [.beyondDeadline])
            }

            figure("retry-after-beyond-\(beyond.rawValue)", transport, [
                "attempts-at-server": "\(attempts)",
                "bound": "1",
                "hint": header.replacingOccurrences(of: " ", with: "_"),
                "wall": wall.milliseconds,
            ])
        }
    }

    enum BackoffKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// 503s and the default policy, with jitter fixed at one half: a retry after 0.5 s,
        /// then a backoff of 1 s that would end past the deadline.
        case throttling
        /// Resets and a policy of 100 attempts with backoffs of a few milliseconds.
        case manyQuickRetries
        /// A server that never answers: the attempt's 30 s timeout is cut to the deadline.
        case stall

        var testDescription: String { rawValue }
    }

    static let deadline = Duration.milliseconds(800)
    /// The client's default attempt timeout, which the deadline cuts.
    static let uncutAttemptTimeout = Duration.seconds(30)

    @Test("Deadline: the call's wall time stays within the deadline and a margin, whatever the backoff",
          arguments: FaultTransport.allCases, BackoffKind.allCases)
    func deadline(transport: FaultTransport, backoff: BackoffKind) async throws {
        try await withFaultServer(.timed) { server in
            switch backoff {
            case .throttling: server.route("GET", "/items/deadline", .respond(.status(503)))
            case .manyQuickRetries: server.route("GET", "/items/deadline", .reset)
            case .stall: server.route("GET", "/items/deadline", .stall)
            }
            let events = EventLog()
            let client = faultClient(server.baseURL, transport, events: events) {
                $0.timeouts.deadline = Self.deadline
                if backoff == .throttling {
                    $0.resilience = Resilience(jitter: .constant(0.5))
                }
                if backoff == .manyQuickRetries {
                    $0.resilience = Resilience(
                        retryPolicy: RetryPolicy(maxAttempts: 100, transientBackoff: RetryPolicy.Backoff(base: .milliseconds(5), cap: .milliseconds(20))),
                        retryBudget: nil
                    )
                }
            }
            let measured = await timed(expecting: Self.deadline, control: server, through: transport) {
                await outcome { () async throws(APIError<GetItemFailure>) in try await client.getItem(id: "deadline") }
            }
            let result = measured.value
            let wall = measured.wall
            let bound = Self.deadline + Self.margin + measured.lateness

            #expect(result.category() != nil, "the call cannot succeed: \(result)")
            let attempts = server.requestCount("GET", "/items/deadline")
            #expect(attempts >= 1)
            switch backoff {
            case .throttling:
                // A retry after 0.5 s fits in the deadline (unless the first attempt was slow);
                // the next backoff does not, and the call stops instead of waiting it out.
                #expect((1...2).contains(attempts))
                #expect(events.stopReasons == [.beyondDeadline])
            case .manyQuickRetries:
                // Without the deadline the loop would run its 100 attempts and stop for that.
                #expect(attempts < 100)
                #expect(events.stopReasons.last == .beyondDeadline || result.category() == .transport(.timedOut),
                        "stopped for \(events.stopReasons), \(result)")
            case .stall:
                // The attempt's 30 s timeout is cut to the deadline: a client that kept it would
                // take 30 s, twice this bound.
                #expect(result.category() == .transport(.timedOut), "\(result)")
                #expect(attempts == 1)
                #expect(wall < Self.uncutAttemptTimeout / 2, "wall \(wall)")
            }

            figure("deadline-\(backoff.rawValue)", transport, [
                "deadline": Self.deadline.milliseconds,
                "wall": wall.milliseconds,
                "bound": bound.milliseconds,
                "control-lateness": measured.lateness.milliseconds,
                "attempts-at-server": "\(attempts)",
                "error": result.category()?.figureName ?? "success",
            ])
        }
    }

    /// `getGuarded` makes one attempt (`retry: false` in the spec); the client gives it 0.3 s.
    static let attemptTimeout = Duration.milliseconds(300)

    @Test("Stall: a typed timeout within the attempt timeout and a margin", arguments: FaultTransport.allCases)
    func stall(transport: FaultTransport) async throws {
        try await withFaultServer(.timed) { server in
            server.route("GET", "/guarded/stalled", .stall)
            let events = EventLog()
            let client = faultClient(server.baseURL, transport, events: events) { $0.timeouts.attempt = Self.attemptTimeout }
            let measured = await timed(expecting: Self.attemptTimeout, control: server, through: transport) {
                await outcome { () async throws(APIError<GetGuardedFailure>) in try await client.getGuarded(id: "stalled") }
            }
            let result = measured.value
            let wall = measured.wall
            let bound = Self.attemptTimeout + Self.margin + measured.lateness

            #expect(result.category() == .transport(.timedOut), "\(result)")
            // Below the runtime's backstop (a second after the timeout) while the control is on
            // time: a transport that did not honour the timeout itself would fail it.
            #expect(wall <= bound, "wall \(wall); the control call was \(measured.lateness) late")
            #expect(server.requestCount("GET", "/guarded/stalled") == 1)

            figure("stall", transport, [
                "attempt-timeout": Self.attemptTimeout.milliseconds,
                "wall": wall.milliseconds,
                "bound": bound.milliseconds,
                "control-lateness": measured.lateness.milliseconds,
                "error": result.category()?.figureName ?? "success",
            ])
        }
    }
}
