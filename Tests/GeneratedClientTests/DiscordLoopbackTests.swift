import CourierRuntime
import CourierTestServer
import CourierTesting
import DiscordAPI
import Foundation
import Testing

/// The generated Discord client against the real loopback server, through URLSession and
/// AsyncHTTPClient: integer `code` discriminators, the body's `message` as the user message
/// with the spec's fallback and the status sentence behind it, `retryable`, and the 429 body's
/// fractional `retry_after` as the retry delay.
@Suite("Discord client (loopback server)", .timeLimit(.minutes(1)))
struct DiscordLoopbackTests {
    static func error(_ code: Int, _ message: String) -> String {
        #"{"code": \#(code), "message": "\#(message)"}"#
    }

    static let channel = #"{"id": "41771983423143937", "type": 0, "guild_id": "41771983423143937", "name": "general"}"#

    static func client(_ server: TestServer, _ transport: MeaningTransport,
                       configuration: APIClient.Configuration = APIClient.Configuration()) -> DiscordClient {
        DiscordClient(baseURL: server.baseURL, transport: transport.make(), configuration: configuration)
    }

    @Test("404 with code 10003: unknownChannel, its fields decoded, the raw body kept, the server's message shown",
          arguments: MeaningTransport.allCases)
    func serverMessage(transport: MeaningTransport) async throws {
        try await withMeaningServer { server in
            server.route("GET", "/channels/1", .respond(.json(Self.error(10003, "Unknown Channel"), status: 404)))
            let client = Self.client(server, transport)
            let error = await failure { () async throws(APIError<GetChannelFailure>) in try await client.getChannel(channelID: "1") }
            guard case .endpoint(.unknownChannel(let body), let raw)? = error else {
                Issue.record("expected unknownChannel, got \(String(describing: error))")
                return
            }
            #expect(body.code == 10003)
            #expect(body.message == "Unknown Channel")
            #expect(raw.status.code == 404)
            #expect(raw.text == Self.error(10003, "Unknown Channel"))
            let failure = DiscordFailure.unknownChannel(body)
            #expect(failure.localizedDescription == "Unknown Channel")
            #expect(failure.errorDescription == "Unknown Channel")
            #expect(server.requestCount("GET", "/channels/1") == 1)
        }
    }

    @Test("400 with code 50035 and Discord's nested errors: invalidFormBody, decoded, the nested errors kept in the raw body",
          arguments: MeaningTransport.allCases)
    func invalidFormBody(transport: MeaningTransport) async throws {
        try await withMeaningServer { server in
            let invalid = #"{"code": 50035, "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "#
                + #""message": "Must be 2000 or fewer in length."}]}}, "message": "Invalid Form Body"}"#
            server.route("POST", "/channels/1/messages", .respond(.json(invalid, status: 400)))
            let client = Self.client(server, transport)
            let error = await failure { () async throws(APIError<CreateMessageFailure>) in
                try await client.createMessage(channelID: "1", body: NewMessage(content: String(repeating: "a", count: 2001)))
            }
            guard case .endpoint(.invalidFormBody(let body), let raw)? = error else {
                Issue.record("expected invalidFormBody, got \(String(describing: error))")
                return
            }
            #expect(body.code == 50035)
            #expect(body.decodingFailure == nil)
            #expect(raw.text.contains("BASE_TYPE_MAX_LENGTH"))
            #expect(DiscordFailure.invalidFormBody(body).localizedDescription == "Invalid Form Body")
        }
    }

    @Test("A blank or missing server message gives the spec's fallback; no message and no fallback give the status",
          arguments: MeaningTransport.allCases)
    func fallbackAndStatusSentence(transport: MeaningTransport) async throws {
        try await withMeaningServer { server in
            server.route("GET", "/channels/blank", .respond(.json(Self.error(10003, "  "), status: 404)))
            server.route("GET", "/channels/perm", .respond(.json(#"{"code": 50013}"#, status: 403)))
            server.route("GET", "/channels/other", .respond(.json(Self.error(12345, "Something else"), status: 404)))
            server.route("GET", "/channels/access", .respond(.json(#"{"code": 50001, "message": null}"#, status: 403)))
            let client = Self.client(server, transport)
            func description(_ id: String) async -> (DiscordFailure?, String?) {
                let error = await failure { () async throws(APIError<GetChannelFailure>) in try await client.getChannel(channelID: id) }
                guard case .endpoint(let failure, _)? = error else { return (nil, nil) }
                return (failure, failure.localizedDescription)
            }

            let (blank, blankText) = await description("blank")
            #expect(blank.map { if case .unknownChannel = $0 { true } else { false } } == true)
            #expect(blankText == "This channel does not exist.")

            // The body does not decode as DiscordError (no message), yet the case and its fallback stand.
            let (permission, permissionText) = await description("perm")
            if case .missingPermissions(let body)? = permission {
                #expect(body.value == nil)
                #expect(body.decodingFailure != nil)
            } else {
                Issue.record("expected missingPermissions, got \(String(describing: permission))")
            }
            #expect(permissionText == "You lack permissions to do this.")

            // An unlisted code is `notFound`, which has no message: the status names the problem,
            // not the server's text, because the spec did not say the body's message is for people.
            let (other, otherText) = await description("other")
            #expect(other.map { if case .notFound = $0 { true } else { false } } == true)
            #expect(otherText == "The server answered 404 Not Found.")

            // A message field with no fallback and no text: the status sentence.
            let (access, accessText) = await description("access")
            #expect(access.map { if case .missingAccess = $0 { true } else { false } } == true)
            #expect(accessText == "The server answered 403 Forbidden.")
        }
    }

    @Test("A 5XX without a body: the status class; a POST is not repeated", arguments: MeaningTransport.allCases)
    func serverErrorSentence(transport: MeaningTransport) async throws {
        try await withMeaningServer { server in
            server.route("POST", "/channels/1/messages", .respond(.status(500)))
            let client = Self.client(server, transport)
            let error = await failure { () async throws(APIError<CreateMessageFailure>) in
                try await client.createMessage(channelID: "1", body: NewMessage(content: "hi"))
            }
            guard case .endpoint(.serverError, let raw)? = error else {
                Issue.record("expected serverError, got \(String(describing: error))")
                return
            }
            #expect(raw.status.code == 500)
            #expect(DiscordFailure.serverError.localizedDescription == "The server answered with an error (5XX).")
            #expect(server.requestCount("POST", "/channels/1/messages") == 1)
        }
    }

    @Test("429 with retry_after 1.25 in the body and no Retry-After: the retry waits exactly 1.25 s, then succeeds",
          arguments: MeaningTransport.allCases)
    func bodyRetryAfter(transport: MeaningTransport) async throws {
        try await withMeaningServer { server in
            let limited = #"{"message": "You are being rate limited.", "retry_after": 1.25, "global": false}"#
            server.route("GET", "/channels/1", failingFirst: 1,
                         with: .respond(.json(limited, status: 429, headers: [("X-RateLimit-Reset-After", "1.250")])),
                         then: .respond(.json(Self.channel)))
            let clock = ManualClock()
            let delays = RecordedDelays()
            let client = Self.client(server, transport, configuration: meaningConfiguration(clock: clock, delays: delays))
            let result = await drivingRetries(on: clock) {
                await outcome { () async throws(APIError<GetChannelFailure>) in try await client.getChannel(channelID: "1") }
            }
            #expect((try? result.get())?.name == "general")
            #expect(server.requestCount("GET", "/channels/1") == 2)
            // Not the 1 s throttling backoff, and not rounded up to 2 s: the body's own value.
            #expect(delays.all == [.milliseconds(1250)])
        }
    }

    @Test("A Retry-After header wins over the body's retry_after", arguments: MeaningTransport.allCases)
    func headerWinsOverBody(transport: MeaningTransport) async throws {
        try await withMeaningServer { server in
            let limited = #"{"message": "Slow down.", "retry_after": 1.25, "global": true}"#
            server.route("GET", "/channels/1", failingFirst: 1,
                         with: .respond(.json(limited, status: 429, headers: [("Retry-After", "3")])),
                         then: .respond(.json(Self.channel)))
            let clock = ManualClock()
            let delays = RecordedDelays()
            let client = Self.client(server, transport, configuration: meaningConfiguration(clock: clock, delays: delays))
            let result = await drivingRetries(on: clock) {
                await outcome { () async throws(APIError<GetChannelFailure>) in try await client.getChannel(channelID: "1") }
            }
            #expect((try? result.get()) != nil)
            #expect(delays.all == [.seconds(3)])
        }
    }

    @Test("A 429 that stays: rateLimited with its body, the server's message, and the Discord rate-limit names read",
          arguments: MeaningTransport.allCases)
    func rateLimitedCase(transport: MeaningTransport) async throws {
        try await withMeaningServer { server in
            let limited = #"{"message": "You are being rate limited.", "retry_after": 0.5, "global": false}"#
            server.route("POST", "/channels/1/messages", .respond(.json(limited, status: 429, headers: [
                ("X-RateLimit-Limit", "5"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset-After", "0.5"),
            ])))
            let client = Self.client(server, transport)
            let error = await failure { () async throws(APIError<CreateMessageFailure>) in
                try await client.createMessage(channelID: "1", body: NewMessage(content: "hi"))
            }
            guard case .endpoint(.rateLimited(let body), let raw)? = error else {
                Issue.record("expected rateLimited, got \(String(describing: error))")
                return
            }
            #expect(body.retryAfter == 0.5)
            #expect(body.global == false)
            #expect(DiscordFailure.rateLimited(body).localizedDescription == "You are being rate limited.")
            #expect(DiscordFailure.rateLimited(body).isRetryable == true)
            let rateLimit = raw.rateLimit
            #expect(rateLimit.limit == 5)
            #expect(rateLimit.remaining == 0)
            #expect(rateLimit.resetsAt == raw.receivedAt.addingTimeInterval(0.5))
            // The body's 0.5 s, in the header's whole seconds, rounded up.
            #expect(rateLimit.retryAfter == .seconds(1))
            // A POST is not repeated, whatever the failure says.
            #expect(server.requestCount("POST", "/channels/1/messages") == 1)
        }
    }
}
