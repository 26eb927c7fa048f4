import CourierRuntime
import CourierTestServer
import Foundation
import Testing

/// Bodies that stream, in both directions, through both real transports and a loopback server
/// that writes its answer a part at a time.
@Suite("Streaming bodies", .timeLimit(.minutes(10)))
struct StreamingTransportTests {
    /// A request whose response the tests read with `APIClient.stream`.
    static func download(_ path: RequestPath) -> Probe<NoContent, Never> {
        Probe(method: .get, path: path)
    }

    @Test("The first part of a response arrives before the server has sent the rest", arguments: TransportKind.allCases)
    func aStreamedResponseArrivesWhileItIsSent(_ kind: TransportKind) async throws {
        try await withServer { server in
            // The server sends "first", then waits for the test, which releases it only after
            // reading "first": a transport that buffered the whole body would never get there,
            // and the suite's time limit would fail the test.
            let feed = ResponseStream(parts: [.bytes(Data("first".utf8)), .waitForRelease, .bytes(Data("second".utf8))])
            server.route("GET", "/feed", .stream(feed))
            let response = try await client(for: server, kind).stream(Self.download("/feed"))
            #expect(response.status == .ok)
            var iterator = response.body.makeAsyncIterator()
            var received = Data()
            while received.count < 5, let chunk = try await iterator.next() {
                received.append(chunk)
            }
            #expect(String(decoding: received, as: UTF8.self) == "first")
            feed.release()
            while let chunk = try await iterator.next() {
                received.append(chunk)
            }
            #expect(String(decoding: received, as: UTF8.self) == "firstsecond")
        }
    }

    @Test("Cancelling the task that reads a stream closes the connection", arguments: TransportKind.allCases)
    func cancellingTheReaderClosesTheConnection(_ kind: TransportKind) async throws {
        try await withServer { server in
            // The server never sends the end: only the client closing can end this response.
            let feed = ResponseStream(parts: [.bytes(Data("first".utf8)), .waitForRelease, .waitForRelease])
            server.route("GET", "/endless", .stream(feed))
            let response = try await client(for: server, kind).stream(Self.download("/endless"))
            let (firstRead, firstReadDone) = AsyncStream<Void>.makeStream()
            let reader = Task {
                var iterator = response.body.makeAsyncIterator()
                _ = try await iterator.next()
                firstReadDone.yield()
                while try await iterator.next() != nil {}
            }
            var signals = firstRead.makeAsyncIterator()
            await signals.next()
            reader.cancel()
            await feed.waitUntilClosed()
            // The reader must learn that the body did not end, or a cut-off download would
            // look complete.
            let outcome = await reader.result
            #expect(throws: (any Error).self) { try outcome.get() }
        }
    }

    @Test("A body cut short midway ends the stream with a transport error", arguments: TransportKind.allCases)
    func aBodyCutShortThrows(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/cut", .stream(ResponseStream(parts: [.bytes(Data("partial".utf8)), .close])))
            let response = try await client(for: server, kind).stream(Self.download("/cut"))
            await #expect(throws: TransportError.self) {
                for try await _ in response.body {}
            }
        }
    }

    @Test("A 50 MB response streams through in order, every byte checked", arguments: TransportKind.allCases)
    func aLargeDownloadStreams(_ kind: TransportKind) async throws {
        try await withServer { server in
            let size = 50 * 1024 * 1024
            // More than the transports' 32 MiB limit for buffered bodies: only a stream gets it.
            server.route("GET", "/large", .stream(ResponseStream(headers: [("Content-Length", String(size))], parts: [.pattern(count: size)])))
            let response = try await client(for: server, kind).stream(Self.download("/large"))
            #expect(response.body.length == .known(Int64(size)))
            var checker = PatternChecker()
            for try await chunk in response.body {
                checker.consume(chunk)
            }
            checker.finish()
            #expect(checker.count == size)
            #expect(checker.firstMismatch == nil)
        }
    }

    @Test("A failed status on a streamed call is retried and mapped like a buffered one", arguments: TransportKind.allCases)
    func aFailedStatusIsRetriedThenStreams(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/flaky", failingFirst: 1, with: .respond(.json(#"{"error":"busy"}"#, status: 503)),
                         then: .stream(ResponseStream(parts: [.bytes(Data("payload".utf8))])))
            let response = try await client(for: server, kind).stream(Self.download("/flaky"))
            let body = try await response.body.collect(upTo: 1024)
            #expect(String(decoding: body, as: UTF8.self) == "payload")
            #expect(server.requestCount("GET", "/flaky") == 2)

            server.route("GET", "/missing", .respond(.json(#"{"error":"gone"}"#, status: 404)))
            let error = await capture { () async throws(APIError<Never>) in
                try await client(for: server, kind).stream(Self.download("/missing"))
            }
            guard case .undocumentedStatus(let raw) = error else {
                Issue.record("expected an undocumented 404, got \(String(describing: error))")
                return
            }
            #expect(raw.status.code == 404)
            #expect(raw.text == #"{"error":"gone"}"#)
        }
    }

    @Test("A file body is sent byte for byte with its length", arguments: TransportKind.allCases)
    func aFileUploadIsSentAsIs(_ kind: TransportKind) async throws {
        let size = 3 * 1024 * 1024 + 17
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-test-\(UUID().uuidString)")
        let bytes = ResponseStream.patternData(count: size)
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withServer { server in
            server.route("POST", "/upload", .respond(.status(204)))
            let body = try HTTPBody(contentsOf: file)
            let upload = Probe<NoContent, Never>(method: .post, path: "/upload", body: .stream(body, contentType: "application/octet-stream"))
            _ = try await client(for: server, kind).send(upload)
            let received = try #require(server.receivedRequests("POST", "/upload").first)
            #expect(received.header("Content-Length") == String(size))
            #expect(received.header("Content-Type") == "application/octet-stream")
            #expect(received.body == bytes)
        }
    }

    @Test("A body streamed from a sequence of unknown length arrives whole", arguments: TransportKind.allCases)
    func aSequenceBodyArrivesWhole(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("POST", "/chunks", .respond(.status(204)))
            let parts = (0..<200).map { Data("part \($0);".utf8) }
            let body = HTTPBody(ChunkList(chunks: parts), length: .unknown, iterationBehavior: .multiple)
            let upload = Probe<NoContent, Never>(method: .post, path: "/chunks", body: .stream(body, contentType: "text/plain"))
            _ = try await client(for: server, kind).send(upload)
            let received = try #require(server.receivedRequests("POST", "/chunks").first)
            #expect(received.body == parts.reduce(Data(), +))
        }
    }

    @Test("A body that can be read only once is never sent twice", arguments: TransportKind.allCases)
    func aSingleUseBodyIsNotRetried(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("PUT", "/once", .respond(.status(503)))
            server.route("PUT", "/again", .respond(.status(503)))
            let (stream, continuation) = AsyncStream<Data>.makeStream()
            continuation.yield(Data("only once".utf8))
            continuation.finish()
            let once = Probe<NoContent, Never>(method: .put, path: "/once",
                                                             body: .stream(HTTPBody(stream, length: .unknown, iterationBehavior: .single), contentType: "text/plain"))
            let client = client(for: server, kind)
            _ = await capture { () async throws(APIError<Never>) in try await client.send(once) }
            #expect(server.requestCount("PUT", "/once") == 1)
            #expect(server.receivedRequests("PUT", "/once").first?.body == Data("only once".utf8))

            // The same call with a body that can be read again is retried: PUT is idempotent.
            let again = Probe<NoContent, Never>(method: .put, path: "/again",
                                                              body: .stream(HTTPBody(ChunkList(chunks: [Data("again".utf8)]), length: .unknown, iterationBehavior: .multiple),
                                                                            contentType: "text/plain"))
            _ = await capture { () async throws(APIError<Never>) in try await client.send(again) }
            #expect(server.requestCount("PUT", "/again") == 3)
            #expect(server.receivedRequests("PUT", "/again").allSatisfy { $0.body == Data("again".utf8) })
        }
    }
}

/// Chunks that can be iterated any number of times, each time from the start.
struct ChunkList: AsyncSequence, Sendable {
    var chunks: [Data]

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<Data>
        mutating func next() async -> Data? {
            remaining.popFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(remaining: chunks[...])
    }
}

@Suite("HTTPBody")
struct HTTPBodyTests {
    @Test("Collecting stops at the limit, before reading the rest")
    func collectHonoursTheLimit() async throws {
        let body = HTTPBody(ChunkList(chunks: [Data(count: 10), Data(count: 10), Data(count: 10)]), length: .unknown, iterationBehavior: .multiple)
        await #expect(throws: HTTPBody.ReadError.tooLarge(limit: 15)) { try await body.collect(upTo: 15) }
        #expect(try await body.collect(upTo: 30).count == 30)
        let known = HTTPBody(ChunkList(chunks: []), length: .known(100), iterationBehavior: .multiple)
        await #expect(throws: HTTPBody.ReadError.tooLarge(limit: 99)) { try await known.collect(upTo: 99) }
        await #expect(throws: HTTPBody.ReadError.tooLarge(limit: 3)) { try await HTTPBody("four").collect(upTo: 3) }
    }

    @Test("A single-use body refuses a second reading")
    func aSingleUseBodyIsReadOnce() async throws {
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        continuation.yield(Data("a".utf8))
        continuation.finish()
        let body = HTTPBody(stream, length: .unknown, iterationBehavior: .single)
        #expect(!body.isRepeatable)
        #expect(try await body.collect(upTo: 10) == Data("a".utf8))
        let copy = body
        await #expect(throws: HTTPBody.ReadError.alreadyRead) { try await copy.collect(upTo: 10) }
    }

    @Test("A file body reads the file in chunks, again for every iteration")
    func aFileBodyReadsInChunks() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-body-test-\(UUID().uuidString)")
        let bytes = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let body = try HTTPBody(contentsOf: file, chunkSize: 4096)
        #expect(body.length == .known(10_000))
        var sizes: [Int] = []
        for try await chunk in body { sizes.append(chunk.count) }
        #expect(sizes == [4096, 4096, 1808])
        #expect(try await body.collect(upTo: 10_000) == bytes)
    }

    @Test("A missing file, a directory and a web URL are refused when the body is made")
    func unreadableFilesAreRefused() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("courier-missing-\(UUID().uuidString)")
        #expect(throws: HTTPBody.ReadError.self) { try HTTPBody(contentsOf: missing) }
        #expect(throws: HTTPBody.ReadError.self) { try HTTPBody(contentsOf: FileManager.default.temporaryDirectory) }
        #expect(throws: HTTPBody.ReadError.self) { try HTTPBody(contentsOf: URL(string: "https://example.com/file")!) }
    }

    @Test("An empty buffered body yields no chunk")
    func anEmptyBodyYieldsNothing() async throws {
        var count = 0
        for try await _ in HTTPBody(Data()) { count += 1 }
        #expect(count == 0)
    }
}
