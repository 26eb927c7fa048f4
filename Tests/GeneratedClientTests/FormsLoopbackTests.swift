import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceForms
import Testing

/// The generated client of Tests/References/Forms against the real loopback server, through
/// URLSession and AsyncHTTPClient: form bodies in both styles, text bodies, a body whose content
/// type the caller picks, JSON under a vendor media type, and each query style as the server saw
/// it on the request line.
@Suite("Form and text bodies, query styles (loopback server)")
struct FormsLoopbackTests {
    static let urlSession = URLSessionTransport()

    static func clients(_ server: TestServer) -> [(String, FormsClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) { FormsClient(baseURL: server.baseURL, transport: $0) }
    }

    static let order = NewOrder(
        customerName: "Ada Lovelace", note: .null, tags: ["a b", "c+d"], metadata: ["k=1": "v&2", "é": ""],
        items: [LineItem(sku: "sku_1", quantity: 2), LineItem(sku: "sku/2", quantity: 1)],
        shipping: Address(line1: "12 Rue de l'Été", postalCode: nil), gift: true)

    static let orderJSON = #"{"id": "ord_1", "customer_name": "Ada Lovelace"}"#

    @Test("A form body in the bracket style and in dots + indexed, byte for byte at the server")
    func formStyles() async throws {
        try await withServer { server in
            server.route("POST", "/orders", .respond(.json(Self.orderJSON)))
            server.route("POST", "/orders/indexed", .respond(.json(Self.orderJSON)))
            for (name, client) in Self.clients(server) {
                let replies = [try await client.createOrder(body: Self.order), try await client.createOrderIndexed(body: Self.order)]
                #expect(replies.map(\.id) == ["ord_1", "ord_1"], "\(name)")
            }
            let brackets = "customer_name=Ada+Lovelace&note=&tags%5B%5D=a+b&tags%5B%5D=c%2Bd"
                + "&metadata%5Bk%3D1%5D=v%262&metadata%5B%C3%A9%5D="
                + "&items%5B0%5D%5Bsku%5D=sku_1&items%5B0%5D%5Bquantity%5D=2&items%5B1%5D%5Bsku%5D=sku%2F2&items%5B1%5D%5Bquantity%5D=1"
                + "&shipping%5Bline1%5D=12+Rue+de+l%27%C3%89t%C3%A9&gift=true"
            let indexed = "customer_name=Ada+Lovelace&note=&tags%5B0%5D=a+b&tags%5B1%5D=c%2Bd"
                + "&metadata.k%3D1=v%262&metadata.%C3%A9="
                + "&items%5B0%5D.sku=sku_1&items%5B0%5D.quantity=2&items%5B1%5D.sku=sku%2F2&items%5B1%5D.quantity=1"
                + "&shipping.line1=12+Rue+de+l%27%C3%89t%C3%A9&gift=true"
            for (path, expected) in [("/orders", brackets), ("/orders/indexed", indexed)] {
                let requests = server.receivedRequests("POST", path)
                #expect(requests.count == 2, "\(path)")
                for request in requests {
                    #expect(request.header("Content-Type") == "application/x-www-form-urlencoded", "\(path)")
                    #expect(String(decoding: request.body, as: UTF8.self) == expected, "\(path)")
                }
            }
        }
    }

    @Test("Text bodies: UTF-8 bytes, the spec's charset kept, charset=utf-8 added where none is named, nil sends no body")
    func textBodies() async throws {
        try await withServer { server in
            server.route("POST", "/orders/import", .respond(.status(204)))
            server.route("PUT", "/notes/n1", .respond(.status(204)))
            let csv = "sku,quantity\nsku_1,2\n\"ü, ç\",1\n"
            for (_, client) in Self.clients(server) {
                try await client.importOrders(body: csv)
                try await client.postNote(id: "n1", body: "Thé ☕︎")
                try await client.postNote(id: "n1", body: nil)
            }
            let imports = server.receivedRequests("POST", "/orders/import")
            #expect(imports.count == 2)
            for request in imports {
                #expect(request.header("Content-Type") == "text/csv; charset=utf-8")
                #expect(request.body == Data(csv.utf8))
            }
            let notes = server.receivedRequests("PUT", "/notes/n1")
            #expect(notes.count == 4)
            #expect(notes.map(\.body) == [Data("Thé ☕︎".utf8), Data(), Data("Thé ☕︎".utf8), Data()])
            #expect(notes.map { $0.header("Content-Type") } == ["text/plain; charset=utf-8", nil, "text/plain; charset=utf-8", nil])
        }
    }

    @Test("Several content types: the caller's case decides the Content-Type and the bytes")
    func pickedContentTypes() async throws {
        try await withServer { server in
            server.route("POST", "/orders/submit", .respond(.json(Self.orderJSON)))
            let small = NewOrder(customerName: "Bob", tags: ["x"])
            for (name, client) in Self.clients(server) {
                var replies: [Order] = []
                for body in [SubmitOrderContent.json(small), .form(small), .csv("a,b\n1,2\n")] {
                    replies.append(try await client.submitOrder(body: body))
                }
                #expect(replies.map(\.id) == ["ord_1", "ord_1", "ord_1"], "\(name)")
            }
            let requests = server.receivedRequests("POST", "/orders/submit")
            let seen = requests.map { ($0.header("Content-Type") ?? "", String(decoding: $0.body, as: UTF8.self)) }
            let expected = [
                ("application/json", #"{"customer_name":"Bob","tags":["x"]}"#),
                ("application/x-www-form-urlencoded", "customer_name=Bob&tags%5B%5D=x"),
                ("text/csv; charset=utf-8", "a,b\n1,2\n"),
            ]
            #expect(seen.count == 6)
            for (index, (contentType, body)) in seen.enumerated() {
                #expect(contentType == expected[index % 3].0)
                #expect(body == expected[index % 3].1)
            }
        }
    }

    @Test("JSON under a vendor media type: sent as JSON with that Content-Type and Accept, and its reply decoded")
    func vendorJSON() async throws {
        try await withServer { server in
            let reply = TestServer.Reply(status: 200, headers: [("Content-Type", "application/x-amz-json-1.0")],
                                         body: Data(Self.orderJSON.utf8))
            server.route("POST", "/orders/describe", .respond(reply))
            for (name, client) in Self.clients(server) {
                let order = try await client.describeOrder(body: OrderQuery(orderID: "ord_1"))
                #expect(order.id == "ord_1" && order.customerName == "Ada Lovelace", "\(name)")
            }
            let requests = server.receivedRequests("POST", "/orders/describe")
            #expect(requests.count == 2)
            for request in requests {
                #expect(request.header("Content-Type") == "application/x-amz-json-1.0")
                #expect(request.header("Accept") == "application/x-amz-json-1.0")
                // JSON with the service's coding (snake_case keys), not the bytes of some other format.
                #expect(try JSON(parsing: request.body) == ["order_id": "ord_1"])
            }
        }
    }

    @Test("Query styles on the request line: explode false, pipe and space delimited, repeated, deepObject")
    func queryStyles() async throws {
        try await withServer { server in
            server.route("GET", "/issues", .respond(.json("[]")))
            let filter = IssueFilter(state: .open, labels: ["bug", "good first"], createdAfter: Date(timeIntervalSince1970: 1_700_000_000))
            for (name, client) in Self.clients(server) {
                let found = try await client.searchIssues(ids: [1, 2, 3], tags: ["a|b", "c"], words: ["x y", "z"], labels: ["l1", "l2"], filter: filter)
                #expect(found.isEmpty, "\(name)")
                _ = try await client.searchIssues(ids: [7])
            }
            let lines = server.receivedRequests("GET", "/issues").map(\.requestLine)
            let full = "GET /issues?ids=1,2,3&tags=a%7Cb%7Cc&words=x%20y%20z&labels=l1&labels=l2"
                + "&filter%5Bstate%5D=open&filter%5Blabels%5D%5B%5D=bug&filter%5Blabels%5D%5B%5D=good%20first"
                + "&filter%5Bcreated_after%5D=2023-11-14T22%3A13%3A20Z HTTP/1.1"
            #expect(lines == [full, "GET /issues?ids=7 HTTP/1.1", full, "GET /issues?ids=7 HTTP/1.1"])
        }
    }
}
