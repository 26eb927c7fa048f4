import Foundation
import HTTPTypes

/// What a response said about rate limits and when to try again.
///
/// Read from `Retry-After` (both forms), `X-RateLimit-Limit` / `-Remaining` / `-Reset`,
/// the IETF `RateLimit-Limit` / `-Remaining` / `-Reset` fields and the combined IETF
/// `RateLimit` field (`limit=100, remaining=0, reset=30` or `"default";r=0;t=30`).
/// Garbage and negative values are ignored rather than guessed at.
public struct RateLimit: Sendable, Hashable {
    /// The server's `Retry-After`, if it sent a valid one.
    public var retryAfter: RateLimit.RetryAfter?
    /// The request quota for the current window.
    public var limit: Int?
    /// Requests left in the current window.
    public var remaining: Int?
    /// When the current window ends.
    public var resetsAt: Date?
    /// When the response carrying these values arrived.
    public var receivedAt: Date

    /// Creates rate-limit information from its parts.
    public init(retryAfter: RateLimit.RetryAfter? = nil, limit: Int? = nil, remaining: Int? = nil, resetsAt: Date? = nil, receivedAt: Date = Date()) {
        self.retryAfter = retryAfter
        self.limit = limit
        self.remaining = remaining
        self.resetsAt = resetsAt
        self.receivedAt = receivedAt
    }

    /// Reads rate-limit information from response header fields.
    ///
    /// - Parameters:
    ///   - headerFields: The response's header fields.
    ///   - receivedAt: When the response arrived; relative values count from here.
    public init(headerFields: HTTPFields, receivedAt: Date = Date()) {
        self.init(headerFields: headerFields, body: Data(), names: .standard, receivedAt: receivedAt)
    }

    /// Reads rate-limit information from a response, with the service's own names.
    ///
    /// - Parameters:
    ///   - headerFields: The response's header fields.
    ///   - body: The response body, read only for ``RateLimit/Fields/retryAfterField`` when
    ///     there is no valid `Retry-After` header.
    ///   - names: The service's names, read after the common fields; they win.
    ///   - receivedAt: When the response arrived; relative values count from here.
    public init(headerFields: HTTPFields, body: Data, names: RateLimit.Fields, receivedAt: Date = Date()) {
        self.receivedAt = receivedAt
        retryAfter = headerFields[.retryAfter].flatMap(RateLimit.RetryAfter.init(headerValue:))
        if retryAfter == nil, let delay = names.bodyRetryDelay(in: body) {
            // `RateLimit.RetryAfter` counts whole seconds, as the header does; rounding up never asks
            // the app to come back before the server allows. The retry loop keeps the fraction.
            let (seconds, attoseconds) = delay.components
            retryAfter = .seconds(Int(seconds) + (attoseconds > 0 ? 1 : 0))
        }

        var limit = Self.field(.xRateLimitLimit, in: headerFields).flatMap(Self.count)
        var remaining = Self.field(.xRateLimitRemaining, in: headerFields).flatMap(Self.count)
        var resetsAt = Self.field(.xRateLimitReset, in: headerFields).flatMap { Self.legacyReset($0, receivedAt: receivedAt) }

        // The IETF fields are newer and unambiguous, so they win when both are present.
        if let value = Self.field(.rateLimitLimit, in: headerFields).flatMap(Self.count) { limit = value }
        if let value = Self.field(.rateLimitRemaining, in: headerFields).flatMap(Self.count) { remaining = value }
        if let seconds = Self.field(.rateLimitReset, in: headerFields).flatMap(Self.count) {
            resetsAt = receivedAt.addingTimeInterval(TimeInterval(seconds))
        }
        if let combined = Self.field(.rateLimit, in: headerFields) {
            let parameters = Self.parameters(of: combined)
            if let value = (parameters["limit"] ?? parameters["q"]).flatMap(Self.count) { limit = value }
            if let value = (parameters["remaining"] ?? parameters["r"]).flatMap(Self.count) { remaining = value }
            if let seconds = (parameters["reset"] ?? parameters["t"]).flatMap(Self.count) {
                resetsAt = receivedAt.addingTimeInterval(TimeInterval(seconds))
            }
        }
        if limit == nil, let policy = Self.field(.rateLimitPolicy, in: headerFields) {
            limit = (Self.parameters(of: policy)["q"]).flatMap(Self.count)
        }
        if let value = names.limit.flatMap({ Self.field($0, in: headerFields) }).flatMap(Self.count) { limit = value }
        if let value = names.remaining.flatMap({ Self.field($0, in: headerFields) }).flatMap(Self.count) { remaining = value }
        if let date = names.reset.flatMap({ Self.field($0, in: headerFields) }).flatMap({ Self.legacyReset($0, receivedAt: receivedAt) }) {
            resetsAt = date
        }
        if let seconds = names.resetAfter.flatMap({ Self.field($0, in: headerFields) }).flatMap(Self.fractionalSeconds) {
            resetsAt = receivedAt.addingTimeInterval(seconds)
        }
        self.limit = limit
        self.remaining = remaining
        self.resetsAt = resetsAt
    }

    /// Whether the response said nothing about rate limits.
    public var isEmpty: Bool {
        retryAfter == nil && limit == nil && remaining == nil && resetsAt == nil
    }

    /// The earliest time the server wants to hear from the client again: the `Retry-After`
    /// when given, else the window's reset when no requests remain, else `nil`.
    ///
    /// This is what an app shows as "rate limit reached, try again at 15:00".
    public var retryDate: Date? {
        if let retryAfter {
            return retryAfter.date(relativeTo: receivedAt)
        }
        if remaining == 0, let resetsAt {
            return resetsAt
        }
        return nil
    }

    private static func field(_ name: String, in fields: HTTPFields) -> String? {
        field(HTTPField.Name(name), in: fields)
    }

    private static func field(_ name: HTTPField.Name?, in fields: HTTPFields) -> String? {
        guard let name else { return nil }
        return fields[name]?.trimmingCharacters(in: .whitespaces)
    }

    private static func count(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(trimmed)
    }

    /// A non-negative number of seconds with an optional fraction, such as Discord's `0.512`.
    private static func fractionalSeconds(_ text: String) -> TimeInterval? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCIIDigit || $0 == "." }), let value = Double(text), value.isFinite else {
            return nil
        }
        return value
    }

    /// `X-RateLimit-Reset` is epoch seconds at GitHub, Qiita and most others, and a
    /// delta in seconds at a few; values this large can only be epoch seconds.
    private static func legacyReset(_ text: String, receivedAt: Date) -> Date? {
        guard let value = count(text) else { return nil }
        if value >= 1_000_000_000 {
            return Date(timeIntervalSince1970: TimeInterval(value))
        }
        return receivedAt.addingTimeInterval(TimeInterval(value))
    }

    /// Reads `a=1, b=2` and `"policy";r=1;t=2` alike into a name → value table.
    private static func parameters(of text: String) -> [String: String] {
        var result: [String: String] = [:]
        for piece in text.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let parts = piece.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if result[name] == nil {
                result[name] = value
            }
        }
        return result
    }
}

extension RateLimit {
    /// A parsed `Retry-After` value: a delay in seconds or an HTTP date.
    public enum RetryAfter: Sendable, Hashable {
        /// `Retry-After: 120`.
        case seconds(Int)
        /// `Retry-After: Fri, 31 Dec 1999 23:59:59 GMT`.
        case date(Date)

        /// Parses a header value; `nil` for garbage, negative numbers and unparseable dates.
        public init?(headerValue: String) {
            let text = headerValue.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty, text.allSatisfy(\.isASCIIDigit) {
                // Absurdly long digit strings overflow `Int`; treat them as "very long".
                self = .seconds(Int(text) ?? Int.max)
                return
            }
            guard let date = HTTPDate.parse(text) else { return nil }
            self = .date(date)
        }

        /// How long to wait from `now`; never negative, and whole seconds rounded up
        /// because the header's own resolution is one second.
        public func delay(from now: Date) -> Duration {
            switch self {
            case .seconds(let seconds):
                return .seconds(seconds)
            case .date(let date):
                let interval = date.timeIntervalSince(now)
                guard interval > 0 else { return .zero }
                return .seconds(Int64(interval.rounded(.up)))
            }
        }

        /// The absolute time to retry at, counting a delay from `receivedAt`.
        public func date(relativeTo receivedAt: Date) -> Date {
            switch self {
            case .seconds(let seconds): receivedAt.addingTimeInterval(TimeInterval(seconds))
            case .date(let date): date
            }
        }
    }
}

/// HTTP-date parsing (RFC 9110, section 5.6.7): IMF-fixdate, plus the obsolete RFC 850
/// and asctime forms that recipients must still accept.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    static func parse(_ text: String) -> Date? {
        for format in formats {
            // DateFormatter is not Sendable; one per parse keeps this free of shared state.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                return date
            }
        }
        return nil
    }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = formats[0]
        return formatter.string(from: date)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// The common rate-limit fields, made once: `HTTPField.Name(_:)` checks and lowercases its
/// text, and ``RateLimit`` looks up eight of these for every response it reads. (Optional only
/// because the initializer is: each of these names is valid.)
private extension HTTPField.Name {
    static let xRateLimitLimit = HTTPField.Name("X-RateLimit-Limit")
    static let xRateLimitRemaining = HTTPField.Name("X-RateLimit-Remaining")
    static let xRateLimitReset = HTTPField.Name("X-RateLimit-Reset")
    static let rateLimitLimit = HTTPField.Name("RateLimit-Limit")
    static let rateLimitRemaining = HTTPField.Name("RateLimit-Remaining")
    static let rateLimitReset = HTTPField.Name("RateLimit-Reset")
    static let rateLimit = HTTPField.Name("RateLimit")
    static let rateLimitPolicy = HTTPField.Name("RateLimit-Policy")
}
