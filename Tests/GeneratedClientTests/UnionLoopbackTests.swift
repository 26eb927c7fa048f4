import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceUnions
import Testing

/// The generated unions (`oneOf`) and compositions (`allOf`) of `Tests/References/Unions`
/// against the real loopback server, through URLSession and AsyncHTTPClient: every variant,
/// unknown and missing discriminators, and request bodies the server received, compared in
/// JSON terms with what was meant.
@Suite("Unions and composition (loopback server)")
struct UnionLoopbackTests {
    static let urlSession = URLSessionTransport()

    static func clients(_ server: TestServer) -> [(String, UnionsClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) { UnionsClient(baseURL: server.baseURL, transport: $0) }
    }

    /// Answers with the request's own body, so that what comes back is what was sent.
    static func echo(status: Int = 200) -> TestServer.Handler {
        { request in .respond(.json(String(decoding: request.body, as: UTF8.self), status: status)) }
    }

    static func json(_ text: String) throws -> JSON {
        try JSON(parsing: text)
    }

    @Test("An integer discriminator picks each variant; an unknown or missing one keeps the whole object")
    func discordChannels() async throws {
        try await withServer { server in
            for (name, client) in Self.clients(server) {
                server.route("GET", "/channels/1", .respond(.json(#"{"id": "1", "type": 0, "name": "general", "topic": "hi"}"#)))
                server.route("GET", "/channels/2", .respond(.json(#"{"id": "2", "type": 2, "name": "voice", "bitrate": 64000}"#)))
                let stage = #"{"id": "3", "type": 13, "name": "stage", "speakers": [1, 2]}"#
                server.route("GET", "/channels/3", .respond(.json(stage)))
                let untyped = #"{"id": "4", "name": "no type"}"#
                server.route("GET", "/channels/4", .respond(.json(untyped)))
                let textual = #"{"id": "5", "type": "0", "name": "a string where an integer belongs"}"#
                server.route("GET", "/channels/5", .respond(.json(textual)))

                let actual1 = try await client.getChannel(id: "1")
                #expect(actual1 == .textChannel(TextChannel(id: "1", type: 0, name: "general", topic: "hi")), "\(name)")
                let actual2 = try await client.getChannel(id: "2")
                #expect(actual2 == .voiceChannel(VoiceChannel(id: "2", type: 2, name: "voice", bitrate: 64000)), "\(name)")
                let actual3 = try await client.getChannel(id: "3")
                let stageJSON = try Self.json(stage)
                #expect(actual3 == .unknown(stageJSON), "\(name)")
                let actual4 = try await client.getChannel(id: "4")
                let untypedJSON = try Self.json(untyped)
                #expect(actual4 == .unknown(untypedJSON), "\(name)")
                let actual5 = try await client.getChannel(id: "5")
                let textualJSON = try Self.json(textual)
                #expect(actual5 == .unknown(textualJSON), "\(name)")
            }
            #expect(server.requestCount("GET", "/channels/1") == 2)
            #expect(server.requestCount("GET", "/channels/5") == 2)
        }
    }

    @Test("A known discriminator whose variant lacks a required property is a decoding error, not unknown")
    func knownVariantThatDoesNotDecode() async throws {
        try await withServer { server in
            let client = UnionsClient(baseURL: server.baseURL, transport: Self.urlSession)
            server.route("GET", "/channels/9", .respond(.json(#"{"id": "9", "type": 2, "name": "voice without bitrate"}"#)))
            let failure = await failure { () async throws(APIError<GetChannelFailure>) in try await client.getChannel(id: "9") }
            guard case .decoding = failure else {
                Issue.record("expected a decoding failure, got \(String(describing: failure))")
                return
            }
        }
    }

    @Test("Stripe's string discriminator that the variants do not declare, in a list and a map")
    func stripeSourcesAndDefaultMapping() async throws {
        try await withServer { server in
            let inbox = """
                {"channels": [{"id": "1", "type": 0, "name": "a"}, {"id": "2", "type": 99}],
                 "sources": {"main": {"object": "card", "id": "card_1", "brand": "Visa", "last4": "4242"},
                             "bank": {"object": "bank_account", "id": "ba_1", "bank_name": "STRIPE TEST BANK", "last4": "6789"},
                             "new": {"object": "source", "id": "src_1"}},
                 "owner": {"login": "octocat", "id": 1, "email": "octo@example.com", "plan": {"name": "pro", "space": 976562499}},
                 "odd": "text"}
                """
            server.route("POST", "/inbox", .respond(.json(inbox)))
            server.route("GET", "/pets", .respond(.json(#"[{"kind": "Cat", "lives": 9}, {"kind": "Dog", "good": true}, {"kind": "Bird"}, {"lives": 1}]"#)))
            for (name, client) in Self.clients(server) {
                let received = try await client.inbox(body: Inbox(channels: [], sources: [:], owner: PrivateUser(login: "x", id: 0)))
                #expect(received.channels == [.textChannel(TextChannel(id: "1", type: 0, name: "a")),
                                              .unknown(["id": "2", "type": 99])], "\(name)")
                #expect(received.sources["main"] == .card(Card(id: "card_1", brand: "Visa", last4: "4242")), "\(name)")
                #expect(received.sources["bank"] == .bankAccount(BankAccount(id: "ba_1", bankName: "STRIPE TEST BANK", last4: "6789")), "\(name)")
                #expect(received.sources["new"] == .unknown(["object": "source", "id": "src_1"]), "\(name)")
                #expect(received.owner == PrivateUser(login: "octocat", id: 1, email: "octo@example.com", plan: Plan(name: "pro", space: 976562499)))
                #expect(received.odd == .unknown("text"), "the variant named unknown takes a string: \(name)")

                let pets = try await client.pets()
                #expect(pets == [.cat(Cat(kind: "Cat", lives: 9)), .dog(Dog(good: true)),
                                 .unknown(["kind": "Bird"]), .unknown(["lives": 1])], "\(name)")
            }
        }
    }

    @Test("GitHub's private user is one flattened struct; 422 errors items are objects, strings, or unknown")
    func githubUserAndValidationErrors() async throws {
        try await withServer { server in
            for (name, client) in Self.clients(server) {
                server.route("GET", "/user", .respond(.json(#"{"login": "octocat", "id": 583231, "name": null, "email": "o@x.io"}"#)))
                let user = try await client.getUser()
                #expect(user == PrivateUser(login: "octocat", id: 583231, name: nil, email: "o@x.io", plan: nil), "\(name)")

                let invalid = """
                    {"message": "Validation Failed",
                     "errors": [{"resource": "Issue", "field": "title", "code": "missing_field"}, "title is too long", 42]}
                    """
                server.route("GET", "/user", .respond(.json(invalid, status: 422)))
                let failure = await failure { () async throws(APIError<GetUserFailure>) in try await client.getUser() }
                guard case .endpoint(.invalid(let body), _) = failure else {
                    Issue.record("\(name): expected invalid, got \(String(describing: failure))")
                    continue
                }
                #expect(body.value?.errors == [.validationIssue(ValidationIssue(resource: "Issue", field: "title", code: "missing_field")),
                                               .string("title is too long"), .unknown(42)], "\(name)")
            }
        }
    }

    @Test("Request bodies reach the server as the variant, discriminator included, and come back equal")
    func requestBodiesRoundTrip() async throws {
        try await withServer { server in
            server.route("POST", "/channels", Self.echo(status: 201))
            server.route("POST", "/sources", Self.echo())
            server.route("POST", "/inbox", Self.echo())
            server.route("POST", "/shape", Self.echo())
            for (name, client) in Self.clients(server) {
                let voice = Channel.voiceChannel(VoiceChannel(id: "7", type: 2, name: "lounge", bitrate: 96000))
                let actual6 = try await client.createChannel(body: voice)
                #expect(actual6 == voice, "\(name)")
                var sent = try #require(server.receivedRequests("POST", "/channels").last)
                let actual7 = try JSON(parsing: sent.body)
                #expect(actual7 == ["id": "7", "type": 2, "name": "lounge", "bitrate": 96000], "\(name)")

                // A Stripe card does not declare `object`; encoding writes it so that the body decodes again.
                let card = PaymentSource.card(Card(id: "card_1", brand: "Visa", last4: "4242"))
                let actual8 = try await client.attachSource(body: card)
                #expect(actual8 == card, "\(name)")
                sent = try #require(server.receivedRequests("POST", "/sources").last)
                let actual9 = try JSON(parsing: sent.body)
                #expect(actual9 == ["object": "card", "id": "card_1", "brand": "Visa", "last4": "4242"], "\(name)")

                // Unknown variants go back exactly as they came.
                let unknown = PaymentSource.unknown(["object": "source", "id": "src_1", "nested": ["a": [1, 2.5, nil, true]]])
                let actual10 = try await client.attachSource(body: unknown)
                #expect(actual10 == unknown, "\(name)")
                sent = try #require(server.receivedRequests("POST", "/sources").last)
                let actual11 = try JSON(parsing: sent.body)
                #expect(actual11 == ["object": "source", "id": "src_1", "nested": ["a": [1, 2.5, nil, true]]], "\(name)")

                let inbox = Inbox(channels: [voice, .unknown(["type": 15, "id": "9"])],
                                  primary: .textChannel(TextChannel(id: "1", type: 0, name: "general")),
                                  sources: ["bank": .bankAccount(BankAccount(id: "ba_1", bankName: "B", last4: "6789"))],
                                  owner: PrivateUser(login: "octocat", id: 1, plan: Plan(name: "pro", space: 1)),
                                  odd: .numbers([1, 2, 3]))
                let actual12 = try await client.inbox(body: inbox)
                #expect(actual12 == inbox, "\(name)")
                sent = try #require(server.receivedRequests("POST", "/inbox").last)
                let actual13 = try JSON(parsing: sent.body)
                #expect(actual13 == [
                    "channels": [["id": "7", "type": 2, "name": "lounge", "bitrate": 96000], ["type": 15, "id": "9"]],
                    "primary": ["id": "1", "type": 0, "name": "general"],
                    "sources": ["bank": ["object": "bank_account", "id": "ba_1", "bank_name": "B", "last4": "6789"]],
                    "owner": ["login": "octocat", "id": 1, "plan": ["name": "pro", "space": 1]],
                    "odd": [1, 2, 3],
                ], "\(name)")

                // Recursion through a discriminated union: a group holding circles and groups.
                let shape = Shape.group(Group(kind: "group", members: [
                    .circle(Circle(kind: "circle", radius: 1.5)),
                    .group(Group(kind: "group", members: [], mask: .circle(Circle(kind: "circle", radius: 2)))),
                ], mask: .unknown(["kind": "polygon", "sides": 5])))
                let actual14 = try await client.echoShape(body: shape)
                #expect(actual14 == shape, "\(name)")
            }
        }
    }

    /// A chain of `Nest` values, each a `NestB` whose first property is the next link. Decoding a
    /// `NestA` would read the whole `child` subtree before failing on the missing `a`; trying
    /// variants by decoding alone would therefore double the work at every level.
    static func nestChain(depth: Int) -> String {
        var text = "7"
        for level in 0..<depth { text = #"{"child": \#(text), "b": \#(level)}"# }
        return text
    }

    @Test("Nested unions without a discriminator decode each value once: a chain that would cost 2^depth attempts otherwise")
    func nestedUnionsStayLinear() async throws {
        // 400 levels (under the decoders' nesting limit of 512): 2^400 attempts if each level tried
        // NestA by decoding it; the shape check rejects NestA at once, so this finishes.
        let depth = 400
        let chain = Self.nestChain(depth: depth)
        try await withServer { server in
            server.route("POST", "/nest", Self.echo())
            let client = UnionsClient(baseURL: server.baseURL, transport: Self.urlSession)
            var value = Nest.int(7)
            for level in 0..<depth { value = .nestB(NestB(child: value, b: level)) }
            let decoded = try JSONCoding().makeDecoder().decode(Nest.self, from: Data(chain.utf8))
            #expect(decoded == value)
            let actual15 = try await client.echoNest(body: value)
            #expect(actual15 == value)
            let sent = try #require(server.receivedRequests("POST", "/nest").last)
            let expected = try JSON(parsing: chain)
            let actual16 = try JSON(parsing: sent.body)
            #expect(actual16 == expected)
        }
    }

    @Test("A 1 MB body of nested unions decodes to the same value it encodes from")
    func largeNestedBody() throws {
        // 3,000 chains of 20 levels: about 1 MB. With per-variant re-decoding each chain would cost
        // 2^20 attempts (3 × 10^9 in all); decoding once per value it is 60,000 union values.
        let chains = (0..<3_000).map { _ in Self.nestChain(depth: 20) }
        let body = "[" + chains.joined(separator: ",") + "]"
        #expect(body.utf8.count > 1_000_000)
        let decoded = try JSONCoding().makeDecoder().decode([Nest].self, from: Data(body.utf8))
        #expect(decoded.count == 3_000)
        var depth = 0
        var link = decoded[2_999]
        while case .nestB(let next) = link, let child = next.child {
            depth += 1
            link = child
        }
        #expect(depth == 20 && link == .int(7))
        let encoded = try JSONCoding().makeEncoder().encode(decoded)
        let expected = try JSON(parsing: body)
        let actual17 = try JSON(parsing: encoded)
        #expect(actual17 == expected)
    }

    @Test("Compositions as union variants, and a composition that contains itself")
    func compositionsAsVariantsAndRecursion() async throws {
        try await withServer { server in
            server.route("GET", "/accounts", .respond(.json("""
                [{"login": "admin", "id": 1, "permissions": ["push"]}, {"login": "user", "id": 2}, {"login": 3}]
                """)))
            server.route("GET", "/category", .respond(.json("""
                {"name": "books", "parent": {"name": "media", "children": []},
                 "children": [{"name": "novels", "children": []}, {"name": "poetry", "children": []}]}
                """)))
            for (name, client) in Self.clients(server) {
                let accounts = try await client.accounts()
                #expect(accounts == [.administrator(Administrator(login: "admin", id: 1, permissions: ["push"])),
                                     .privateUser(PrivateUser(login: "user", id: 2)),
                                     .unknown(["login": 3])], "\(name)")
                let category = try await client.category()
                #expect(category.name == "books" && category.parent?.name == "media", "\(name)")
                #expect(category.children.map(\.name) == ["novels", "poetry"], "\(name)")
            }
        }
    }

    @Test("A date variant and a union variant are tried without a shape check")
    func variantsWithoutAShapeCheck() throws {
        let body = #"["2024-01-02T03:04:05Z", 5, {"b": 1}, "not a date"]"#
        let moments = try JSONCoding().makeDecoder().decode([Moment].self, from: Data(body.utf8))
        #expect(moments == [.date(Date(timeIntervalSince1970: 1_704_164_645)), .nest(.int(5)), .nest(.nestB(NestB(b: 1))),
                            .nest(.unknown("not a date"))])
        // The date goes back through the encoder's date strategy, as the ISO 8601 text it came as.
        let encoded = try JSON(parsing: JSONCoding().makeEncoder().encode(moments))
        let expected = try JSON(parsing: body)
        #expect(encoded == expected)
    }

    /// Variants whose properties are all optional all fit any object: the first declared used to
    /// win every time. The one that knows the most of the value's keys wins; the first declared
    /// among equals.
    @Test("Object variants that share most keys: the best fit wins, through both transports")
    func bestFittingObjectVariant() async throws {
        let body = #"""
            [{"role": "admin", "organization": "acme", "seat": 3},
             {"role": "guest", "state": "active", "expires": "2027-01-01"},
             {"role": "member", "team": "core"},
             {"role": "member"},
             {"unrelated": true},
             "not an object"]
            """#
        try await withServer { server in
            for (name, client) in Self.clients(server) {
                server.route("GET", "/memberships", .respond(.json(body)))
                let memberships = try await client.memberships()
                #expect(memberships == [
                    .organizationMembership(OrganizationMembership(role: "admin", organization: "acme", seat: 3)),
                    .guestMembership(GuestMembership(role: "guest", state: "active", expires: "2027-01-01")),
                    .teamMembership(TeamMembership(role: "member", team: "core")),
                    .teamMembership(TeamMembership(role: "member")),
                    .teamMembership(TeamMembership()),
                    .unknown("not an object"),
                ], "\(name)")
            }
        }
    }
}
