import Foundation
import HTTPTypes

/// Sends one HTTP attempt and returns what came back.
///
/// A transport does one thing: put a request on the wire and bring back what came
/// back. Retries, breakers, auth and decoding live above it, in ``APIClient``, so a
/// transport stays small enough to swap for a stub in tests.
///
/// It has two ways to answer: ``send(_:body:timeout:)`` buffers the whole response, under
/// the attempt's timeout and the transport's size limit, which is what decoding a JSON
/// answer needs; ``stream(_:body:timeout:)`` hands back the head as soon as it arrives and
/// the body as an ``HTTPBody`` read while it arrives, for downloads, server-sent events and
/// JSON Lines. Request bodies are an ``HTTPBody`` either way, so a file streams out in chunks.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with an optional body and waits for the whole response.
    ///
    /// - Parameters:
    ///   - request: A request whose scheme, authority and path (including the query) are set.
    ///   - body: The bytes to send, or `nil` for none. A buffered body (``HTTPBody/bufferedData``)
    ///     should go out in one piece; any other is read as it is sent.
    ///   - timeout: How long this attempt may take, from the first byte sent to the last byte read.
    /// - Returns: The response head and its complete body.
    /// - Throws: ``TransportError`` when no complete response arrived. Cancelling the calling
    ///   task must end the attempt promptly with ``TransportError/Kind/cancelled``.
    func send(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse

    /// Sends `request` and returns as soon as the response head arrives, with a body that is
    /// read as it arrives.
    ///
    /// - Parameters:
    ///   - request: A request whose scheme, authority and path (including the query) are set.
    ///   - body: The bytes to send, or `nil` for none.
    ///   - timeout: How long the attempt may take until the response head has arrived. Reading
    ///     the body has no time limit of its own (an event stream may last for hours): the
    ///     reader ends it by cancelling its task or by dropping the iterator.
    /// - Returns: The head, and a single-use body whose iteration throws ``TransportError``
    ///   when the connection fails midway. Cancelling the task that reads the body, or
    ///   dropping its iterator before the end, closes the connection.
    ///
    /// The default implementation calls ``send(_:body:timeout:)`` and hands out the buffered
    /// body, which is right for test doubles; the URLSession and AsyncHTTPClient transports
    /// stream.
    func stream(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse.Streamed
}

extension HTTPTransport {
    /// Buffers the response with ``send(_:body:timeout:)`` and hands out its body.
    public func stream(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse.Streamed {
        let response = try await send(request, body: body, timeout: timeout)
        return TransportResponse.Streamed(head: response.head, body: HTTPBody(response.body))
    }
}

/// A complete HTTP response as a transport delivers it.
public struct TransportResponse: Sendable {
    /// The status line and header fields.
    public var head: HTTPResponse
    /// The full response body; empty when the server sent none.
    public var body: Data
    /// The body still to be read, for a response asked for with ``HTTPTransport/stream(_:body:timeout:)``
    /// whose status the call accepts; ``body`` is then empty.
    var streamedBody: HTTPBody?

    /// Creates a response from its head and body.
    public init(head: HTTPResponse, body: Data = Data()) {
        self.head = head
        self.body = body
    }
}

extension TransportResponse {
    /// A response whose head has arrived and whose body is read as it arrives.
    public struct Streamed: Sendable {
        /// The status line and header fields.
        public var head: HTTPResponse
        /// The body, read as it arrives.
        public var body: HTTPBody

        /// Creates a response from its head and body.
        public init(head: HTTPResponse, body: HTTPBody) {
            self.head = head
            self.body = body
        }
    }
}

/// Why a transport could not deliver a complete response.
public struct TransportError: Error, Sendable {
    /// The classes of transport failure that callers act on differently.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The device has no network connection.
        case notConnected
        /// The host name did not resolve.
        case cannotResolveHost
        /// The server refused the connection; nothing was sent.
        case connectionRefused
        /// The connection was reset or closed before the response was complete.
        case connectionLost
        /// The attempt ran past its timeout.
        case timedOut
        /// The calling task was cancelled.
        case cancelled
        /// TLS negotiation or certificate trust failed.
        case tls
        /// The response body grew past the transport's configured size limit.
        case responseTooLarge
        /// Anything else; see ``TransportError/underlying``.
        case other
    }

    /// The class of failure.
    public var kind: Kind
    /// `false` only when the request provably never reached the server, which makes
    /// even a non-idempotent request safe to retry.
    public var requestMayHaveBeenSent: Bool
    /// The error the underlying HTTP stack reported, kept for debugging.
    public var underlying: (any Error & Sendable)?

    /// Creates a transport error.
    ///
    /// - Parameters:
    ///   - kind: The class of failure.
    ///   - requestMayHaveBeenSent: Pass `false` only when no byte of the request left this process.
    ///   - underlying: The error from the underlying HTTP stack.
    public init(_ kind: Kind, requestMayHaveBeenSent: Bool = true, underlying: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.requestMayHaveBeenSent = requestMayHaveBeenSent
        self.underlying = underlying
    }
}
