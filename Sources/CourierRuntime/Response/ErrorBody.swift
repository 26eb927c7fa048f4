import Foundation

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

    /// Creates an error body.
    public init(value: Schema?, raw: Data, decodingFailure: String? = nil) {
        self.value = value
        self.raw = raw
        self.decodingFailure = decodingFailure
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
