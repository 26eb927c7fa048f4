import Foundation
import HTTPTypes

/// The response of an endpoint that returns no content, such as a 204.
///
/// Whatever body arrives is ignored, so a server that sends `{}` with its 204 does not
/// turn a success into a decoding failure.
public struct NoContent: Decodable, Sendable, Hashable {
    /// Creates the empty value.
    public init() {}

    /// Decodes nothing.
    public init(from decoder: any Decoder) throws {}
}

/// A successful response: the decoded value together with what the server said about it.
public struct APIResponse<Value: Sendable>: Sendable {
    /// The decoded body.
    public var value: Value
    /// The status, header fields and raw body.
    public var raw: RawResponse

    /// Creates a response.
    public init(value: Value, raw: RawResponse) {
        self.value = value
        self.raw = raw
    }

    /// The status.
    public var status: HTTPResponse.Status { raw.status }
    /// The header fields.
    public var headerFields: HTTPFields { raw.headerFields }
    /// What the server said about rate limits.
    public var rateLimit: RateLimit { raw.rateLimit }
}
