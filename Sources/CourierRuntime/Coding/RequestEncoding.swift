import Foundation

/// Tells a request's encoding from any other, so that a generated model leaves its read-only
/// properties (what the server sets: ids, timestamps) out of what the client sends, while its
/// own `Codable` keeps them and a decoded value encodes and decodes back to itself, as a cache
/// needs.
///
/// The client marks its request encoders through `userInfo`: the JSON body's
/// (``JSONCoding/makeRequestEncoder()``), and ``FormEncoder``'s for form bodies, multipart fields
/// and query parameters. Any other encoder, ``JSONCoding/makeEncoder()`` or a plain
/// `JSONEncoder`, writes every property.
@_spi(Generated) public enum RequestEncoding {
    /// The `userInfo` key whose value `true` marks an encoder that writes a request.
    // `CodingUserInfoKey.init(rawValue:)` is failable only to satisfy `RawRepresentable`; it
    // accepts every string, and this one is a constant.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "CourierRuntime.RequestEncoding.isRequest")!

    /// Whether `encoder` writes a request, which leaves read-only properties out.
    public static func isRequest(_ encoder: any Encoder) -> Bool {
        encoder.userInfo[userInfoKey] as? Bool == true
    }
}
