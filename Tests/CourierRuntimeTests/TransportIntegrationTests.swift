import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing

/// Every behaviour through both real transports against a real loopback server.
@Suite struct TransportIntegrationTests {
    @Test(arguments: TransportKind.allCases)
    func successWithABody(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/7", .respond(.json(#"{"id":7,"name":"Grace"}"#, headers: [("X-RateLimit-Remaining", "9")])))
            let response = try await client(for: server, kind).response(for: GetUser(id: "7"))
            #expect(response.value == User(id: 7, name: "Grace"))
            #expect(response.rateLimit.remaining == 9)
            let received = try #require(server.receivedRequests.first)
            #expect(received.requestLine == "GET /users/7 HTTP/1.1")
            #expect(received.header("Accept") == "application/json")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func successWith204(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("DELETE", "/users/3", .respond(.status(204)))
            let response = try await client(for: server, kind).response(for: DeleteUser(id: 3))
            #expect(response.status == .noContent)
            #expect(server.requestCount("DELETE", "/users/3") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aJSONBodyArrivesIntact(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("POST", "/users") { request in
                .respond(.json(String(decoding: request.body, as: UTF8.self), status: 201))
            }
            let request = Probe<User, UserFailure>(method: .post, path: "/users", body: .json(User(id: 1, name: "Ünïcode ✓")))
            let user = try await client(for: server, kind).send(request)
            #expect(user == User(id: 1, name: "Ünïcode ✓"))
            #expect(server.receivedRequests.first?.header("Content-Type") == "application/json")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aDocumentedFailureDecodesIntoItsCase(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/9", .respond(.json(#"{"code":"missing","message":"gone"}"#, status: 404)))
            let error = await capture { () async throws(APIError<UserFailure>) in
                try await client(for: server, kind).send(GetUser(id: "9"))
            }
            guard case .endpoint(.notFound(let body), let response) = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
            #expect(body.value == Problem(code: "missing", message: "gone"))
            #expect(response.header("Content-Type") == "application/json")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anUndocumentedStatusKeepsStatusHeadersAndBody(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(TestServer.Reply(status: 418, headers: [("X-Teapot", "yes")], body: Data("short and stout".utf8))))
            let error = await capture { () async throws(APIError<UserFailure>) in
                try await client(for: server, kind).send(GetUser(id: "1"))
            }
            guard case .undocumentedStatus(let response) = error else {
                Issue.record("expected undocumentedStatus, got \(String(describing: error))")
                return
            }
            #expect(response.status.code == 418)
            #expect(response.header("X-Teapot") == "yes")
            #expect(response.text == "short and stout")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func rateLimitHeadersReachTheError(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"code":"slow","message":"Too many"}"#, status: 429,
                                                          headers: [("Retry-After", "120"), ("X-RateLimit-Remaining", "0")])))
            let error = await capture { () async throws(APIError<UserFailure>) in
                try await client(for: server, kind).send(GetUser(id: "1"))
            }
            #expect(error?.endpointFailure?.body.message == "Too many")
            #expect(error?.rateLimit?.retryAfter == .seconds(120))
            #expect(error?.rateLimit?.remaining == 0)
            #expect(error?.isRetryable == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aClosedPortIsConnectionRefusedAndNotSent(kind: TransportKind) async throws {
        let port = try await closedPort()
        // The refusal comes back at once; the timeout only bounds a broken transport.
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: kind.make(),
                               configuration: APIClient.Configuration(timeouts: APIClient.Timeouts(attempt: .seconds(10))))
        let error = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
        guard case .transport(let transport) = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(transport.kind == .connectionRefused)
        #expect(transport.requestMayHaveBeenSent == false)
        #expect(error?.isRetryable == true)
        if kind == .urlSession {
            #expect((transport.underlying as? URLError)?.code == .cannotConnectToHost)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTLSHandshakeWithAPlainHTTPServerIsATLSFailure(kind: TransportKind) async throws {
        // No certificates are needed to make TLS fail for real: speak HTTPS to a server that
        // only speaks plain HTTP, and the handshake cannot complete.
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"id":1,"name":"Ada"}"#)))
            let client = APIClient(baseURL: URL(string: "https://127.0.0.1:\(server.port)")!, transport: kind.make(),
                                   configuration: APIClient.Configuration(timeouts: APIClient.Timeouts(attempt: .seconds(10))))
            let error = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
            #expect(error?.category == .transport(.tls), "got \(String(describing: error))")
            #expect(error?.isRetryable == false)
            #expect(server.requestCount("GET", "/users/1") == 0)
        }
    }

    @Test func aRefusedConnectionThroughAClientThatRetriesConnectingIsStillUnsent() async throws {
        // HTTPClient.shared keeps retrying the connection until the deadline; what finally
        // surfaces must still say that nothing was sent. (Courier's default client does not
        // retry; a caller may still pass this one.)
        let port = try await closedPort()
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, transport: AsyncHTTPClientTransport(client: .shared),
                               configuration: APIClient.Configuration(timeouts: APIClient.Timeouts(attempt: .milliseconds(400))))
        let error = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
        // Which ends the attempt first is a race between HTTPClient's connect deadline (refused)
        // and the client's own attempt timeout (timed out): on a machine loaded past its cores
        // the second won. Either way, nothing was sent, which is what this test is about.
        #expect([.transport(.connectionRefused), .transport(.timedOut)].contains(error?.category), "got \(String(describing: error))")
        #expect(error?.transportError?.requestMayHaveBeenSent == false)
    }

    @Test(arguments: TransportKind.allCases)
    func aServerThatNeverAnswersTimesOut(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .stall)
            let client = client(for: server, kind) {
                $0.timeouts.attempt = .milliseconds(300)
                $0.resilience = .singleAttempt
            }
            let error = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
            #expect(error?.category == .transport(.timedOut), "got \(String(describing: error))")
            #expect(error?.transportError?.requestMayHaveBeenSent == true)
            #expect(server.requestCount == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theTransportAloneHonoursItsTimeout(kind: TransportKind) async throws {
        // Without APIClient's backstop: only the transport can end this attempt.
        try await withServer { server in
            server.route("GET", "/slow", .stall)
            let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/slow")
            do throws(TransportError) {
                _ = try await kind.make().send(request, body: nil, timeout: .milliseconds(300))
                Issue.record("expected a timeout")
            } catch {
                #expect(error.kind == .timedOut, "got \(error.debugDescription)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aConnectionClosedMidBodyIsConnectionLost(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .closeMidBody(status: 200, declaredLength: 1000, sent: Data(#"{"id":1,"na"#.utf8)))
            let error = await capture { () async throws(APIError<UserFailure>) in
                try await client(for: server, kind).send(GetUser(id: "1"))
            }
            #expect(error?.category == .transport(.connectionLost), "got \(String(describing: error))")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func malformedJSONIsADecodingFailureWithTheBodyPrefix(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"id": 1, "name": "#)))
            let error = await capture { () async throws(APIError<UserFailure>) in
                try await client(for: server, kind).send(GetUser(id: "1"))
            }
            guard case .decoding(let failure) = error else {
                Issue.record("expected decoding, got \(String(describing: error))")
                return
            }
            #expect(failure.bodyPrefix == #"{"id": 1, "name": "#)
            #expect(failure.response.status == .ok)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTenMegabyteBodyArrivesWholeAndALimitStopsIt(kind: TransportKind) async throws {
        try await withServer { server in
            let size = 10 * 1024 * 1024
            let body = Data(#"{"blob":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: size) + Data(#""}"#.utf8)
            server.route("GET", "/blob", .respond(TestServer.Reply(status: 200, headers: [("Content-Type", "application/json")], body: body)))
            let blob = try await client(for: server, kind).send(Probe<Blob, Never>(path: "/blob"))
            #expect(blob.blob.utf8.count == size)

            let limited = client(for: server, kind, maximumResponseBodySize: 1024 * 1024)
            let error = await capture { () async throws(APIError<Never>) in
                try await limited.send(Probe<Blob, Never>(path: "/blob"))
            }
            #expect(error?.category == .transport(.responseTooLarge), "got \(String(describing: error))")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aChunkedBodyOverTheLimitIsStoppedToo(kind: TransportKind) async throws {
        try await withServer { server in
            // No Content-Length: the limit must be enforced while reading, not from the head.
            let body = Data(repeating: UInt8(ascii: "b"), count: 3 * 1024 * 1024)
            server.route("GET", "/stream", .respond(TestServer.Reply(status: 200, headers: [("Transfer-Encoding", "chunked")], body: body)))
            let limited = client(for: server, kind, maximumResponseBodySize: 1024 * 1024)
            let error = await capture { () async throws(APIError<Never>) in
                try await limited.send(Probe<Data, Never>(path: "/stream"))
            }
            #expect(error?.category == .transport(.responseTooLarge), "got \(String(describing: error))")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func hostilePathAndQueryValuesStayInTheirPlace(kind: TransportKind) async throws {
        try await withServer { server in
            server.setFallback(.respond(.status(204)))
            let client = client(for: server, kind)
            let cases: [(value: String, path: String, query: String)] = [
                ("../admin", "/files/..%2Fadmin", "..%2Fadmin"),
                ("a/b?c#d", "/files/a%2Fb%3Fc%23d", "a%2Fb%3Fc%23d"),
                ("with space", "/files/with%20space", "with%20space"),
                ("ünï/コード", "/files/%C3%BCn%C3%AF%2F%E3%82%B3%E3%83%BC%E3%83%89", "%C3%BCn%C3%AF%2F%E3%82%B3%E3%83%BC%E3%83%89"),
                // A whole `..` segment is escaped so URL normalisation cannot resolve it;
                // in a query it means nothing and is sent as is.
                ("..", "/files/%2E%2E", ".."),
            ]
            for (value, expectedPath, expectedValue) in cases {
                let request = Probe<NoContent, Never>(
                    path: RequestPath("/files/{name}", ["name": value]),
                    query: ["q": value, "and": "x&admin=true"]
                )
                _ = try await client.send(request)
                let expectedQuery = "q=\(expectedValue)&and=x%26admin%3Dtrue"
                #expect(server.receivedRequests.last?.requestLine == "GET \(expectedPath)?\(expectedQuery) HTTP/1.1")
            }
            #expect(server.requestCount == cases.count)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func templateLiteralsAndValuesAreEncodedExactlyOnce(kind: TransportKind) async throws {
        try await withServer { server in
            server.setFallback(.respond(.status(204)))
            // The literal has non-ASCII, a `%` that is a percent sign, and sub-delimiters a
            // path may carry as they are; the value has `/`, `%`, a space, non-ASCII, `?` and `#`.
            let request = Probe<NoContent, Never>(
                path: RequestPath("/files/café/a%20b;v=1/{name}", ["name": "a/b% c/é?#"])
            )
            _ = try await client(for: server, kind).send(request)
            #expect(server.receivedRequests.map(\.target) == ["/files/caf%C3%A9/a%2520b;v=1/a%2Fb%25%20c%2F%C3%A9%3F%23"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func headerInjectionIsRejectedBeforeAnythingIsSent(kind: TransportKind) async throws {
        try await withServer { server in
            server.setFallback(.respond(.status(204)))
            let error = await capture { () async throws(APIError<UserFailure>) in
                try await client(for: server, kind).send(UserProbe(headers: ["X-Name": "a\r\nX-Admin: true"]))
            }
            guard case .invalidRequest(let invalid) = error else {
                Issue.record("expected invalidRequest, got \(String(describing: error))")
                return
            }
            #expect(invalid.reason == .headerValueContainsLineBreak(name: "X-Name"))
            #expect(server.requestCount == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingMidRequestEndsTheCallPromptly(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .stall)
            // A long attempt timeout: if cancellation did not reach the transport, the call
            // would end as timedOut after 30 s instead of cancelled.
            let client = client(for: server, kind) { $0.timeouts.attempt = .seconds(30) }
            let task = Task { () async -> APIError<UserFailure>? in
                await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
            }
            #expect(await server.waitForRequests(count: 1) == 1)
            task.cancel()
            let error = await task.value
            #expect(error?.category == .transport(.cancelled), "got \(String(describing: error))")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aResetConnectionIsConnectionLost(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .reset)
            let error = await capture { () async throws(APIError<UserFailure>) in
                try await client(for: server, kind).send(GetUser(id: "1"))
            }
            #expect(error?.category == .transport(.connectionLost), "got \(String(describing: error))")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func manyConcurrentCallsEachGetTheirOwnAnswer(kind: TransportKind) async throws {
        try await withServer { server in
            server.setFallback(.respond(.status(404)))
            for id in 0..<60 {
                server.route("GET", "/users/\(id)", .delayed(.milliseconds(id % 7 * 5), .respond(.json(#"{"id":\#(id),"name":"u\#(id)"}"#))))
            }
            let events = EventRecorder()
            let client = client(for: server, kind) { configuration in
                configuration.onEvent = events.hook
                // The calls queue for the host's few connections, and the wait counts against
                // each attempt's timeout. On a loaded 2-core machine the default 30 s ran out
                // once (a fresh-clone CI run); this test is about answers, not time.
                configuration.timeouts.attempt = .seconds(60)
            }
            let users = try await withThrowingTaskGroup(of: User.self) { group in
                for id in 0..<60 {
                    group.addTask { try await client.send(GetUser(id: String(id))) }
                }
                return try await group.reduce(into: [User]()) { $0.append($1) }
            }
            #expect(users.sorted { $0.id < $1.id } == (0..<60).map { User(id: $0, name: "u\($0)") })
            // One request per call, unless a loaded machine stretched an attempt past its
            // timeout and the GET was retried: then the server counts at most every attempt.
            let attempts = events.events.filter { if case .attemptStarted = $0 { return true } else { return false } }.count
            #expect((0..<60).allSatisfy { server.requestCount("GET", "/users/\($0)") >= 1 })
            #expect(server.requestCount >= 60)
            #expect(server.requestCount <= attempts, "\(server.requestCount) requests for \(attempts) attempts")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func delayedRepliesArriveWithinTheTimeout(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .delayed(.milliseconds(50), .respond(.json(#"{"id":1,"name":"late"}"#))))
            let user = try await client(for: server, kind).send(GetUser(id: "1"))
            #expect(user.name == "late")
        }
    }
}
