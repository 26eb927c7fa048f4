import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import CourierTestSupport
import Foundation
import ReferenceStreaming
import Testing

/// The generated methods of streamed bodies (the Streaming reference), against the loopback
/// server through both transports.
@Suite("Generated streaming (loopback server)", .timeLimit(.minutes(10)))
struct StreamingLoopbackTests {
    static let urlSession = URLSessionTransport()

    static func clients(_ server: TestServer) -> [(String, MediaClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) { MediaClient(baseURL: server.baseURL, transport: $0) }
    }

    @Test("A Binary body from a file arrives byte for byte with its content type")
    func upload() async throws {
        let file = TestEnvironment.temporaryFile("media")
        let bytes = ResponseStream.patternData(count: 2 * 1024 * 1024 + 5)
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withServer { server in
            server.route("PUT", "/blobs/b1", .respond(.status(204)))
            for (_, client) in Self.clients(server) {
                try await client.putBlob(id: "b1", body: HTTPBody(contentsOf: file))
            }
            let received = server.receivedRequests("PUT", "/blobs/b1")
            #expect(received.count == 2)
            #expect(received.allSatisfy { $0.body == bytes && $0.header("Content-Type") == "application/octet-stream" })
        }
    }

    @Test("A Binary response streams, and its download method saves it with progress")
    func download() async throws {
        let size = 3 * 1024 * 1024
        try await withServer { server in
            server.route("GET", "/exports/e1") { _ in
                .stream(ResponseStream(headers: [("Content-Type", "application/zip"), ("Content-Length", String(size))], parts: [.pattern(count: size)]))
            }
            for (name, client) in Self.clients(server) {
                let response = try await client.getExport(id: "e1")
                var checker = PatternChecker()
                for try await chunk in response.body { checker.consume(chunk) }
                checker.finish()
                #expect(checker.count == size && checker.firstMismatch == nil, "\(name)")

                let destination = TestEnvironment.temporaryFile("media")
                defer { try? FileManager.default.removeItem(at: destination) }
                let last = LockedValues<HTTPBody.Progress>()
                let file = try await client.getExport(id: "e1", to: destination) { last.append($0) }
                #expect(file.byteCount == Int64(size), "\(name)")
                #expect(try Data(contentsOf: destination) == ResponseStream.patternData(count: size), "\(name)")
                #expect(last.all.last?.fractionCompleted == 1, "\(name)")
            }
            #expect(server.headerValues("Accept", "GET", "/exports/e1") == Array(repeating: "application/zip", count: 4))
        }
    }

    @Test("Typed events decode each one's data, resume with Last-Event-ID, and raw events come as sent")
    func events() async throws {
        try await withServer { server in
            server.route("GET", "/jobs/j1/events") { request in
                request.header("Last-Event-ID") == nil
                    ? .stream(ResponseStream(headers: [("Content-Type", "text/event-stream")], parts: [
                        .bytes(Data("retry: 10\nid: 1\ndata: {\"job\":\"j1\",\"percent\":50}\n\n".utf8)), .close]))
                    : .stream(ResponseStream(headers: [("Content-Type", "text/event-stream")], parts: [
                        .bytes(Data("id: 2\nevent: done\ndata: {\"job\":\"j1\",\"percent\":100}\n\n".utf8))]))
            }
            server.route("GET", "/logs/tail", .stream(ResponseStream(parts: [.bytes(Data(": hi\ndata: line one\ndata: line two\n\n".utf8))])))
            for (name, client) in Self.clients(server) {
                var percents: [Int] = []
                var kinds: [String] = []
                for try await event in client.watchJob(job: "j1", reconnection: ServerSentEvent.Reconnection(maximumAttempts: 1)) {
                    percents.append(event.value.percent)
                    kinds.append(event.event)
                    if event.event == "done" { break }
                }
                #expect(percents == [50, 100], "\(name)")
                #expect(kinds == ["message", "done"], "\(name)")
            }
            #expect(server.headerValues("Last-Event-ID", "GET", "/jobs/j1/events") == [nil, "1", nil, "1"])
            #expect(server.headerValues("Accept", "GET", "/jobs/j1/events").allSatisfy { $0 == "text/event-stream" })
            // `tail` serves one response object: one transport reads it.
            var lines: [String] = []
            for try await event in Self.clients(server)[1].1.tail() { lines.append(event.data) }
            #expect(lines == ["line one\nline two"])
        }
    }

    @Test("A multipart form sends the model's fields as parts named in the service's key style, then the files; a nil file is left out")
    func multipart() async throws {
        try await withServer { server in
            server.route("POST", "/photos", .respond(.status(204)))
            for (_, client) in Self.clients(server) {
                try await client.uploadPhoto(body: PhotoFields(title: "Beach", albumID: 7, tags: ["sea"]),
                                             photo: MultipartForm.File(filename: "beach.jpg", contentType: "image/jpeg", data: Data([1, 2, 3])))
            }
            for received in server.receivedRequests("POST", "/photos") {
                let contentType = try #require(received.header("Content-Type"))
                #expect(contentType.hasPrefix("multipart/form-data; boundary="))
                let text = String(decoding: received.body, as: UTF8.self)
                #expect(text.contains("name=\"title\"\r\n\r\nBeach\r\n"))
                #expect(text.contains("name=\"album_id\"\r\n\r\n7\r\n"))
                #expect(text.contains("name=\"tags[]\"\r\n\r\nsea\r\n"))
                #expect(text.contains("name=\"photo\"; filename=\"beach.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\u{01}\u{02}\u{03}\r\n"))
                #expect(!text.contains("thumbnail"))
            }
            #expect(server.requestCount("POST", "/photos") == 2)
        }
    }

    /// The form the server must receive, byte for byte, under the boundary the request named.
    static func expectedForm(boundary: String, parts: [(head: String, body: Data)]) -> Data {
        var form = Data()
        for part in parts {
            form.append(Data("--\(boundary)\r\n\(part.head)\r\n\r\n".utf8))
            form.append(part.body)
            form.append(Data("\r\n".utf8))
        }
        form.append(Data("--\(boundary)--\r\n".utf8))
        return form
    }

    @Test("A form of files only sends just its files, each part with the header fields the spec declares; nil ones are left out")
    func filesOnlyWithPartHeaders() async throws {
        let pdf = Data("%PDF-1.7 report".utf8)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])
        try await withServer { server in
            server.route("POST", "/tickets/t1/attachments", .respond(.status(204)))
            for (_, client) in Self.clients(server) {
                // Every declared field given, and the optional file too.
                try await client.attachDocument(id: "t1",
                                                document: MultipartForm.File(filename: "report.pdf", contentType: "application/pdf", data: pdf),
                                                documentChecksum: "9f86d081", documentContentLanguage: "de",
                                                preview: MultipartForm.File(filename: "page1.png", contentType: "image/png", data: png),
                                                previewPage: 1)
                // Only what is required: no Content-Language field, no preview part.
                try await client.attachDocument(id: "t1",
                                                document: MultipartForm.File(filename: "report.pdf", contentType: "application/pdf", data: pdf),
                                                documentChecksum: "e3b0c442")
            }
            let received = server.receivedRequests("POST", "/tickets/t1/attachments")
            #expect(received.count == 4)
            for (index, request) in received.enumerated() {
                let contentType = try #require(request.header("Content-Type"))
                let prefix = "multipart/form-data; boundary="
                #expect(contentType.hasPrefix(prefix))
                let boundary = String(contentType.dropFirst(prefix.count))
                let document = "Content-Disposition: form-data; name=\"document\"; filename=\"report.pdf\"\r\nContent-Type: application/pdf"
                let expected = index.isMultiple(of: 2)
                    ? Self.expectedForm(boundary: boundary, parts: [
                        (document + "\r\nContent-Language: de\r\nX-Checksum: 9f86d081", pdf),
                        ("Content-Disposition: form-data; name=\"preview\"; filename=\"page1.png\"\r\nContent-Type: image/png\r\nX-Page: 1", png),
                    ])
                    : Self.expectedForm(boundary: boundary, parts: [(document + "\r\nX-Checksum: e3b0c442", pdf)])
                #expect(request.body == expected, "request \(index): \(String(decoding: request.body, as: UTF8.self))")
            }
        }
    }

    @Test("A declared part header value with a line break fails as an invalid request before anything is sent")
    func partHeaderInjectionIsRefused() async throws {
        try await withServer { server in
            server.route("POST", "/tickets/t1/attachments", .respond(.status(204)))
            for (name, client) in Self.clients(server) {
                do throws(APIError<AttachDocumentFailure>) {
                    try await client.attachDocument(id: "t1", document: MultipartForm.File(filename: "a.pdf", contentType: "application/pdf", data: Data()),
                                                    documentChecksum: "abc\r\nX-Admin: true")
                    Issue.record("\(name): the request was sent")
                } catch {
                    guard case .invalidRequest(let invalid) = error else {
                        Issue.record("\(name): expected invalidRequest, got \(error)")
                        continue
                    }
                    let reason = MultipartForm.EncodingError.invalidPartHeader(partName: "document", field: "X-Checksum").description
                    #expect(invalid.reason == .bodyEncodingFailed(reason))
                }
            }
            #expect(server.requestCount == 0)
        }
    }

    @Test("Files named like the body, the request's own properties, self and a keyword travel under their spec names")
    func oddlyNamedFiles() async throws {
        try await withServer { server in
            server.route("POST", "/odd", .respond(.status(204)))
            server.route("POST", "/odd/files", .respond(.status(204)))
            for (_, client) in Self.clients(server) {
                try await client.attachOddlyNamed(requestBody: PhotoFields(title: "T", albumID: 1),
                                                  body: MultipartForm.File(filename: "b.txt", contentType: "text/plain", data: Data("b".utf8)),
                                                  payload: MultipartForm.File(filename: "p.txt", contentType: "text/plain", data: Data("p".utf8)),
                                                  self: MultipartForm.File(filename: "s.txt", contentType: "text/plain", data: Data("s".utf8)),
                                                  selfTag: "red",
                                                  class: MultipartForm.File(filename: "c.txt", contentType: "text/plain", data: Data("c".utf8)))
                try await client.attachBodyFile(body: MultipartForm.File(filename: "b.txt", contentType: "text/plain", data: Data("b".utf8)))
            }
            for request in server.receivedRequests("POST", "/odd") {
                let text = String(decoding: request.body, as: UTF8.self)
                #expect(text.contains("name=\"title\"\r\n\r\nT\r\n"))
                for name in ["body", "payload", "class"] {
                    #expect(text.contains("name=\"\(name)\"; filename=\"\(name.prefix(1)).txt\"\r\nContent-Type: text/plain\r\n\r\n\(name.prefix(1))\r\n"))
                }
                #expect(text.contains("name=\"self\"; filename=\"s.txt\"\r\nContent-Type: text/plain\r\nX-Tag: red\r\n\r\ns\r\n"))
            }
            for request in server.receivedRequests("POST", "/odd/files") {
                let text = String(decoding: request.body, as: UTF8.self)
                #expect(!text.contains("name=\"title\""))
                #expect(text.contains("name=\"body\"; filename=\"b.txt\"\r\nContent-Type: text/plain\r\n\r\nb\r\n"))
            }
            #expect(server.requestCount("POST", "/odd") == 2)
            #expect(server.requestCount("POST", "/odd/files") == 2)
        }
    }

    @Test("JSON Lines decode one row per line with the service's coding, asking for the declared type")
    func jsonLines() async throws {
        try await withServer { server in
            server.route("GET", "/rows") { _ in
                .stream(ResponseStream(headers: [("Content-Type", "application/x-ndjson")], parts: [
                    .bytes(Data("{\"id\":1,\"name\":\"a\"}\n{\"id\":2,".utf8)), .bytes(Data("\"name\":\"b\"}\n".utf8))]))
            }
            for (name, client) in Self.clients(server) {
                var ids: [Int] = []
                for try await row in try await client.exportRows(since: 5) { ids.append(row.id) }
                #expect(ids == [1, 2], "\(name)")
            }
            #expect(server.receivedRequests("GET", "/rows").map(\.query) == ["since=5", "since=5"])
            #expect(server.headerValues("Accept", "GET", "/rows") == ["application/x-ndjson", "application/x-ndjson"])
        }
    }

    /// A part of a `multipart/mixed` batch answer whose body is the given JSON.
    static func batchPart(_ json: String, id: Int) -> String {
        "--batch_7\r\nContent-Type: application/json\r\nContent-ID: <response-\(id)>\r\n\r\n\(json)\r\n"
    }

    @Test("A multipart/mixed answer is read a part at a time, while the server is still writing the rest, raw and typed")
    func multipartMixedParts() async throws {
        try await withServer { server in
            for (name, client) in Self.clients(server) {
                // The server writes the first part and half of the second's delimiter, and the rest
                // only once the test has read the first part: a client that waited for the whole
                // body would never get there, and the suite's time limit would fail the test.
                let feed = ResponseStream(headers: [("Content-Type", "multipart/mixed; boundary=\"batch_7\"")], parts: [
                    .bytes(Data(("preamble\r\n" + Self.batchPart(#"{"id":1,"name":"a"}"#, id: 1) + "--batch_7\r\nContent-Type: app").utf8)),
                    .waitForRelease,
                    .bytes(Data("lication/json\r\n\r\n{\"id\":2,\"name\":\"b\"}\r\n--bat".utf8)),
                    .bytes(Data("ch_7--\r\n".utf8)),
                ])
                server.route("POST", "/batch", .stream(feed))
                var parts = try await client.runBatch().makeAsyncIterator()
                let first = try await parts.next()
                #expect(first?.headerFields[HTTPField.Name("Content-ID")!] == "<response-1>", "\(name)")
                #expect(first?.body == Data(#"{"id":1,"name":"a"}"#.utf8), "\(name)")
                feed.release()
                let second = try await parts.next()
                #expect(second?.headerFields[.contentType] == "application/json", "\(name)")
                #expect(second?.body == Data(#"{"id":2,"name":"b"}"#.utf8), "\(name)")
                #expect(try await parts.next() == nil, "\(name)")
            }
            #expect(server.headerValues("Accept", "POST", "/batch") == ["multipart/mixed", "multipart/mixed"])

            server.route("GET", "/rows/batch") { _ in
                .stream(ResponseStream(headers: [("Content-Type", "multipart/mixed; boundary=batch_7")], parts: [
                    .bytes(Data(Self.batchPart(#"{"id":1,"name":"a"}"#, id: 1).utf8)),
                    .bytes(Data((Self.batchPart(#"{"id":2,"name":"b"}"#, id: 2) + "--batch_7--").utf8)),
                ]))
            }
            for (name, client) in Self.clients(server) {
                var rows: [String] = []
                for try await part in try await client.batchRows() {
                    rows.append("\(part.headerFields[HTTPField.Name("Content-ID")!] ?? "?") \(part.value.id) \(part.value.name)")
                }
                #expect(rows == ["<response-1> 1 a", "<response-2> 2 b"], "\(name)")
            }
        }
    }

    @Test("A multipart answer that ends before its close delimiter throws, after the parts that were whole")
    func truncatedMultipart() async throws {
        try await withServer { server in
            server.route("POST", "/batch") { _ in
                .stream(ResponseStream(headers: [("Content-Type", "multipart/mixed; boundary=batch_7")],
                                       parts: [.bytes(Data((Self.batchPart("{}", id: 1) + Self.batchPart("{}", id: 2)).utf8))]))
            }
            for (name, client) in Self.clients(server) {
                var count = 0
                await #expect(throws: StreamingError.truncatedMultipart, "\(name)") {
                    for try await _ in try await client.runBatch() { count += 1 }
                }
                #expect(count == 1, "\(name)")
            }
        }
    }
}
