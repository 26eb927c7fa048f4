import Foundation
import HTTPTypes

/// Sees, changes or answers each attempt of every call: request signing, per-call header
/// fields, logging, caching, mocking at the HTTP layer.
///
/// A middleware wraps the transport. It is handed the attempt's request and body as they will
/// go on the wire, and a `next` that sends them on (to the next middleware, and finally to the
/// ``HTTPTransport``); it returns the response the call should see:
///
/// ```swift
/// struct Tagging: ClientMiddleware {
///     func intercept(
///         _ request: HTTPRequest,
///         body: HTTPBody?,
///         context: MiddlewareContext,
///         next: ClientMiddleware.Next
///     ) async throws -> (HTTPResponse, HTTPBody?) {
///         var request = request
///         request.headerFields[HTTPField.Name("X-Operation")!] = context.operationName
///         return try await next(request, body)
///     }
/// }
///
/// let client = APIClient(baseURL: url, configuration: .init(middlewares: [Tagging()]))
/// ```
///
/// ## Where it runs
///
/// Once per attempt, inside the retry loop and the circuit breaker, after auth, with the
/// transport innermost:
///
/// 1. The request is built once per call (default header fields, the request's own, the body,
///    the `Idempotency-Key`).
/// 2. Auth applies credentials once per call, and again for a replay after a 401.
/// 3. The retry loop asks the breaker for a permit before every attempt; a refused attempt
///    reaches no middleware.
/// 4. Each attempt (under its timeout) runs ``APIClient/Configuration/middlewares`` in array
///    order, the first outermost, and then the transport.
///
/// So a middleware sees the final header fields, `Authorization` included, and the final body;
/// a signer signs every attempt afresh (a new timestamp for each retry and for a 401 replay);
/// and what a middleware returns is what the retry loop, the breaker, the 401 hook and the
/// response mapping see, as if the server had sent it.
///
/// ## Short-circuiting
///
/// A middleware may return a response without calling `next` (a cache's hit, a mock); nothing
/// is then sent. It may call `next` more than once; each call is another exchange with the
/// server within the same attempt.
///
/// ## Bodies
///
/// The request body is the call's ``HTTPBody`` as it is, not copied: bytes built in memory are
/// ``HTTPBody/bufferedData``, a file or a stream is not. A middleware that needs the bytes of a
/// streamed body (a signer hashing the payload) collects them with ``HTTPBody/collect(upTo:)``
/// and passes `HTTPBody(data)` on; reading a single-use body consumes it, so pass on what was
/// read. The response body is buffered for a buffered call (``HTTPBody/bufferedData`` is
/// set) and the body as it arrives for a streamed one (``APIClient/stream(_:resilience:accept:)``,
/// downloads, event streams). A response body a middleware makes itself is read to the end for
/// a buffered call, up to 32 MiB.
///
/// ## Errors
///
/// A ``TransportError``, whether `next` threw it or the middleware did, is the attempt's
/// transport failure, retried according to its kind. Cancellation is
/// ``TransportError/Kind/cancelled``. Any other error ends the call, without a retry, as
/// ``APIError/invalidRequest(_:)`` with reason ``InvalidRequest/Reason/middlewareFailed(_:)``:
/// it comes from the client's own code, which a second attempt would run again, and it says
/// nothing about the server's health, so the breaker does not count it either.
public protocol ClientMiddleware: Sendable {
    /// Sends a request on: to the next middleware, or to the transport after the last.
    typealias Next = @Sendable (_ request: HTTPRequest, _ body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody?)

    /// Handles one attempt: passes the request on with `next`, changed or not, or answers it.
    ///
    /// - Parameters:
    ///   - request: The request as it will be sent, credentials included.
    ///   - body: The request body, or `nil` for none.
    ///   - context: Which call and attempt this is.
    ///   - next: Sends a request on to the next middleware, or to the transport after the last.
    /// - Returns: The response head and body, `nil` for an empty body.
    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?)
}

/// Which call and which attempt a ``ClientMiddleware`` is handling.
public struct MiddlewareContext: Sendable, Hashable {
    /// What the call is, in terms safe to log: its operation, method, path template and host.
    public var request: RequestSummary
    /// The attempt's number within the call, from 1; retries and a replay after a 401 count on.
    public var attempt: Int
    /// Whether the call hands its success body on as it arrives (a stream, a download, an
    /// event stream) instead of buffering it.
    public var streamsResponse: Bool

    /// The operation's name, such as `getUser`: what a per-operation header field keys on.
    public var operationName: String { request.operationName }

    /// Creates a context; the client makes these, tests of a middleware may too.
    public init(request: RequestSummary, attempt: Int, streamsResponse: Bool = false) {
        self.request = request
        self.attempt = attempt
        self.streamsResponse = streamsResponse
    }
}

/// Runs one attempt through the configured middlewares and then the transport.
struct MiddlewareChain: Sendable {
    let middlewares: [any ClientMiddleware]
    let context: MiddlewareContext
    let transport: @Sendable (HTTPRequest, HTTPBody?) async throws(TransportError) -> (HTTPResponse, HTTPBody?)

    /// The largest body a middleware makes itself that a buffered call reads; the transports'
    /// own default limit.
    static let madeBodyLimit = 32 * 1024 * 1024

    /// Sends `request` through the middleware at `index` and those inside it.
    func send(_ request: HTTPRequest, body: HTTPBody?, from index: Int = 0) async throws -> (HTTPResponse, HTTPBody?) {
        guard index < middlewares.count else {
            return try await transport(request, body)
        }
        return try await middlewares[index].intercept(request, body: body, context: context) { request, body in
            try await send(request, body: body, from: index + 1)
        }
    }

    /// Sends `request` through the whole chain, with every error classified: a transport
    /// error as it is, cancellation as ``TransportError/Kind/cancelled``, and anything else as
    /// a ``MiddlewareFailure`` underneath a transport error, which the attempt unwraps.
    func exchange(_ request: HTTPRequest, body: HTTPBody?) async throws(TransportError) -> (HTTPResponse, HTTPBody?) {
        do {
            return try await send(request, body: body)
        } catch let error as TransportError {
            throw error
        } catch {
            if error is CancellationError || Task.isCancelled {
                throw TransportError(.cancelled, underlying: error)
            }
            throw TransportError(.other, requestMayHaveBeenSent: true, underlying: MiddlewareFailure(description: String(describing: error)))
        }
    }
}

/// A middleware threw an error of its own; carried inside a ``TransportError`` only as far as
/// the attempt, which turns it into ``InvalidRequest/Reason/middlewareFailed(_:)``.
struct MiddlewareFailure: Error, Sendable, CustomStringConvertible {
    var description: String
}
