import CourierRuntime
import CourierTesting
import Foundation
import ReferenceEnums
import ReferenceKeywords
import ReferenceParameters
import Testing

/// Every parameter kind of the `Parameters` reference on the wire, string enums with a fallback
/// (including a listed value named `unknown`), and keyword-named properties.
@Suite("Parameters, enums and keywords (reference fixtures)")
struct ParameterAndEnumTests {
    @Test("Path, query and header values of every type are sent as the spec says")
    func everyParameterKind() async throws {
        let stub = StubTransport()
        stub.on(.get, "/v1/items/{category}/{id}", .json(#"[{"id": 1, "display_name": "One", "created_at": 60, "link": null}]"#))
        let client = ParametersClient(transport: stub, auth: .bearer { "tok" }, xTenant: "acme")
        let items = try await client.search(
            category: .premium, itemID: 9_000_000_000, text: "a b&c", xToken: "secret-token",
            since: Date(timeIntervalSince1970: 86_400), link: URL(string: "https://x.example/a?b=c"),
            links: [URL(string: "https://x.example/1")!, URL(string: "https://x.example/2")!],
            tags: ["t1", "t2"], kinds: [.basic, .unknown("gold")], xTrace: "trace")
        #expect(items == [Item(id: 1, displayName: "One", createdAt: Date(timeIntervalSince1970: 60))])
        let sent = try #require(stub.receivedRequests.last)
        #expect(sent.path == "/v1/items/premium/9000000000")
        #expect(sent.query == "text=a%20b%26c&limit=20&ratio=0.5&exact=false&since=86400"
            + "&link=https%3A%2F%2Fx.example%2Fa%3Fb%3Dc&links=https%3A%2F%2Fx.example%2F1&links=https%3A%2F%2Fx.example%2F2"
            + "&tags=t1&tags=t2&kinds=basic&kinds=gold&label=all%20%22items%22")
        #expect(sent.header("X-Token") == "secret-token")
        #expect(sent.header("X-Mode") == "basic")
        #expect(sent.header("X-Trace") == "trace")
        #expect(sent.header("X-Tenant") == "acme")
        #expect(sent.header("User-Agent") == "reference-tests")
        #expect(sent.header("Authorization") == "Bearer tok")
        #expect(sent.timeout == .milliseconds(2500))
        #expect(SearchRequest(category: .basic, itemID: 1, text: "", xToken: "").secretHeaderNames == ["X-Token"])
    }

    @Test("An inline body is a synthesized model, sent as JSON with the spec's coding")
    func inlineBody() async throws {
        let stub = StubTransport()
        stub.on(.post, "/v1/items", .json(#"{"id": 2, "display_name": "Two", "created_at": 0}"#, status: 201))
        let client = ParametersClient(transport: stub, xTenant: "acme")
        let item = try await client.create(body: CreateBody(name: "Two", createdAt: Date(timeIntervalSince1970: 120), kind: .premium))
        #expect(item.displayName == "Two")
        let sent = try #require(stub.receivedRequests.last)
        #expect(String(decoding: sent.body ?? Data(), as: UTF8.self) == #"{"created_at":120,"kind":"premium","name":"Two"}"#)
        #expect(sent.header("Idempotency-Key")?.isEmpty == false)
        #expect(sent.timeout == .seconds(30))
    }

    @Test("Enums decode unknown values into the fallback, which is renamed when a value takes `unknown`")
    func enumFallbacks() throws {
        let json = #"{"primary": "ultraviolet", "others": ["red", "-blue", "dark-green"], "byName": {"x": "red"}, "state": "unknown"}"#
        let palette = try JSONDecoder().decode(Palette.self, from: Data(json.utf8))
        #expect(palette.primary == .unknown("ultraviolet"))
        #expect(palette.others == [.red, .notBlue, .darkGreen])
        #expect(palette.byName == ["x": .red])
        #expect(palette.state == .unknown)
        #expect(State(rawValue: "archived") == .unknown2("archived"))
        #expect(State.unknown2("archived").rawValue == "archived")
        let encoded = try JSONEncoder().encode(palette)
        #expect(try JSONDecoder().decode(Palette.self, from: encoded) == palette)
        #expect(ListPalettesRequest().query.items.first?.value == .string("dark-green"))
    }

    @Test("Keyword and invalid names become valid Swift while JSON keeps the spec's keys")
    func keywords() throws {
        let value = `Protocol`(default: "d", class: 1, self: true, type: "t", _2fa: false, xRequestID: "r", in: ["i"])
        #expect(value.`self` == true)
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
        #expect(object.keys.sorted() == ["2fa", "@type", "class", "default", "in", "self", "x-request-id"])
        let request = ImportRequest(for: "f", where: .default, is: true, path: "p", body: "b")
        #expect(request.path.template == "/import/{for}")
        #expect(request.query.items.map(\.name) == ["where", "is", "path", "body"])
        #expect(request.query.items.first?.value == .string("default"))
        #expect(Switch(rawValue: "@home") == .home)
        #expect(Switch(rawValue: "2nd") == ._2nd)
    }

    /// `none` is also `Optional.none`: a bare `.none` in `map` (which returns `Self?`) used to
    /// turn the documented 404 into `.undocumentedStatus`, and a default of `none` was never sent.
    @Test("Cases named none and some are the spec's cases, not Optional's")
    func noneAndSome() async throws {
        #expect(NoneRequest().query.items.map(\.name) == ["mode"])
        #expect(NoneRequest().query.items.first?.value == .string("none"))
        #expect(Switch(rawValue: "none") == Switch.none)
        #expect(Switch(rawValue: "some") == Switch.some)

        let stub = StubTransport()
        stub.on(.get, "/none", .status(404), .json(#"{"return": "gone"}"#, status: 410), .status(418))
        let client = KeywordsClient(transport: stub)
        do {
            try await client.none()
            Issue.record("a 404 did not throw")
        } catch {
            guard case .endpoint(let failure, let response) = error, case NoneFailure.none = failure else {
                Issue.record("a 404 arrived as \(error), not as .endpoint(.none)")
                return
            }
            #expect(response.status.code == 404)
        }
        do {
            try await client.none(mode: .some)
            Issue.record("a 410 did not throw")
        } catch {
            guard case .endpoint(NoneFailure.some(let body), _) = error else {
                Issue.record("a 410 arrived as \(error), not as .endpoint(.some)")
                return
            }
            #expect(body.value?.`return` == "gone")
        }
        do {
            try await client.none(mode: nil)
            Issue.record("a 418 did not throw")
        } catch {
            guard case .undocumentedStatus(let response) = error else {
                Issue.record("a 418 arrived as \(error), not as .undocumentedStatus")
                return
            }
            #expect(response.status.code == 418)
        }
        let sent = stub.receivedRequests.map(\.query)
        // One request each: none of these statuses is retried (a 5XX would be, after a backoff).
        #expect(sent == ["mode=none", "mode=some", ""])
    }
}
