import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// `FormEncoder` and the query styles, at the unit level: names, nesting, the WHATWG bytes, the
/// edge cases the docs promise, and linear work.
@Suite struct FormEncodingTests {
    struct LineItem: Encodable, Sendable {
        var price: String
        var quantity: Int
    }

    struct Order: Encodable, Sendable {
        var customerName: String
        var note: Nullable<String>?
        var metadata: [String: String]?
        var expand: [String]?
        var items: [LineItem]?
        var shipping: [String: [String: String]]?
        var createdAt: Date?
        var flags: [Bool]?
    }

    static func text(_ encoder: FormEncoder, _ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("Bracket style by default: metadata[k]=v sorted, expand[]=a, items[0][price]=…, keys and dates per JSONCoding")
    func bracketStyle() throws {
        let order = Order(customerName: "Ada", note: nil, metadata: ["order_id": "6735", "a": "1"], expand: ["customer", "invoice"],
                          items: [LineItem(price: "p_1", quantity: 2), LineItem(price: "p_2", quantity: 1)],
                          createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        let encoder = FormEncoder(coding: JSONCoding(keyStyle: .snakeCase, dateFormat: .secondsSince1970))
        let pairs = try encoder.pairs(order).map { "\($0.name)=\($0.value)" }
        #expect(pairs == [
            "customer_name=Ada", "metadata[a]=1", "metadata[order_id]=6735", "expand[]=customer", "expand[]=invoice",
            "items[0][price]=p_1", "items[0][quantity]=2", "items[1][price]=p_2", "items[1][quantity]=1", "created_at=1700000000",
        ])
        #expect(try Self.text(encoder, order).hasPrefix("customer_name=Ada&metadata%5Ba%5D=1&metadata%5Border_id%5D=6735&expand%5B%5D=customer"))
    }

    @Test("WHATWG bytes: space is +, only alphanumerics and *-._ are kept, non-ASCII is UTF-8 escaped, an empty string is name=")
    func whatwgBytes() throws {
        let order = Order(customerName: "a b&c=d+e*f-g.h_i~j/k ünï", metadata: ["": "empty key", "e": ""])
        let body = try Self.text(FormEncoder(), order)
        #expect(body == "customerName=a+b%26c%3Dd%2Be*f-g.h_i%7Ej%2Fk+%C3%BCn%C3%AF&metadata%5B%5D=empty+key&metadata%5Be%5D=")
    }

    @Test("nil is left out, Nullable.null is sent empty, empty arrays and objects send nothing")
    func absentNullAndEmpty() throws {
        let order = Order(customerName: "x", note: .null, metadata: [:], expand: [], items: [], shipping: ["home": [:]])
        #expect(try FormEncoder().pairs(order).map { "\($0.name)=\($0.value)" } == ["customerName=x", "note="])
        let cleared = Order(customerName: "x", note: .value("hi"))
        #expect(try FormEncoder().pairs(cleared).map { "\($0.name)=\($0.value)" } == ["customerName=x", "note=hi"])
    }

    @Test("Other styles: dots and indexed, repeated, comma (the comma percent-encoded in a body)")
    func otherStyles() throws {
        let order = Order(customerName: "x", metadata: ["k": "v"], expand: ["a", "b"], items: [LineItem(price: "p", quantity: 1)],
                          flags: [true, false])
        func pairs(_ style: FormEncoder.Style) throws -> [String] {
            try FormEncoder(style: style).pairs(order).map { "\($0.name)=\($0.value)" }
        }
        #expect(try pairs(FormEncoder.Style(objects: .dots, arrays: .indexed)) == [
            "customerName=x", "metadata.k=v", "expand[0]=a", "expand[1]=b", "items[0].price=p", "items[0].quantity=1",
            "flags[0]=true", "flags[1]=false",
        ])
        #expect(try pairs(FormEncoder.Style(arrays: .repeated)) == [
            "customerName=x", "metadata[k]=v", "expand=a", "expand=b", "items[0][price]=p", "items[0][quantity]=1", "flags=true", "flags=false",
        ])
        #expect(try pairs(FormEncoder.Style(arrays: .comma)) == [
            "customerName=x", "metadata[k]=v", "expand=a,b", "items[0][price]=p", "items[0][quantity]=1", "flags=true,false",
        ])
        #expect(try Self.text(FormEncoder(style: FormEncoder.Style(arrays: .comma)), order).contains("&expand=a%2Cb&"))
        #expect(try FormEncoder(booleans: .numeric).pairs(order).contains { $0.name == "flags[]" && $0.value == "1" })
    }

    @Test("A key with brackets in it is sent as written, so a server reads it as nesting: the format has no escape")
    func keysWithBrackets() throws {
        let order = Order(customerName: "x", metadata: ["a[b]": "1", "c.d": "2"])
        #expect(try Self.text(FormEncoder(), order) == "customerName=x&metadata%5Ba%5Bb%5D%5D=1&metadata%5Bc.d%5D=2")
    }

    @Test("Snake case matches JSONEncoder's, dictionary keys are never converted")
    func snakeCaseMatchesJSON() throws {
        struct Keys: Encodable {
            var userID = 1, URLValue = 2, aBCdef = 3, _private = 4, simple = 5, already_snake = 6, HTTPStatusCode = 7
            var nestedMap = ["camelKey": 8]
        }
        let coding = JSONCoding(keyStyle: .snakeCase)
        let json = try JSONSerialization.jsonObject(with: coding.makeEncoder().encode(Keys())) as? [String: Any] ?? [:]
        let expected = json.keys.filter { $0 != "nested_map" }.sorted() + ["nested_map[camelKey]"]
        let names = try FormEncoder(coding: coding).pairs(Keys()).map(\.name)
        #expect(names.filter { !$0.contains("[") }.sorted() + names.filter { $0.contains("[") } == expected)
        #expect(json.keys.contains("nested_map"))
    }

    @Test("A bare value or array has no field names: a typed error, not a crash")
    func bareValuesAreRejected() {
        #expect(throws: EncodingError.self) { try FormEncoder().encode("just text") }
        #expect(throws: EncodingError.self) { try FormEncoder().encode(["a", "b"]) }
    }

    /// An object nested `depth` deep, one leaf at the bottom.
    struct Nest: Encodable {
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FormEncodingTestsKey.self)
            if depth == 0 {
                try container.encode("leaf", forKey: FormEncodingTestsKey(stringValue: "v"))
            } else {
                try container.encode(Nest(depth: depth - 1), forKey: FormEncodingTestsKey(stringValue: "n"))
            }
        }
    }

    @Test("Deep nesting names the leaf with its whole chain")
    func deepNesting() throws {
        let pairs = try FormEncoder().pairs(Nest(depth: 300))
        #expect(pairs.count == 1)
        #expect(pairs.first?.name == "n" + String(repeating: "[n]", count: 299) + "[v]")
        #expect(pairs.first?.value == "leaf")
    }

    @Test("A model of over 1 MB encodes in well under a second (linear work)")
    func largeModelIsLinear() throws {
        struct Big: Encodable {
            var items: [LineItem]
            var metadata: [String: String]
        }
        let items = (0..<20_000).map { LineItem(price: "price_\($0)_" + String(repeating: "x", count: 20), quantity: $0) }
        let metadata = Dictionary(uniqueKeysWithValues: (0..<5_000).map { ("key\($0)", String(repeating: "v", count: 40)) })
        let clock = ContinuousClock()
        var size = 0
        let elapsed = try clock.measure {
            size = try FormEncoder().encode(Big(items: items, metadata: metadata)).count
        }
        #expect(size > 1_000_000)
        // Generous: a quadratic encoder takes minutes here, a linear one tens of milliseconds even in
        // a debug build on a loaded 2-core machine.
        #expect(elapsed < .seconds(3), "\(size) bytes took \(elapsed)")
    }

    @Test("Query styles: joined lists and deepObject, through the request builder")
    func queryStyles() async throws {
        struct Filter: Encodable, Sendable {
            var status: String
            var labels: [String]
            var createdAfter: Date?
        }
        let stub = StubTransport()
        stub.on(.get, "/", .status(204))
        var configuration = APIClient.Configuration()
        configuration.coding = JSONCoding(keyStyle: .snakeCase, dateFormat: .secondsSince1970)
        let client = APIClient(baseURL: URL(string: "https://example.com")!, transport: stub, configuration: configuration)
        let query: Parameters = [
            "ids": ParameterValue.joining([1, 2, 3], by: .comma),
            "tags": ParameterValue.joining(["a b", "c|d"], by: .pipe),
            "words": ParameterValue.joining(["x", "y"], by: .space),
            "filter": ParameterValue.deepObject(Filter(status: "open", labels: ["bug", "ui"], createdAfter: Date(timeIntervalSince1970: 5))),
        ]
        _ = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>(query: query))
        }
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.head.path == "/?ids=1,2,3&tags=a%20b%7Cc%7Cd&words=x%20y"
            + "&filter%5Bstatus%5D=open&filter%5Blabels%5D%5B%5D=bug&filter%5Blabels%5D%5B%5D=ui&filter%5Bcreated_after%5D=5")
    }

    /// A list under `deepObject` (Stripe's `expand`, which OpenAPI leaves undefined) goes out as
    /// the servers that document it read it: `expand[]=a&expand[]=b`, whatever the client's
    /// array style for plain lists.
    @Test("A deepObject list sends each item under name[]")
    func deepObjectList() async throws {
        let stub = StubTransport()
        stub.on(.get, "/", .status(204))
        var configuration = APIClient.Configuration()
        configuration.query.arrayStyle = .commaSeparated
        let client = APIClient(baseURL: URL(string: "https://example.com")!, transport: stub, configuration: configuration)
        let query: Parameters = ["expand": ParameterValue.deepObject(["customer", "invoice.subscription"])]
        _ = await capture { () async throws(APIError<Never>) in
            try await client.send(Probe<NoContent, Never>(query: query))
        }
        let sent = try #require(stub.receivedRequests.first)
        #expect(sent.head.path == "/?expand%5B%5D=customer&expand%5B%5D=invoice.subscription")
    }

    @Test("Text bodies are UTF-8 and get charset=utf-8 unless the content type names a charset")
    func textBodies() async throws {
        for (contentType, expected) in [("text/plain", "text/plain; charset=utf-8"), ("text/csv; charset=UTF-8", "text/csv; charset=UTF-8")] {
            let stub = StubTransport()
            stub.on(.post, "/", .status(204))
            let client = APIClient(baseURL: URL(string: "https://example.com")!, transport: stub)
            _ = await capture { () async throws(APIError<Never>) in
                try await client.send(Probe<NoContent, Never>(method: .post, body: .text("a,b\nü,ç", contentType: contentType)))
            }
            let sent = try #require(stub.receivedRequests.first)
            #expect(sent.header("Content-Type") == expected)
            #expect(sent.body == Data("a,b\nü,ç".utf8))
        }
    }
}

struct FormEncodingTestsKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
