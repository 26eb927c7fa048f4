import Foundation
import HTTPTypes

/// A response as received: status, header fields and body bytes, plus the coding the
/// client decodes with.
///
/// Failure mappings read it (``errorBody(_:)``, ``discriminator(at:)``, ``header(_:)``), and
/// every error that has a response carries it, so nothing the server said is lost.
public struct RawResponse: Sendable {
    /// The status.
    public var status: HTTPResponse.Status
    /// The header fields.
    public var headerFields: HTTPFields
    /// The complete body.
    public var body: Data
    /// How the client decodes JSON.
    public var coding: JSONCoding
    /// When the response arrived; relative rate-limit values count from here.
    public var receivedAt: Date
    /// The service's rate-limit names, which ``rateLimit`` reads besides the common ones.
    public var rateLimitFields: RateLimit.Fields

    /// Creates a raw response.
    public init(
        status: HTTPResponse.Status,
        headerFields: HTTPFields = HTTPFields(),
        body: Data = Data(),
        coding: JSONCoding = JSONCoding(),
        receivedAt: Date = Date(),
        rateLimitFields: RateLimit.Fields = .standard
    ) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.coding = coding
        self.receivedAt = receivedAt
        self.rateLimitFields = rateLimitFields
    }

    /// What the server said about rate limits and when to try again.
    public var rateLimit: RateLimit {
        RateLimit(headerFields: headerFields, body: body, names: rateLimitFields, receivedAt: receivedAt)
    }

    /// The body as UTF-8 text, with invalid bytes replaced.
    public var text: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The first `maxBytes` bytes of the body as text, marked when cut.
    public func bodyPrefix(maxBytes: Int = 512) -> String {
        guard body.count > maxBytes else { return text }
        return String(decoding: body.prefix(maxBytes), as: UTF8.self) + "… (\(body.count) bytes)"
    }

    /// The value of a header field, or `nil` when absent or when `name` is not a valid field name.
    public func header(_ name: String) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        return headerFields[fieldName]
    }

    /// The body as an error schema, decoded without ever failing.
    ///
    /// The result keeps the raw body whether or not it decoded, so a failure mapping can
    /// always produce its case: an error must never hide behind a decoding failure. A success
    /// body, which must decode or fail the call, goes through ``decodeBody(_:)`` instead.
    public func errorBody<Schema: Decodable & Sendable>(_ schema: Schema.Type = Schema.self) -> ErrorBody<Schema> {
        if Schema.self == JSON.self {
            // A free-form error schema (Discord's `errors` tree): parsed in one linear pass,
            // keys kept as sent.
            do throws(JSON.ParseError) {
                let value = try JSON(parsing: body) as? Schema
                return ErrorBody(value: value, raw: body, decodingFailure: nil, responseStatus: status)
            } catch {
                return ErrorBody(value: nil, raw: body, decodingFailure: error.description, responseStatus: status)
            }
        }
        do {
            let value = try coding.makeDecoder().decode(Schema.self, from: body)
            return ErrorBody(value: value, raw: body, decodingFailure: nil, responseStatus: status)
        } catch {
            return ErrorBody(value: nil, raw: body, decodingFailure: String(describing: error), responseStatus: status)
        }
    }

    /// The scalar at a field path in a JSON body, as text; `nil` when the body is not JSON
    /// or nothing scalar is there.
    ///
    /// Paths use dots for members and brackets for array indices: `type`, `error.code`,
    /// `errors[0].code`. Numbers and booleans come back in their JSON spelling, so a
    /// mapping can switch over string literals whatever the field's JSON type.
    ///
    /// The body is read in one pass without building the values around the path, so a large
    /// or hostile error body costs time linear in its length.
    public func discriminator(at path: String) -> String? {
        guard let steps = FieldPath.parse(path) else { return nil }
        return DiscriminatorScanner.scalarText(at: steps, in: body)
    }
}

/// The one scalar a discriminator found, decoded by `JSONDecoder` so that its text is what a
/// full decode makes of it: numbers and booleans in their JSON spelling, `null` as nothing.
struct JSONScalar: Decodable, Sendable {
    var text: String?
    /// The value when it is a number, for fields compared as `Double`.
    var number: Double?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            text = nil
        } else if let value = try? container.decode(Bool.self) {
            text = value ? "true" : "false"
        } else if let value = try? container.decode(Int64.self) {
            text = String(value)
            number = try? container.decode(Double.self)
        } else if let value = try? container.decode(Double.self) {
            text = String(value)
            number = value
        } else {
            text = try container.decode(String.self)
        }
    }
}

/// A parsed field path such as `errors[0].code`.
enum FieldPath {
    enum Step: Equatable {
        case member(String)
        case index(Int)
    }

    static func parse(_ path: String) -> [Step]? {
        var steps: [Step] = []
        var name = ""
        var characters = path[...]
        func flushName() -> Bool {
            guard !name.isEmpty else { return false }
            steps.append(.member(name))
            name = ""
            return true
        }
        while let character = characters.first {
            characters = characters.dropFirst()
            switch character {
            case ".":
                // A dot after `]` separates; anywhere else it must end a non-empty name.
                if name.isEmpty {
                    guard case .index = steps.last else { return nil }
                } else {
                    _ = flushName()
                }
            case "[":
                if !name.isEmpty { _ = flushName() }
                guard let close = characters.firstIndex(of: "]"),
                      let index = Int(characters[..<close]), index >= 0
                else { return nil }
                steps.append(.index(index))
                characters = characters[characters.index(after: close)...]
            default:
                name.append(character)
            }
        }
        if !name.isEmpty { _ = flushName() }
        return steps.isEmpty ? nil : steps
    }
}
