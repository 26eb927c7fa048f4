import CourierRuntime
import CourierTestServer
import CourierTesting
import DiscordAPI
import Foundation
import Testing

/// The generated Discord client against the real loopback server, through URLSession and
/// AsyncHTTPClient: integer `code` discriminators, the body's `message` as the user message
/// with the spec's fallback and the status sentence behind it, `retryable`, and the 429 body's
/// fractional `retry_after` as the retry delay; and the payload features of format v2: the 50035
/// `errors` tree as `JSON`, integer channel types through the `Channel` union, a PATCH body whose
/// `null` clears a field, and Discord's microsecond timestamps.
@Suite("Discord client (loopback server)", .timeLimit(.minutes(10)))
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
        try await withServer { server in
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
        try await withServer { server in
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
        try await withServer { server in
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
        try await withServer { server in
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
        try await withServer { server in
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
            guard case .textChannel(let channel)? = try? result.get() else {
                Issue.record("expected a text channel, got \(String(describing: try? result.get()))")
                return
            }
            #expect(channel.name == "general")
            #expect(server.requestCount("GET", "/channels/1") == 2)
            // Not the 1 s throttling backoff, and not rounded up to 2 s: the body's own value.
            #expect(delays.all == [.milliseconds(1250)])
        }
    }

    @Test("A Retry-After header wins over the body's retry_after", arguments: MeaningTransport.allCases)
    func headerWinsOverBody(transport: MeaningTransport) async throws {
        try await withServer { server in
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
        try await withServer { server in
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

    @Test("50035 Invalid Form Body: the nested errors tree decoded as JSON and read with subscripts; no errors key is nil",
          arguments: MeaningTransport.allCases)
    func invalidFormBodyErrorsTree(transport: MeaningTransport) async throws {
        try await withServer { server in
            // Discord keys the tree by the request's field path; array indices are object keys ("0").
            let invalid = #"{"code": 50035, "message": "Invalid Form Body", "errors": {"#
                + #""content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]}, "#
                + #""embeds": {"0": {"title": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}}}}}"#
            server.route("POST", "/channels/1/messages", .respond(.json(invalid, status: 400)))
            server.route("POST", "/channels/2/messages", .respond(.json(#"{"code": 50035, "message": "Invalid Form Body"}"#, status: 400)))
            let client = Self.client(server, transport)
            let error = await failure { () async throws(APIError<CreateMessageFailure>) in
                try await client.createMessage(channelID: "1", body: NewMessage(content: String(repeating: "a", count: 2001)))
            }
            guard case .endpoint(.invalidFormBody(let body), _)? = error, let tree = body.value?.errors else {
                Issue.record("expected invalidFormBody with errors, got \(String(describing: error))")
                return
            }
            #expect(tree["content"]?["_errors"]?[0]?["code"]?.stringValue == "BASE_TYPE_MAX_LENGTH")
            #expect(tree["content"]?["_errors"]?[0]?["message"]?.stringValue == "Must be 2000 or fewer in length.")
            #expect(tree["embeds"]?["0"]?["title"]?["_errors"]?[0]?["code"]?.stringValue == "BASE_TYPE_REQUIRED")
            #expect(tree["content"]?["_errors"]?.arrayValue?.count == 1)
            #expect(tree.objectValue.map { Set($0.keys) } == ["content", "embeds"])
            #expect(tree["nonexistent"] == nil)

            let bare = await failure { () async throws(APIError<CreateMessageFailure>) in
                try await client.createMessage(channelID: "2", body: NewMessage(content: "hi"))
            }
            guard case .endpoint(.invalidFormBody(let bareBody), _)? = bare else {
                Issue.record("expected invalidFormBody, got \(String(describing: bare))")
                return
            }
            #expect(bareBody.value != nil)
            #expect(bareBody.value?.errors == nil)
        }
    }

    @Test("Channels by integer type: text, announcement, voice and thread variants; a category and type 99 kept as unknown",
          arguments: MeaningTransport.allCases)
    func channelTypes(transport: MeaningTransport) async throws {
        try await withServer { server in
            server.route("GET", "/channels/text", .respond(.json(
                #"{"id": "1", "type": 0, "guild_id": "9", "name": "general", "topic": "Say hi", "rate_limit_per_user": 5, "parent_id": "4"}"#)))
            server.route("GET", "/channels/news", .respond(.json(
                #"{"id": "5", "type": 5, "guild_id": "9", "name": "news", "position": 3, "nsfw": true}"#)))
            server.route("GET", "/channels/voice", .respond(.json(
                #"{"id": "2", "type": 2, "guild_id": "9", "name": "Lounge", "bitrate": 64000, "user_limit": 0, "rtc_region": null}"#)))
            server.route("GET", "/channels/thread", .respond(.json(
                #"{"id": "11", "type": 11, "guild_id": "9", "name": "Help", "parent_id": "1", "owner_id": "7", "message_count": 3, "#
                + #""thread_metadata": {"archived": false, "auto_archive_duration": 1440, "archive_timestamp": "2021-04-23T09:20:03.123456+00:00", "locked": false}}"#)))
            server.route("GET", "/channels/category", .respond(.json(#"{"id": "4", "type": 4, "guild_id": "9", "name": "Text Channels"}"#)))
            server.route("GET", "/channels/future", .respond(.json(#"{"id": "99", "type": 99, "name": "Something new", "shiny": true}"#)))
            let client = Self.client(server, transport)
            func channel(_ id: String) async -> Channel? {
                try? await outcome { () async throws(APIError<GetChannelFailure>) in try await client.getChannel(channelID: id) }.get()
            }

            guard case .textChannel(let text)? = await channel("text") else {
                Issue.record("expected a text channel")
                return
            }
            #expect(text.type == .guildText)
            #expect(text.topic == "Say hi")
            #expect(text.rateLimitPerUser == 5)
            #expect(text.parentID == "4")
            // Discord leaves out position 0 and nsfw false; the spec's defaults fill them in.
            #expect(text.position == 0)
            #expect(text.nsfw == false)

            guard case .textChannel(let news)? = await channel("news") else {
                Issue.record("expected an announcement channel as a text channel")
                return
            }
            #expect(news.type == .guildAnnouncement)
            #expect(news.position == 3)
            #expect(news.nsfw == true)

            guard case .voiceChannel(let voice)? = await channel("voice") else {
                Issue.record("expected a voice channel")
                return
            }
            #expect(voice.type == .guildVoice)
            #expect(voice.bitrate == 64000)
            #expect(voice.rtcRegion == nil)

            guard case .threadChannel(let thread)? = await channel("thread") else {
                Issue.record("expected a thread")
                return
            }
            #expect(thread.type == .publicThread)
            #expect(thread.ownerID == "7")
            #expect(thread.threadMetadata.autoArchiveDuration == 1440)
            // 2021-04-23T09:20:03.123456Z, microseconds kept (to well under a millisecond).
            #expect(abs(thread.threadMetadata.archiveTimestamp.timeIntervalSince1970 - 1_619_169_603.123456) < 0.000_01)

            // A category has no variant in this slice: unknown, with the whole object.
            guard case .unknown(let category)? = await channel("category") else {
                Issue.record("expected a category as unknown")
                return
            }
            #expect(category["name"]?.stringValue == "Text Channels")
            #expect(category["type"]?.intValue.map(ChannelType.init(rawValue:)) == .guildCategory)

            // A type this client does not know decodes instead of failing, keeping every field.
            guard case .unknown(let future)? = await channel("future") else {
                Issue.record("expected type 99 as unknown")
                return
            }
            #expect(future["type"]?.intValue == 99)
            #expect(future["shiny"]?.boolValue == true)
            #expect(future["type"]?.intValue.map(ChannelType.init(rawValue:)) == .unknown(99))
            #expect(ChannelType.unknown(99).rawValue == 99)
            #expect(server.requestCount == 6)
        }
    }

    @Test("PATCH /channels/{id}: .null sends \"topic\": null, nil leaves topic out, a value sends it; bytes as received",
          arguments: MeaningTransport.allCases)
    func modifyChannelNullVersusOmitted(transport: MeaningTransport) async throws {
        try await withServer { server in
            server.route("PATCH", "/channels/1", .respond(.json(#"{"id": "1", "type": 0, "name": "general"}"#)))
            let client = Self.client(server, transport)
            let bodies: [ModifyChannel] = [
                ModifyChannel(topic: .null),
                ModifyChannel(name: "renamed"),
                ModifyChannel(topic: .value("Rules"), rateLimitPerUser: .null, parentID: .null),
                ModifyChannel(type: .unknown(99), position: .value(2)),
            ]
            for body in bodies {
                let result = await outcome { () async throws(APIError<ModifyChannelFailure>) in
                    try await client.modifyChannel(channelID: "1", body: body)
                }
                guard case .textChannel(let channel)? = try? result.get() else {
                    Issue.record("expected the modified text channel, got \(result)")
                    return
                }
                #expect(channel.topic == nil)
            }
            let received = server.receivedRequests("PATCH", "/channels/1").map(\.body)
            #expect(received.count == 4)
            guard received.count == 4 else { return }
            func object(_ data: Data) -> [String: Any]? {
                (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            }
            let cleared = object(received[0])
            #expect(cleared.map { Set($0.keys) } == ["topic"])
            #expect(cleared?["topic"] is NSNull)
            #expect(String(decoding: received[0], as: UTF8.self).replacingOccurrences(of: " ", with: "") == #"{"topic":null}"#)

            let renamed = object(received[1])
            #expect(renamed.map { Set($0.keys) } == ["name"])
            #expect(renamed?["name"] as? String == "renamed")
            #expect(!String(decoding: received[1], as: UTF8.self).contains("topic"))

            let mixed = object(received[2])
            #expect(mixed.map { Set($0.keys) } == ["topic", "rate_limit_per_user", "parent_id"])
            #expect(mixed?["topic"] as? String == "Rules")
            #expect(mixed?["rate_limit_per_user"] is NSNull)
            #expect(mixed?["parent_id"] is NSNull)

            // An integer enum is sent as its number, an unknown one too.
            let typed = object(received[3])
            #expect(typed.map { Set($0.keys) } == ["type", "position"])
            #expect(typed?["type"] as? Int == 99)
            #expect(typed?["position"] as? Int == 2)
        }
    }

    @Test("Message timestamps: Discord's microsecond ISO 8601 with +00:00 decoded to the instant; edited_timestamp null or set",
          arguments: MeaningTransport.allCases)
    func messageTimestamps(transport: MeaningTransport) async throws {
        try await withServer { server in
            let author = #""author": {"id": "80351110224678912", "username": "nelly", "global_name": null}"#
            server.route("POST", "/channels/1/messages", .respond(.json(
                #"{"id": "334385199974967042", "channel_id": "1", "content": "hi", \#(author), "#
                + #""timestamp": "2017-07-11T17:27:07.299000+00:00", "edited_timestamp": null}"#)))
            server.route("POST", "/channels/2/messages", .respond(.json(
                #"{"id": "334385199974967043", "channel_id": "2", "content": "hi", \#(author), "#
                + #""timestamp": "2017-07-11T17:27:07.299000+00:00", "edited_timestamp": "2017-07-11T18:00:00.5+01:00"}"#)))
            let client = Self.client(server, transport)
            func message(_ channel: String) async -> Message? {
                try? await outcome { () async throws(APIError<CreateMessageFailure>) in
                    try await client.createMessage(channelID: channel, body: NewMessage(content: "hi"))
                }.get()
            }
            guard let fresh = await message("1"), let edited = await message("2") else {
                Issue.record("expected both messages to decode")
                return
            }
            // 2017-07-11T17:27:07.299Z is 1499794027.299 s after the epoch; whole seconds would be 0.299 s off.
            #expect(abs(fresh.timestamp.timeIntervalSince1970 - 1_499_794_027.299) < 0.000_01)
            #expect(fresh.editedTimestamp == nil)
            #expect(fresh.author.globalName == nil)
            // 18:00:00.5 at +01:00 is 17:00:00.5 UTC: 1499792400.5.
            guard let editedAt = edited.editedTimestamp else {
                Issue.record("expected an edited timestamp")
                return
            }
            #expect(abs(editedAt.timeIntervalSince1970 - 1_499_792_400.5) < 0.000_01)
        }
    }
}
