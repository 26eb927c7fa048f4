import Foundation
import HTTPTypes

/// A successful response whose body is read as it arrives: a download, server-sent events,
/// JSON Lines.
///
/// The body is single-use. Reading it to the end, cancelling the task that reads it, or
/// dropping it unread releases the connection.
public struct StreamingResponse: Sendable {
    /// The status, one the request counts as success.
    public var status: HTTPResponse.Status
    /// The header fields.
    public var headerFields: HTTPFields
    /// The body, read as it arrives; its iteration throws ``TransportError`` when the
    /// connection fails midway.
    public var body: HTTPBody
    /// What the server said about rate limits.
    public var rateLimit: RateLimit

    /// Creates a response.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: HTTPBody, rateLimit: RateLimit) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.rateLimit = rateLimit
    }
}
