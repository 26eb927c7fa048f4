import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceFaultSuite
import Testing

/// Duplicates, counted at the server: a POST without an idempotency key reaches the server once
/// per call whatever the connection does after reading it; a POST with a key is retried, with the
/// same key on every attempt of a call and a different key on every call.
@Suite("Fault suite: duplicates", .timeLimit(.minutes(10)))
struct FaultSuiteDuplicateTests {
    /// What the server does after reading the request.
    enum Drop: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case close
        case reset
        /// Never answers; the attempt times out.
        case stall

        var behavior: TestServer.Behavior {
            switch self {
            case .close: .close
            case .reset: .reset
            case .stall: .stall
            }
        }

        var testDescription: String { rawValue }
    }

    static let calls = 3
    /// Short, so that a stalled attempt ends quickly; long enough for a loaded machine to
    /// answer the warm-up GET (which is retried too, should one attempt miss it).
    static let attemptTimeout = Duration.seconds(1)
    static let item = TestServer.Behavior.respond(.json(#"{"id":"warm"}"#))

    @Test("A keyless POST reaches the server exactly once per call", arguments: FaultTransport.allCases, Drop.allCases)
    func keylessPostIsSentOnce(transport: FaultTransport, drop: Drop) async throws {
        try await withFaultServer(.timed) { server in
            server.route("GET", "/items/warm", Self.item)
            let events = EventLog()
            let client = faultClient(server.baseURL, transport, events: events) { $0.timeouts.attempt = Self.attemptTimeout }
            var categories: [ErrorCategory?] = []
            var walls: [Duration] = []
            for call in 0..<Self.calls {
                server.route("POST", "/notes/\(call)", drop.behavior)
                // A GET first, so that the POST goes out on a kept-alive connection the
                // transport has used before: the case where a transport may replay it.
                _ = try await client.getItem(id: "warm")
                let start = ContinuousClock.now
                let result = await outcome { () async throws(APIError<CreateNoteFailure>) in
                    try await client.createNote(batch: "\(call)", body: Note(text: "call \(call)"))
                }
                walls.append(ContinuousClock.now - start)
                categories.append(result.category())
            }
            // A sentinel after the last call: a replay the transport made of any POST before
            // the sentinel went out is counted by the time the sentinel's answer is back.
            _ = try await client.getItem(id: "warm")

            let receipts = (0..<Self.calls).map { server.requestCount("POST", "/notes/\($0)") }
            // Heads too: libcurl's silent replay of a POST sent its head but never its body,
            // so a count of complete requests alone would not see it.
            let heads = (0..<Self.calls).map { server.headCount("POST", "/notes/\($0)") }
            let expected: ErrorCategory = drop == .stall ? .transport(.timedOut) : .transport(.connectionLost)
            #expect(receipts == Array(repeating: 1, count: Self.calls), "receipts per call at the server")
            #expect(heads == Array(repeating: 1, count: Self.calls), "request heads per call at the server")
            // Both transports report a dropped connection as lost, not as a timeout after the
            // whole attempt timeout (what URLSession on Linux did while libcurl replayed).
            #expect(categories.allSatisfy { $0 == expected }, "\(categories)")
            // Whatever the transport did, Courier itself made one attempt per call.
            let posts = events.events.filter {
                if case .attemptStarted(let summary, _) = $0 { summary.method == .post } else { false }
            }
            #expect(posts.count == Self.calls)

            figure("duplicates-keyless-\(drop.rawValue)", transport, [
                "calls": "\(Self.calls)",
                "receipts-per-call": receipts.map(String.init).joined(separator: ","),
                "bound": "1",
                "errors": Set(categories.map { $0?.figureName ?? "success" }).sorted().joined(separator: ","),
                "max-wall": (walls.max() ?? .zero).milliseconds,
            ])
        }
    }

    @Test("A POST with a key is retried with the same key on every attempt and a new key on every call",
          arguments: FaultTransport.allCases, Drop.allCases)
    func keyedPostIsRetriedWithItsKey(transport: FaultTransport, drop: Drop) async throws {
        try await withFaultServer(.timed) { server in
            server.route("GET", "/items/warm", Self.item)
            let events = EventLog()
            let client = faultClient(server.baseURL, transport, events: events) { $0.timeouts.attempt = Self.attemptTimeout }
            for call in 0..<Self.calls {
                // The spec's three attempts: two dropped, the third answered.
                server.route("POST", "/orders/\(call)", failingFirst: 2, with: drop.behavior, then: .respond(.status(201)))
                _ = try await client.getItem(id: "warm")
                try await client.placeOrder(batch: "\(call)", body: Note(text: "call \(call)"))
            }
            _ = try await client.getItem(id: "warm")
            let keysPerCall = (0..<Self.calls).map { server.headerValues("Idempotency-Key", "POST", "/orders/\($0)") }

            let receipts = keysPerCall.map(\.count)
            #expect(receipts == Array(repeating: 3, count: Self.calls), "receipts per call at the server")
            for (call, keys) in keysPerCall.enumerated() {
                #expect(keys.allSatisfy { $0 != nil && $0?.isEmpty == false }, "call \(call) sent no key: \(keys)")
                #expect(Set(keys).count == 1, "call \(call) changed its key between attempts: \(keys)")
            }
            let firstKeys = keysPerCall.compactMap { $0.first ?? nil }
            #expect(Set(firstKeys).count == Self.calls, "every call has a key of its own: \(firstKeys)")

            figure("duplicates-keyed-\(drop.rawValue)", transport, [
                "calls": "\(Self.calls)",
                "receipts-per-call": receipts.map(String.init).joined(separator: ","),
                "expected": "3",
                "keys-per-call": keysPerCall.map { "\(Set($0).count)" }.joined(separator: ","),
                "distinct-keys": "\(Set(firstKeys).count)",
            ])
        }
    }
}
