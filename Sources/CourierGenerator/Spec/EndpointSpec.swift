/// One operation of a service, declared under `endpoints:`.
public struct EndpointSpec: Hashable, Sendable, SourceLocated {
    /// The name as written in the spec.
    public var name: String
    /// The Swift function name (lowerCamelCase).
    public var swiftName: SwiftIdentifier
    /// The documentation, if any.
    public var description: String?
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path template, relative to the service's base URL.
    public var path: PathTemplate
    /// Parameters in the path, query and headers, in that order and in declaration order within each.
    public var parameters: [ParameterSpec]
    /// The request body, if any.
    public var body: RequestBodySpec?
    /// The success response.
    public var response: ResponseSpec
    /// The error mappings written on this endpoint, in declaration order.
    public var errors: [ErrorMappingSpec]
    /// This endpoint's mappings merged with the service's `defaults.errors`: a default mapping
    /// is inherited unless the endpoint maps the same status matcher itself. Ordered by how
    /// specific the matcher is (exact statuses, then ranges, then `default`), then by status.
    public var effectiveErrors: [ErrorMappingSpec]
    /// Retry, timeout and breaker hints, already merged with the service's defaults.
    public var resilience: ResilienceHints
    /// How the endpoint pages (`paginate:`), if it is a list that does.
    public var pagination: PaginationSpec?
    /// Where the endpoint's name is written.
    public var location: SourceLocation
    /// The endpoint's own `auth:`, if it has one: none, or the named schemes it accepts.
    public var auth: EndpointAuthSpec? = nil

    /// Creates an endpoint. `effectiveErrors` starts as `errors`; ``ServiceSpec`` merges defaults in.
    public init(name: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, method: HTTPMethod,
                path: PathTemplate, parameters: [ParameterSpec] = [], body: RequestBodySpec? = nil,
                response: ResponseSpec, errors: [ErrorMappingSpec] = [], effectiveErrors: [ErrorMappingSpec]? = nil,
                resilience: ResilienceHints = ResilienceHints(), location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: name)
        self.description = description
        self.method = method
        self.path = path
        self.parameters = parameters
        self.body = body
        self.response = response
        self.errors = errors
        self.effectiveErrors = effectiveErrors ?? errors
        self.resilience = resilience
        self.location = location
    }

    /// Path parameters, in declaration order.
    public var pathParameters: [ParameterSpec] { parameters.filter { $0.placement == .path } }
    /// Query parameters, in declaration order.
    public var queryParameters: [ParameterSpec] { parameters.filter { $0.placement == .query } }
    /// Header parameters, in declaration order.
    public var headerParameters: [ParameterSpec] { parameters.filter { $0.placement == .header } }

    /// The distinct error cases this endpoint can throw, from ``effectiveErrors``, in first-use order.
    /// Validation guarantees that a case name always carries the same body schema, and that the
    /// uses that give a message give the same one. When several mappings use one case, its
    /// description comes from the first, and its message from the first use that gives one
    /// (`not_authed: invalidAuth` names the case whose message an earlier or later use states);
    /// the mappings themselves keep their own.
    public var errorCases: [ErrorCaseSpec] {
        var positions: [String: Int] = [:]
        var cases: [ErrorCaseSpec] = []
        for mapping in effectiveErrors {
            for errorCase in mapping.allCases {
                guard let position = positions[errorCase.name] else {
                    positions[errorCase.name] = cases.count
                    cases.append(errorCase)
                    continue
                }
                if !cases[position].givesMessage, errorCase.givesMessage {
                    cases[position].message = errorCase.message
                    cases[position].messageField = errorCase.messageField
                    cases[position].messageKey = errorCase.messageKey
                }
            }
        }
        return cases
    }

    /// Whether a failed attempt may be sent again: the method is idempotent, the endpoint sends an
    /// idempotency key, or the spec explicitly allows retrying it.
    public var allowsRetry: Bool {
        if case .disabled = resilience.retry { return false }
        if method.isIdempotent || resilience.idempotencyKey != nil { return true }
        if case .custom(let policy) = resilience.retry { return policy.retriesNonIdempotent }
        return false
    }
}

/// An HTTP method an endpoint can use.
public enum HTTPMethod: String, CaseIterable, Hashable, Sendable {
    /// `GET`
    case get = "GET"
    /// `POST`
    case post = "POST"
    /// `PUT`
    case put = "PUT"
    /// `PATCH`
    case patch = "PATCH"
    /// `DELETE`
    case delete = "DELETE"
    /// `HEAD`
    case head = "HEAD"
    /// `OPTIONS`
    case options = "OPTIONS"

    /// The key that introduces the method in a spec (`get`, `post`, …).
    public var specKey: String { rawValue.lowercased() }

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        switch self {
        case .get, .put, .delete, .head, .options: true
        case .post, .patch: false
        }
    }
}

/// A path such as `/repos/{owner}/{repo}/issues`, split into literal text and parameters.
public struct PathTemplate: Hashable, Sendable, CustomStringConvertible {
    /// A piece of a path template.
    public enum Segment: Hashable, Sendable {
        /// Text sent as written.
        case literal(String)
        /// A `{name}` placeholder, filled from the path parameter `name`.
        case parameter(String)
    }

    /// The template as written in the spec.
    public var template: String
    /// The template split into literals and parameters.
    public var segments: [Segment]

    /// Creates a template from its parts.
    public init(template: String, segments: [Segment]) {
        self.template = template
        self.segments = segments
    }

    /// The names of the `{parameters}`, in order of appearance.
    public var parameterNames: [String] {
        segments.compactMap { segment in
            if case .parameter(let name) = segment { return name }
            return nil
        }
    }

    /// The template as written.
    public var description: String { template }
}

/// A path, query or header parameter.
public struct ParameterSpec: Hashable, Sendable, SourceLocated {
    /// Where a parameter goes in the request.
    public enum Placement: String, Hashable, Sendable {
        /// Substituted into a `{placeholder}` of the path; always required.
        case path
        /// Appended to the query string.
        case query
        /// Sent as a request header.
        case header
    }

    /// The name on the wire: the placeholder, query key or header field name.
    public var name: String
    /// The Swift argument name (lowerCamelCase).
    public var swiftName: SwiftIdentifier
    /// Where the parameter goes.
    public var placement: Placement
    /// The declared type; an optional type means the caller may leave the parameter out.
    public var type: TypeReference
    /// The value used when the caller does not give one, if any.
    public var defaultValue: LiteralValue?
    /// Whether the value must never be logged (tokens, keys). Only header parameters can be secret.
    public var isSecret: Bool
    /// `style:` and `explode:` as written; only query parameters may have them.
    public var style: ParameterStyleSpec?
    /// The documentation, if any.
    public var description: String?
    /// Where the parameter's name is written.
    public var location: SourceLocation

    /// Creates a parameter.
    public init(name: String, swiftName: SwiftIdentifier? = nil, placement: Placement, type: TypeReference,
                defaultValue: LiteralValue? = nil, isSecret: Bool = false, style: ParameterStyleSpec? = nil,
                description: String? = nil, location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: name)
        self.placement = placement
        self.type = type
        self.defaultValue = defaultValue
        self.isSecret = isSecret
        self.style = style
        self.description = description
        self.location = location
    }

    /// Whether every call must pass a value: the type is not optional and there is no default.
    public var isRequired: Bool { !type.isOptional && defaultValue == nil }
}

/// A literal written in a spec, such as a parameter default.
public enum LiteralValue: Hashable, Sendable, CustomStringConvertible {
    /// A string, or the raw value of a string enum case.
    case string(String)
    /// A whole number.
    case integer(Int)
    /// A number with a fraction.
    case number(Double)
    /// `true` or `false`.
    case boolean(Bool)

    /// The literal as written in the spec.
    public var description: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .boolean(let value): String(value)
        }
    }
}

/// The body of a request.
public struct RequestBodySpec: Hashable, Sendable, SourceLocated {
    /// The body's type: a named model, or the model synthesized from inline `properties`.
    public var type: TypeReference
    /// The media type sent as `Content-Type`: a JSON media type (``json``, one ending in `+json`,
    /// or any with ``mediaCoding`` `.json`), for which the body is encoded as JSON, a form or text
    /// type, or any other media type for a `Data` body, which is sent as it is.
    public var contentType: String
    /// How the body is coded when the spec says so (`contentType: { type: …, coding: json }`);
    /// `nil` to go by the media type.
    public var mediaCoding: MediaCoding?
    /// The documentation, if any.
    public var description: String?
    /// How a form body spells nested values (`form:`); `nil` for the bracket defaults.
    public var formStyle: FormStyleSpec?
    /// The content types the caller picks from (`contentTypes:`); empty for a body of one
    /// content type, which `type` and `contentType` then describe. With variants, `type` and
    /// `contentType` are the first variant's.
    public var variants: [BodyVariantSpec]
    /// Where `body:` is written.
    public var location: SourceLocation
    /// The file parts of a `multipart/form-data` body (`files:`), after the fields `type` holds.
    public var files: [MultipartFileSpec] = []
    /// Whether the body is a form of files only (`files:` with neither `type` nor `properties`):
    /// the generated method then takes the files and no body argument, and `type` is only a
    /// placeholder that nothing reads.
    public var isFilesOnly = false

    /// Whether the body is a `multipart/form-data` form: `type`'s fields as text parts, then `files`.
    public var isMultipart: Bool {
        contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .filter { !$0.isWhitespace }.lowercased() == "multipart/form-data"
    }

    /// Creates a request body.
    public init(type: TypeReference, contentType: String = "application/json", description: String? = nil,
                formStyle: FormStyleSpec? = nil, variants: [BodyVariantSpec] = [], location: SourceLocation) {
        self.type = type
        self.contentType = contentType
        self.description = description
        self.formStyle = formStyle
        self.variants = variants
        self.location = location
    }

    /// `application/json`, the default content type.
    public static let json = "application/json"

    /// Whether the body is JSON: the spec says so (`coding: json`), or the content type is
    /// `application/json` or a structured `+json` type such as `application/merge-patch+json`,
    /// parameters aside. Courier encodes no other format.
    public var isJSON: Bool {
        if mediaCoding == .json { return true }
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .filter { !$0.isWhitespace }.lowercased()
        return essence == Self.json || (essence.hasPrefix("application/") && essence.hasSuffix("+json"))
    }

    /// Whether the body's bytes go out as they are (a `Data` body with a content type other
    /// than JSON) rather than being encoded as JSON.
    public var isRaw: Bool {
        !isJSON && (type.nonOptional == .primitive(.data) || isStreamed)
    }

    /// Whether the body is `Binary`: an `HTTPBody` (bytes or a file) read as it is sent.
    public var isStreamed: Bool {
        type.nonOptional == .primitive(.binary)
    }

    /// Whether `text` is a media type, `type/subtype` with optional `; parameter=value` parts,
    /// whose type and subtype are RFC 9110 tokens.
    static func isMediaType(_ text: String) -> Bool {
        let essence = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !text.contains(where: { $0.isNewline }) else { return false }
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(tokenCharacters.contains) }
    }

    /// Whether `contentType` is a `multipart/*` type, parameters aside.
    static func isMultipart(_ contentType: String) -> Bool {
        contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("multipart/")
    }
}

/// The success response of an endpoint.
public struct ResponseSpec: Hashable, Sendable, SourceLocated {
    /// The success status code (2xx).
    public var status: Int
    /// The decoded body's type, or `nil` for an empty response (such as 204 No Content).
    public var body: TypeReference?
    /// The documentation, if any.
    public var description: String?
    /// Where `response:` is written, or the endpoint when there is none.
    public var location: SourceLocation
    /// How a streamed response is read (`body: Binary`, `events:`, `lines:`); `nil` for a body
    /// decoded whole.
    public var stream: ResponseStreamSpec?
    /// The body's media type when the spec names one (`contentType:`): `text/plain` for a
    /// `String` read as text, `image/png` for `Data`, a `+json` type (or a vendor type with
    /// ``mediaCoding``) for a model. `nil` for JSON.
    /// Sent as `Accept`.
    public var contentType: String?
    /// How the body is coded when the spec says so (`contentType: { type: …, coding: json }`),
    /// for a vendor media type that is JSON; `nil` to go by the media type.
    public var mediaCoding: MediaCoding?
    /// The documented success statuses when there are several (`response: { 200: Report, 304: … }`),
    /// in status order; empty for one status, which ``status`` and ``body`` describe.
    public var outcomes: [ResponseOutcomeSpec] = []
    /// The header fields the response declares (`headers:`), in declaration order.
    public var headers: [ResponseHeaderSpec] = []

    /// The statuses that mean success: the outcomes', or the one status.
    public var successStatuses: [Int] {
        hasOutcomes ? outcomes.map(\.status) : [status]
    }

    /// Whether the endpoint answers with one of several documented statuses, so that its
    /// `Response` is an enum of outcomes.
    public var hasOutcomes: Bool { !outcomes.isEmpty }

    /// Every body type the response may decode: the single body, or each outcome's.
    public var bodyTypes: [TypeReference] {
        hasOutcomes ? outcomes.compactMap(\.body) : (body.map { [$0] } ?? [])
    }

    /// The `Accept` value the declared content types call for; `nil` when every body is JSON
    /// without a named type, for which the client's default (`application/json`) stands.
    public var acceptedContentTypes: String? {
        let types = hasOutcomes ? outcomes.compactMap { $0.body == nil ? nil : $0.contentType } : (contentType.map { [$0] } ?? [])
        guard !types.isEmpty else { return nil }
        var seen = Set<String>()
        var list = types.filter { seen.insert($0.lowercased()).inserted }
        let jsonBodies = hasOutcomes ? outcomes.filter { $0.body != nil && $0.contentType == nil }.count : 0
        if jsonBodies > 0, seen.insert(RequestBodySpec.json).inserted { list.append(RequestBodySpec.json) }
        return list.joined(separator: ", ")
    }

    /// Creates a response.
    public init(status: Int, body: TypeReference?, description: String? = nil, location: SourceLocation) {
        self.status = status
        self.body = body
        self.description = description
        self.location = location
    }
}

/// A response read as it arrives instead of decoded whole.
public enum ResponseStreamSpec: Hashable, Sendable {
    /// `body: Binary`: the bytes, handed on as they arrive (and to a file by the download method).
    case bytes(contentType: String)
    /// `events: T`: a `text/event-stream`, each event's data decoded as `T` (`String` for the raw events).
    case events(TypeReference)
    /// `lines: T`: JSON Lines, each line decoded as `T`.
    case lines(TypeReference, contentType: String)
    /// `contentType: multipart/mixed` (any `multipart/*`): the parts, each with its header
    /// fields, as they arrive; with `body: T`, each part's body decoded as `T`.
    case parts(TypeReference?, contentType: String)
}

/// A file part of a multipart body (`files:` under `body:`): in Swift a `MultipartFile` argument.
public struct MultipartFileSpec: Hashable, Sendable, SourceLocated {
    /// The part's name in the form.
    public var name: String
    /// The Swift argument name.
    public var swiftName: SwiftIdentifier
    /// Whether the caller may leave the file out.
    public var isOptional: Bool
    /// The documentation, if any.
    public var description: String?
    /// Where the file is written.
    public var location: SourceLocation
    /// The content type the file usually has (`contentType:`), named in the generated
    /// documentation; the caller's `MultipartFile` still says what it sends.
    public var contentType: String?
    /// Header fields of the part declared in the spec (`headers:`), each an argument of the
    /// generated method, in declaration order.
    public var headers: [PartHeaderSpec] = []

    /// Creates a file part.
    public init(name: String, isOptional: Bool = false, description: String? = nil, location: SourceLocation) {
        self.name = name
        swiftName = SwiftIdentifier(memberNamed: name)
        self.isOptional = isOptional
        self.description = description
        self.location = location
    }
}

/// A header field of a multipart file part (`headers:` under a file), such as `X-Checksum:
/// String`: in Swift an argument named after the file and the field (`fileChecksum`), whose value
/// goes into that part's header fields, a `nil` value left out.
public struct PartHeaderSpec: Hashable, Sendable, SourceLocated {
    /// The header field's name, as sent.
    public var name: String
    /// The Swift argument name: the file's name followed by the field's, without an `X-` prefix.
    public var swiftName: SwiftIdentifier
    /// The value's type; an optional type means the caller may leave the field out.
    public var type: TypeReference
    /// The documentation, if any.
    public var description: String?
    /// Where the field's name is written.
    public var location: SourceLocation

    /// Creates a part header field of the file named `fileName`.
    public init(name: String, fileName: String, type: TypeReference, description: String? = nil, location: SourceLocation) {
        self.name = name
        swiftName = Self.swiftName(ofField: name, file: fileName)
        self.type = type
        self.description = description
        self.location = location
    }

    /// `<file><Field>`: `X-Checksum` of `file` is `fileChecksum`, `Content-Language` is
    /// `fileContentLanguage`. The `X-` prefix says nothing in Swift, so it is dropped when
    /// something follows it.
    static func swiftName(ofField field: String, file: String) -> SwiftIdentifier {
        var words = field
        if words.lowercased().hasPrefix("x-"), words.count > 2 { words.removeFirst(2) }
        return SwiftIdentifier(memberNamed: file + "-" + words)
    }
}
