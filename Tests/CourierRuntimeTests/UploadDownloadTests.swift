import CourierRuntime
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// Multipart forms, downloads to a file and progress, through both transports.
@Suite("Uploads and downloads", .timeLimit(.minutes(10)))
struct UploadDownloadTests {
    /// Splits a multipart body at its boundary into (header block, content) pairs, as a server would.
    static func parts(of body: Data, boundary: String) -> [(headers: String, content: Data)]? {
        let delimiter = Data("--\(boundary)".utf8)
        var pieces: [Data] = []
        var rest = body[...]
        while let range = rest.range(of: delimiter) {
            pieces.append(Data(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        guard pieces.first?.isEmpty == true, String(decoding: rest, as: UTF8.self) == "--\r\n" else { return nil }
        return pieces.dropFirst().compactMap { piece in
            guard piece.starts(with: Data("\r\n".utf8)), piece.suffix(2) == Data("\r\n".utf8),
                  let split = piece.range(of: Data("\r\n\r\n".utf8)) else { return nil }
            let headers = String(decoding: piece[piece.index(piece.startIndex, offsetBy: 2)..<split.lowerBound], as: UTF8.self)
            return (headers, Data(piece[split.upperBound..<piece.index(piece.endIndex, offsetBy: -2)]))
        }
    }

    @Test("A multipart form with fields and a streamed file arrives whole, its boundary in the content type", arguments: TransportKind.allCases)
    func aMultipartUploadArrives(_ kind: TransportKind) async throws {
        let file = TestEnvironment.temporaryFile("photo")
        let size = 5 * 1024 * 1024 + 3
        let bytes = ResponseStream.patternData(count: size)
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withServer { server in
            server.route("POST", "/upload", .respond(.status(204)))
            var extra = HTTPFields()
            extra[HTTPField.Name("Content-ID")!] = "<photo-1>"
            let form = MultipartForm(parts: [
                .field("title", "Beach \"day\" é"),
                try .file("photo", filename: "beach.jpg", contentType: "image/jpeg", contentsOf: file, headerFields: extra),
                .file("notes", filename: "notes.txt", contentType: "text/plain", data: Data("line\r\n--not a boundary".utf8)),
            ])
            let upload = Probe<NoContent, Never>(method: .post, path: "/upload", body: .multipart(form))
            _ = try await client(for: server, kind).send(upload)
            let received = try #require(server.receivedRequests("POST", "/upload").first)
            let contentType = try #require(received.header("Content-Type"))
            #expect(contentType.hasPrefix("multipart/form-data; boundary=courier-"))
            let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
            // Every part has a known length, so the whole body does.
            #expect(received.header("Content-Length") == String(received.body.count))
            let parts = try #require(Self.parts(of: received.body, boundary: boundary))
            try #require(parts.count == 3)
            #expect(parts[0].headers == #"Content-Disposition: form-data; name="title""#)
            #expect(parts[0].content == Data("Beach \"day\" é".utf8))
            #expect(parts[1].headers == "Content-Disposition: form-data; name=\"photo\"; filename=\"beach.jpg\"\r\nContent-Type: image/jpeg\r\nContent-ID: <photo-1>")
            #expect(parts[1].content == bytes)
            #expect(parts[2].content == Data("line\r\n--not a boundary".utf8))
        }
    }

    struct PhotoFields: Encodable, Sendable {
        var title: String
        var albumID: Int
        var tags: [String]
        var place: Place
        struct Place: Encodable, Sendable { var city: String }
    }

    @Test("A model's fields become text parts named as in a form, files follow, a nil file is left out", arguments: TransportKind.allCases)
    func multipartFields(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("POST", "/photos", .respond(.status(204)))
            let fields = PhotoFields(title: "Beach", albumID: 7, tags: ["sea", "sun"], place: .init(city: "Nice"))
            let photo = MultipartForm.File(filename: "beach.jpg", contentType: "image/jpeg", data: Data([0xFF, 0xD8, 0xFF]))
            let upload = Probe<NoContent, Never>(method: .post, path: "/photos",
                                                               body: .multipartFields(fields, files: [("photo", photo), ("thumbnail", nil)], style: .brackets))
            _ = try await client(for: server, kind) { $0.coding = JSONCoding(keyStyle: .snakeCase) }.send(upload)
            let received = try #require(server.receivedRequests("POST", "/photos").first)
            let boundary = try #require(received.header("Content-Type")?.components(separatedBy: "boundary=").last)
            let parts = try #require(Self.parts(of: received.body, boundary: boundary))
            #expect(parts.map(\.headers) == [
                #"Content-Disposition: form-data; name="title""#,
                #"Content-Disposition: form-data; name="album_id""#,
                #"Content-Disposition: form-data; name="tags[]""#,
                #"Content-Disposition: form-data; name="tags[]""#,
                #"Content-Disposition: form-data; name="place[city]""#,
                "Content-Disposition: form-data; name=\"photo\"; filename=\"beach.jpg\"\r\nContent-Type: image/jpeg",
            ])
            #expect(parts.map { String(decoding: $0.content, as: UTF8.self) }.prefix(5) == ["Beach", "7", "sea", "sun", "Nice"])
            #expect(parts.last?.content == Data([0xFF, 0xD8, 0xFF]))
        }
    }

    @Test("Names are escaped, a boundary found in a part is replaced, and bad part headers are refused")
    func multipartEdgeCases() async throws {
        let named = try MultipartForm(parts: [MultipartForm.Part(name: "a\"b\r\nc", filename: "f\".txt", body: HTTPBody("x"))], boundary: "b")
        let namedBytes = try await named.encoded().body.collect(upTo: 1_000)
        #expect(String(decoding: namedBytes, as: UTF8.self) == "--b\r\nContent-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"f%22.txt\"\r\n\r\nx\r\n--b--\r\n")
        let fixed = try MultipartForm(parts: [.field("a", "x --fixed y")], boundary: "fixed")
        #expect(throws: MultipartForm.EncodingError.boundaryInContent(partName: "a")) { try fixed.encoded() }
        #expect(throws: MultipartForm.EncodingError.invalidBoundary("bad boundary ")) { try MultipartForm(parts: [], boundary: "bad boundary ") }

        // A random boundary that occurs in a part is drawn again.
        let probe = MultipartForm(parts: [])
        let clashing = MultipartForm(parts: [.field("a", "--\(probe.boundary)")])
        let (body, contentType) = try clashing.encoded()
        let boundary = String(contentType.dropFirst("multipart/form-data; boundary=".count))
        let bytes = try await body.collect(upTo: 10_000)
        #expect(Self.parts(of: bytes, boundary: boundary)?.first?.content == Data("--\(probe.boundary)".utf8))

        var header = HTTPFields()
        header[.contentType] = "text/plain"
        #expect(throws: MultipartForm.EncodingError.self) { try MultipartForm(parts: [MultipartForm.Part(name: "a", headerFields: header, body: HTTPBody("x"))]).encoded() }

        // A streamed part that holds the boundary fails as it is read, even split across chunks.
        let streamed = try MultipartForm(parts: [MultipartForm.Part(name: "s", body: HTTPBody(ChunkList(chunks: [Data("ab--fi".utf8), Data("xed".utf8)]), length: .unknown, iterationBehavior: .multiple))], boundary: "fixed")
        await #expect(throws: MultipartForm.EncodingError.boundaryInContent(partName: "s")) {
            try await streamed.encoded().body.collect(upTo: 10_000)
        }
    }

    @Test("A 50 MB download goes to a file with progress, and a failed one leaves the destination alone", arguments: TransportKind.allCases)
    func aDownloadGoesToAFile(_ kind: TransportKind) async throws {
        let size = 50 * 1024 * 1024
        let destination = TestEnvironment.temporaryFile("download")
        try Data("old".utf8).write(to: destination)
        defer { try? FileManager.default.removeItem(at: destination) }
        try await withServer { server in
            server.route("GET", "/export", .stream(ResponseStream(headers: [("Content-Length", String(size))], parts: [.pattern(count: size)])))
            let reports = ProgressLog()
            let file = try await client(for: server, kind).download(Probe<NoContent, Never>(path: "/export"), to: destination) { reports.add($0) }
            #expect(file.byteCount == Int64(size))
            #expect(file.status == .ok)
            var checker = PatternChecker()
            let handle = try FileHandle(forReadingFrom: destination)
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { checker.consume(chunk) }
            try handle.close()
            checker.finish()
            #expect(checker.count == size)
            #expect(checker.firstMismatch == nil)
            let values = reports.values
            #expect(values.count > 1)
            #expect(values.last == HTTPBody.Progress(completedBytes: Int64(size), expectedBytes: Int64(size)))
            #expect(zip(values, values.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })

            // Cut short: the old file stays, and no partial file is left beside it.
            server.route("GET", "/cut", .stream(ResponseStream(headers: [("Content-Length", "1000000")], parts: [.pattern(count: 1000), .close])))
            try Data("kept".utf8).write(to: destination)
            let error = await capture { () async throws(APIError<Never>) in
                try await client(for: server, kind).download(Probe<NoContent, Never>(path: "/cut"), to: destination)
            }
            guard case .transport = error else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                return
            }
            #expect(try Data(contentsOf: destination) == Data("kept".utf8))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: destination.deletingLastPathComponent().path)
                .filter { $0.hasPrefix(".\(destination.lastPathComponent)") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test("Upload progress counts up to the body's length", arguments: TransportKind.allCases)
    func uploadProgress(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("PUT", "/blob", .respond(.status(204)))
            let bytes = ResponseStream.patternData(count: 2 * 1024 * 1024)
            let reports = ProgressLog()
            let body = HTTPBody(ChunkList(chunks: stride(from: 0, to: bytes.count, by: 65_536).map { bytes.subdata(in: $0..<min($0 + 65_536, bytes.count)) }),
                                length: .known(Int64(bytes.count)), iterationBehavior: .multiple)
                .reportingProgress { reports.add($0) }
            _ = try await client(for: server, kind).send(Probe<NoContent, Never>(method: .put, path: "/blob", body: .stream(body, contentType: "application/octet-stream")))
            #expect(server.receivedRequests("PUT", "/blob").first?.body == bytes)
            #expect(reports.values.count == 32)
            #expect(reports.values.last?.fractionCompleted == 1)
        }
    }

    @Test("Progress as an AsyncStream ends when the reporter is released")
    func progressStream() async {
        var (updates, report): (AsyncStream<HTTPBody.Progress>, (@Sendable (HTTPBody.Progress) -> Void)?) = HTTPBody.Progress.makeStream()
        report?(HTTPBody.Progress(completedBytes: 5, expectedBytes: 10))
        report = nil
        var seen: [HTTPBody.Progress] = []
        for await update in updates { seen.append(update) }
        #expect(seen == [HTTPBody.Progress(completedBytes: 5, expectedBytes: 10)])
        #expect(seen.first?.fractionCompleted == 0.5)
        _ = updates
    }
}

/// Progress reports, kept in order.
final class ProgressLog: Sendable {
    private let reports = LockedValues<HTTPBody.Progress>()

    func add(_ progress: HTTPBody.Progress) { reports.append(progress) }
    var values: [HTTPBody.Progress] { reports.all }
}

