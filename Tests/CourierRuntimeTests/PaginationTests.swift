import CourierRuntime
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// Walking pages over both transports against a loopback server that pages by `Link` headers
/// and by cursors, with faults, loops and foreign links.
@Suite("Pagination", .timeLimit(.minutes(10)))
struct PaginationTests {
    /// `GET /numbers?page=N`: 100 numbers a page.
    struct NumbersPage: APIRequest {
        typealias Response = [Int]
        var page: Int = 1
        var method: HTTPRequest.Method { .get }
        var path: RequestPath { "/numbers" }
        var query: Parameters { ["page": page] }
        var operationName: String { "listNumbers" }
    }

    /// `GET /cursor?cursor=…`: a body with items and the next cursor.
    struct CursorPage: APIRequest {
        struct Body: Decodable, Sendable {
            var items: [Int]
            var next_cursor: String?
        }
        typealias Response = Body
        var cursor: String?
        var method: HTTPRequest.Method { .get }
        var path: RequestPath { "/cursor" }
        var query: Parameters { ["cursor": cursor] }
    }

    static func page(of request: TestServer.ReceivedRequest) -> Int {
        request.query.split(separator: "&").first { $0.hasPrefix("page=") }.flatMap { Int($0.dropFirst(5)) } ?? 1
    }

    static func numbers(page: Int) -> String {
        "[" + ((page - 1) * 100..<page * 100).map(String.init).joined(separator: ",") + "]"
    }

    /// Serves 10 pages linked by absolute `Link` URLs; the first request for page 4 gets a 503.
    static func serveLinkedNumbers(_ server: TestServer) {
        let origin = server.baseURL.absoluteString
        let failedOnce = LockedValues<Int>()
        server.route("GET", "/numbers") { request in
            let page = Self.page(of: request)
            if page == 4, failedOnce.all.isEmpty {
                failedOnce.append(4)
                return .respond(.status(503))
            }
            var headers: [(String, String)] = []
            if page < 10 {
                headers.append(("Link", "<\(origin)/numbers?page=\(page + 1)>; rel=\"next\", <\(origin)/numbers?page=10>; rel=\"last\""))
            }
            return .respond(.json(Self.numbers(page: page), headers: headers))
        }
    }

    @Test("1,000 items over 10 Link-paginated pages, with a 503 on page 4 retried", arguments: TransportKind.allCases)
    func linkPagination(_ kind: TransportKind) async throws {
        try await withServer { server in
            Self.serveLinkedNumbers(server)
            var items: [Int] = []
            for try await item in client(for: server, kind).pages(NumbersPage(), pagination: .link(items: { $0 })).items() {
                items.append(item)
            }
            #expect(items == Array(0..<1000))
            #expect(server.requestCount("GET", "/numbers") == 11)
            #expect(server.receivedRequests("GET", "/numbers").map(Self.page(of:)) == [1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10])
        }
    }

    @Test("A limit stops the walk without fetching a page more than needed", arguments: TransportKind.allCases)
    func limitStopsEarly(_ kind: TransportKind) async throws {
        try await withServer { server in
            Self.serveLinkedNumbers(server)
            var items: [Int] = []
            for try await item in client(for: server, kind).pages(NumbersPage(), pagination: .link(items: { $0 })).items(limit: 150) {
                items.append(item)
            }
            #expect(items == Array(0..<150))
            #expect(server.requestCount("GET", "/numbers") == 2)
        }
    }

    @Test("A relative link resolves against the page; a link to another origin is refused", arguments: TransportKind.allCases)
    func relativeAndForeignLinks(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/numbers") { request in
                switch Self.page(of: request) {
                case 1: .respond(.json(Self.numbers(page: 1), headers: [("Link", #"<numbers?page=2>; rel="next""#)]))
                case 2: .respond(.json(Self.numbers(page: 2), headers: [("Link", #"<http://example.com/numbers?page=3>; rel="next""#)]))
                default: .respond(.json("[]"))
                }
            }
            var pages = 0
            await #expect(throws: PaginationError.crossOriginLink("http://example.com/numbers?page=3")) {
                for try await _ in client(for: server, kind).pages(NumbersPage(), pagination: .link(items: { $0 })) { pages += 1 }
            }
            #expect(pages == 2)
            #expect(server.requestCount("GET", "/numbers") == 2)
        }
    }

    @Test("A cursor walk ends at the empty cursor; a cursor seen before ends it with an error", arguments: TransportKind.allCases)
    func cursors(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/cursor") { request in
                switch request.query {
                case "": .respond(.json(#"{"items":[1,2],"next_cursor":"b"}"#))
                case "cursor=b": .respond(.json(#"{"items":[3],"next_cursor":"c"}"#))
                case "cursor=c": .respond(.json(#"{"items":[4],"next_cursor":""}"#))
                // A server that keeps answering with the same cursor.
                case "cursor=loop": .respond(.json(#"{"items":[9],"next_cursor":"loop"}"#))
                default: .respond(.json(#"{"items":[],"next_cursor":null}"#))
                }
            }
            let pagination = Pagination<CursorPage, Int>.cursor(items: \.items, cursor: { $0.value.next_cursor }) { request, cursor in
                var next = request
                next.cursor = cursor
                return next
            }
            let client = client(for: server, kind)
            var items: [Int] = []
            for try await item in client.pages(CursorPage(), pagination: pagination).items() { items.append(item) }
            #expect(items == [1, 2, 3, 4])

            var looped: [Int] = []
            await #expect(throws: PaginationError.repeatedPage("loop")) {
                for try await item in client.pages(CursorPage(cursor: "loop"), pagination: pagination).items() { looped.append(item) }
            }
            // The first page's cursor was "loop" and its answer pointed at "loop" again: one
            // more request at most, never an endless walk.
            #expect(looped == [9, 9])
            #expect(server.requestCount("GET", "/cursor") == 5)
        }
    }

    @Test("A failed page ends the walk with the endpoint's typed error", arguments: TransportKind.allCases)
    func failedPage(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/numbers") { request in
                Self.page(of: request) == 1
                    ? .respond(.json(Self.numbers(page: 1), headers: [("Link", #"</numbers?page=2>; rel="next""#)]))
                    : .respond(.status(404))
            }
            var caught: (any Error)?
            do {
                for try await _ in client(for: server, kind).pages(NumbersPage(), pagination: .link(items: { $0 })).items() {}
            } catch {
                caught = error
            }
            guard case .undocumentedStatus(let raw)? = caught as? APIError<Never> else {
                Issue.record("expected the 404 as APIError, got \(String(describing: caught))")
                return
            }
            #expect(raw.status.code == 404)
        }
    }

    @Test("Cancelling the reading task stops the walk", arguments: TransportKind.allCases)
    func cancellation(_ kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/numbers") { request in
                Self.page(of: request) == 1
                    ? .respond(.json(Self.numbers(page: 1), headers: [("Link", #"</numbers?page=2>; rel="next""#)]))
                    : .stall
            }
            let client = client(for: server, kind)
            let reader = Task {
                var count = 0
                for try await _ in client.pages(NumbersPage(), pagination: .link(items: { $0 })).items() { count += 1 }
                return count
            }
            _ = await server.waitForRequests(count: 2)
            reader.cancel()
            let outcome = await reader.result
            #expect(throws: (any Error).self) { try outcome.get() }
            #expect(server.requestCount("GET", "/numbers") == 2)
        }
    }

    @Test("Link headers: several links, quoted commas, several relations, garbage skipped")
    func linkHeaderParsing() {
        let header = LinkHeader(#"<https://a.test/x?page=2>; rel="next"; title="a, b", <https://a.test/x?page=9>; rel="last prev", garbage, <bad"#)
        #expect(header.target(for: "next") == "https://a.test/x?page=2")
        #expect(header.target(for: "prev") == "https://a.test/x?page=9")
        #expect(header.target(for: "LAST") == "https://a.test/x?page=9")
        #expect(header.links.first?.parameters["title"] == "a, b")
        #expect(LinkHeader("").links.isEmpty)
        #expect(LinkHeader(";;;,,,<<>>").target(for: "next") == nil)
        // A megabyte of commas and quotes is read once, in linear time.
        let hostile = LinkHeader(String(repeating: "\",<", count: 350_000))
        #expect(hostile.target(for: "next") == nil)
    }
}
