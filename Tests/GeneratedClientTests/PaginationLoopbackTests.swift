import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import GitHubAPI
import ReferencePagination
import SlackAPI
import Testing

/// Generated `<endpoint>Pages` methods of every pagination style, against the loopback server
/// through both transports: what each page asked for, as the server saw it, and what came out.
@Suite("Generated pagination (loopback server)")
struct PaginationLoopbackTests {
    static let urlSession = URLSessionTransport()

    static func clients(_ server: TestServer) -> [(String, PagesClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) { PagesClient(baseURL: server.baseURL, transport: $0) }
    }

    static func queries(_ server: TestServer, _ path: String) -> [String] {
        server.receivedRequests("GET", path).map(\.query)
    }

    static func events(_ ids: ClosedRange<Int>) -> String {
        "[" + ids.map { #"{"id":"e\#($0)","title":"t"}"# }.joined(separator: ",") + "]"
    }

    @Test("Link: the pages the Link header names, in order")
    func link() async throws {
        try await withServer { server in
            server.route("GET", "/events") { request in
                switch request.query {
                case "per_page=2": .respond(.json(Self.events(1...2), headers: [("Link", #"</events?per_page=2&after=e2>; rel="next""#)]))
                case "per_page=2&after=e2": .respond(.json(Self.events(3...4), headers: [("Link", #"</events?per_page=2&after=e4>; rel="next""#)]))
                default: .respond(.json(Self.events(5...5)))
                }
            }
            for (name, client) in Self.clients(server) {
                var ids: [String] = []
                for try await event in client.listEventsPages(perPage: 2).items() { ids.append(event.id) }
                #expect(ids == ["e1", "e2", "e3", "e4", "e5"], "\(name)")
            }
            #expect(Self.queries(server, "/events") == Array(repeating: ["per_page=2", "per_page=2&after=e2", "per_page=2&after=e4"], count: 2).flatMap { $0 })
        }
    }

    @Test("Cursor from the last item, while has_more is true")
    func lastItemCursor() async throws {
        try await withServer { server in
            server.route("GET", "/orders") { request in
                switch request.query {
                case "limit=2": .respond(.json(#"{"data":[{"id":1,"total":1.5},{"id":2,"total":2}],"has_more":true}"#))
                case "starting_after=2&limit=2": .respond(.json(#"{"data":[{"id":3,"total":3}],"has_more":false}"#))
                default: .respond(.json(#"{"data":[{"id":99,"total":0}],"has_more":false}"#))
                }
            }
            for (name, client) in Self.clients(server) {
                var ids: [Int] = []
                for try await order in client.listOrdersPages(limit: 2).items() { ids.append(order.id) }
                #expect(ids == [1, 2, 3], "\(name)")
            }
            #expect(Self.queries(server, "/orders") == ["limit=2", "starting_after=2&limit=2", "limit=2", "starting_after=2&limit=2"])
        }
    }

    @Test("Cursor from a nested body field, items behind optional members, the end at a null cursor")
    func fieldCursor() async throws {
        try await withServer { server in
            server.route("GET", "/events/search") { request in
                switch request.query {
                case "q=x": .respond(.json(#"{"result":{"events":\#(Self.events(1...2))},"paging":{"next_cursor":"c2"}}"#))
                case "q=x&cursor=c2": .respond(.json(#"{"result":{},"paging":{"next_cursor":"c3"}}"#))
                default: .respond(.json(#"{"result":{"events":\#(Self.events(3...3))},"paging":{"next_cursor":null}}"#))
                }
            }
            for (name, client) in Self.clients(server) {
                var ids: [String] = []
                for try await event in client.searchEventsPages(q: "x").items() { ids.append(event.id) }
                #expect(ids == ["e1", "e2", "e3"], "\(name)")
            }
            #expect(Self.queries(server, "/events/search").prefix(3) == ["q=x", "q=x&cursor=c2", "q=x&cursor=c3"])
        }
    }

    @Test("Numbered pages stop at the total from a header, offsets at the total from the body")
    func numbered() async throws {
        try await withServer { server in
            server.route("GET", "/numbered") { request in
                switch request.query {
                case "page=1": .respond(.json(Self.events(1...2), headers: [("X-Total-Count", "5")]))
                case "page=2": .respond(.json(Self.events(3...4), headers: [("X-Total-Count", "5")]))
                case "page=3": .respond(.json(Self.events(5...5), headers: [("X-Total-Count", "5")]))
                default: .respond(.json(Self.events(6...7), headers: [("X-Total-Count", "5")]))
                }
            }
            server.route("GET", "/offsets") { request in
                switch request.query {
                case "": .respond(.json(#"{"results":\#(Self.events(1...2)),"total":3}"#))
                default: .respond(.json(#"{"results":\#(Self.events(3...3)),"total":3}"#))
                }
            }
            for (name, client) in Self.clients(server) {
                var numbered: [String] = []
                for try await event in client.listNumberedPages().items() { numbered.append(event.id) }
                #expect(numbered == ["e1", "e2", "e3", "e4", "e5"], "\(name)")
                var offsets: [String] = []
                for try await event in client.listOffsetsPages().items() { offsets.append(event.id) }
                #expect(offsets == ["e1", "e2", "e3"], "\(name)")
            }
            #expect(Self.queries(server, "/numbered") == ["page=1", "page=2", "page=3", "page=1", "page=2", "page=3"])
            #expect(Self.queries(server, "/offsets") == ["", "offset=2", "", "offset=2"])
        }
    }

    @Test("Slack's conversations.list walks next_cursor until it is empty")
    func slack() async throws {
        try await withServer { server in
            server.route("GET", "/conversations.list") { request in
                request.query.contains("cursor=dGVhbTpDMDYxRkE1UEI%3D")
                    ? .respond(.json(#"{"ok":true,"channels":[{"id":"C3"}],"response_metadata":{"next_cursor":""}}"#))
                    : .respond(.json(#"{"ok":true,"channels":[{"id":"C1","name":"general"},{"id":"C2"}],"response_metadata":{"next_cursor":"dGVhbTpDMDYxRkE1UEI="}}"#))
            }
            let clients = clientsOverBothTransports(urlSession: Self.urlSession) { SlackClient(baseURL: server.baseURL, transport: $0) }
            for (name, client) in clients {
                var ids: [String] = []
                for try await channel in client.conversationsListPages(limit: 2).items() { ids.append(channel.id) }
                #expect(ids == ["C1", "C2", "C3"], "\(name)")
            }
            #expect(server.requestCount("GET", "/conversations.list") == 4)
        }
    }

    @Test("GitHub's issues follow the Link header, and a limit stops early")
    func gitHub() async throws {
        try await withServer { server in
            server.route("GET", "/repos/apple/swift/issues") { request in
                let page = request.query.contains("page=2") ? 2 : 1
                let user = #"{"login":"a","id":1,"avatar_url":"https://a.test/a.png","html_url":"https://a.test/a","type":"User","site_admin":false}"#
                let issue = #"{"id":\#(page),"number":\#(page),"title":"t","state":"open","user":\#(user),"labels":[],"assignees":[],"comments":0,"locked":false,"created_at":"2024-05-01T12:00:00Z"}"#
                return .respond(.json("[\(issue)]", headers: page == 1 ? [("Link", #"</repos/apple/swift/issues?page=2>; rel="next""#)] : []))
            }
            let clients = clientsOverBothTransports(urlSession: Self.urlSession) { GitHubClient(baseURL: server.baseURL, transport: $0) }
            for (name, client) in clients {
                var numbers: [Int] = []
                for try await issue in client.listIssuesPages(owner: "apple", repo: "swift").items() { numbers.append(issue.number) }
                #expect(numbers == [1, 2], "\(name)")
                var first: [Int] = []
                for try await issue in client.listIssuesPages(owner: "apple", repo: "swift").items(limit: 1) { first.append(issue.number) }
                #expect(first == [1], "\(name)")
            }
            // Two full walks of two pages and two walks stopped after one page.
            #expect(server.requestCount("GET", "/repos/apple/swift/issues") == 6)
        }
    }
}
