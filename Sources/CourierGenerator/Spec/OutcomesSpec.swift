/// One documented success status of an endpoint with several (`response: { 200: Report, 202: … }`):
/// in Swift a case of the endpoint's outcome enum.
struct ResponseOutcomeSpec: Hashable, Sendable, SourceLocated {
    /// The status, 200…399.
    var status: Int
    /// The body's type; `nil` for an outcome without one (a 202 that only acknowledges, a 304).
    var body: TypeReference?
    /// The body's media type when it is not `application/json` (`text/plain` for a `String`, a
    /// vendor type with ``mediaCoding``); `nil` for JSON.
    var contentType: String?
    /// How the body is coded when the spec says so (`contentType: { type: …, coding: json }`);
    /// `nil` to go by the media type.
    var mediaCoding: MediaCoding?
    /// The documentation, if any.
    var description: String?
    /// The case's name: `case:` when written, else the status's name (``StatusNames``).
    var caseName: SwiftIdentifier
    /// Whether the spec wrote `case:`.
    var hasExplicitCase: Bool
    /// Where the status is written.
    var location: SourceLocation

    /// Creates an outcome; the case is named from the status unless `caseName` is given.
    init(status: Int, body: TypeReference?, contentType: String? = nil, description: String? = nil,
                caseName: String? = nil, location: SourceLocation) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.description = description
        self.caseName = SwiftIdentifier(memberNamed: caseName ?? StatusNames.caseName(for: status))
        hasExplicitCase = caseName != nil
        self.location = location
    }
}

/// A header field a response declares (`headers:` under `response:`): in Swift a property of the
/// endpoint's `<Endpoint>ResponseHeaders`.
struct ResponseHeaderSpec: Hashable, Sendable, SourceLocated {
    /// The field name as sent, such as `ETag`.
    var name: String
    /// The property's name, such as `eTag`.
    var swiftName: SwiftIdentifier
    /// The type; optional when the response may leave the field out.
    var type: TypeReference
    /// The documentation, if any.
    var description: String?
    /// Where the field is written.
    var location: SourceLocation

    /// Creates a header field.
    init(name: String, type: TypeReference, description: String? = nil, location: SourceLocation) {
        self.name = name
        swiftName = SwiftIdentifier(memberNamed: name)
        self.type = type
        self.description = description
        self.location = location
    }
}

/// The names of HTTP statuses as Swift cases, from their RFC 9110 reason phrases: `ok`, `accepted`,
/// `notModified`, `notFound`. One table, used wherever a case is named from a status.
enum StatusNames {
    /// The lowerCamelCase name of `status`, or `status<code>` for one without a registered phrase.
    static func caseName(for status: Int) -> String {
        names[status] ?? "status\(status)"
    }

    private static let names: [Int: String] = [
        200: "ok", 201: "created", 202: "accepted", 203: "nonAuthoritativeInformation", 204: "noContent",
        205: "resetContent", 206: "partialContent", 207: "multiStatus", 208: "alreadyReported", 226: "imUsed",
        300: "multipleChoices", 301: "movedPermanently", 302: "found", 303: "seeOther", 304: "notModified",
        305: "useProxy", 307: "temporaryRedirect", 308: "permanentRedirect",
        400: "badRequest", 401: "unauthorized", 402: "paymentRequired", 403: "forbidden", 404: "notFound",
        405: "methodNotAllowed", 406: "notAcceptable", 407: "proxyAuthenticationRequired", 408: "requestTimeout",
        409: "conflict", 410: "gone", 411: "lengthRequired", 412: "preconditionFailed", 413: "contentTooLarge",
        414: "uriTooLong", 415: "unsupportedMediaType", 416: "rangeNotSatisfiable", 417: "expectationFailed",
        421: "misdirectedRequest", 422: "unprocessableContent", 423: "locked", 424: "failedDependency",
        425: "tooEarly", 426: "upgradeRequired", 428: "preconditionRequired", 429: "tooManyRequests",
        431: "requestHeaderFieldsTooLarge", 451: "unavailableForLegalReasons",
        500: "internalServerError", 501: "notImplemented", 502: "badGateway", 503: "serviceUnavailable",
        504: "gatewayTimeout", 505: "httpVersionNotSupported", 506: "variantAlsoNegotiates", 507: "insufficientStorage",
        508: "loopDetected", 511: "networkAuthenticationRequired",
    ]
}
