/// One operation of a service, declared under `endpoints:`.
struct EndpointSpec: Hashable, Sendable, SourceLocated {
    /// The name as written in the spec.
    var name: String
    /// The Swift function name (lowerCamelCase).
    var swiftName: SwiftIdentifier
    /// The documentation, if any.
    var description: String?
    /// The HTTP method.
    var method: HTTPMethod
    /// The path template, relative to the service's base URL.
    var path: PathTemplate
    /// Parameters in the path, query and headers, in that order and in declaration order within each.
    var parameters: [ParameterSpec]
    /// The request body, if any.
    var body: RequestBodySpec?
    /// The success response.
    var response: ResponseSpec
    /// The error mappings written on this endpoint, in declaration order.
    var errors: [ErrorMappingSpec]
    /// This endpoint's mappings merged with the service's `defaults.errors`: a default mapping
    /// is inherited unless the endpoint maps the same status matcher itself. Ordered by how
    /// specific the matcher is (exact statuses, then ranges, then `default`), then by status.
    var effectiveErrors: [ErrorMappingSpec]
    /// Retry, timeout and breaker hints, already merged with the service's defaults.
    var resilience: ResilienceHints
    /// How the endpoint pages (`paginate:`), if it is a list that does.
    var pagination: PaginationSpec?
    /// Where the endpoint's name is written.
    var location: SourceLocation
    /// The endpoint's own `auth:`, if it has one: none, or the named schemes it accepts.
    var auth: EndpointAuthSpec? = nil

    /// Creates an endpoint. `effectiveErrors` starts as `errors`; ``ServiceSpec`` merges defaults in.
    init(name: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, method: HTTPMethod,
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
    var pathParameters: [ParameterSpec] { parameters.filter { $0.placement == .path } }
    /// Query parameters, in declaration order.
    var queryParameters: [ParameterSpec] { parameters.filter { $0.placement == .query } }
    /// Header parameters, in declaration order.
    var headerParameters: [ParameterSpec] { parameters.filter { $0.placement == .header } }

    /// The distinct error cases this endpoint can throw, from ``effectiveErrors``, in first-use order.
    /// Validation guarantees that a case name always carries the same body schema, and that the
    /// uses that give a message give the same one. When several mappings use one case, its
    /// description comes from the first, and its message from the first use that gives one
    /// (`not_authed: invalidAuth` names the case whose message an earlier or later use states);
    /// the mappings themselves keep their own.
    var errorCases: [ErrorCaseSpec] {
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
    var allowsRetry: Bool {
        if case .disabled = resilience.retry { return false }
        if method.isIdempotent || resilience.idempotencyKey != nil { return true }
        if case .custom(let policy) = resilience.retry { return policy.retriesNonIdempotent }
        return false
    }
}

/// An HTTP method an endpoint can use.
enum HTTPMethod: String, CaseIterable, Hashable, Sendable {
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
    var specKey: String { rawValue.lowercased() }

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2).
    var isIdempotent: Bool {
        switch self {
        case .get, .put, .delete, .head, .options: true
        case .post, .patch: false
        }
    }
}

/// A path such as `/repos/{owner}/{repo}/issues`, split into literal text and parameters.
struct PathTemplate: Hashable, Sendable, CustomStringConvertible {
    /// A piece of a path template.
    enum Segment: Hashable, Sendable {
        /// Text sent as written.
        case literal(String)
        /// A `{name}` placeholder, filled from the path parameter `name`.
        case parameter(String)
    }

    /// The template as written in the spec.
    var template: String
    /// The template split into literals and parameters.
    var segments: [Segment]

    /// Creates a template from its parts.
    init(template: String, segments: [Segment]) {
        self.template = template
        self.segments = segments
    }

    /// The names of the `{parameters}`, in order of appearance.
    var parameterNames: [String] {
        segments.compactMap { segment in
            if case .parameter(let name) = segment { return name }
            return nil
        }
    }

    /// The template as written.
    var description: String { template }
}

/// A path, query or header parameter.
struct ParameterSpec: Hashable, Sendable, SourceLocated {
    /// Where a parameter goes in the request.
    enum Placement: String, Hashable, Sendable {
        /// Substituted into a `{placeholder}` of the path; always required.
        case path
        /// Appended to the query string.
        case query
        /// Sent as a request header.
        case header
    }

    /// The name on the wire: the placeholder, query key or header field name.
    var name: String
    /// The Swift argument name (lowerCamelCase).
    var swiftName: SwiftIdentifier
    /// Where the parameter goes.
    var placement: Placement
    /// The declared type; an optional type means the caller may leave the parameter out.
    var type: TypeReference
    /// The value used when the caller does not give one, if any.
    var defaultValue: LiteralValue?
    /// Whether the value must never be logged (tokens, keys). Only header parameters can be secret.
    var isSecret: Bool
    /// `style:` and `explode:` as written; only query parameters may have them.
    var style: ParameterStyleSpec?
    /// The documentation, if any.
    var description: String?
    /// Where the parameter's name is written.
    var location: SourceLocation

    /// Creates a parameter.
    init(name: String, swiftName: SwiftIdentifier? = nil, placement: Placement, type: TypeReference,
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
    var isRequired: Bool { !type.isOptional && defaultValue == nil }
}

/// A literal written in a spec, such as a parameter default.
enum LiteralValue: Hashable, Sendable, CustomStringConvertible {
    /// A string, or the raw value of a string enum case.
    case string(String)
    /// A whole number.
    case integer(Int)
    /// A number with a fraction.
    case number(Double)
    /// `true` or `false`.
    case boolean(Bool)

    /// The literal as written in the spec.
    var description: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .boolean(let value): String(value)
        }
    }
}

/// The body of a request.
struct RequestBodySpec: Hashable, Sendable, SourceLocated {
    /// The body's type: a named model, or the model synthesized from inline `properties`.
    var type: TypeReference
    /// The media type sent as `Content-Type`: a JSON media type (``json``, one ending in `+json`,
    /// or any with ``mediaCoding`` `.json`), for which the body is encoded as JSON, a form or text
    /// type, or any other media type for a `Data` body, which is sent as it is.
    var contentType: String
    /// How the body is coded when the spec says so (`contentType: { type: …, coding: json }`);
    /// `nil` to go by the media type.
    var mediaCoding: MediaCoding?
    /// The documentation, if any.
    var description: String?
    /// How a form body spells nested values (`form:`); `nil` for the bracket defaults.
    var formStyle: FormStyleSpec?
    /// The content types the caller picks from (`contentTypes:`); empty for a body of one
    /// content type, which `type` and `contentType` then describe. With variants, `type` and
    /// `contentType` are the first variant's.
    var variants: [BodyVariantSpec]
    /// Where `body:` is written.
    var location: SourceLocation
    /// The file parts of a `multipart/form-data` body (`files:`), after the fields `type` holds.
    var files: [MultipartFileSpec] = []
    /// Whether the body is a form of files only (`files:` with neither `type` nor `properties`):
    /// the generated method then takes the files and no body argument, and `type` is only a
    /// placeholder that nothing reads.
    var isFilesOnly = false

    /// Whether the body is a `multipart/form-data` form: `type`'s fields as text parts, then `files`.
    var isMultipart: Bool {
        contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .filter { !$0.isWhitespace }.lowercased() == "multipart/form-data"
    }

    /// Creates a request body.
    init(type: TypeReference, contentType: String = "application/json", description: String? = nil,
                formStyle: FormStyleSpec? = nil, variants: [BodyVariantSpec] = [], location: SourceLocation) {
        self.type = type
        self.contentType = contentType
        self.description = description
        self.formStyle = formStyle
        self.variants = variants
        self.location = location
    }

    /// `application/json`, the default content type.
    static let json = "application/json"

    /// Whether the body is JSON: the spec says so (`coding: json`), or the content type is
    /// `application/json` or a structured `+json` type such as `application/merge-patch+json`,
    /// parameters aside. Courier encodes no other format.
    var isJSON: Bool {
        if mediaCoding == .json { return true }
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .filter { !$0.isWhitespace }.lowercased()
        return essence == Self.json || (essence.hasPrefix("application/") && essence.hasSuffix("+json"))
    }

    /// Whether the body's bytes go out as they are (a `Data` body with a content type other
    /// than JSON) rather than being encoded as JSON.
    var isRaw: Bool {
        !isJSON && (type.nonOptional == .primitive(.data) || isStreamed)
    }

    /// Whether the body is `Binary`: an `HTTPBody` (bytes or a file) read as it is sent.
    var isStreamed: Bool {
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
struct ResponseSpec: Hashable, Sendable, SourceLocated {
    /// The success status code (2xx).
    var status: Int
    /// The decoded body's type, or `nil` for an empty response (such as 204 No Content).
    var body: TypeReference?
    /// The documentation, if any.
    var description: String?
    /// Where `response:` is written, or the endpoint when there is none.
    var location: SourceLocation
    /// How a streamed response is read (`body: Binary`, `events:`, `lines:`); `nil` for a body
    /// decoded whole.
    var stream: ResponseStreamSpec?
    /// The body's media type when the spec names one (`contentType:`): `text/plain` for a
    /// `String` read as text, `image/png` for `Data`, a `+json` type (or a vendor type with
    /// ``mediaCoding``) for a model. `nil` for JSON.
    /// Sent as `Accept`.
    var contentType: String?
    /// How the body is coded when the spec says so (`contentType: { type: …, coding: json }`),
    /// for a vendor media type that is JSON; `nil` to go by the media type.
    var mediaCoding: MediaCoding?
    /// The documented success statuses when there are several (`response: { 200: Report, 304: … }`),
    /// in status order; empty for one status, which ``status`` and ``body`` describe.
    var outcomes: [ResponseOutcomeSpec] = []
    /// The header fields the response declares (`headers:`), in declaration order.
    var headers: [ResponseHeaderSpec] = []

    /// The statuses that mean success: the outcomes', or the one status.
    var successStatuses: [Int] {
        hasOutcomes ? outcomes.map(\.status) : [status]
    }

    /// Whether the endpoint answers with one of several documented statuses, so that its
    /// `Response` is an enum of outcomes.
    var hasOutcomes: Bool { !outcomes.isEmpty }

    /// Every body type the response may decode: the single body, or each outcome's.
    var bodyTypes: [TypeReference] {
        hasOutcomes ? outcomes.compactMap(\.body) : (body.map { [$0] } ?? [])
    }

    /// The `Accept` value the declared content types call for; `nil` when every body is JSON
    /// without a named type, for which the client's default (`application/json`) stands.
    var acceptedContentTypes: String? {
        let types = hasOutcomes ? outcomes.compactMap { $0.body == nil ? nil : $0.contentType } : (contentType.map { [$0] } ?? [])
        guard !types.isEmpty else { return nil }
        var seen = Set<String>()
        var list = types.filter { seen.insert($0.lowercased()).inserted }
        let jsonBodies = hasOutcomes ? outcomes.filter { $0.body != nil && $0.contentType == nil }.count : 0
        if jsonBodies > 0, seen.insert(RequestBodySpec.json).inserted { list.append(RequestBodySpec.json) }
        return list.joined(separator: ", ")
    }

    /// Creates a response.
    init(status: Int, body: TypeReference?, description: String? = nil, location: SourceLocation) {
        self.status = status
        self.body = body
        self.description = description
        self.location = location
    }
}

/// A response read as it arrives instead of decoded whole.
enum ResponseStreamSpec: Hashable, Sendable {
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

/// A file part of a multipart body (`files:` under `body:`): in Swift a `MultipartForm.File` argument.
struct MultipartFileSpec: Hashable, Sendable, SourceLocated {
    /// The part's name in the form.
    var name: String
    /// The Swift argument name.
    var swiftName: SwiftIdentifier
    /// Whether the caller may leave the file out.
    var isOptional: Bool
    /// The documentation, if any.
    var description: String?
    /// Where the file is written.
    var location: SourceLocation
    /// The content type the file usually has (`contentType:`), named in the generated
    /// documentation; the caller's `MultipartForm.File` still says what it sends.
    var contentType: String?
    /// Header fields of the part declared in the spec (`headers:`), each an argument of the
    /// generated method, in declaration order.
    var headers: [PartHeaderSpec] = []

    /// Creates a file part.
    init(name: String, isOptional: Bool = false, description: String? = nil, location: SourceLocation) {
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
struct PartHeaderSpec: Hashable, Sendable, SourceLocated {
    /// The header field's name, as sent.
    var name: String
    /// The Swift argument name: the file's name followed by the field's, without an `X-` prefix.
    var swiftName: SwiftIdentifier
    /// The value's type; an optional type means the caller may leave the field out.
    var type: TypeReference
    /// The documentation, if any.
    var description: String?
    /// Where the field's name is written.
    var location: SourceLocation

    /// Creates a part header field of the file named `fileName`.
    init(name: String, fileName: String, type: TypeReference, description: String? = nil, location: SourceLocation) {
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
