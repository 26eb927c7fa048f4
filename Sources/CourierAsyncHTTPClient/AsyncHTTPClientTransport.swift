import AsyncHTTPClient
import CourierLocking
import CourierRuntime
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix

/// A transport over AsyncHTTPClient, for servers and command-line tools.
///
/// It lives in its own library so that apps using only ``URLSessionTransport`` never
/// link SwiftNIO.
///
/// ## Which client, and who shuts it down
///
/// - ``init(maximumResponseBodySize:)`` sends through one process-wide client that Courier
///   creates on first use and never shuts down, the way `HTTPClient.shared` works: make as
///   many transports as you like, and do nothing at exit. It is configured by
///   ``makeHTTPClient(configuration:)``, so a refused connection fails at once and Courier's
///   retry policy, not AsyncHTTPClient, decides whether to try again.
/// - ``init(client:maximumResponseBodySize:)`` sends through your client, for a
///   configuration of your own (TLS, proxy, pool sizes, an event loop group). The lifetime
///   stays yours: shut the client down after the last call through any transport over it.
///   Build it with ``makeHTTPClient(configuration:)`` to keep Courier's connection settings.
///
/// Passing `HTTPClient.shared` works but is not recommended: it retries a refused
/// connection by itself until the attempt's timeout, so every attempt against a server that
/// is down waits that long, and a wait for a connection that has not failed yet ends as an
/// ambiguous `deadlineExceeded`, which cannot prove that a POST was never sent.
///
/// ## What "may have been sent" means here
///
/// ``TransportError/requestMayHaveBeenSent`` is `false` for the failures AsyncHTTPClient only
/// reports while a request waits for a connection: refused or unreachable connects, DNS
/// failures, `connectTimeout`, `getConnectionFromPoolTimeout`, TLS handshake timeouts and
/// failures to set up a proxy tunnel. The pool gives up on a waiting request after the client's connect timeout
/// (`configuration.timeout.connect`, 10 s in Courier's configuration), so keep that below
/// the attempt timeout: a `deadlineExceeded` is reported the same way whether the request
/// was still queued or already written, and is therefore always "may have been sent".
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client requests go through.
    ///
    /// For a transport made with ``init(maximumResponseBodySize:)`` this is Courier's
    /// process-wide client: never shut it down, other transports share it.
    public let client: HTTPClient
    /// The largest response body accepted, in bytes.
    public let maximumResponseBodySize: Int

    /// Creates a transport over Courier's process-wide client, which needs no shutdown.
    ///
    /// The client is made once, on first use, by ``makeHTTPClient(configuration:)``, and lives
    /// as long as the process, like `HTTPClient.shared`; transports are cheap values over it.
    ///
    /// - Parameter maximumResponseBodySize: The largest response body accepted; 32 MiB by default.
    public init(maximumResponseBodySize: Int = 32 * 1024 * 1024) {
        self.init(client: courierSharedHTTPClient, maximumResponseBodySize: maximumResponseBodySize)
    }

    /// Creates a transport over a client the caller owns.
    ///
    /// The transport never shuts `client` down; the caller does, once, after the last call
    /// through any transport over it (AsyncHTTPClient stops a debug build that drops a client
    /// still running).
    ///
    /// - Parameters:
    ///   - client: The client, ideally one made by ``makeHTTPClient(configuration:)``.
    ///   - maximumResponseBodySize: The largest response body accepted; 32 MiB by default.
    public init(client: HTTPClient, maximumResponseBodySize: Int = 32 * 1024 * 1024) {
        self.client = client
        self.maximumResponseBodySize = maximumResponseBodySize
    }

    /// Makes a client configured for Courier, which the caller owns and must shut down.
    ///
    /// Two settings are forced or filled in, whatever `configuration` says:
    /// - connection establishment is not retried by the pool, so a refused connection surfaces
    ///   at once as ``TransportError/Kind/connectionRefused`` and Courier's retry policy,
    ///   backoff, budget and breaker decide what happens next, instead of a hidden loop that
    ///   waits out the attempt's timeout;
    /// - a connect timeout of 10 s when none is set, because the pool fails a request still
    ///   waiting for a connection after that long with an error that proves it was never sent.
    ///
    /// Everything else (redirects, TLS, proxy, pool sizes) is the caller's `configuration`.
    public static func makeHTTPClient(configuration: HTTPClient.Configuration = HTTPClient.Configuration()) -> HTTPClient {
        var configuration = configuration
        configuration.connectionPool.retryConnectionEstablishment = false
        if configuration.timeout.connect == nil {
            configuration.timeout.connect = .seconds(10)
        }
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Sends one attempt through the client.
    public func send(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse {
        let outgoing = try Self.outgoing(request, body: body, eventLoops: client.eventLoopGroup)
        let deadline = NIODeadline.now() + TimeAmount.nanoseconds(Self.nanoseconds(timeout))
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maximumResponseBodySize {
                throw NIOTooManyBytesError(maxBytes: maximumResponseBodySize)
            }
            let buffer = try await response.body.collect(upTo: maximumResponseBodySize)
            return TransportResponse(head: Self.head(of: response), body: Data(buffer.readableBytesView))
        } catch {
            throw Self.transportError(for: error, cancelled: Task.isCancelled)
        }
    }

    /// Sends one attempt and returns when the response head arrives, with the body read from
    /// AsyncHTTPClient as it arrives (with its backpressure: the connection reads no further
    /// ahead than the reader).
    ///
    /// The timeout bounds the wait for the head only: AsyncHTTPClient's own deadline would go
    /// on to cut the body off, so it is not used, and the head is awaited in a task that a
    /// timer cancels instead. The size limit does not apply; whoever reads the body decides.
    public func stream(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse.Streamed {
        let outgoing = try Self.outgoing(request, body: body, eventLoops: client.eventLoopGroup)
        let client = self.client
        let timedOut = TimeoutFlag()
        let work = Task { () async throws -> HTTPClientResponse in
            try await client.execute(outgoing, timeout: .hours(24 * 365))
        }
        let timer = Task {
            try await Task.sleep(for: timeout)
            timedOut.set()
            work.cancel()
        }
        defer { timer.cancel() }
        let response: HTTPClientResponse
        do {
            response = try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch {
            if timedOut.isSet {
                throw TransportError(.timedOut, underlying: ErrorDescription("No response head within \(timeout)."))
            }
            throw Self.transportError(for: error, cancelled: Task.isCancelled)
        }
        let length: HTTPBody.Length = response.headers.first(name: "Content-Length").flatMap(Int64.init).map { .known($0) } ?? .unknown
        let chunks = response.body.map { buffer in Data(buffer.readableBytesView) }
        return TransportResponse.Streamed(head: Self.head(of: response), body: HTTPBody(ClassifiedChunks(base: chunks), length: length, iterationBehavior: .single))
    }

    /// How many bytes of a streamed request body may be read before the writes of the ones
    /// before have run on the event loops.
    static let readAhead = 1024 * 1024

    private static func outgoing(_ request: HTTPRequest, body: HTTPBody?, eventLoops: any EventLoopGroup) throws(TransportError) -> HTTPClientRequest {
        guard let scheme = request.scheme, let authority = request.authority else {
            throw TransportError(.other, requestMayHaveBeenSent: false, underlying: ErrorDescription("The request has no scheme or authority."))
        }
        let url = "\(scheme)://\(authority)\(request.path ?? "/")"
        guard Self.isSentAsIs(url) else {
            throw TransportError(.other, requestMayHaveBeenSent: false, underlying: ErrorDescription("The request target is not percent-encoded: \(request.path ?? "")"))
        }
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body {
            if let data = body.bufferedData {
                outgoing.body = .bytes(ByteBuffer(bytes: data))
            } else {
                // AsyncHTTPClient takes the next chunk as soon as it has handed the last one to the
                // connection's event loop, and learns only from that loop that the socket is full.
                // A loop starved of CPU then lets the file be read far ahead of the network: a
                // 50 MB upload on a loaded machine held 29 MB. Passing every loop of the group
                // once per `readAhead` bytes lets the writes queued before run first, so at most
                // that much waits beyond what the channel's own backpressure holds.
                let loops = Array(eventLoops.makeIterator())
                let unhopped = Locked(0)
                let buffers = body.map { chunk in
                    let due = unhopped.withLock { count in
                        count += chunk.count
                        guard count >= Self.readAhead else { return false }
                        count = 0
                        return true
                    }
                    if due {
                        for loop in loops {
                            try await loop.submit {}.get()
                        }
                    }
                    return ByteBuffer(bytes: chunk)
                }
                switch body.length {
                case .known(let count):
                    outgoing.body = .stream(buffers, length: .known(count))
                case .unknown:
                    outgoing.body = .stream(buffers, length: .unknown)
                }
            }
        }
        return outgoing
    }

    private static func head(of response: HTTPClientResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for header in response.headers {
            if let name = HTTPField.Name(header.name) {
                fields.append(HTTPField(name: name, value: header.value))
            }
        }
        return HTTPResponse(status: HTTPResponse.Status(code: Int(response.status.code)), headerFields: fields)
    }

    /// Whether AsyncHTTPClient sends `url`'s path byte for byte. It parses the string with
    /// `URL(string:)`, which percent-encodes a string it finds invalid, `%` included, so one
    /// stray character would turn every `%2F` the client encoded into `%252F`; such a request
    /// fails rather than go out as a different one.
    static func isSentAsIs(_ url: String) -> Bool {
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            return URL(string: url, encodingInvalidCharacters: false) != nil
        }
        // Before these releases `URL(string:)` never encoded; it returned nil.
        return URL(string: url) != nil
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let components = duration.components
        let (seconds, overflow) = components.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return Int64.max / 2 }
        return seconds + components.attoseconds / 1_000_000_000
    }

    /// A NIO or AsyncHTTPClient error, kept as text because those errors are not all `Sendable`.
    struct ErrorDescription: Error, Sendable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Classifies an AsyncHTTPClient or SwiftNIO error.
    static func transportError(for error: any Error, cancelled: Bool) -> TransportError {
        let underlying = ErrorDescription(String(reflecting: error))
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled:
                return TransportError(.cancelled, underlying: error)
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                // AsyncHTTPClient reports `deadlineExceeded` alike for a request still queued for
                // a connection and for one already written, so it proves nothing.
                return TransportError(cancelled ? .cancelled : .timedOut, underlying: error)
            case .connectTimeout, .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                // The pool reports these only for a request that never got a connection.
                return TransportError(.timedOut, requestMayHaveBeenSent: false, underlying: error)
            case .remoteConnectionClosed:
                return TransportError(.connectionLost, underlying: error)
            case .tlsHandshakeTimeout:
                return TransportError(.tls, requestMayHaveBeenSent: false, underlying: error)
            case .proxyAuthenticationRequired, .invalidProxyResponse:
                // The proxy refused the tunnel (every proxied request goes through CONNECT), so
                // the request itself never left.
                return TransportError(.other, requestMayHaveBeenSent: false, underlying: error)
            case .invalidURL, .emptyHost, .emptyScheme, .alreadyShutdown:
                return TransportError(.other, requestMayHaveBeenSent: false, underlying: error)
            default:
                return TransportError(.other, underlying: error)
            }
        }
        if error is CancellationError {
            return TransportError(.cancelled, underlying: underlying)
        }
        if let error = error as? NIOTooManyBytesError {
            return TransportError(.responseTooLarge, underlying: ErrorDescription("The response body exceeded \(error.maxBytes ?? 0) bytes."))
        }
        if let error = error as? NIOConnectionError {
            // Nothing was written before a connection existed, so retrying a POST is safe.
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return TransportError(.cannotResolveHost, requestMayHaveBeenSent: false, underlying: underlying)
            }
            let kinds = error.connectionErrors.map { connectKind(for: $0.error) }
            return TransportError(kinds.first ?? .connectionRefused, requestMayHaveBeenSent: false, underlying: underlying)
        }
        if let error = error as? IOError {
            let kind = ioKind(error.errnoCode)
            return TransportError(kind, requestMayHaveBeenSent: kind != .connectionRefused && kind != .notConnected, underlying: underlying)
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout:
                return TransportError(.timedOut, requestMayHaveBeenSent: false, underlying: underlying)
            case .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed, .eof:
                return TransportError(.connectionLost, underlying: underlying)
            default:
                return TransportError(.other, underlying: underlying)
            }
        }
        if let error = error as? HTTPParserError, error == .invalidEOFState {
            // The server closed the connection before the declared body length arrived.
            return TransportError(.connectionLost, underlying: underlying)
        }
        let typeName = String(reflecting: type(of: error))
        if typeName.contains("NIOSSL") || typeName.contains("TLS") {
            return TransportError(.tls, underlying: underlying)
        }
        if cancelled {
            return TransportError(.cancelled, underlying: underlying)
        }
        return TransportError(.other, underlying: underlying)
    }

    private static func connectKind(for error: any Error) -> TransportError.Kind {
        if let error = error as? IOError {
            return ioKind(error.errnoCode)
        }
        if let error = error as? ChannelError, case .connectTimeout = error {
            return .timedOut
        }
        return .connectionRefused
    }

    private static func ioKind(_ code: CInt) -> TransportError.Kind {
        switch code {
        case ECONNREFUSED: .connectionRefused
        case ECONNRESET, EPIPE, ECONNABORTED: .connectionLost
        case ENETUNREACH, EHOSTUNREACH, ENETDOWN: .notConnected
        case ETIMEDOUT: .timedOut
        default: .other
        }
    }
}

/// A streamed body's chunks, whose failures are classified as ``TransportError``s like the
/// failures of the request itself.
private struct ClassifiedChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == Data {
    var base: Base

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator

        mutating func next() async throws -> Data? {
            do {
                return try await base.next()
            } catch {
                throw AsyncHTTPClientTransport.transportError(for: error, cancelled: Task.isCancelled)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }
}

/// Set once, by the timer that gave up waiting for a streamed response's head.
private final class TimeoutFlag: Sendable {
    private let flag = Locked(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}

/// The client behind ``AsyncHTTPClientTransport/init(maximumResponseBodySize:)``.
///
/// A global, so it is created lazily and exactly once, and is never deinitialised, which is
/// what keeps AsyncHTTPClient's check for clients dropped without a shutdown from firing.
private let courierSharedHTTPClient = AsyncHTTPClientTransport.makeHTTPClient()
