import Foundation

/// Why a walk through pages stopped on its own, apart from a failed request.
public enum PaginationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server pointed at a page already fetched in this walk (the same cursor, page or
    /// URL again), which would loop forever.
    case repeatedPage(String)
    /// A `Link` header's next page is on another scheme, host or port than the service, which
    /// would send the client's credentials elsewhere.
    case crossOriginLink(String)
    /// A `Link` header's next page is not a URL the client can send.
    case invalidLink(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .repeatedPage(let page): "The server pointed at a page already fetched in this walk (\(page)); stopped instead of looping."
        case .crossOriginLink(let url): "The next page (\(url)) is on another origin than the service; its credentials are not sent there."
        case .invalidLink(let url): "The next page (\(url)) is not a URL that can be sent."
        }
    }
}

/// How a list endpoint pages: where a page's items are, and what comes after a page.
///
/// Generated code builds one per paginated endpoint; the common styles have factories.
public struct Pagination<Request: APIRequest, Item: Sendable>: Sendable {
    /// The items of a page.
    public var items: @Sendable (Request.Response) -> [Item]
    /// What comes after `page`, which `request` fetched, when `itemsSoFar` items have been
    /// seen in this walk, this page's included.
    public var next: @Sendable (_ request: Request, _ page: APIResponse<Request.Response>, _ itemsSoFar: Int) -> Next

    /// Creates a pagination from its two functions.
    public init(items: @escaping @Sendable (Request.Response) -> [Item],
                next: @escaping @Sendable (_ request: Request, _ page: APIResponse<Request.Response>, _ itemsSoFar: Int) -> Next) {
        self.items = items
        self.next = next
    }

    /// What comes after a page: another request, the URL a `Link` header named, or nothing.
    public enum Next: Sendable {
        /// The same endpoint with other values (a cursor, a page number, an offset); `key` names
        /// the page for loop detection, such as the cursor.
        case request(Request, key: String)
        /// A URL from the response, resolved against the request's; sent with the request's
        /// method, header fields and body.
        case link(String)
        /// This was the last page.
        case end
    }

    /// RFC 8288 `Link` headers with `rel="next"` (GitHub): the walk ends at a page without one.
    public static func link(items: @escaping @Sendable (Request.Response) -> [Item]) -> Pagination {
        Pagination(items: items) { _, page, _ in
            guard let field = page.raw.header("Link"), let next = LinkHeader(field).target(for: "next") else { return .end }
            return .link(next)
        }
    }

    /// A cursor from each page, sent back in the next request (`starting_after`, `cursor`): the
    /// walk ends when `cursor` gives `nil` or an empty cursor, or `hasMore` says `false`.
    ///
    /// - Parameters:
    ///   - items: A page's items.
    ///   - cursor: The cursor for the page after this one.
    ///   - hasMore: Whether there are more pages, for APIs that say so (Stripe's `has_more`).
    ///   - request: The request for the page at `cursor`.
    public static func cursor(
        items: @escaping @Sendable (Request.Response) -> [Item],
        cursor: @escaping @Sendable (APIResponse<Request.Response>) -> String?,
        hasMore: (@Sendable (Request.Response) -> Bool)? = nil,
        request: @escaping @Sendable (Request, String) -> Request
    ) -> Pagination {
        Pagination(items: items) { current, page, _ in
            if let hasMore, !hasMore(page.value) { return .end }
            guard let value = cursor(page), !value.isEmpty else { return .end }
            return .request(request(current, value), key: value)
        }
    }

    /// Numbered pages (or offsets) with an optional total: the walk ends at an empty page, or
    /// once `total` items have been seen.
    ///
    /// - Parameters:
    ///   - items: A page's items.
    ///   - total: The number of items in all pages, when the API says (a body field or a header).
    ///   - request: The request after `current`, given the number of items seen so far (use it
    ///     as an offset, or count pages yourself).
    ///   - key: A name for a request's page, for loop detection (its page number or offset).
    public static func numbered(
        items: @escaping @Sendable (Request.Response) -> [Item],
        total: (@Sendable (APIResponse<Request.Response>) -> Int?)? = nil,
        request: @escaping @Sendable (_ current: Request, _ itemsSoFar: Int) -> Request,
        key: @escaping @Sendable (Request) -> String
    ) -> Pagination {
        Pagination(items: items) { current, page, seen in
            guard !items(page.value).isEmpty else { return .end }
            if let total = total?(page), seen >= total { return .end }
            let next = request(current, seen)
            return .request(next, key: key(next))
        }
    }
}

extension APIClient {
    /// The pages of a list endpoint, fetched one at a time as they are read.
    ///
    /// Each page is an ordinary call, with the same retries, breaker, budget, events and typed
    /// errors as ``send(_:resilience:)``; cancelling the reading task stops the walk; a page the
    /// walk has already fetched ends it with ``PaginationError/repeatedPage(_:)``.
    ///
    /// ```swift
    /// for try await page in client.pages(ListIssues(owner: "apple", repo: "swift"), pagination: .link(items: { $0 })) { … }
    /// for try await issue in client.pages(first, pagination: .link(items: { $0 })).items(limit: 250) { … }
    /// ```
    public func pages<Request: APIRequest, Item: Sendable>(
        _ first: Request,
        pagination: Pagination<Request, Item>,
        resilience: EndpointResilience? = nil
    ) -> PageSequence<Request, Item> {
        PageSequence(client: self, first: first, pagination: pagination, resilience: resilience)
    }

    /// One page: `request` sent as it is, or to `target` (a path and query already
    /// percent-encoded) when a `Link` header named it. Returns the page and the target it was
    /// fetched from, against which the next relative link resolves.
    func page<Request: APIRequest>(
        _ request: Request,
        target: String?,
        resilience: EndpointResilience?
    ) async throws(APIError<Request.Failure>) -> (APIResponse<Request.Response>, target: String) {
        var sent = ""
        let response = try await perform(request, resilience: resilience, adjust: { prepared in
            if let target { prepared.head.path = target }
            sent = prepared.head.path ?? "/"
        }, interpret: { raw, _ in Self.interpret(raw, for: request) }, status: { ($0.status, $0.rateLimit) })
        return (response, sent)
    }
}

/// The pages of a list endpoint; see ``APIClient/pages(_:pagination:resilience:)``.
///
/// Its iteration throws `APIError<Request.Failure>` for a page that failed (after the retries
/// the policy allows) and ``PaginationError`` for a walk that would loop or leave the service.
public struct PageSequence<Request: APIRequest, Item: Sendable>: AsyncSequence, Sendable {
    /// A page: the decoded body with its status and header fields.
    public typealias Element = APIResponse<Request.Response>

    let client: APIClient
    let first: Request
    let pagination: Pagination<Request, Item>
    let resilience: EndpointResilience?

    /// The items of every page in order, stopping after `limit` items when given, without
    /// fetching a page more than it needs.
    public func items(limit: Int? = nil) -> Items {
        Items(pages: self, limit: limit)
    }

    /// Fetches pages one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: PageSequence
        var pending: Pagination<Request, Item>.Next?
        var current: Request
        var currentTarget: String?
        /// Hashes of the pages fetched so far: 8 bytes a page, so even a walk of a million
        /// pages keeps 8 MB, and no cursor text.
        var seen: Set<Int> = []
        var itemsSoFar = 0

        init(_ sequence: PageSequence) {
            self.sequence = sequence
            current = sequence.first
            pending = .request(sequence.first, key: "")
        }

        /// The next page, or `nil` after the last.
        public mutating func next() async throws -> APIResponse<Request.Response>? {
            guard let step = pending else { return nil }
            pending = nil
            let target: String?
            switch step {
            case .end:
                return nil
            case .request(let request, let key):
                if currentTarget != nil {
                    // Not the first page: a cursor or number seen before means a loop.
                    try remember("page \(key)", label: key)
                }
                current = request
                target = nil
            case .link(let link):
                let resolved = try resolve(link)
                try remember("link \(resolved)", label: link)
                target = resolved
            }
            try Task.checkCancellation()
            let (page, sent) = try await sequence.client.page(current, target: target, resilience: sequence.resilience)
            currentTarget = sent
            itemsSoFar += sequence.pagination.items(page.value).count
            pending = sequence.pagination.next(current, page, itemsSoFar)
            return page
        }

        private mutating func remember(_ identity: String, label: String) throws {
            guard seen.insert(identity.hashValue).inserted else {
                throw PaginationError.repeatedPage(label)
            }
        }

        /// The path and query of `link`, resolved against the page it came from, if it is on
        /// the service's own origin.
        private func resolve(_ link: String) throws -> String {
            let client = sequence.client
            guard case .success(let base) = client.base else { throw PaginationError.invalidLink(link) }
            let origin = "\(base.scheme)://\(base.authority)"
            guard let current = URL(string: origin + (currentTarget ?? "/")),
                  let url = URL(string: link, relativeTo: current)?.absoluteURL,
                  let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                  let scheme = components.scheme?.lowercased(), let host = components.host
            else { throw PaginationError.invalidLink(link) }
            let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            let defaultPort = scheme == "https" ? 443 : 80
            let authority = components.port.map { $0 == defaultPort && !base.authority.hasSuffix(":\($0)") ? hostPart : "\(hostPart):\($0)" } ?? hostPart
            guard scheme == base.scheme, authority.lowercased() == base.authority.lowercased() else {
                throw PaginationError.crossOriginLink(link)
            }
            let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        }
    }

    /// Starts a walk from the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }
}

extension PageSequence {
    /// The items of a walk through pages; see ``PageSequence/items(limit:)``.
    public struct Items: AsyncSequence, Sendable {
        /// An item.
        public typealias Element = Item

        let pages: PageSequence<Request, Item>
        let limit: Int?

        /// Reads items, fetching the next page when the current one is used up.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var pages: PageSequence<Request, Item>.AsyncIterator
            let items: @Sendable (Request.Response) -> [Item]
            let limit: Int?
            var buffer: [Item] = []
            var position = 0
            var delivered = 0

            /// The next item, or `nil` at the end or the limit.
            public mutating func next() async throws -> Item? {
                if let limit, delivered >= limit { return nil }
                while position >= buffer.count {
                    guard let page = try await pages.next() else { return nil }
                    buffer = items(page.value)
                    position = 0
                }
                defer {
                    position += 1
                    delivered += 1
                }
                return buffer[position]
            }
        }

        /// Starts a walk from the first page.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(pages: pages.makeAsyncIterator(), items: pages.pagination.items, limit: limit)
        }
    }
}
