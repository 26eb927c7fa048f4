import AsyncHTTPClient
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
/// AsyncHTTPClient's default configuration keeps retrying a refused connection until the
/// request's deadline; Courier has its own retry policy, so ``makeHTTPClient(configuration:)``
/// builds a client that reports a refused connection at once.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client requests go through.
    public let client: HTTPClient
    /// The largest response body accepted, in bytes.
    public let maximumResponseBodySize: Int

    /// Creates a transport over an existing client, which the caller keeps and shuts down.
    ///
    /// - Parameters:
    ///   - client: The client; `HTTPClient.shared` by default.
    ///   - maximumResponseBodySize: The largest response body accepted; 32 MiB by default.
    public init(client: HTTPClient = .shared, maximumResponseBodySize: Int = 32 * 1024 * 1024) {
        self.client = client
        self.maximumResponseBodySize = maximumResponseBodySize
    }

    /// Makes a client configured for Courier: connection failures surface immediately
    /// (Courier's retry decides what happens next), and redirects are followed.
    /// The caller owns it and must call `shutdown()` on it.
    public static func makeHTTPClient(configuration: HTTPClient.Configuration = HTTPClient.Configuration()) -> HTTPClient {
        var configuration = configuration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Sends one attempt through the client.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(TransportError) -> TransportResponse {
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
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let deadline = NIODeadline.now() + TimeAmount.nanoseconds(Self.nanoseconds(timeout))
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maximumResponseBodySize {
                throw NIOTooManyBytesError(maxBytes: maximumResponseBodySize)
            }
            let buffer = try await response.body.collect(upTo: maximumResponseBodySize)
            var fields = HTTPFields()
            for header in response.headers {
                if let name = HTTPField.Name(header.name) {
                    fields.append(HTTPField(name: name, value: header.value))
                }
            }
            let head = HTTPResponse(status: HTTPResponse.Status(code: Int(response.status.code)), headerFields: fields)
            return TransportResponse(head: head, body: Data(buffer.readableBytesView))
        } catch {
            throw Self.transportError(for: error, cancelled: Task.isCancelled)
        }
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
                return TransportError(cancelled ? .cancelled : .timedOut, underlying: error)
            case .connectTimeout, .getConnectionFromPoolTimeout:
                return TransportError(.timedOut, requestMayHaveBeenSent: false, underlying: error)
            case .remoteConnectionClosed:
                return TransportError(.connectionLost, underlying: error)
            case .tlsHandshakeTimeout:
                return TransportError(.tls, requestMayHaveBeenSent: false, underlying: error)
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
