import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// `multipart/*` responses read as parts (RFC 2046): the boundary in its forms, preamble and
/// epilogue, every chunking, truncation and limits, and a real stream over both transports.
@Suite("Multipart parts", .timeLimit(.minutes(10)))
struct MultipartPartsTests {
    /// `bytes` cut into chunks of the given sizes, cycling through them.
    static func chunks(_ bytes: Data, sizes: [Int]) -> [Data] {
        var chunks: [Data] = []
        var offset = 0
        var turn = 0
        while offset < bytes.count {
            let size = min(sizes[turn % sizes.count], bytes.count - offset)
            chunks.append(bytes.subdata(in: offset..<(offset + size)))
            offset += size
            turn += 1
        }
        return chunks
    }

    static func parts(_ chunks: [Data], boundary: String = "batch_42", maximumPartSize: Int = 16 * 1024 * 1024,
                      maximumHeaderSize: Int = 64 * 1024) async throws -> [MultipartPart] {
        var result: [MultipartPart] = []
        let parts = MultipartParts(ChunkList(chunks: chunks), boundary: boundary, maximumPartSize: maximumPartSize, maximumHeaderSize: maximumHeaderSize)
        for try await part in parts {
            result.append(part)
        }
        return result
    }

    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    /// A Google-style batch answer: a preamble, parts with and without header fields, an empty
    /// body, a body holding near-boundaries and line breaks, a folded field, padding after a
    /// boundary, and an epilogue.
    static let specimen = Data((
        "This preamble is skipped.\r\n" +
        "--batch_42\r\n" +
        "Content-Type: application/http\r\n" +
        "Content-ID: <response-1>\r\n" +
        "\r\n" +
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"id\":1}\r\n" +
        "--batch_42 \t\r\n" +
        "\r\n" +
        "no header fields; é ü\r\n" +
        "--batch_42\r\n" +
        "X-Empty: yes\r\n" +
        "\r\n" +
        "\r\n" +
        "--batch_42\r\n" +
        "X-Folded: first\r\n" +
        "  second\r\n" +
        "\r\n" +
        "--batch_4 is not it\r\n--batch_4\r\n\r\n-- batch_42\nends with CR LF\r\n\r\n" +
        "--batch_42--\r\n" +
        "This epilogue is skipped, --batch_42 too.\r\n"
    ).utf8)

    static let expected = [
        MultipartPart(headerFields: fields([("Content-Type", "application/http"), ("Content-ID", "<response-1>")]),
                      body: Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"id\":1}".utf8)),
        MultipartPart(body: Data("no header fields; é ü".utf8)),
        MultipartPart(headerFields: fields([("X-Empty", "yes")]), body: Data()),
        MultipartPart(headerFields: fields([("X-Folded", "first second")]),
                      body: Data("--batch_4 is not it\r\n--batch_4\r\n\r\n-- batch_42\nends with CR LF\r\n".utf8)),
    ]

    @Test("Every rule holds whatever the chunk sizes", arguments: [[1], [2], [3], [5, 1, 7], [64], [100_000]])
    func theRulesHoldAtAnyChunking(_ sizes: [Int]) async throws {
        #expect(try await Self.parts(Self.chunks(Self.specimen, sizes: sizes)) == Self.expected)
    }

    @Test("Cutting the body in two at every offset, through every delimiter, changes nothing")
    func everySplitOffset() async throws {
        for offset in 0...Self.specimen.count {
            let chunks = [Self.specimen.prefix(offset), Self.specimen.dropFirst(offset)].map { Data($0) }
            let parts = try await Self.parts(chunks)
            #expect(parts == Self.expected, "split at \(offset)")
            if parts != Self.expected { break }
        }
    }

    @Test("Bare line feeds are read as CRLF, and the body may start with the first boundary")
    func bareLineFeeds() async throws {
        let body = Data("--b\nA: 1\n\none\n--b\n\ntwo\r\n--b--".utf8)
        for sizes in [[1], [2], [1_000]] {
            let parts = try await Self.parts(Self.chunks(body, sizes: sizes), boundary: "b")
            #expect(parts == [MultipartPart(headerFields: Self.fields([("A", "1")]), body: Data("one".utf8)),
                              MultipartPart(body: Data("two".utf8))])
        }
        // A part with neither header fields nor a body, right after the boundary's line break.
        #expect(try await Self.parts([Data("--b\r\n\r\n--b--".utf8)], boundary: "b") == [MultipartPart(body: Data())])
        // No parts at all.
        #expect(try await Self.parts([Data("--b--\r\n".utf8)], boundary: "b") == [])
    }

    @Test("A body that ends before its close delimiter is a truncation error, after the parts that were whole")
    func truncation() async throws {
        for cut in ["", "preamble only", "--b", "--b\r\n", "--b\r\nA: 1", "--b\r\nA: 1\r\n\r\nhalf a bo", "--b\r\n\r\none\r\n--b", "--b\r\n\r\none\r\n--b-"] {
            var received: [MultipartPart] = []
            await #expect(throws: StreamingError.truncatedMultipart, "cut: \(cut.debugDescription)") {
                for try await part in MultipartParts(ChunkList(chunks: [Data(cut.utf8)]), boundary: "b") {
                    received.append(part)
                }
            }
            // The whole part before the cut still arrived.
            #expect(received.count == (cut.contains("one") ? 1 : 0), "cut: \(cut.debugDescription)")
        }
    }

    @Test("A part larger than the limit, or with too many header bytes, is a typed error; one at the limit is not")
    func limits() async throws {
        let exactly = Data("--b\r\n\r\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 100) + Data("\r\n--b--".utf8)
        #expect(try await Self.parts(Self.chunks(exactly, sizes: [1]), boundary: "b", maximumPartSize: 100).first?.body.count == 100)
        let over = Data("--b\r\n\r\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 101) + Data("\r\n--b--".utf8)
        for sizes in [[1], [7], [1_000]] {
            await #expect(throws: StreamingError.multipartPartTooLarge(limit: 100)) {
                _ = try await Self.parts(Self.chunks(over, sizes: sizes), boundary: "b", maximumPartSize: 100)
            }
        }
        // A part that never ends is refused at the limit instead of growing; the error comes
        // before the rest is read.
        let endless = HTTPBody(ChunkList(chunks: [Data("--b\r\n\r\n".utf8)] + Array(repeating: Data(repeating: 0x41, count: 1_000), count: 2_000)),
                               length: .unknown, iterationBehavior: .multiple)
        await #expect(throws: StreamingError.multipartPartTooLarge(limit: 10_000)) {
            for try await _ in endless.multipartParts(boundary: "b", maximumPartSize: 10_000) {}
        }
        let longHeaders = Data("--b\r\n".utf8) + Data(String(repeating: "X-A: 0123456789\r\n", count: 100).utf8) + Data("\r\nbody\r\n--b--".utf8)
        await #expect(throws: StreamingError.multipartHeadersTooLarge(limit: 1_000)) {
            _ = try await Self.parts([longHeaders], boundary: "b", maximumHeaderSize: 1_000)
        }
        // A header line that never ends counts too.
        let endlessHeader = Data("--b\r\nX-A: ".utf8) + Data(repeating: 0x41, count: 5_000)
        await #expect(throws: StreamingError.multipartHeadersTooLarge(limit: 1_000)) {
            _ = try await Self.parts(Self.chunks(endlessHeader, sizes: [13]), boundary: "b", maximumHeaderSize: 1_000)
        }
    }

    @Test("A megabyte of near-delimiters is one part, read a byte at a time")
    func hostileBodyIsLinear() async throws {
        // Every line starts like the delimiter and fails at its last byte, the worst case for
        // a search that goes back over what it matched; one that rescanned its buffer per chunk
        // would do about 10^12 steps on these 1-byte chunks and never finish within the suite's
        // time limit.
        let nearMiss = Data("\r\n--batch_4".utf8)
        var body = Data("--batch_42\r\n\r\n".utf8)
        var content = Data()
        while content.count < 1_048_576 { content.append(nearMiss) }
        body.append(content)
        body.append(Data("\r\n--batch_42--".utf8))
        let parts = try await Self.parts(Self.chunks(body, sizes: [1]))
        #expect(parts.count == 1)
        #expect(parts.first?.body == content)
        // A megabyte of line feeds: each one starts a match that the next one ends.
        let lineFeeds = Data(repeating: UInt8(ascii: "\n"), count: 1_048_576)
        let feeds = try await Self.parts(Self.chunks(Data("--batch_42\r\n\r\n".utf8) + lineFeeds + Data("\n--batch_42--".utf8), sizes: [1]))
        #expect(feeds.first?.body == lineFeeds)
    }

    @Test("A header line without a colon, or a boundary followed by text, is malformed")
    func malformed() async throws {
        for body in ["--b\r\nno colon here\r\n\r\nx\r\n--b--", "--bx\r\n\r\nx\r\n--b--", "--b\r\n\r\nx\r\n--b-x", "--b \r x\r\n\r\n--b--"] {
            await #expect(throws: StreamingError.self, "\(body.debugDescription)") {
                _ = try await Self.parts([Data(body.utf8)], boundary: "b")
            }
            do {
                _ = try await Self.parts([Data(body.utf8)], boundary: "b")
            } catch StreamingError.malformedMultipart {
            } catch {
                Issue.record("\(body.debugDescription): \(error)")
            }
        }
    }

    @Test("The boundary is read from the content type, quoted or not, among other parameters")
    func boundaryForms() throws {
        #expect(try MultipartBoundary.boundary(inContentType: "multipart/mixed; boundary=batch_42") == "batch_42")
        #expect(try MultipartBoundary.boundary(inContentType: "Multipart/Mixed;BOUNDARY=batch_42 ; charset=utf-8") == "batch_42")
        #expect(try MultipartBoundary.boundary(inContentType: #"multipart/mixed; charset="a;b"; boundary="batch_42""#) == "batch_42")
        #expect(try MultipartBoundary.boundary(inContentType: #"multipart/mixed; boundary="with space, (and) = : ?""#) == "with space, (and) = : ?")
        #expect(try MultipartBoundary.boundary(inContentType: #"multipart/mixed; boundary="a\"b""#) == #"a"b"#)
        #expect(try MultipartBoundary.boundary(inContentType: "multipart/related; type=application/json; boundary=xyz") == "xyz")
        for bad in [nil, "application/json; boundary=x", "multipart/mixed", "multipart/mixed; boundary=", #"multipart/mixed; boundary="unclosed"#,
                    "multipart/mixed; boundary=" + String(repeating: "x", count: 201), "multipart/mixed; boundary=\"a\u{7F}b\""] as [String?] {
            #expect(throws: StreamingError.self, "\(String(describing: bad))") { try MultipartBoundary.boundary(inContentType: bad) }
        }
    }

    @Test("A response without a usable boundary fails on the first read, as a malformed multipart body")
    func responseWithoutBoundary() async throws {
        let response = StreamingResponse(status: .ok, headerFields: [.contentType: "multipart/mixed"], body: HTTPBody("--b--"), rateLimit: RateLimit())
        await #expect(throws: StreamingError.malformedMultipart(reason: "The content type 'multipart/mixed' names no boundary.")) {
            for try await _ in response.multipartParts() {}
        }
        let good = StreamingResponse(status: .ok, headerFields: [.contentType: "multipart/mixed; boundary=\"b\""],
                                     body: HTTPBody("--b\r\n\r\nhi\r\n--b--"), rateLimit: RateLimit())
        var bodies: [String] = []
        for try await part in good.multipartParts() { bodies.append(String(decoding: part.body, as: UTF8.self)) }
        #expect(bodies == ["hi"])
    }

    struct Answer: Decodable, Sendable, Equatable {
        var id: Int
    }

    @Test("Typed parts decode each body as JSON, keep the header fields, and name the part that does not decode")
    func typedParts() async throws {
        let body = Data("--b\r\nContent-Type: application/json\r\n\r\n{\"id\":1}\r\n--b\r\n\r\n{\"id\":2}\r\n--b\r\n\r\nnot json\r\n--b--".utf8)
        var iterator = DecodedSequence(MultipartParts(ChunkList(chunks: [body]), boundary: "b"), as: Answer.self).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.value == Answer(id: 1))
        #expect(first?.headerFields[.contentType] == "application/json")
        #expect(try await iterator.next()?.value == Answer(id: 2))
        do {
            _ = try await iterator.next()
            Issue.record("a body that is not JSON decoded")
        } catch let error as StreamingError {
            guard case .undecodablePart(let number, _) = error else {
                Issue.record("expected undecodablePart, got \(error)")
                return
            }
            #expect(number == 3)
        }
    }

    @Test("An application/http part is read as the response it carries: status, header fields, and the body up to its length")
    func embeddedResponses() async throws {
        // As Google's batch answers: a blank line after each JSON body, CRLF throughout.
        let body = Data((
            "--batch_42\r\nContent-Type: application/http\r\nContent-ID: <response-1>\r\n\r\n" +
            "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: 9\r\n\r\n{\"id\": 1}\r\n\r\n" +
            "--batch_42\r\nContent-Type: application/http\r\n\r\n" +
            "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n\r\n{\"error\":\"gone\"}\r\n" +
            "--batch_42\nContent-Type: application/http\n\nHTTP/1.1 204 No Content\nX-Request-ID: 7\n\n" +
            "--batch_42--\r\n"
        ).utf8)
        let answers = try await Self.parts(Self.chunks(body, sizes: [5])).map { try $0.embeddedResponse() }
        #expect(answers == [
            MultipartPart.EmbeddedResponse(status: .ok, headerFields: Self.fields([("Content-Type", "application/json; charset=UTF-8"), ("Content-Length", "9")]),
                                 body: Data("{\"id\": 1}".utf8)),
            MultipartPart.EmbeddedResponse(status: .notFound, headerFields: Self.fields([("Content-Type", "application/json")]),
                                 body: Data("{\"error\":\"gone\"}".utf8)),
            MultipartPart.EmbeddedResponse(status: .noContent, headerFields: Self.fields([("X-Request-ID", "7")])),
        ])
        #expect(answers.map(\.status.reasonPhrase) == ["OK", "Not Found", "No Content"])
        #expect(try answers[0].decodeBody(as: Answer.self) == Answer(id: 1))
        for notAResponse in ["{\"id\":1}", "", "HTTP/1.1 2000 OK", "HTTP/1.1 abc", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n"] {
            #expect(throws: StreamingError.self, "\(notAResponse.debugDescription)") {
                try MultipartPart(body: Data(notAResponse.utf8)).embeddedResponse()
            }
        }
    }

    /// Three parts of a batch answer, each with its own header fields.
    static func batchPart(_ number: Int) -> String {
        "--batch_42\r\nContent-Type: application/json\r\nContent-ID: <response-\(number)>\r\n\r\n{\"id\":\(number)}\r\n"
    }

    @Test("Parts arrive while the server is still writing the rest, and a clean end without the close delimiter is a truncation",
          arguments: TransportKind.allCases)
    func streamsThroughTheTransport(_ kind: TransportKind) async throws {
        try await withServer { server in
            // The server writes the first part and the start of the second, cut inside its
            // header fields, and writes the rest, in awkward pieces, only once the test has read
            // the first part: a transport or parser that waited for the whole body would never
            // get there, and the suite's time limit would fail the test.
            let first = Data((Self.batchPart(1) + "--batch_42\r\nContent-Type: appli").utf8)
            let rest = ServerSentEventTests.awkwardParts(Data(("cation/json\r\n\r\n{\"id\":2}\r\n" + Self.batchPart(3) + "--batch_42--\r\n").utf8))
            let feed = ResponseStream(headers: [("Content-Type", "multipart/mixed; boundary=\"batch_42\"")],
                                      parts: [.bytes(first), .waitForRelease] + rest)
            server.route("GET", "/batch", .stream(feed))
            let response = try await client(for: server, kind).stream(Probe<NoContent, Never>(path: "/batch"), accept: "multipart/mixed")
            var iterator = response.multipartParts().makeAsyncIterator()
            let part = try await iterator.next()
            #expect(part?.headerFields[HTTPField.Name("Content-ID")!] == "<response-1>")
            #expect(part?.body == Data("{\"id\":1}".utf8))
            feed.release()
            var bodies: [String] = []
            while let part = try await iterator.next() { bodies.append(String(decoding: part.body, as: UTF8.self)) }
            #expect(bodies == ["{\"id\":2}", "{\"id\":3}"])
            #expect(server.headerValues("Accept", "GET", "/batch") == ["multipart/mixed"])

            // The response ends properly, but the body is not over.
            server.route("GET", "/short", .stream(ResponseStream(headers: [("Content-Type", "multipart/mixed; boundary=batch_42")],
                                                                 parts: [.bytes(Data((Self.batchPart(1) + Self.batchPart(2)).utf8))])))
            let short = try await client(for: server, kind).stream(Probe<NoContent, Never>(path: "/short"))
            var count = 0
            await #expect(throws: StreamingError.truncatedMultipart) {
                for try await _ in short.multipartParts() { count += 1 }
            }
            #expect(count == 1)

            // The connection is cut: the transport says so.
            server.route("GET", "/cut", .stream(ResponseStream(headers: [("Content-Type", "multipart/mixed; boundary=batch_42")],
                                                               parts: [.bytes(Data(Self.batchPart(1).utf8)), .close])))
            let cut = try await client(for: server, kind).stream(Probe<NoContent, Never>(path: "/cut"))
            await #expect(throws: TransportError.self) {
                for try await _ in cut.multipartParts() {}
            }
        }
    }
}
