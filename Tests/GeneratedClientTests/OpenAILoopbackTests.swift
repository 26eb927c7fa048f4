import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import OpenAIAPI
import Testing

/// The generated OpenAI slice against the loopback server, through both transports: a streamed
/// chat completion read as server-sent events up to `[DONE]`, files paged by the last id while
/// `has_more`, and a file's content saved as it arrives.
@Suite("OpenAI client (loopback server)", .timeLimit(.minutes(10)))
struct OpenAILoopbackTests {
    static let urlSession = URLSessionTransport()

    static func clients(_ server: TestServer) -> [(String, OpenAIClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) { OpenAIClient(baseURL: server.baseURL, transport: $0) }
    }

    static func chunk(_ text: String) -> String {
        #"data: {"id":"c1","object":"chat.completion.chunk","created":1714564800,"model":"m","choices":[{"index":0,"delta":{"content":"\#(text)"}}]}"# + "\n\n"
    }

    @Test("A streamed completion arrives chunk by chunk until [DONE]")
    func streamedCompletion() async throws {
        try await withServer { server in
            server.route("POST", "/chat/completions") { _ in
                .stream(ResponseStream(headers: [("Content-Type", "text/event-stream")], parts: [
                    .bytes(Data((Self.chunk("Hel") + Self.chunk("lo")).utf8)), .bytes(Data("data: [DONE]\n\n".utf8))]))
            }
            for (name, client) in Self.clients(server) {
                var text = ""
                let request = ChatRequest(model: "m", messages: [ChatMessage(role: .user, content: "Hi")], stream: true)
                for try await event in client.streamChatCompletion(body: request) {
                    guard event.data != "[DONE]" else { break }
                    let chunk = try event.decodeData(as: ChatCompletionChunk.self, coding: client.client.configuration.coding)
                    text += chunk.choices.first?.delta.content ?? ""
                }
                #expect(text == "Hello", "\(name)")
            }
            let sent = try #require(server.receivedRequests("POST", "/chat/completions").first)
            #expect(sent.header("Accept") == "text/event-stream")
            #expect(String(decoding: sent.body, as: UTF8.self).contains(#""stream":true"#))
        }
    }

    @Test("A file uploads as a multipart form, streamed from disk, with its purpose")
    func uploadFile() async throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("courier-openai-upload-\(UUID().uuidString).jsonl")
        let bytes = ResponseStream.patternData(count: 5 * 1024 * 1024)
        try bytes.write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        try await withServer { server in
            server.route("POST", "/files", .respond(.json(#"{"id":"file-9","object":"file","bytes":5242880,"created_at":1714564800,"filename":"batch.jsonl","purpose":"batch"}"#)))
            for (name, client) in Self.clients(server) {
                let uploaded = try await client.uploadFile(body: FileUpload(purpose: .batch),
                                                           file: MultipartForm.File(contentsOf: source, contentType: "application/jsonl", filename: "batch.jsonl"))
                #expect(uploaded.id == "file-9", "\(name)")
            }
            for received in server.receivedRequests("POST", "/files") {
                let boundary = try #require(received.header("Content-Type")?.components(separatedBy: "boundary=").last)
                let head = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"batch.jsonl\"\r\nContent-Type: application/jsonl\r\n\r\n".utf8)
                let tail = Data("\r\n--\(boundary)--\r\n".utf8)
                #expect(received.body == head + bytes + tail)
            }
        }
    }

    @Test("A part of a large upload goes as a form of its bytes alone, byte for byte")
    func addUploadPart() async throws {
        let bytes = ResponseStream.patternData(count: 64 * 1024 + 3)
        try await withServer { server in
            server.route("POST", "/uploads/upload_abc/parts",
                         .respond(.json(#"{"id":"part_def","object":"upload.part","created_at":1719185911,"upload_id":"upload_abc"}"#)))
            for (name, client) in Self.clients(server) {
                let part = try await client.addUploadPart(uploadID: "upload_abc",
                                                          data: MultipartForm.File(filename: "chunk", contentType: "application/octet-stream", data: bytes))
                #expect(part.id == "part_def" && part.uploadID == "upload_abc", "\(name)")
            }
            let received = server.receivedRequests("POST", "/uploads/upload_abc/parts")
            #expect(received.count == 2)
            for request in received {
                let boundary = try #require(request.header("Content-Type")?.components(separatedBy: "boundary=").last)
                let head = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"data\"; filename=\"chunk\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
                #expect(request.body == head + bytes + Data("\r\n--\(boundary)--\r\n".utf8))
            }
        }
    }

    @Test("Files are paged after the last id while has_more is true")
    func listFiles() async throws {
        @Sendable func file(_ id: String) -> String {
            #"{"id":"\#(id)","object":"file","bytes":10,"created_at":1714564800,"filename":"\#(id).jsonl","purpose":"batch"}"#
        }
        try await withServer { server in
            server.route("GET", "/files") { request in
                request.query.contains("after=file-2")
                    ? .respond(.json(#"{"object":"list","data":[\#(file("file-3"))],"has_more":false}"#))
                    : .respond(.json(#"{"object":"list","data":[\#(file("file-1")),\#(file("file-2"))],"has_more":true}"#))
            }
            for (name, client) in Self.clients(server) {
                var ids: [String] = []
                for try await file in client.listFilesPages(limit: 2).items() { ids.append(file.id) }
                #expect(ids == ["file-1", "file-2", "file-3"], "\(name)")
            }
            #expect(server.receivedRequests("GET", "/files").map(\.query) == Array(repeating: ["limit=2&order=desc", "limit=2&order=desc&after=file-2"], count: 2).flatMap { $0 })
        }
    }

    @Test("A file's content goes to disk as it arrives; a missing file is the typed error")
    func download() async throws {
        try await withServer { server in
            let size = 1024 * 1024 + 7
            server.route("GET", "/files/file-1/content") { _ in
                .stream(ResponseStream(headers: [("Content-Length", String(size))], parts: [.pattern(count: size)]))
            }
            server.route("GET", "/files/nope/content", .respond(.json(#"{"error":{"message":"No such File object: nope","type":"invalid_request_error","param":"id","code":null}}"#, status: 404)))
            for (name, client) in Self.clients(server) {
                let destination = FileManager.default.temporaryDirectory.appendingPathComponent("courier-openai-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: destination) }
                let file = try await client.downloadFileContent(fileID: "file-1", to: destination)
                #expect(file.byteCount == Int64(size), "\(name)")
                #expect(try Data(contentsOf: destination) == ResponseStream.patternData(count: size), "\(name)")
                let error = await failure { () async throws(APIError<DownloadFileContentFailure>) in
                    try await client.downloadFileContent(fileID: "nope", to: destination)
                }
                guard case .endpoint(.invalidRequest(let body), _)? = error else {
                    Issue.record("\(name): expected invalidRequest, got \(String(describing: error))")
                    continue
                }
                #expect(body.value?.error.message == "No such File object: nope", "\(name)")
            }
        }
    }
}
