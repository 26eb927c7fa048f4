import Foundation

/// How a client spells JSON keys and dates, shared by the encoder, the decoder and
/// the date values sent in paths, queries and headers.
///
/// A spec states this once per service, so a value of this type is configuration, not
/// code: ``makeEncoder()`` and ``makeDecoder()`` build fresh Foundation coders from it.
public struct JSONCoding: Sendable, Hashable {
    /// How Swift property names map to JSON keys.
    public enum KeyStyle: Sendable, Hashable {
        /// Keys are used as declared (or as the type's `CodingKeys` say).
        case asIs
        /// `userID` ↔ `user_id`.
        case snakeCase
    }

    /// How dates are written and read.
    public enum DateFormat: Sendable, Hashable {
        /// ISO 8601, such as `2025-01-31T09:30:00Z`. Reading also accepts fractional seconds.
        case iso8601
        /// ISO 8601 with milliseconds, such as `2025-01-31T09:30:00.250Z`. Reading also
        /// accepts whole seconds, because servers are rarely consistent about it.
        case iso8601WithFractionalSeconds
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
    }

    /// How keys are spelled; `.asIs` by default.
    public var keyStyle: KeyStyle
    /// How dates are spelled; `.iso8601` by default.
    public var dateFormat: DateFormat

    /// Creates a coding configuration.
    public init(keyStyle: KeyStyle = .asIs, dateFormat: DateFormat = .iso8601) {
        self.keyStyle = keyStyle
        self.dateFormat = dateFormat
    }

    /// A new encoder configured for this coding.
    public func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Sorted keys make request bodies deterministic, which stub-based tests rely on.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if keyStyle == .snakeCase {
            encoder.keyEncodingStrategy = .convertToSnakeCase
        }
        switch dateFormat {
        case .iso8601, .iso8601WithFractionalSeconds:
            let format = dateFormat
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(JSONCoding.formatISO8601(date, fractional: format == .iso8601WithFractionalSeconds))
            }
        case .secondsSince1970:
            encoder.dateEncodingStrategy = .secondsSince1970
        case .millisecondsSince1970:
            encoder.dateEncodingStrategy = .millisecondsSince1970
        }
        return encoder
    }

    /// A new encoder for what a request sends: ``makeEncoder()``'s, marked in its `userInfo`
    /// so that generated models leave their read-only properties out.
    public func makeRequestEncoder() -> JSONEncoder {
        let encoder = makeEncoder()
        encoder.userInfo[RequestEncoding.userInfoKey] = true
        return encoder
    }

    /// A new decoder configured for this coding.
    public func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        if keyStyle == .snakeCase {
            decoder.keyDecodingStrategy = .convertFromSnakeCase
        }
        switch dateFormat {
        case .iso8601, .iso8601WithFractionalSeconds:
            decoder.dateDecodingStrategy = .custom { decoder in
                let container = try decoder.singleValueContainer()
                let text = try container.decode(String.self)
                guard let date = JSONCoding.parseISO8601(text) else {
                    throw DecodingError.dataCorruptedError(
                        in: container, debugDescription: "Expected an ISO 8601 date, found \"\(text.prefix(40))\".")
                }
                return date
            }
        case .secondsSince1970:
            decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970:
            decoder.dateDecodingStrategy = .millisecondsSince1970
        }
        return decoder
    }

    /// The text a date is sent as in a path, query, header or form value.
    public func string(from date: Date) -> String {
        switch dateFormat {
        case .iso8601: JSONCoding.formatISO8601(date, fractional: false)
        case .iso8601WithFractionalSeconds: JSONCoding.formatISO8601(date, fractional: true)
        case .secondsSince1970: String(Int64(date.timeIntervalSince1970.rounded(.down)))
        case .millisecondsSince1970: String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        }
    }

    // Building a format style (and the UTC time zone under it) costs more than the parse
    // itself, and a response body can hold many dates, so the styles are made once.
    private static let utc = TimeZone(identifier: "UTC") ?? .current
    private static let wholeSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: utc)
    private static let fractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: utc)

    static func formatISO8601(_ date: Date, fractional: Bool) -> String {
        date.formatted(fractional ? fractionalSeconds : wholeSeconds)
    }

    static func parseISO8601(_ text: String) -> Date? {
        // Each style accepts only its own form, and a failed parse throws, which is slow; so
        // the style the text looks like is tried first and the other only as a fallback.
        let (first, second) = text.utf8.contains(UInt8(ascii: ".")) ? (fractionalSeconds, wholeSeconds) : (wholeSeconds, fractionalSeconds)
        if let date = try? first.parse(text) {
            return date
        }
        return try? second.parse(text)
    }
}
