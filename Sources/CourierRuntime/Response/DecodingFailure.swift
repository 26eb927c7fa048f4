import Foundation

/// A success response whose body did not decode as the expected type.
public struct DecodingFailure: Error, Sendable {
    /// Where in the body decoding stopped, such as `items[3].createdAt`; empty for the root.
    public var codingPath: String
    /// What the decoder said.
    public var reason: String
    /// The response whose body did not decode.
    public var response: RawResponse

    /// Creates the error.
    public init(codingPath: String, reason: String, response: RawResponse) {
        self.codingPath = codingPath
        self.reason = reason
        self.response = response
    }

    init(_ error: any Error, response: RawResponse) {
        self.response = response
        guard let decodingError = error as? DecodingError else {
            codingPath = ""
            reason = String(describing: error)
            return
        }
        let (path, context): ([any CodingKey], DecodingError.Context) = switch decodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            (context.codingPath, context)
        case .keyNotFound(let key, let context):
            (context.codingPath + [key], context)
        @unknown default:
            ([], DecodingError.Context(codingPath: [], debugDescription: String(describing: decodingError)))
        }
        codingPath = Self.render(path)
        reason = context.debugDescription
    }

    /// The start of the body, enough to see what the server actually sent.
    public var bodyPrefix: String { response.bodyPrefix(maxBytes: 256) }

    private static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}
