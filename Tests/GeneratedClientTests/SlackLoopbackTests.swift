import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import SlackAPI
import Testing

/// The generated Slack client against the real loopback server, through URLSession and
/// AsyncHTTPClient: failures inside HTTP 200 (`"ok": false`) reach their typed cases with the
/// body decoded and kept raw; a 200 with `"ok": true` decodes as the response.
@Suite("Slack client (loopback server)")
struct SlackLoopbackTests {
    static let urlSession = URLSessionTransport()

    static func failed(_ code: String) -> String {
        #"{"ok": false, "error": "\#(code)", "warning": "missing_charset", "response_metadata": {"warnings": ["missing_charset"]}}"#
    }

    static func clients(_ server: TestServer) -> [(String, SlackClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) { SlackClient(baseURL: server.baseURL, transport: $0) }
    }

    @Test("A 200 with ok true decodes as the response")
    func success() async throws {
        try await withServer { server in
            server.route("POST", "/chat.postMessage", .respond(.json(#"""
                {"ok": true, "channel": "C123", "ts": "1503435956.000247",
                 "message": {"type": "message", "text": "Hello", "user": "U1", "ts": "1503435956.000247"}}
                """#)))
            for (name, client) in Self.clients(server) {
                let sent = try await client.chatPostMessage(body: PostMessageRequest(channel: "C123", text: "Hello"))
                #expect(sent.ok, "\(name)")
                #expect(sent.channel == "C123", "\(name)")
                #expect(sent.message?.text == "Hello", "\(name)")
            }
            #expect(server.requestCount("POST", "/chat.postMessage") == 2)
        }
    }

    @Test("Each error code inside a 200 reaches its case, body decoded and raw kept", arguments: [
        ("channel_not_found", "channelNotFound"), ("not_in_channel", "notInChannel"), ("is_archived", "isArchived"),
        ("msg_too_long", "messageTooLong"), ("invalid_auth", "invalidAuth"), ("not_authed", "invalidAuth"),
        ("ratelimited", "rateLimited"), ("something_new", "slackError"),
    ])
    func errorsInsideSuccess(code: String, expected: String) async throws {
        try await withServer { server in
            server.route("POST", "/chat.postMessage", .respond(.json(Self.failed(code))))
            for (name, client) in Self.clients(server) {
                let error = await failure { () async throws(APIError<ChatPostMessageFailure>) in
                    try await client.chatPostMessage(body: PostMessageRequest(channel: "C123", text: "Hello"))
                }
                guard case .endpoint(let failure, let raw) = error else {
                    Issue.record("\(name): expected an endpoint failure, got \(String(describing: error))")
                    continue
                }
                #expect(raw.status.code == 200, "\(name)")
                #expect(raw.text == Self.failed(code), "\(name)")
                let body: ErrorBody<SlackError>
                switch failure {
                case .channelNotFound(let b): #expect(expected == "channelNotFound"); body = b
                case .notInChannel(let b): #expect(expected == "notInChannel"); body = b
                case .isArchived(let b): #expect(expected == "isArchived"); body = b
                case .messageTooLong(let b): #expect(expected == "messageTooLong"); body = b
                case .invalidAuth(let b): #expect(expected == "invalidAuth"); body = b
                case .rateLimited(let b): #expect(expected == "rateLimited"); body = b
                case .slackError(let b): #expect(expected == "slackError"); body = b
                case .tooManyRequests:
                    Issue.record("\(name): a 200 became tooManyRequests")
                    continue
                }
                #expect(body.value?.ok == false, "\(name)")
                #expect(body.value?.error == code, "\(name)")
                #expect(body.value?.warning == "missing_charset", "\(name)")
                #expect(body.value?.responseMetadata?.warnings == ["missing_charset"], "\(name)")
                #expect(body.text == Self.failed(code), "\(name)")
                // A case without a spec message names the failure, not "200 OK" as if it succeeded.
                let described = failure.localizedDescription
                if expected == "invalidAuth" {
                    #expect(described == "The Slack token is invalid.", "\(name)")
                } else {
                    #expect(described == "The server reported a failure in its 200 answer.", "\(name)")
                }
            }
        }
    }

    @Test("conversations.info inherits the defaults' 200 mapping; its failure is not retried")
    func inheritedAndNotRetried() async throws {
        try await withServer { server in
            server.route("GET", "/conversations.info", .respond(.json(Self.failed("ratelimited"))))
            let client = SlackClient(baseURL: server.baseURL, transport: Self.urlSession)
            let error = await failure { () async throws(APIError<ConversationsInfoFailure>) in
                try await client.conversationsInfo(channel: "C123")
            }
            if case .endpoint(.rateLimited(let body), _) = error {
                #expect(body.value?.error == "ratelimited")
            } else {
                Issue.record("expected rateLimited, got \(String(describing: error))")
            }
            // A GET is safe to repeat, yet a failure inside a success status is never retried.
            #expect(server.requestCount("GET", "/conversations.info") == 1)

            server.route("GET", "/conversations.info", .respond(.json(#"""
                {"ok": true, "channel": {"id": "C123", "name": "general", "is_channel": true, "is_archived": false}}
                """#)))
            let info = try await client.conversationsInfo(channel: "C123")
            #expect(info.channel.name == "general")
            #expect(info.channel.isArchived == false)
        }
    }
}
