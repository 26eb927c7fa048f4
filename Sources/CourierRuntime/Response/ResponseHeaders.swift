import Foundation
import HTTPTypes

/// A successful response's body together with its declared header fields.
///
/// Generated code declares a type for the fields of each endpoint whose spec lists response
/// `headers:`, such as `GetRepositoryResponseHeaders` with `eTag: String?`, and returns them
/// from the endpoint's `…WithHeaders` method; the plain call still returns the body alone and
/// never fails for a header it does not return.
public struct ResponseWithHeaders<Body: Sendable, Headers: Sendable>: Sendable {
    /// The decoded body.
    public var body: Body
    /// The declared header fields, decoded.
    public var headers: Headers
    /// The status, every header field and the raw body.
    public var raw: RawResponse

    /// Creates a response.
    public init(body: Body, headers: Headers, raw: RawResponse) {
        self.body = body
        self.headers = headers
        self.raw = raw
    }

    /// The status.
    public var status: HTTPResponse.Status { raw.status }
}

/// A type a header field's value can be read as: `String`, `Int`, `Int64`, `Double`, `Bool`,
/// `URL` and `Date`, and string enums through ``RawResponse/headerField(_:as:)-83nld``.
@_spi(Generated) public protocol HeaderFieldValue: Sendable {
    /// Reads a field's value, already trimmed of surrounding whitespace; `nil` when it is not of
    /// this type.
    init?(headerFieldValue value: String)
}

@_spi(Generated) extension String: HeaderFieldValue {
    /// The value as it is.
    public init?(headerFieldValue value: String) { self = value }
}

@_spi(Generated) extension Int: HeaderFieldValue {
    /// A decimal integer, such as `X-Total-Count: 1200`.
    public init?(headerFieldValue value: String) { self.init(value, radix: 10) }
}

@_spi(Generated) extension Int64: HeaderFieldValue {
    /// A decimal integer.
    public init?(headerFieldValue value: String) { self.init(value, radix: 10) }
}

@_spi(Generated) extension Double: HeaderFieldValue {
    /// A decimal number; not `nan` or `inf`, which no server means.
    public init?(headerFieldValue value: String) {
        guard let number = Double(value), number.isFinite else { return nil }
        self = number
    }
}

@_spi(Generated) extension Bool: HeaderFieldValue {
    /// `true` or `false` in any case, `1` or `0`, or a structured field's `?1` or `?0` (RFC 9651).
    public init?(headerFieldValue value: String) {
        switch value.lowercased() {
        case "true", "1", "?1": self = true
        case "false", "0", "?0": self = false
        default: return nil
        }
    }
}

@_spi(Generated) extension URL: HeaderFieldValue {
    /// An absolute or relative URL reference, such as `Location: /jobs/42`; relative ones stay
    /// relative (resolve them against the request's URL).
    public init?(headerFieldValue value: String) {
        guard !value.isEmpty, !value.contains(where: { $0 == " " }) else { return nil }
        self.init(string: value)
    }
}

@_spi(Generated) extension Date: HeaderFieldValue {
    /// An HTTP-date (RFC 9110's IMF-fixdate, and the obsolete RFC 850 and asctime forms, as in
    /// `Last-Modified`), an ISO 8601 date-time, or whole seconds since 1970 (as in GitHub's
    /// `X-RateLimit-Reset`): the three shapes cannot be mistaken for each other.
    public init?(headerFieldValue value: String) {
        if let date = HTTPDate.parse(value) ?? JSONCoding.parseISO8601(value) {
            self = date
        } else if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let seconds = Int64(value) {
            self = Date(timeIntervalSince1970: TimeInterval(seconds))
        } else {
            return nil
        }
    }
}

extension RawResponse {
    /// A header field's value read as `Value`; `nil` when the response has no such field.
    ///
    /// Several field lines of one name are joined with `, ` (RFC 9110, section 5.3) before they are
    /// read, so `String` sees them all and a number repeated is ill-formed rather than silently
    /// the first.
    ///
    /// - Throws: ``DecodingFailure`` at `headers.<name>` when the value is not a `Value`.
    @_spi(Generated) public func headerField<Value: HeaderFieldValue>(_ name: String, as type: Value.Type = Value.self) throws(DecodingFailure) -> Value? {
        try readHeaderField(name, as: type.init(headerFieldValue:))
    }

    /// A header field's value read as a string enum, such as a `X-Cache: HIT` read as
    /// `CacheStatus.hit`; `nil` when the response has no such field.
    ///
    /// - Throws: ``DecodingFailure`` at `headers.<name>` when the value is none of the enum's.
    @_spi(Generated) public func headerField<Value: RawRepresentable & Sendable>(_ name: String, as type: Value.Type = Value.self) throws(DecodingFailure) -> Value?
    where Value.RawValue == String {
        try readHeaderField(name, as: type.init(rawValue:))
    }

    /// A header field the response must have, read as `Value`.
    ///
    /// - Throws: ``DecodingFailure`` at `headers.<name>` when the field is missing or its value is
    ///   not a `Value`.
    @_spi(Generated) public func requiredHeaderField<Value: HeaderFieldValue>(_ name: String, as type: Value.Type = Value.self) throws(DecodingFailure) -> Value {
        guard let value = try headerField(name, as: type) else { throw missingHeaderField(name) }
        return value
    }

    /// A header field the response must have, read as a string enum.
    ///
    /// - Throws: ``DecodingFailure`` at `headers.<name>` when the field is missing or its value is
    ///   none of the enum's.
    @_spi(Generated) public func requiredHeaderField<Value: RawRepresentable & Sendable>(_ name: String, as type: Value.Type = Value.self) throws(DecodingFailure) -> Value
    where Value.RawValue == String {
        guard let value = try headerField(name, as: type) else { throw missingHeaderField(name) }
        return value
    }

    private func readHeaderField<Value>(_ name: String, as read: (String) -> Value?) throws(DecodingFailure) -> Value? {
        guard let fieldName = HTTPField.Name(name) else {
            throw DecodingFailure(codingPath: "headers.\(name)", reason: "'\(name)' is not a valid header field name.", response: self)
        }
        guard let raw = headerFields[fieldName] else { return nil }
        let value = raw.trimmingCharacters(in: .whitespaces)
        guard let read = read(value) else {
            // Values can be long (a whole `Link` list); the start is enough to see what came.
            let shown = value.count > 80 ? value.prefix(80) + "…" : Substring(value)
            throw DecodingFailure(codingPath: "headers.\(name)", reason: "The \(name) field is '\(shown)', which is not a \(Value.self).",
                                  response: self)
        }
        return read
    }

    private func missingHeaderField(_ name: String) -> DecodingFailure {
        DecodingFailure(codingPath: "headers.\(name)", reason: "The response has no \(name) field, which the spec requires.", response: self)
    }
}
