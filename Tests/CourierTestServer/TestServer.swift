import CourierLocking
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP/1.1 server on 127.0.0.1 with an ephemeral port, for tests.
///
/// Routes answer with scripted behaviours, including faults a well-behaved server never
/// shows: stalling, closing mid-body, resetting the connection. The server records the
/// exact request line and header fields of every request and counts requests per route,
/// so tests can assert what actually reached the wire.
///
/// ```swift
/// let server = try await TestServer.start()
/// defer { Task { await server.stop() } }
/// server.route("GET", "/users/1", .respond(.json(#"{"id":1}"#)))
/// server.route("GET", "/flaky") { request in
///     request.routeCount <= 2 ? .respond(.status(503, headers: [("Retry-After", "1")])) : .respond(.json("{}"))
/// }
/// ```
public final class TestServer: Sendable {
    /// A request as the server received it.
    public struct ReceivedRequest: Sendable {
        /// The request line exactly as the client sent it, such as `GET /a%2Fb?q=1 HTTP/1.1`.
        public var requestLine: String
        /// The method.
        public var method: String
        /// The request target as sent: path and query, still percent-encoded.
        public var target: String
        /// The header fields in the order and spelling they arrived.
        public var headers: [(name: String, value: String)]
        /// The body.
        public var body: Data
        /// How many requests this route (method and path) had received, counting this one.
        public var routeCount: Int
        /// When the server had read the whole request; the fault suite measures the gaps between
        /// attempts here, at the server, rather than at the client that chose them.
        public var receivedAt: ContinuousClock.Instant = .now

        /// The target's path, before any `?`.
        public var path: String {
            target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
        }

        /// The target's query, after `?`; empty when there is none.
        public var query: String {
            target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } ?? ""
        }

        /// The first value of a header field, compared case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// A response to send.
    public struct Reply: Sendable {
        /// The status code.
        public var status: Int
        /// Header fields; `Content-Length` is added unless it or `Transfer-Encoding` is given.
        public var headers: [(String, String)]
        /// The body.
        public var body: Data

        /// Creates a reply.
        public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A reply with a status and no body.
        public static func status(_ status: Int, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: headers)
        }

        /// A JSON reply.
        public static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: [("Content-Type", "application/json")] + headers, body: Data(text.utf8))
        }
    }

    /// What the server does with a request.
    public indirect enum Behavior: Sendable {
        /// Sends a complete response.
        case respond(Reply)
        /// Never answers, keeping the connection open.
        case stall
        /// Sends the head with a `Content-Length` of `declaredLength`, then `sent`, then closes.
        case closeMidBody(status: Int, declaredLength: Int, sent: Data)
        /// Closes the connection without answering.
        case close
        /// Resets the connection (TCP RST) without answering.
        case reset
        /// Does `behavior` after `delay`.
        case delayed(Duration, Behavior)
        /// Sends the head, then the body a part at a time as `stream` says (see
        /// `StreamedReply.swift`).
        case stream(ResponseStream)
    }

    /// Decides the behaviour for a request.
    public typealias Handler = @Sendable (ReceivedRequest) -> Behavior

    fileprivate struct RouteKey: Hashable {
        var method: String
        var path: String
    }

    fileprivate struct Waiter {
        var id: UInt64
        var count: Int
        var continuation: CheckedContinuation<Int, Never>
    }

    fileprivate struct State {
        var routes: [RouteKey: Handler] = [:]
        var counts: [RouteKey: Int] = [:]
        var received: [ReceivedRequest] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var override: Behavior?
        var fallback: Behavior = .respond(.status(404))
        // Transport tests (connection counting): see the extension at the end of the file.
        var acceptedConnections = 0
        var headCounts: [RouteKey: Int] = [:]
    }

    /// The port the server listens on.
    public let port: Int
    private let state: Locked<State>
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    private init(port: Int, state: Locked<State>, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.port = port
        self.state = state
        self.group = group
        self.channel = channel
    }

    /// Starts a server on 127.0.0.1 with a port the system picks.
    public static func start() async throws -> TestServer {
        let state = Locked(State())
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // Transport tests (connection counting): see the extension at the end of the file.
                TestServer.countConnection(in: state)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(RequestHandler(state: state))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
            guard let port = channel.localAddress?.port else {
                try? await channel.close()
                throw ServerError.noPort
            }
            return TestServer(port: port, state: state, group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Why the server could not start.
    public enum ServerError: Error {
        /// The bound socket reported no port.
        case noPort
    }

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Answers `method` on `path` (without query) with a fixed behaviour.
    public func route(_ method: String, _ path: String, _ behavior: Behavior) {
        route(method, path) { _ in behavior }
    }

    /// Answers `method` on `path` (without query) with a behaviour computed per request.
    public func route(_ method: String, _ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[RouteKey(method: method, path: path)] = handler }
    }

    /// Answers `method` on `path` with `failure` for the first `count` requests and with
    /// `success` from then on: the transient fault a retry should ride out.
    public func route(_ method: String, _ path: String, failingFirst count: Int, with failure: Behavior, then success: Behavior) {
        route(method, path) { request in
            request.routeCount <= count ? failure : success
        }
    }

    /// `date` as an HTTP-date (IMF-fixdate), the second form of `Retry-After` and the form
    /// of `Date`.
    public static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// A throttling reply, 429 or 503, whose `Retry-After` asks for `seconds` in the
    /// delay-seconds form.
    public static func throttled(_ status: Int, retryAfterSeconds seconds: Int) -> Behavior {
        .respond(.status(status, headers: [("Retry-After", String(seconds))]))
    }

    /// A throttling reply, 429 or 503, whose `Retry-After` asks for `seconds` in the HTTP-date
    /// form, with a `Date` field so that the delay does not depend on the two clocks agreeing.
    public static func throttled(_ status: Int, retryAfterDateIn seconds: Int) -> Behavior {
        let now = Date()
        return .respond(.status(status, headers: [
            ("Date", httpDate(now)),
            ("Retry-After", httpDate(now.addingTimeInterval(TimeInterval(seconds)))),
        ]))
    }

    /// The behaviour for requests no route matches; a 404 by default.
    public func setFallback(_ behavior: Behavior) {
        state.withLock { $0.fallback = behavior }
    }

    /// While set, every request gets this behaviour whatever its route: a total outage,
    /// for example, is `.reset`. Requests are still recorded and counted.
    public func setOverride(_ behavior: Behavior?) {
        state.withLock { $0.override = behavior }
    }

    /// Every request received, in arrival order.
    public var receivedRequests: [ReceivedRequest] {
        state.withLock { $0.received }
    }

    /// How many requests arrived in all.
    public var requestCount: Int {
        state.withLock { $0.received.count }
    }

    /// Waits until at least `count` requests have arrived in all, and returns how many have.
    ///
    /// Tests act on an event (a request is in flight) instead of polling wall time, which a
    /// busy machine can stretch past any limit. Returns at once when the waiting task is cancelled.
    public func waitForRequests(count: Int = 1) async -> Int {
        let id: UInt64 = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                let ready: Int? = state.withLock { state in
                    if state.received.count >= count || Task.isCancelled { return state.received.count }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let cancelled: (Waiter, Int)? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return (state.waiters.remove(at: index), state.received.count)
            }
            if let (waiter, received) = cancelled { waiter.continuation.resume(returning: received) }
        }
    }

    /// How many requests arrived for `method` on `path`.
    public func requestCount(_ method: String, _ path: String) -> Int {
        state.withLock { $0.counts[RouteKey(method: method, path: path)] ?? 0 }
    }

    /// Closes the listening socket and every open connection.
    public func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    fileprivate static func behavior(for request: inout ReceivedRequest, in state: Locked<State>) -> Behavior {
        let (handler, fallback, override, woken, received) = state.withLock { state -> (Handler?, Behavior, Behavior?, [Waiter], Int) in
            let key = RouteKey(method: request.method, path: request.path)
            let count = (state.counts[key] ?? 0) + 1
            state.counts[key] = count
            request.routeCount = count
            state.received.append(request)
            let received = state.received.count
            let woken = state.waiters.filter { $0.count <= received }
            state.waiters.removeAll { $0.count <= received }
            return (state.routes[key], state.fallback, state.override, woken, received)
        }
        for waiter in woken { waiter.continuation.resume(returning: received) }
        if let override { return override }
        return handler?(request) ?? fallback
    }

    private final class RequestHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let state: Locked<State>
        private var head: HTTPRequestHead?
        private var body = Data()

        init(state: Locked<State>) {
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                // Transport tests (request heads): see the extension at the end of the file.
                TestServer.countHead(head, in: state)
                body = Data()
            case .body(let buffer):
                body.append(contentsOf: buffer.readableBytesView)
            case .end:
                guard let head else { return }
                self.head = nil
                var request = ReceivedRequest(
                    requestLine: "\(head.method.rawValue) \(head.uri) HTTP/\(head.version.major).\(head.version.minor)",
                    method: head.method.rawValue,
                    target: head.uri,
                    headers: head.headers.map { ($0.name, $0.value) },
                    body: body,
                    routeCount: 0
                )
                let behavior = TestServer.behavior(for: &request, in: state)
                perform(behavior, context: context, keepAlive: head.isKeepAlive)
            }
        }

        private func perform(_ behavior: Behavior, context: ChannelHandlerContext, keepAlive: Bool) {
            switch behavior {
            case .respond(let reply):
                var headers = HTTPHeaders(reply.headers)
                if !headers.contains(name: "Content-Length"), !headers.contains(name: "Transfer-Encoding") {
                    headers.add(name: "Content-Length", value: String(reply.body.count))
                }
                if !keepAlive {
                    headers.replaceOrAdd(name: "Connection", value: "close")
                }
                let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                if !reply.body.isEmpty {
                    context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: reply.body)))), promise: nil)
                }
                if keepAlive {
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                } else {
                    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                        loopBound.value.close(promise: nil)
                    }
                }
            case .stall:
                break
            case .closeMidBody(let status, let declaredLength, let sent):
                var headers = HTTPHeaders([("Content-Type", "application/json")])
                headers.add(name: "Content-Length", value: String(declaredLength))
                let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: sent))))).whenComplete { _ in
                    loopBound.value.close(promise: nil)
                }
            case .close:
                context.close(promise: nil)
            case .reset:
                guard let provider = context.channel as? any SocketOptionProvider else {
                    context.close(promise: nil)
                    return
                }
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0))
                    .whenComplete { _ in loopBound.value.close(promise: nil) }
            case .stream(let stream):
                stream.start(context: context, keepAlive: keepAlive)
            case .delayed(let delay, let next):
                let components = delay.components
                let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
                    let (handler, context) = loopBound.value
                    handler.perform(next, context: context, keepAlive: keepAlive)
                }
            }
        }
    }
}

// MARK: - Fault suite additions: per-route receipts and their times

extension TestServer {
    /// The requests that arrived for `method` on `path` (without query), in arrival order.
    public func receivedRequests(_ method: String, _ path: String) -> [ReceivedRequest] {
        receivedRequests.filter { $0.method == method && $0.path == path }
    }

    /// The times between consecutive receipts of `method` on `path`, as the server saw them:
    /// one fewer than the receipts.
    public func receiptGaps(_ method: String, _ path: String) -> [Duration] {
        let times = receivedRequests(method, path).map(\.receivedAt)
        return zip(times, times.dropFirst()).map { $1 - $0 }
    }

    /// The values of header `name` on every request for `method` on `path`, in arrival order;
    /// `nil` where a request had no such field.
    public func headerValues(_ name: String, _ method: String, _ path: String) -> [String?] {
        receivedRequests(method, path).map { $0.header(name) }
    }
}

// MARK: - Transport tests: connections and request heads

extension TestServer {
    /// How many TCP connections the server has accepted since it started, so tests can tell
    /// a transport that keeps its connections alive from one that opens a connection per
    /// request or replays a request on a fresh connection.
    public var acceptedConnectionCount: Int {
        state.withLock { $0.acceptedConnections }
    }

    fileprivate static func countConnection(in state: Locked<State>) {
        state.withLock { $0.acceptedConnections += 1 }
    }

    /// How many requests for `method` on `path` (without query) began to arrive: their head
    /// came in, whether or not the rest of the request followed. A client that sends a request
    /// again but never finishes the copy shows here and not in ``requestCount(_:_:)``.
    public func headCount(_ method: String, _ path: String) -> Int {
        state.withLock { $0.headCounts[RouteKey(method: method, path: path)] ?? 0 }
    }

    fileprivate static func countHead(_ head: HTTPRequestHead, in state: Locked<State>) {
        let path = head.uri.firstIndex(of: "?").map { String(head.uri[..<$0]) } ?? head.uri
        state.withLock { $0.headCounts[RouteKey(method: head.method.rawValue, path: path), default: 0] += 1 }
    }
}

// MARK: - Soak support: seeded random faults and bounded records
//
// Added for the soak test and `courier-bench soak` (issue 16): many thousands of calls with a
// reproducible share of faults, on a server that must not grow with every request it records.

extension TestServer {
    /// A fault a ``FaultInjector`` may answer a request with.
    public enum Fault: String, Sendable, CaseIterable, Hashable {
        /// A complete `503 Service Unavailable` without `Retry-After`.
        case serviceUnavailable
        /// The connection is reset (TCP RST) after the request was read, without an answer.
        case reset
        /// The connection is closed after the request was read, without an answer.
        case close

        /// What the server does for this fault.
        public var behavior: Behavior {
            switch self {
            case .serviceUnavailable: .respond(.status(503))
            case .reset: .reset
            case .close: .close
            }
        }
    }

    /// Answers a share of a route's requests with faults drawn from a seeded generator, and
    /// counts the faults it injected.
    ///
    /// Whether request number `n` of the route (its ``ReceivedRequest/routeCount``) meets a
    /// fault, and which, depends only on the seed and `n`, never on timing: concurrent callers
    /// arrive in a different order from run to run, but the server's sequence of answers is the
    /// same in every run with the same seed.
    ///
    /// ```swift
    /// let faults = TestServer.FaultInjector(seed: 42, rate: 0.1)
    /// server.route("GET", "/books/7", faults.handler(otherwise: .respond(.json(book))))
    /// ```
    public final class FaultInjector: Sendable {
        /// The seed of the draws.
        public let seed: UInt64
        /// The share of requests that meet a fault, from 0 to 1.
        public let rate: Double
        /// The faults drawn from, each equally likely.
        public let faults: [Fault]
        private let counts = Locked<[Fault: Int]>([:])

        /// Creates an injector; `faults` must not be empty for any fault to be injected.
        public init(seed: UInt64, rate: Double, faults: [Fault] = Fault.allCases) {
            self.seed = seed
            self.rate = rate
            self.faults = faults
        }

        /// The fault request number `arrival` (counting from 1) meets, or `nil` for none.
        public func fault(forArrival arrival: Int) -> Fault? {
            guard !faults.isEmpty else { return nil }
            var state = seed &+ UInt64(truncatingIfNeeded: arrival) &* 0x9E37_79B9_7F4A_7C15
            let draw = Double(Self.mix(&state) >> 11) / Double(1 << 53)
            guard draw < rate else { return nil }
            return faults[Int(Self.mix(&state) % UInt64(faults.count))]
        }

        /// A route handler: a fault for the requests that meet one (counted), `success` for
        /// the others.
        public func handler(otherwise success: Behavior) -> Handler {
            { [self] request in
                guard let fault = fault(forArrival: request.routeCount) else { return success }
                counts.withLock { $0[fault, default: 0] += 1 }
                return fault.behavior
            }
        }

        /// How many requests met each fault so far.
        public var injected: [Fault: Int] {
            counts.withLock { $0 }
        }

        /// How many requests met a fault so far.
        public var injectedTotal: Int {
            counts.withLock { $0.values.reduce(0, +) }
        }

        /// SplitMix64's step: well mixed for consecutive seeds, which the arrival numbers are.
        private static func mix(_ state: inout UInt64) -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Drops the records of the requests received so far (``receivedRequests``), keeping the
    /// per-route counts (``requestCount(_:_:)``), so that a long run's memory does not grow
    /// with every request the server has seen. ``requestCount`` and
    /// ``waitForRequests(count:)`` count from the last discard.
    public func discardReceivedRequests() {
        state.withLock { $0.received = [] }
    }

    /// How many requests arrived in all routes together, including those whose records were
    /// discarded.
    public var totalRequestCount: Int {
        state.withLock { $0.counts.values.reduce(0, +) }
    }
}
