import CourierRuntime
import CourierTestServer
import Foundation
import Testing

/// The WHATWG event-stream rules, fed in chunks cut everywhere, and a real stream over both
/// transports.
@Suite("Server-sent events and JSON Lines", .timeLimit(.minutes(10)))
struct ServerSentEventTests {
    /// Parses `text` delivered in chunks of the given sizes, cycling through them.
    static func events(in bytes: Data, chunkSizes: [Int]) async throws -> [ServerSentEvent] {
        var chunks: [Data] = []
        var offset = 0
        var turn = 0
        while offset < bytes.count {
            let size = min(chunkSizes[turn % chunkSizes.count], bytes.count - offset)
            chunks.append(bytes.subdata(in: offset..<(offset + size)))
            offset += size
            turn += 1
        }
        var result: [ServerSentEvent] = []
        for try await event in ServerSentEvents(ChunkList(chunks: chunks)) {
            result.append(event)
        }
        return result
    }

    static let specimen = Data(([0xEF, 0xBB, 0xBF] as [UInt8]) + Array((
        ": a comment, ignored\r\n" +
        "data: first\r\n" +
        "\r\n" +
        "event: update\n" +
        "id: 7\n" +
        "data: line one\n" +
        "data:line two, no space\n" +
        "data:  two spaces keep one\n" +
        "\n" +
        "retry: 2500\r" +
        "data: after a lone CR, é ü 日本\r" +
        "\r" +
        "id\n" +
        "data\n" +
        "\n" +
        "event: nothing\n" +
        "\n" +
        "retry: 12x\n" +
        "unknown: field\n" +
        "data: last\n" +
        "\n" +
        "data: never dispatched, the stream ends first\n"
    ).utf8))

    static let expected = [
        ServerSentEvent(event: "message", data: "first"),
        ServerSentEvent(event: "update", data: "line one\nline two, no space\n two spaces keep one", id: "7"),
        ServerSentEvent(event: "message", data: "after a lone CR, é ü 日本", id: "7", retry: .milliseconds(2500)),
        // A bare `id` sets the last event ID to the empty string; a bare `data` is an empty line of data.
        ServerSentEvent(event: "message", data: "", id: "", retry: .milliseconds(2500)),
        ServerSentEvent(event: "message", data: "last", id: "", retry: .milliseconds(2500)),
    ]

    @Test("Every rule holds whatever the chunk boundaries", arguments: [[1], [2], [3], [5, 1, 7], [64], [4096]])
    func theRulesHoldAtAnyBoundary(_ sizes: [Int]) async throws {
        // Size 1 splits the BOM, every CRLF and every multi-byte character.
        #expect(try await Self.events(in: Self.specimen, chunkSizes: sizes) == Self.expected)
    }

    @Test("A line longer than the limit ends the stream with a typed error instead of growing")
    func aHugeLineIsRefused() async throws {
        let hostile = Data("data: ".utf8) + Data(repeating: UInt8(ascii: "a"), count: 100_000)
        let events = ServerSentEvents(ChunkList(chunks: [hostile]), maximumEventSize: 10_000)
        await #expect(throws: StreamingError.lineTooLong(limit: 10_000)) {
            for try await _ in events {}
        }
        // Many short data lines add up the same way.
        let many = Data(String(repeating: "data: 0123456789\n", count: 2_000).utf8)
        await #expect(throws: StreamingError.lineTooLong(limit: 10_000)) {
            for try await _ in ServerSentEvents(ChunkList(chunks: [many]), maximumEventSize: 10_000) {}
        }
    }

    @Test("A megabyte of data lines is parsed in time linear in its size")
    func parsingIsLinear() async throws {
        // 1 MB in one event of 1-byte chunks: a parser that rescanned its buffer per chunk would
        // do about 10^12 steps here and never finish within the suite's time limit.
        let line = Data("data: x\n".utf8)
        var body = Data()
        for _ in 0..<(131_072) { body.append(line) }
        body.append(Data("\n".utf8))
        let events = try await Self.events(in: body, chunkSizes: [1])
        #expect(events.count == 1)
        #expect(events.first?.data.count == 131_072 * 2 - 1)
    }

    /// 10,000 events in the WHATWG form, with ids and two event types.
    static func tenThousandEvents() -> Data {
        var text = ""
        for number in 0..<10_000 {
            text += number.isMultiple(of: 3) ? "event: tick\r\n" : ""
            text += "id: \(number)\r\ndata: {\"n\":\(number),\"note\":\"ü\"}\r\n\r\n"
        }
        return Data(text.utf8)
    }

    /// `bytes` cut into parts of 1 to 97 bytes, so the server writes them at awkward places.
    static func awkwardParts(_ bytes: Data) -> [ResponseStream.Part] {
        var parts: [ResponseStream.Part] = []
        var offset = 0
        var size = 1
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            parts.append(.bytes(bytes.subdata(in: offset..<end)))
            offset = end
            size = size % 97 + 13
        }
        return parts
    }

    struct Tick: Decodable, Sendable, Equatable {
        var n: Int
        var note: String
    }

    @Test("10,000 events written at awkward boundaries arrive whole and in order", arguments: TransportKind.allCases)
    func tenThousandEventsStream(_ kind: TransportKind) async throws {
        try await withServer { server in
            let stream = ResponseStream(headers: [("Content-Type", "text/event-stream")], parts: Self.awkwardParts(Self.tenThousandEvents()))
            server.route("GET", "/events", .stream(stream))
            let response = try await client(for: server, kind).stream(Probe<NoContent, Never>(path: "/events"))
            var count = 0
            var outOfOrder = 0
            for try await event in response.body.serverSentEvents() {
                let tick = try event.decodeData(as: Tick.self)
                if tick.n != count || event.id != String(count) || event.event != (count.isMultiple(of: 3) ? "tick" : "message") || tick.note != "ü" {
                    outOfOrder += 1
                }
                count += 1
            }
            #expect(count == 10_000)
            #expect(outOfOrder == 0)
        }
    }

    @Test("Cancelling mid-stream stops reading and closes the connection", arguments: TransportKind.allCases)
    func cancellingMidStream(_ kind: TransportKind) async throws {
        try await withServer { server in
            let events = Self.tenThousandEvents()
            let half = events.count / 2
            // The server pauses halfway and never goes on: only the client's closing ends it.
            let stream = ResponseStream(headers: [("Content-Type", "text/event-stream")],
                                        parts: Self.awkwardParts(events.prefix(half)) + [.waitForRelease])
            server.route("GET", "/events", .stream(stream))
            let response = try await client(for: server, kind).stream(Probe<NoContent, Never>(path: "/events"))
            let (seen, seenEnough) = AsyncStream<Void>.makeStream()
            let reader = Task {
                var count = 0
                for try await _ in response.body.serverSentEvents() {
                    count += 1
                    if count == 1_000 { seenEnough.yield() }
                }
                return count
            }
            var signals = seen.makeAsyncIterator()
            await signals.next()
            reader.cancel()
            await stream.waitUntilClosed()
            let outcome = await reader.result
            #expect(throws: (any Error).self) { try outcome.get() }
            #expect(stream.bytesWritten <= half)
        }
    }

    @Test("Reconnection resumes after the last event ID, waits as retry: says, and stops at a 204", arguments: TransportKind.allCases)
    func reconnection(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/feed") { request in
                switch request.routeCount {
                case 1:
                    // Three events, then the connection breaks mid-event.
                    return .stream(ResponseStream(headers: [("Content-Type", "text/event-stream")], parts: [
                        .bytes(Data("retry: 20\nid: 1\ndata: one\n\nid: 2\ndata: two\n\nid: 3\ndata: three\n\ndata: cut".utf8)), .close]))
                case 2:
                    // Resumes and ends cleanly, which an EventSource also reconnects after.
                    return .stream(ResponseStream(headers: [("Content-Type", "text/event-stream")], parts: [
                        .bytes(Data("id: 4\ndata: four\n\nid: 5\ndata: five\n\n".utf8))]))
                default:
                    return .respond(.status(204))
                }
            }
            var seen: [String] = []
            for try await event in client(for: server, kind).serverSentEvents(Probe<NoContent, Never>(path: "/feed"), reconnection: ServerSentEvent.Reconnection()) {
                seen.append(event.data)
            }
            #expect(seen == ["one", "two", "three", "four", "five"])
            let requests = server.receivedRequests("GET", "/feed")
            #expect(requests.map { $0.header("Last-Event-ID") } == [nil, "3", "5"])
            // The server asked for 20 ms between connections; the default would be 3 s.
            let gaps = server.receiptGaps("GET", "/feed")
            #expect(gaps.allSatisfy { $0 >= .milliseconds(20) })
        }
    }

    @Test("Without reconnection a broken stream ends with the transport error", arguments: TransportKind.allCases)
    func noReconnection(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/feed", .stream(ResponseStream(parts: [.bytes(Data("data: one\n\ndata: cut".utf8)), .close])))
            var seen: [String] = []
            await #expect(throws: TransportError.self) {
                for try await event in client(for: server, kind).serverSentEvents(Probe<NoContent, Never>(path: "/feed")) {
                    seen.append(event.data)
                }
            }
            #expect(seen == ["one"])
            #expect(server.requestCount("GET", "/feed") == 1)
        }
    }

    @Test("Typed events keep the type and id beside the decoded data, and a bad event is a typed error")
    func typedEvents() async throws {
        let text = "event: tick\nid: 1\ndata: {\"n\":1,\"note\":\"a\"}\n\ndata: {\"n\":\"two\"}\n\n"
        var iterator = DecodedSequence(ServerSentEvents(ChunkList(chunks: [Data(text.utf8)])), as: Tick.self).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.event == "tick")
        #expect(first?.id == "1")
        #expect(first?.value == Tick(n: 1, note: "a"))
        await #expect(throws: StreamingError.self) { _ = try await iterator.next() }
    }

    @Test("JSON Lines decode one value per line, blank lines skipped, the last line without an ending too")
    func jsonLines() async throws {
        let text = "{\"n\":1,\"note\":\"a\"}\r\n\n  \n{\"n\":2,\"note\":\"b\"}\n{\"n\":3,\"note\":\"c\"}"
        var values: [Tick] = []
        for try await value in JSONLines<ChunkList, Tick>(ChunkList(chunks: Data(text.utf8).map { Data([$0]) })) {
            values.append(value)
        }
        #expect(values.map(\.n) == [1, 2, 3])

        let broken = JSONLines<ChunkList, Tick>(ChunkList(chunks: [Data("{\"n\":1,\"note\":\"a\"}\n{\"n\":\"two\"}\n".utf8)]))
        await #expect(throws: StreamingError.self) {
            for try await _ in broken {}
        }
        do {
            for try await _ in broken {}
        } catch let error as StreamingError {
            guard case .undecodableLine(let number, _) = error else {
                Issue.record("expected an undecodable line, got \(error)")
                return
            }
            #expect(number == 2)
        }
    }
}
