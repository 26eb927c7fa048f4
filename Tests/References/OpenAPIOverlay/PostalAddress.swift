// Not generated: the app's own type, which the overlay's `types:` puts in place of the
// document's `address` schema. It must be Codable, Hashable and Sendable, as models are.

/// A postal address, as the app already models it.
package struct PostalAddress: Codable, Hashable, Sendable {
    /// The address lines, in order.
    package var lines: [String]
    /// The ISO 3166 country code.
    package var country: String?
}
