import Foundation
import HTTPTypes

/// A success response that decodes from the whole response, its status included, rather than
/// from the body alone.
///
/// Generated code uses it for an endpoint that documents several success statuses with different
/// bodies, such as a 200 with a report, a 202 while the report is being computed and a 304 when
/// nothing changed: its `Response` is an enum with one case per status. A request whose
/// `Response` adopts it decodes through ``init(decoding:)`` (see
/// ``APIRequest/decodeResponse(from:)``), chosen when the request type compiles.
///
/// ```swift
/// enum ReportOutcome: ResponseDecodable {
///     case ok(Report)
///     case accepted
///
///     init(decoding response: RawResponse) throws(DecodingFailure) {
///         switch response.status.code {
///         case 200: self = .ok(try response.decodeBody(Report.self))
///         default: self = .accepted
///         }
///     }
/// }
/// ```
public protocol ResponseDecodable: Sendable {
    /// Decodes the value from a response whose status the request counts as a success.
    init(decoding response: RawResponse) throws(DecodingFailure)
}

extension RawResponse {
    /// Decodes the body as `Value` the way ``APIClient`` decodes a success response's body.
    ///
    /// - ``NoContent`` ignores whatever arrived, and `Data` is the bytes as they are.
    /// - `String` is the body as text (``decodeText()``) unless the `Content-Type` is JSON, in
    ///   which case it is a JSON string.
    /// - ``JSON`` is parsed as free-form JSON, keys as sent.
    /// - Anything else is JSON decoded with the client's ``coding``.
    ///
    /// - Throws: ``DecodingFailure`` with the response kept, for an empty body or one that does
    ///   not decode.
    public func decodeBody<Value: Decodable>(_ type: Value.Type = Value.self) throws(DecodingFailure) -> Value {
        if let empty = NoContent() as? Value {
            return empty
        }
        if let bytes = body as? Value {
            return bytes
        }
        if Value.self == String.self, !hasJSONContentType, let text = try decodeText() as? Value {
            return text
        }
        guard !body.isEmpty else {
            throw DecodingFailure(codingPath: "", reason: "The body is empty; expected \(Value.self).", response: self)
        }
        if Value.self == JSON.self {
            // A free-form body: the linear parser is several times faster than a Decoder, and
            // keeps the keys exactly as sent whatever the client's key style.
            do throws(JSON.ParseError) {
                if let value = try JSON(parsing: body) as? Value { return value }
            } catch {
                throw DecodingFailure(codingPath: "", reason: error.description, response: self)
            }
        }
        do {
            return try coding.makeDecoder().decode(Value.self, from: body)
        } catch {
            throw DecodingFailure(error, response: self)
        }
    }

    /// The body as text, in the charset the `Content-Type` names: UTF-8 when it names none (a
    /// superset of the US-ASCII that RFC 6657 makes `text/plain`'s default), and UTF-8, US-ASCII,
    /// ISO-8859-1 (Latin-1), Windows-1252 or UTF-16 when it does.
    ///
    /// Unlike ``text``, nothing is replaced: bytes that are not valid in the charset, or a
    /// charset not listed here, are a ``DecodingFailure`` that keeps the bytes in its response.
    public func decodeText() throws(DecodingFailure) -> String {
        let charset = contentTypeParameter("charset")?.lowercased() ?? "utf-8"
        let encoding: String.Encoding
        switch charset {
        case "utf-8", "utf8": encoding = .utf8
        case "us-ascii", "ascii": encoding = .ascii
        case "iso-8859-1", "latin1", "iso_8859-1", "l1": encoding = .isoLatin1
        case "windows-1252", "cp1252": encoding = .windowsCP1252
        case "utf-16": encoding = .utf16
        case "utf-16le": encoding = .utf16LittleEndian
        case "utf-16be": encoding = .utf16BigEndian
        default:
            throw DecodingFailure(codingPath: "", reason: "The body's charset '\(charset)' is not one Courier decodes "
                                  + "(UTF-8, US-ASCII, ISO-8859-1, Windows-1252, UTF-16); its bytes are in the response.",
                                  response: self)
        }
        if encoding == .utf8 {
            // Strict: `String(decoding:as:)` would replace invalid bytes and lose them.
            guard let text = String(validatingUTF8Bytes: body) else {
                throw DecodingFailure(codingPath: "", reason: "The body is not valid UTF-8.", response: self)
            }
            return text
        }
        guard let text = String(data: body, encoding: encoding) else {
            throw DecodingFailure(codingPath: "", reason: "The body is not valid \(charset).", response: self)
        }
        return text
    }

    /// Whether the `Content-Type` is JSON: `application/json` or a `+json` type.
    var hasJSONContentType: Bool {
        guard let essence = contentTypeEssence else { return false }
        return essence == "application/json" || (essence.hasPrefix("application/") && essence.hasSuffix("+json"))
    }

    /// The `Content-Type`'s `type/subtype`, lowercased, without parameters.
    var contentTypeEssence: String? {
        guard let value = headerFields[.contentType] else { return nil }
        let essence = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return essence.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// A `Content-Type` parameter's value, unquoted, such as `utf-8` for `charset`.
    func contentTypeParameter(_ name: String) -> String? {
        guard let value = headerFields[.contentType] else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var text = pair[1].trimmingCharacters(in: .whitespaces)
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast())
            }
            return text
        }
        return nil
    }
}

extension String {
    /// UTF-8 text, or `nil` when the bytes are not valid UTF-8.
    init?(validatingUTF8Bytes data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        // Decoding replaces each invalid sequence with U+FFFD, so valid input round-trips
        // byte for byte; checking the count first makes the usual case one comparison.
        guard text.utf8.count == data.count, text.utf8.elementsEqual(data) else { return nil }
        self = text
    }
}
