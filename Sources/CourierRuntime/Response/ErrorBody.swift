import Foundation
import HTTPTypes

/// An error schema decoded from a failure response, or the raw body when it did not decode.
///
/// Generated failure cases carry this, so a documented 404 is still a `.notFound` when the
/// server sends HTML instead of the documented JSON.
@dynamicMemberLookup
public struct ErrorBody<Schema: Sendable>: Sendable {
    /// The decoded schema, or `nil` when the body did not decode.
    public var value: Schema?
    /// The body bytes as received.
    public var raw: Data
    /// Why the body did not decode, for debugging; `nil` when it did.
    public var decodingFailure: String?
    /// The status of the response the body came with, so that a failure's message can name
    /// it; `nil` for a body made by hand without one. Not called `status`, which would hide
    /// a schema's own `status` member (RFC 9457's) from `body.status`.
    public var responseStatus: HTTPResponse.Status?

    /// Creates an error body.
    public init(value: Schema?, raw: Data, decodingFailure: String? = nil, responseStatus: HTTPResponse.Status? = nil) {
        self.value = value
        self.raw = raw
        self.decodingFailure = decodingFailure
        self.responseStatus = responseStatus
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: raw, as: UTF8.self) }

    /// A member of the decoded schema, or `nil` when the body did not decode.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Schema, Member>) -> Member? {
        value?[keyPath: keyPath]
    }
}

extension ErrorBody: Equatable where Schema: Equatable {}
extension ErrorBody: Hashable where Schema: Hashable {}
