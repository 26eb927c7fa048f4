import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import GitHubAPI
import Testing

/// The generated GitHub client against the real loopback server, through URLSession and
/// AsyncHTTPClient: snake_case keys, header and nested-field discriminators, ranges and `default`.
@Suite("GitHub client (loopback server)")
struct GitHubLoopbackTests {
    /// One session for the suite: each `URLSessionTransport` owns a URLSession, and sessions
    /// are not free to create on Linux.
    static let urlSession = URLSessionTransport()
    static let user = """
        {"login": "octocat", "id": 1, "avatar_url": "https://a.example/1.png", "html_url": "https://github.com/octocat",
         "type": "User", "site_admin": false, "name": "The Octocat", "company": null, "created_at": "2011-01-25T18:44:36Z"}
        """

    static func error(_ message: String, code: String? = nil) -> String {
        let errors = code.map { #", "errors": [{"resource": "Issue", "code": "\#($0)", "field": "title"}]"# } ?? ""
        return #"{"message": "\#(message)", "documentation_url": "https://docs.github.com/rest"\#(errors)}"#
    }

    static func clients(_ server: TestServer) -> [(String, GitHubClient)] {
        clientsOverBothTransports(urlSession: Self.urlSession) { GitHubClient(baseURL: server.baseURL, transport: $0) }
    }

    @Test("A success decodes snake_case keys and ISO 8601 dates; fixed headers and auth are sent")
    func success() async throws {
        try await withServer { server in
            server.route("GET", "/users/octocat", .respond(.json(Self.user)))
            let client = GitHubClient(baseURL: server.baseURL, transport: Self.urlSession, auth: .bearer { "t0ken" })
            let user = try await client.getUser(username: "octocat")
            #expect(user.login == "octocat")
            #expect(user.avatarURL == URL(string: "https://a.example/1.png"))
            #expect(user.type == .user)
            #expect(user.createdAt == Date(timeIntervalSince1970: 1_295_981_076))
            let request = try #require(server.receivedRequests.last)
            #expect(request.header("X-GitHub-Api-Version") == "2022-11-28")
            #expect(request.header("Accept") == "application/vnd.github+json")
            #expect(request.header("Authorization") == "Bearer t0ken")
        }
    }

    static let repository = """
        {"id": 44838949, "name": "swift", "full_name": "swiftlang/swift", "owner": \(user), "private": false,
         "description": "The Swift Programming Language", "fork": false, "html_url": "https://github.com/swiftlang/swift",
         "default_branch": "main", "topics": null, "stargazers_count": 67000, "license": null,
         "created_at": "2015-10-23T21:15:07Z", "updated_at": "2026-11-20T08:00:00Z"}
        """

    @Test("getRepository: a 200 with its ETag, then If-None-Match answered by 304 as the notModified outcome, read once")
    func conditionalRequest() async throws {
        try await withServer { server in
            server.route("GET", "/repos/swiftlang/swift") { request in
                request.header("If-None-Match") == "\"r1\""
                    ? .respond(.status(304, headers: [("ETag", "\"r1\""), ("X-GitHub-Request-Id", "AB:CD")]))
                    : .respond(.json(Self.repository, headers: [("ETag", "\"r1\""), ("X-GitHub-Request-Id", "AB:CD"),
                                                                 ("X-RateLimit-Remaining", "4999"), ("X-RateLimit-Reset", "1764000000")]))
            }
            for (name, client) in Self.clients(server) {
                let first = try await client.getRepositoryWithHeaders(owner: "swiftlang", repo: "swift")
                guard case .ok(let repository) = first.body else {
                    Issue.record("\(name): expected ok, got \(first.body)")
                    continue
                }
                #expect(repository.fullName == "swiftlang/swift")
                #expect(first.headers.eTag == "\"r1\"")
                #expect(first.headers.xGitHubRequestID == "AB:CD")
                #expect(first.headers.xRateLimitRemaining == 4999)
                #expect(first.headers.xRateLimitReset == Date(timeIntervalSince1970: 1_764_000_000))
                let before = server.requestCount("GET", "/repos/swiftlang/swift")
                let again = try await client.getRepository(owner: "swiftlang", repo: "swift", ifNoneMatch: first.headers.eTag)
                #expect(again == .notModified, "\(name)")
                #expect(server.requestCount("GET", "/repos/swiftlang/swift") == before + 1)
            }
        }
    }

    @Test("getContributorStats: 202 while GitHub computes, then 200 with the weeks, and 204 for an empty repository")
    func statisticsBeingComputed() async throws {
        try await withServer { server in
            let stats = #"[{"author": \#(Self.user), "total": 3, "weeks": [{"w": 1700000000, "a": 10, "d": 2, "c": 3}]}]"#
            server.route("GET", "/repos/o/r/stats/contributors", failingFirst: 1, with: .respond(.json("{}", status: 202)),
                         then: .respond(.json(stats)))
            server.route("GET", "/repos/o/empty/stats/contributors", .respond(.status(204)))
            let client = GitHubClient(baseURL: server.baseURL, transport: AsyncHTTPClientTransport())
            let computing = try await client.getContributorStats(owner: "o", repo: "r")
            #expect(computing == .accepted)
            let ready = try await client.getContributorStats(owner: "o", repo: "r")
            guard case .ok(let contributors) = ready else {
                Issue.record("expected ok, got \(ready)")
                return
            }
            #expect(contributors.first?.author?.login == "octocat")
            #expect(contributors.first?.weeks.first?.c == 3)
            let empty = try await client.getContributorStats(owner: "o", repo: "empty")
            #expect(empty == .noContent)
        }
    }

    @Test("403 picks rateLimited or forbidden by the x-ratelimit-remaining header")
    func headerDiscriminator() async throws {
        try await withServer { server in
            for (name, client) in Self.clients(server) {
                server.route("GET", "/users/octocat", .respond(.json(Self.error("API rate limit exceeded"), status: 403,
                                                                      headers: [("X-RateLimit-Remaining", "0")])))
                let limited = await failure { () async throws(APIError<GetUserFailure>) in try await client.getUser(username: "octocat") }
                if case .endpoint(.rateLimited(let body), _) = limited {
                    #expect(body.value?.message == "API rate limit exceeded")
                    #expect(limited?.localizedDescription == "GitHub's rate limit is used up; try again after it resets.")
                } else {
                    Issue.record("\(name): expected rateLimited, got \(String(describing: limited))")
                }
                server.route("GET", "/users/octocat", .respond(.json(Self.error("Must have admin rights"), status: 403,
                                                                      headers: [("X-RateLimit-Remaining", "4999")])))
                let forbidden = await failure { () async throws(APIError<GetUserFailure>) in try await client.getUser(username: "octocat") }
                if case .endpoint(.forbidden(let body), _) = forbidden {
                    #expect(body.documentationURL == "https://docs.github.com/rest")
                } else {
                    Issue.record("\(name): expected forbidden, got \(String(describing: forbidden))")
                }
            }
        }
    }

    @Test("422 picks its case from errors[0].code; an unlisted code falls back",
          arguments: [("missing_field", "missingField"), ("invalid", "invalidField"),
                      ("already_exists", "alreadyExists"), ("custom", "validationFailed")])
    func nestedFieldDiscriminator(code: String, expected: String) async throws {
        try await withServer { server in
            server.route("POST", "/repos/o/r/issues", .respond(.json(Self.error("Validation Failed", code: code), status: 422)))
            let client = GitHubClient(baseURL: server.baseURL, transport: AsyncHTTPClientTransport())
            let error = try #require(await failure { () async throws(APIError<CreateIssueFailure>) in
                try await client.createIssue(owner: "o", repo: "r", body: NewIssue(title: "Bug"))
            })
            let (name, body): (String, ErrorBody<GitHubError>?) = switch error.endpointFailure {
            case .missingField(let body): ("missingField", body)
            case .invalidField(let body): ("invalidField", body)
            case .alreadyExists(let body): ("alreadyExists", body)
            case .validationFailed(let body): ("validationFailed", body)
            default: ("\(error)", nil)
            }
            #expect(name == expected)
            #expect(body?.value?.errors?.first?.code == code)
            let sent = try #require(server.receivedRequests.last)
            #expect(String(decoding: sent.body, as: UTF8.self) == #"{"title":"Bug"}"#)
        }
    }

    @Test("5XX without a JSON body is serverError; other statuses hit `default`",
          arguments: [(500, "serverError"), (502, "serverError"), (418, "unexpected"), (404, "notFound")])
    func rangesAndDefault(status: Int, expected: String) async throws {
        try await withServer { server in
            server.route("GET", "/repos/o/r/issues/7", .respond(TestServer.Reply(status: status, body: Data("<html>down</html>".utf8))))
            let client = GitHubClient(baseURL: server.baseURL, transport: Self.urlSession)
            let error = try #require(await failure { () async throws(APIError<GetIssueFailure>) in
                try await client.getIssue(owner: "o", repo: "r", issueNumber: 7)
            })
            let name = switch error.endpointFailure {
            case .serverError: "serverError"
            case .unexpected: "unexpected"
            case .notFound(let body): body.value == nil && body.text == "<html>down</html>" ? "notFound" : "notFound with a body?"
            default: "\(error)"
            }
            #expect(name == expected)
            #expect(error.status?.code == status)
        }
    }

    @Test("A success body that does not match is a typed decoding failure over the wire")
    func decodingFailure() async throws {
        try await withServer { server in
            server.route("GET", "/user", .respond(.json(#"{"login": 42}"#)))
            let client = GitHubClient(baseURL: server.baseURL, transport: AsyncHTTPClientTransport())
            let error = try #require(await failure { () async throws(APIError<GetAuthenticatedUserFailure>) in
                try await client.getAuthenticatedUser()
            })
            guard case .decoding(let decoding) = error else {
                Issue.record("expected decoding, got \(error)")
                return
            }
            #expect(decoding.codingPath == "login")
        }
    }

    @Test("Query defaults, enum values and dates are sent as the spec says")
    func query() async throws {
        try await withServer { server in
            server.route("GET", "/repos/o/r/issues", .respond(.json("[]")))
            let client = GitHubClient(baseURL: server.baseURL, transport: Self.urlSession)
            let issues = try await client.listIssues(owner: "o", repo: "r", state: .all, since: Date(timeIntervalSince1970: 0))
            #expect(issues.isEmpty)
            let sent = try #require(server.receivedRequests.last)
            #expect(sent.query == "state=all&since=1970-01-01T00%3A00%3A00Z&per_page=30&page=1")
        }
    }
}
