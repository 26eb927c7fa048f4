import CourierLocking
import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// `ClientMiddleware` through both real transports against the loopback server: where the
/// chain runs in a call (after auth, once per attempt, inside retry and the breaker), what a
/// short-circuit and a thrown error do, and the article's two worked examples end to end.
@Suite(.timeLimit(.minutes(10))) struct MiddlewareTests {
    /// Records what each middleware saw, in order, and marks the request on its way.
    struct Recording: ClientMiddleware {
        static let trail = HTTPField.Name("X-Trail")!
        var name: String
        var log: Locked<[String]>

        func intercept(
            _ request: HTTPRequest,
            body: HTTPBody?,
            context: MiddlewareContext,
            next: ClientMiddleware.Next
        ) async throws -> (HTTPResponse, HTTPBody?) {
            log.withLock {
                $0.append("\(name) attempt \(context.attempt) \(context.operationName) auth=\(request.headerFields[.authorization] ?? "none") trail=\(request.headerFields[Self.trail] ?? "none")")
            }
            var request = request
            request.headerFields[Self.trail] = [request.headerFields[Self.trail], name].compactMap { $0 }.joined(separator: ",")
            let response = try await next(request, body)
            log.withLock { $0.append("\(name) saw \(response.0.status.code)") }
            return response
        }
    }

    /// A middleware made of a closure, for the one-off cases.
    struct Intercepting: ClientMiddleware {
        var handle: @Sendable (HTTPRequest, HTTPBody?, MiddlewareContext, ClientMiddleware.Next) async throws -> (HTTPResponse, HTTPBody?)

        func intercept(
            _ request: HTTPRequest,
            body: HTTPBody?,
            context: MiddlewareContext,
            next: ClientMiddleware.Next
        ) async throws -> (HTTPResponse, HTTPBody?) {
            try await handle(request, body, context, next)
        }
    }

    struct SigningKeyMissing: Error, CustomStringConvertible {
        var description: String { "no signing key for this account" }
    }

    static func resilientClient(for server: TestServer, _ kind: TransportKind, _ configure: (inout APIClient.Configuration) -> Void) -> APIClient {
        client(for: server, kind) {
            $0.resilience = Resilience(retryPolicy: FaultInjectionTests.quickPolicy, sharing: .isolated)
            configure(&$0)
        }
    }

    // MARK: - Order in the call

    @Test(arguments: TransportKind.allCases)
    func middlewaresRunInArrayOrderAfterAuth(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"id":1,"name":"a"}"#)))
            let log = Locked<[String]>([])
            let client = client(for: server, kind) {
                $0.auth = .bearer(token: { "t-1" })
                $0.middlewares = [Recording(name: "outer", log: log), Recording(name: "inner", log: log)]
            }
            let user = try await client.send(GetUser(id: "1"))
            #expect(user.id == 1)
            // The first in the array is outermost: it sees the request first and the response last.
            #expect(log.withLock { $0 } == [
                "outer attempt 1 getUser auth=Bearer t-1 trail=none",
                "inner attempt 1 getUser auth=Bearer t-1 trail=outer",
                "inner saw 200",
                "outer saw 200",
            ])
            let received = try #require(server.receivedRequests.first)
            #expect(received.header("X-Trail") == "outer,inner")
            #expect(received.header("Authorization") == "Bearer t-1")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func everyRetryPassesThroughTheMiddlewareAgain(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", failingFirst: 1, with: .respond(.status(503)), then: .respond(.json(#"{"id":1,"name":"a"}"#)))
            let log = Locked<[String]>([])
            let client = Self.resilientClient(for: server, kind) {
                $0.middlewares = [
                    Intercepting { request, body, context, next in
                        var request = request
                        request.headerFields[HTTPField.Name("X-Attempt")!] = String(context.attempt)
                        return try await next(request, body)
                    },
                    Recording(name: "recorder", log: log),
                ]
            }
            let user = try await client.send(GetUser(id: "1"))
            #expect(user.name == "a")
            #expect(log.withLock { $0 } == [
                "recorder attempt 1 getUser auth=none trail=none", "recorder saw 503",
                "recorder attempt 2 getUser auth=none trail=none", "recorder saw 200",
            ])
            #expect(server.headerValues("X-Attempt", "GET", "/users/1") == ["1", "2"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aReplayAfter401GoesThroughWithTheNewCredentials(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1") { request in
                request.header("Authorization") == "Bearer fresh" ? .respond(.json(#"{"id":1,"name":"a"}"#)) : .respond(.status(401))
            }
            let token = Locked("stale")
            let log = Locked<[String]>([])
            let client = client(for: server, kind) {
                $0.auth = .bearer(token: { token.withLock { $0 } }, onUnauthorized: { _ in
                    token.withLock { $0 = "fresh" }
                    return .replay
                })
                $0.middlewares = [Recording(name: "recorder", log: log)]
            }
            _ = try await client.send(GetUser(id: "1"))
            #expect(log.withLock { $0 } == [
                "recorder attempt 1 getUser auth=Bearer stale trail=none", "recorder saw 401",
                "recorder attempt 2 getUser auth=Bearer fresh trail=none", "recorder saw 200",
            ])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anOpenBreakerReachesNoMiddleware(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.status(503)))
            let calls = Locked(0)
            let client = client(for: server, kind) {
                $0.resilience = Resilience(
                    retryPolicy: .never,
                    circuitBreaker: .consecutiveFailures(1, successesToClose: 1),
                    circuitBreakerScope: .host,
                    sharing: .isolated
                )
                $0.middlewares = [Intercepting { request, body, _, next in
                    calls.withLock { $0 += 1 }
                    return try await next(request, body)
                }]
            }
            let first = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
            #expect(first?.status == .serviceUnavailable)
            let second = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
            guard case .circuitOpen = second else {
                Issue.record("expected circuitOpen, got \(String(describing: second))")
                return
            }
            #expect(calls.withLock { $0 } == 1)
            #expect(server.requestCount("GET", "/users/1") == 1)
        }
    }

    // MARK: - Answers and errors

    @Test(arguments: TransportKind.allCases)
    func aShortCircuitNeverReachesTheServer(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"id":1,"name":"from the server"}"#)))
            let client = client(for: server, kind) {
                $0.middlewares = [Intercepting { _, _, _, _ in
                    var head = HTTPResponse(status: .ok)
                    head.headerFields[.contentType] = "application/json"
                    return (head, HTTPBody(#"{"id":1,"name":"mocked"}"#))
                }]
            }
            let user = try await client.send(GetUser(id: "1"))
            #expect(user.name == "mocked")
            #expect(server.totalRequestCount == 0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aMiddlewaresOwnErrorIsAnInvalidRequestAndNotRetried(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"id":1,"name":"a"}"#)))
            let calls = Locked(0)
            let events = EventRecorder()
            let client = Self.resilientClient(for: server, kind) {
                $0.onEvent = events.hook
                $0.middlewares = [Intercepting { _, _, _, _ in
                    calls.withLock { $0 += 1 }
                    throw SigningKeyMissing()
                }]
            }
            let error = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
            guard case .invalidRequest(let invalid) = error, case .middlewareFailed(let reason) = invalid.reason else {
                Issue.record("expected middlewareFailed, got \(String(describing: error))")
                return
            }
            #expect(reason == "no signing key for this account")
            #expect(invalid.operationName == "getUser")
            #expect(calls.withLock { $0 } == 1)
            #expect(server.totalRequestCount == 0)
            let attempts = events.events.compactMap { event -> ClientEvent.AttemptResult? in
                if case .attemptFinished(_, _, let result, _) = event { return result }
                return nil
            }
            #expect(attempts == [.middlewareFailed])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTransportErrorFromAMiddlewareIsRetriedByItsKind(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("POST", "/orders", .respond(.status(204)))
            let calls = Locked(0)
            let client = Self.resilientClient(for: server, kind) {
                $0.middlewares = [Intercepting { request, body, _, next in
                    // A mock of a refused connection: nothing sent, so even a POST may be repeated.
                    if calls.withLock({ $0 += 1; return $0 }) == 1 {
                        throw TransportError(.connectionRefused, requestMayHaveBeenSent: false)
                    }
                    return try await next(request, body)
                }]
            }
            _ = try await client.send(FaultInjectionTests.createOrder)
            #expect(calls.withLock { $0 } == 2)
            #expect(server.requestCount("POST", "/orders") == 1)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamedResponseReachesTheMiddlewareUnread(kind: TransportKind) async throws {
        try await withServer { server in
            let text = String(repeating: "chunk of a download\n", count: 2_000)
            server.route("GET", "/export", .respond(TestServer.Reply(status: 200, headers: [("Content-Type", "text/plain")], body: Data(text.utf8))))
            let sawBuffered = Locked<Bool?>(nil)
            let client = client(for: server, kind) {
                $0.middlewares = [Intercepting { request, body, context, next in
                    let (head, responseBody) = try await next(request, body)
                    sawBuffered.withLock { $0 = context.streamsResponse ? responseBody?.bufferedData != nil : nil }
                    return (head, responseBody)
                }]
            }
            let response = try await client.stream(Probe<NoContent, Never>(path: "/export"))
            let data = try await response.body.collect(upTo: 1 << 20)
            #expect(String(decoding: data, as: UTF8.self) == text)
            #expect(sawBuffered.withLock { $0 } == false)
        }
    }

    // MARK: - The worked examples

    @Test(arguments: TransportKind.allCases)
    func theETagCacheTurnsA304IntoTheCachedBody(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/1") { request in
                if request.header("If-None-Match") == #""v1""# {
                    return .respond(.status(304, headers: [("ETag", #""v1""#)]))
                }
                return .respond(.json(#"{"id":1,"name":"cached"}"#, headers: [("ETag", #""v1""#)]))
            }
            let client = client(for: server, kind) { $0.middlewares = [ETagCache()] }
            let first = try await client.response(for: GetUser(id: "1"))
            let second = try await client.response(for: GetUser(id: "1"))
            #expect(first.value == User(id: 1, name: "cached"))
            #expect(second.value == first.value)
            #expect(second.status == .ok)
            #expect(server.headerValues("If-None-Match", "GET", "/users/1") == [nil, #""v1""#])
            // The server's second answer was an empty 304: the body came from the cache.
            #expect(server.requestCount("GET", "/users/1") == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theSignerSignsEachAttemptsFinalBytes(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("POST", "/orders", failingFirst: 1, with: .respond(.status(503)), then: .respond(.status(204)))
            let secret = Array("signing-secret".utf8)
            let clock = Locked(0)
            let signer = RequestSigner(keyID: "key-7", secret: secret, now: {
                "20260101T1200\(String(format: "%02d", clock.withLock { $0 += 1; return $0 }))Z"
            })
            let client = Self.resilientClient(for: server, kind) {
                $0.auth = .bearer(token: { "t-1" })
                $0.middlewares = [signer]
            }
            // A streamed body, two chunks, repeatable: the signer must read it to hash it.
            let chunks = [Data(#"{"item":"#.utf8), Data(#""tea"}"#.utf8)]
            let order = Probe<NoContent, Never>(
                method: .post, path: "/orders",
                body: .stream(HTTPBody(ChunkList(chunks: chunks), length: .unknown, iterationBehavior: .multiple), contentType: "application/json")
            )
            _ = try await client.send(order, resilience: .safeToRepeat)
            let received = server.receivedRequests("POST", "/orders")
            #expect(received.count == 2)
            // Each attempt carries its own timestamp, and the server's own computation over what
            // it received (the body's bytes included) matches each attempt's signature.
            #expect(received.map { $0.header("X-Courier-Date") } == ["20260101T120001Z", "20260101T120002Z"])
            for request in received {
                #expect(request.body == Data(#"{"item":"tea"}"#.utf8))
                let values = RequestSigner.signedHeaders.map { request.header($0) ?? "" }
                let expected = RequestSigner.sign(method: request.method, target: request.target, headerValues: values,
                                                  payloadHash: SHA256.hex(SHA256.hash(request.body)),
                                                  date: request.header("X-Courier-Date") ?? "", secret: secret)
                #expect(request.header("X-Courier-Signature")?.hasSuffix("signature=\(expected)") == true)
                #expect(request.header("Authorization") == "Bearer t-1")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theSignerReadsASingleUseBodyOnceAndSendsThoseBytes(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("PUT", "/blobs/1", .respond(.status(204)))
            let secret = Array("signing-secret".utf8)
            let client = client(for: server, kind) {
                $0.middlewares = [RequestSigner(keyID: "key-7", secret: secret, now: { "20260101T120000Z" })]
            }
            // Read once by the signer to hash it: the transport must get the bytes it read, since
            // reading this body again would fail with `alreadyRead`.
            let chunks = (0..<8).map { Data(repeating: UInt8(ascii: "a") + UInt8($0), count: 4_096) }
            let upload = Probe<NoContent, Never>(
                method: .put, path: "/blobs/1",
                body: .stream(HTTPBody(ChunkList(chunks: chunks), length: .unknown, iterationBehavior: .single), contentType: "application/octet-stream")
            )
            _ = try await client.send(upload)
            let received = try #require(server.receivedRequests("PUT", "/blobs/1").first)
            #expect(received.body == chunks.reduce(Data(), +))
            #expect(received.header("X-Courier-Content-SHA256") == SHA256.hex(SHA256.hash(received.body)))
        }
    }
}

@Suite struct SHA256Tests {
    @Test func digestsMatchTheStandardsVectors() {
        #expect(SHA256.hex(SHA256.hash(Data())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(SHA256.hash(Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(SHA256.hash(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func hmacMatchesRFC4231() {
        // Test case 2 of RFC 4231.
        #expect(SHA256.hex(SHA256.hmac(key: Data("Jefe".utf8), message: Data("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than the block is hashed first.
        #expect(SHA256.hex(SHA256.hmac(key: [UInt8](repeating: 0xaa, count: 131),
                                       message: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
