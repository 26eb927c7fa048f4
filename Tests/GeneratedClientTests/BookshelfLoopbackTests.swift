import BookshelfAPI
import CourierRuntime
import CourierTestServer
import Foundation
import Testing

/// The generated Bookshelf client against the real loopback server: Laravel-style errors
/// inherited from `defaults`, an endpoint's own status, 204 responses and fractional dates.
@Suite("Bookshelf client (loopback server)")
struct BookshelfLoopbackTests {
    /// One session for the suite, as in the GitHub tests.
    static let urlSession = URLSessionTransport()
    static func laravel(_ code: String) -> String {
        #"{"code": "\#(code)", "message": "Something about \#(code)", "detail": null}"#
    }

    static func withClient(_ body: (TestServer, BookshelfClient) async throws -> Void) async throws {
        let server = try await TestServer.start()
        let client = BookshelfClient(baseURL: server.baseURL, transport: Self.urlSession)
        do {
            try await body(server, client)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("Every documented status of deleteBook decodes into its case with its body",
          arguments: [(400, "badRequest"), (401, "unauthenticated"), (403, "forbidden"), (404, "notFound"),
                      (405, "methodNotAllowed"), (406, "notAcceptable"), (408, "requestTimeout"),
                      (409, "hasReviews"), (500, "serverError")])
    func documentedStatuses(status: Int, expected: String) async throws {
        try await Self.withClient { server, client in
            server.route("DELETE", "/books/3", .respond(.json(Self.laravel("code_\(status)"), status: status)))
            let error = try #require(await failure { () async throws(APIError<DeleteBookFailure>) in try await client.deleteBook(book: 3) })
            do {
                let (name, body): (String, ErrorBody<LaravelError>?) = switch error.endpointFailure {
                case .badRequest(let body): ("badRequest", body)
                case .unauthenticated(let body): ("unauthenticated", body)
                case .forbidden(let body): ("forbidden", body)
                case .notFound(let body): ("notFound", body)
                case .methodNotAllowed(let body): ("methodNotAllowed", body)
                case .notAcceptable(let body): ("notAcceptable", body)
                case .requestTimeout(let body): ("requestTimeout", body)
                case .hasReviews(let body): ("hasReviews", body)
                case .serverError(let body): ("serverError", body)
                default: ("\(error)", nil)
                }
                #expect(name == expected)
                #expect(body?.value?.code == "code_\(status)")
                #expect(body?.detail == .some(nil))
            }
        }
    }

    @Test("Statuses without their own mapping go to `default`, body kept raw")
    func defaultCase() async throws {
        try await Self.withClient { server, client in
            server.route("DELETE", "/books/3", .respond(TestServer.Reply(status: 502, body: Data("Bad gateway".utf8))))
            let error = try #require(await failure { () async throws(APIError<DeleteBookFailure>) in try await client.deleteBook(book: 3) })
            guard case .endpoint(.unexpected, let response) = error else {
                Issue.record("expected unexpected, got \(error)")
                return
            }
            #expect(response.text == "Bad gateway")
        }
    }

    @Test("A 204 returns nothing; messages come from the spec")
    func noContentAndMessages() async throws {
        try await Self.withClient { server, client in
            server.route("DELETE", "/books/3", .respond(.status(204)))
            try await client.deleteBook(book: 3)
            server.route("DELETE", "/books/4", .respond(.json(Self.laravel("has_reviews"), status: 409)))
            let error = await failure { () async throws(APIError<DeleteBookFailure>) in try await client.deleteBook(book: 4) }
            #expect(error?.localizedDescription == "Delete the book's reviews first.")
        }
    }

    @Test("Query defaults and enum cases with odd raw values are sent; fractional dates decode")
    func listBooks() async throws {
        try await Self.withClient { server, client in
            server.route("GET", "/books", .respond(.json("""
                {"data": [{"id": 1, "title": "T", "isbn": "I", "author": {"id": 2, "name": "A", "bio": null, "created_at": "2024-05-01T12:00:00.250Z"},
                  "genres": ["poetry", "cookery"], "published_year": null, "average_rating": 4.5, "cover_url": null,
                  "created_at": "2024-05-01T12:00:00.250Z", "updated_at": "2024-05-01T12:00:00Z"}],
                 "links": {"first": null, "last": null, "prev": null, "next": null},
                 "meta": {"current_page": 1, "last_page": 1, "per_page": 15, "total": 1}}
                """)))
            let page = try await client.listBooks(sort: .newestFirst, filterAuthor: 2)
            let book = try #require(page.data.first)
            #expect(book.genres == [.poetry, .unknown("cookery")])
            #expect(book.author.createdAt.timeIntervalSince1970 == 1_714_564_800.25)
            #expect(page.meta.perPage == 15)
            #expect(server.receivedRequests.last?.query == "page=1&per_page=15&sort=-published_year&filter%5Bauthor%5D=2")
        }
    }
}
