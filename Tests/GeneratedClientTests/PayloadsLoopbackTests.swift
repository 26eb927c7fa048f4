import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import ReferencePayloads
import Testing

/// The v2 payload types of the `Payloads` reference through the real loopback server and real
/// transports: number enums with unknown values, free-form JSON both ways, dates per property,
/// PATCH bodies that send null or leave a key out, defaults and read-only fields. Every request
/// assertion is on the bytes the server received.
@Suite("Payload types (loopback server)")
struct PayloadsLoopbackTests {
    enum Transport: String, CaseIterable, Sendable {
        case urlSession, asyncHTTPClient
    }

    static let urlSession = URLSessionTransport()
    static let asyncHTTPClient = AsyncHTTPClientTransport()

    static func withClient(_ transport: Transport = .urlSession,
                           _ body: (TestServer, PayloadsClient) async throws -> Void) async throws {
        let server = try await TestServer.start()
        let client = PayloadsClient(baseURL: server.baseURL,
                                    transport: transport == .urlSession ? Self.urlSession : Self.asyncHTTPClient)
        do {
            try await body(server, client)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The JSON object the server received as the last request's body.
    static func receivedObject(_ server: TestServer) throws -> [String: JSON] {
        let request = try #require(server.receivedRequests.last)
        return try #require(try JSON(parsing: request.body).objectValue, "body: \(String(decoding: request.body, as: UTF8.self))")
    }

    @Test("Number enums decode listed values into cases and others into unknown, and travel as numbers",
          arguments: Transport.allCases)
    func numberEnums(transport: Transport) async throws {
        try await Self.withClient(transport) { server, client in
            server.route("GET", "/channels", .respond(.json(#"""
                [{"id": 1, "name": "general", "type": 0, "kind": 2, "ratio": 1},
                 {"id": 2, "name": "forum", "type": 15, "kind": 4, "ratio": 0.25}]
                """#)))
            let channels = try await client.listChannels(type: .unknown(13))
            #expect(channels.map(\.type) == [.guildText, .unknown(15)])
            #expect(channels.map(\.kind) == [.guildVoice, .guildCategory])
            #expect(channels.map(\.ratio) == [.whole, .unknown(0.25)])
            #expect(try #require(server.receivedRequests.last).query == "type=13")
            // The parameter's default is a number enum case, sent as its number.
            _ = try await client.listChannels()
            #expect(try #require(server.receivedRequests.last).query == "type=4")
        }
        #expect(Snowflake(rawValue: 9_007_199_254_740_993) == .beyondDouble)
        #expect(Snowflake(rawValue: 9_007_199_254_740_992) == .unknown(9_007_199_254_740_992))
        #expect(Snowflake.none.rawValue == -1)
    }

    @Test("Defaults fill the initialiser and missing keys; read-only fields are decoded but never sent")
    func defaultsAndReadOnly() async throws {
        try await Self.withClient { server, client in
            // The server leaves out every defaulted key.
            server.route("POST", "/channels", .respond(.json(#"{"id": 77, "name": "voice", "type": 2}"#, status: 201)))
            let created = try await client.createChannel(body: Channel(id: 0, name: "voice", type: .guildVoice))
            #expect(created == Channel(id: 77, name: "voice", type: .guildVoice, position: 0, nsfw: false, topic: "General",
                                       kind: .guildVoice, ratio: .half))
            let sent = try Self.receivedObject(server)
            #expect(sent["id"] == nil, "a read-only field was sent")
            #expect(sent == ["name": "voice", "type": 2, "position": 0, "nsfw": false, "topic": "General", "kind": 2, "ratio": 0.5])
        }
    }

    @Test("Dates follow each property's format both ways, and a bad date is a decoding failure",
          arguments: Transport.allCases)
    func datesPerProperty(transport: Transport) async throws {
        try await Self.withClient(transport) { server, client in
            server.route("POST", "/tasks", .respond(.json(#"""
                {"name": "Ship", "due_on": "2024-02-29", "start_on": "1969-12-31",
                 "created_at": "2025-01-31T09:30:00.250Z", "remind_at": 1738315800.5, "modified_at": "2025-01-31T09:30:00Z"}
                """#, status: 201)))
            let dueOn = Date(timeIntervalSince1970: 1_709_164_800)  // 2024-02-29T00:00:00Z
            // 23:59:59 UTC on 31 December 1969: the UTC day, not a local one, and before 1970.
            let startOn = Date(timeIntervalSince1970: -1)
            let task = try await client.createTask(body: TodoTask(
                name: "Ship", dueOn: dueOn.addingTimeInterval(3_600 * 23), startOn: startOn,
                createdAt: Date(timeIntervalSince1970: 5), remindAt: Date(timeIntervalSince1970: 1_738_315_800.5),
                modifiedAt: Date(timeIntervalSince1970: 1_738_315_800)))
            #expect(task.dueOn == dueOn)
            #expect(task.startOn == Date(timeIntervalSince1970: -86_400))
            #expect(abs(task.createdAt.timeIntervalSince1970 - 1_738_315_800.25) < 0.000_5)
            #expect(task.remindAt == Date(timeIntervalSince1970: 1_738_315_800.5))
            #expect(task.modifiedAt == Date(timeIntervalSince1970: 1_738_315_800))
            let sent = try Self.receivedObject(server)
            #expect(sent == ["name": "Ship", "due_on": "2024-02-29", "start_on": "1969-12-31",
                             "remind_at": 1_738_315_800.5, "modified_at": "2025-01-31T09:30:00Z"])

            server.route("POST", "/tasks", .respond(.json(#"""
                {"name": "Ship", "due_on": "2025-02-29", "start_on": "2025-01-01", "created_at": "2025-01-31T09:30:00Z"}
                """#, status: 201)))
            let error = await failure { () async throws(APIError<CreateTaskFailure>) in
                _ = try await client.createTask(body: TodoTask(name: "x", startOn: startOn, createdAt: startOn))
            }
            guard case .decoding? = error else {
                Issue.record("expected a decoding failure for 2025-02-29, got \(String(describing: error))")
                return
            }
        }
    }

    @Test("A PATCH sends null to clear a field and leaves out what it does not change; responses keep the difference")
    func nullableVersusAbsent() async throws {
        try await Self.withClient { server, client in
            server.route("PATCH", "/issues/7", .respond(.json(#"{"number": 7, "title": "T", "milestone": null}"#)))
            let cleared = try await client.updateIssue(number: 7, body: IssuePatch(milestone: .null, dueOn: .null))
            #expect(String(decoding: try #require(server.receivedRequests.last).body, as: UTF8.self)
                    == #"{"due_on":null,"milestone":null}"#)
            #expect(cleared.milestone == .null)
            #expect(cleared.dueOn == nil)

            server.route("PATCH", "/issues/7", .respond(.json(#"{"number": 7, "title": "T", "milestone": 3, "due_on": "2025-03-01"}"#)))
            let set = try await client.updateIssue(number: 7, body: IssuePatch(title: "T", milestone: .value(3), assignee: nil))
            #expect(String(decoding: try #require(server.receivedRequests.last).body, as: UTF8.self)
                    == #"{"milestone":3,"title":"T"}"#)
            #expect(set.milestone == .value(3))
            #expect(set.dueOn == .value(Date(timeIntervalSince1970: 1_740_787_200)))

            _ = try await client.updateIssue(number: 7, body: IssuePatch())
            #expect(String(decoding: try #require(server.receivedRequests.last).body, as: UTF8.self) == "{}")
            #expect(server.requestCount("PATCH", "/issues/7") == 3)
        }
    }

    @Test("Free-form JSON survives a round trip as property, element, map value, body, response and error body",
          arguments: Transport.allCases)
    func freeFormJSON(transport: Transport) async throws {
        try await Self.withClient(transport) { server, client in
            let file = #"""
                {"id": "f1", "context_info": null,
                 "metadata": {"plan": "pro", "seats": 5, "nested": {"a": [1, 2.5, true, null]}},
                 "entries": [{"type": "file"}, "text", 9007199254740993],
                 "raw": {"errors": {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED"}]}}}}
                """#
            server.route("GET", "/files/f1", .respond(.json(file)))
            let decoded = try await client.getFile(id: "f1")
            #expect(decoded.contextInfo == .some(.null), "an explicit null is kept, not read as a missing key")
            #expect(decoded.metadata["nested"]?["a"]?[1]?.doubleValue == 2.5)
            #expect(decoded.entries?[2] == .integer(9_007_199_254_740_993))
            #expect(decoded.raw["errors"]?["name"]?["_errors"]?[0]?["code"]?.stringValue == "BASE_TYPE_REQUIRED")

            server.route("GET", "/files/f2", .respond(.json(#"{"id": "f2", "metadata": {}, "raw": 1}"#)))
            #expect(try await client.getFile(id: "f2").contextInfo == nil)

            let body: JSON = ["file": try JSON(parsing: Data(file.utf8)), "list": [1, "two", nil, 3.5]]
            server.route("POST", "/echo", { request in .respond(.json(String(decoding: request.body, as: UTF8.self))) })
            let echoed = try await client.echo(body: body)
            #expect(echoed == body)
            #expect(try JSON(parsing: try #require(server.receivedRequests.last).body) == body)

            server.route("PATCH", "/issues/1", .respond(.json(#"{"message": "Validation Failed", "errors": [{"field": "title"}]}"#, status: 422)))
            let error = await failure { () async throws(APIError<UpdateIssueFailure>) in
                _ = try await client.updateIssue(number: 1, body: IssuePatch())
            }
            guard case .endpoint(.invalid(let problem), let raw)? = error else {
                Issue.record("expected invalid, got \(String(describing: error))")
                return
            }
            #expect(problem.value?["errors"]?[0]?["field"]?.stringValue == "title")
            #expect(raw.text.contains("Validation Failed"))
        }
    }

    @Test("A recursive model with defaults, a calendar date and a nullable field decodes at every level")
    func recursiveModelWithOwnCoding() async throws {
        try await Self.withClient(.asyncHTTPClient) { server, client in
            server.route("GET", "/folders/f3", .respond(.json(#"""
                {"name": "c", "depth": 2, "shared_link": null,
                 "parent": {"name": "b", "created_on": "2025-03-01", "parent": {"name": "a", "shared_link": "https://box.example/s/1"}},
                 "children": [{"name": "d", "depth": 3}]}
                """#)))
            let folder = try await client.getFolder(id: "f3")
            #expect(folder.depth == 2 && folder.sharedLink == .null)
            #expect(folder.parent?.depth == 0, "a missing key decodes as the default")
            #expect(folder.parent?.sharedLink == nil)
            #expect(folder.parent?.createdOn == Date(timeIntervalSince1970: 1_740_787_200))
            #expect(folder.parent?.parent?.sharedLink == .value("https://box.example/s/1"))
            #expect(folder.children?.first?.depth == 3)
            #expect(server.requestCount("GET", "/folders/f3") == 1)
        }
    }
}
