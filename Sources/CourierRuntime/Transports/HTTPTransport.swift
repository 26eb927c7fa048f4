import Foundation
import HTTPTypes

/// Sends one HTTP attempt and returns the buffered response.
///
/// A transport does one thing: put a request on the wire and bring back what came
/// back. Retries, breakers, auth and decoding live above it, in ``APIClient``, so a
/// transport stays small enough to swap for a stub in tests.
public protocol HTTPTransport: Sendable {
    /// Sends `request` with an optional body and waits for the whole response.
    ///
    /// - Parameters:
    ///   - request: A request whose scheme, authority and path (including the query) are set.
    ///   - body: The bytes to send, or `nil` for none.
    ///   - timeout: How long this attempt may take, from the first byte sent to the last byte read.
    /// - Returns: The response head and its complete body.
    /// - Throws: ``TransportError`` when no complete response arrived. Cancelling the calling
    ///   task must end the attempt promptly with ``TransportError/Kind/cancelled``.
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws(TransportError) -> TransportResponse
}

/// A complete HTTP response as a transport delivers it.
public struct TransportResponse: Sendable {
    /// The status line and header fields.
    public var head: HTTPResponse
    /// The full response body; empty when the server sent none.
    public var body: Data

    /// Creates a response from its head and body.
    public init(head: HTTPResponse, body: Data = Data()) {
        self.head = head
        self.body = body
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
