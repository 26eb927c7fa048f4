// View models only: see FileModels.swift for what the templates may assume of them.

/// `<Prefix>Requests.swift`: one request type per endpoint.
struct RequestsFileModel: TemplateModel {
    /// The generator version.
    var version: String
    /// The spec path.
    var specPath: String
    /// The access level of every declaration: `public`, `package` or `internal`.
    var access = "public"
    /// The request types, in endpoint order.
    var requests: [RequestModel]
    /// The `EndpointResilience` constant for the spec's `defaults:` retry and breaker hints
    /// (`static let <service>Defaults`), if they give any.
    var defaultResilience: DefaultResilienceModel?
    /// The protocol every request type adopts, with what they share; in the first part only.
    var requestProtocol: RequestProtocolModel? = nil
    /// `Equatable` or `Hashable`, which response enums and response field structs adopt; `nil` for neither.
    var equality: String? = nil

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "access": \.access, "version": \.version, "specPath": \.specPath, "requests": \.requests,
        "defaultResilience": \.defaultResilience, "requestProtocol": \.requestProtocol, "equality": \.equality,
    ]
}

/// `protocol <Service>APIRequest: APIRequest`, whose extension supplies the timeout, resilience
/// and secret header names the service's requests share; a request states only where it differs.
struct RequestProtocolModel: TemplateModel {
    /// The doc comment.
    var doc: String
    /// The protocol's name, such as `GitHubAPIRequest`.
    var name: String
    /// The shared timeout expression, such as `.seconds(20)`, if the spec's `defaults:` give one.
    var timeout: String?
    /// The name of the `EndpointResilience` constant of the `defaults:` hints, if they give any.
    var resilience: String?
    /// The secret header names every request has, as a set literal, if any.
    var secretHeaderNames: String?

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "timeout": \.timeout, "resilience": \.resilience,
        "secretHeaderNames": \.secretHeaderNames, "hasDefaults": \.hasDefaults,
    ]

    /// Whether the extension supplies anything.
    var hasDefaults: Bool { timeout != nil || resilience != nil || secretHeaderNames != nil }
}

/// One endpoint's `APIRequest` type.
struct RequestModel: TemplateModel {
    /// The doc comment.
    var doc: String
    /// The type name.
    var name: String
    /// The protocol the type adopts: the service's request protocol, or `APIRequest`.
    var conformance: String = "APIRequest"
    /// The `Response` type.
    var responseType: String
    /// The `Failure` type.
    var failureType: String
    /// The stored properties: path, body, query and header values.
    var properties: [RequestPropertyModel]
    /// The initialiser's parameters, one per stored property, in the same order.
    var parameters: [ParameterModel]
    /// Whether the initialiser's parameters fit on its line.
    var isInline: Bool
    /// The HTTP method, such as `.get`.
    var method: String
    /// The path template as a string literal, such as `"/users/{username}"`.
    var pathTemplate: String
    /// The values of the template's placeholders, by name.
    var pathValues: [ParameterItemModel]
    /// The query items.
    var query: [ParameterItemModel]
    /// The header items.
    var headers: [ParameterItemModel]
    /// The `body` expression, if any.
    var body: String?
    /// The enum of the body's content types, declared before the request, if the body has several.
    var contentEnum: ContentEnumModel?
    /// The `HTTPField.Name?` expression of the idempotency key's header, such as
    /// `.idempotencyKey`, when the endpoint sends a key.
    var idempotencyKeyHeader: String?
    /// The timeout expression, such as `.seconds(20)`, when it is not the one ``conformance``
    /// supplies (`nil` then means the same).
    var timeout: String?
    /// The `EndpointResilience` of the spec's retry and breaker hints, when it is not the one
    /// ``conformance`` supplies.
    var resilience: ResilienceModel?
    /// The secret header names as a set literal, when they are not the ones ``conformance``
    /// supplies.
    var secretHeaderNames: String?
    /// The operation name as a string literal.
    var operationName: String
    /// How the endpoint pages, if it does.
    var pagination: PaginationModel?
    /// The `AuthenticationRequirement` of the endpoint's own `auth:`, such as `.none`, if it has one.
    var authentication: AuthenticationModel? = nil
    /// The enum of the documented success statuses, declared before the request, if there are several.
    var outcome: OutcomeEnumModel? = nil
    /// The `successStatuses` literal, such as `[200, 202, 304]`, when it is not any 2xx.
    var successStatuses: String? = nil
    /// The struct of the response's declared header fields, declared before the request, if any.
    var responseHeaders: ResponseHeadersModel? = nil
    /// The query items as one dictionary literal, when the property fits on one line.
    var queryLine: String? = nil
    /// The header items as one dictionary literal, when the property fits on one line.
    var headersLine: String? = nil

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "responseType": \.responseType, "failureType": \.failureType,
        "properties": \.properties, "hasProperties": \.hasProperties, "isInline": \.isInline,
        "parameters": \.parameters, "method": \.method, "pathTemplate": \.pathTemplate,
        "pathValues": \.pathValues, "hasPathValues": \.hasPathValues,
        "query": \.query, "hasQuery": \.hasQuery, "headers": \.headers, "hasHeaders": \.hasHeaders,
        "body": \.body, "contentEnum": \.contentEnum, "idempotencyKeyHeader": \.idempotencyKeyHeader, "timeout": \.timeout,
        "resilience": \.resilience,
        "secretHeaderNames": \.secretHeaderNames, "operationName": \.operationName, "pagination": \.pagination,
        "authentication": \.authentication, "outcome": \.outcome, "successStatuses": \.successStatuses,
        "responseHeaders": \.responseHeaders, "conformance": \.conformance, "queryLine": \.queryLine,
        "headersLine": \.headersLine,
    ]


    /// Whether the request has stored properties.
    var hasProperties: Bool { !properties.isEmpty }
    /// Whether the path has placeholders.
    var hasPathValues: Bool { !pathValues.isEmpty }
    /// Whether the request has query items.
    var hasQuery: Bool { !query.isEmpty }
    /// Whether the request has header items.
    var hasHeaders: Bool { !headers.isEmpty }
}

/// A stored property of a request type, with its initialiser parameter.
struct RequestPropertyModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String?
    /// The stored property's name, escaped; also the initialiser's argument inside its body,
    /// whose label differs when the name would shadow a requirement of `APIRequest`.
    var name: String
    /// The Swift type.
    var type: String

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "name": \.name, "type": \.type]
}

/// One `key: value` item: of a `Parameters` literal (query, headers) or of a path's values.
struct ParameterItemModel: TemplateModel {
    /// The wire name as a string literal.
    var key: String
    /// The value expression.
    var value: String

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = ["key": \.key, "value": \.value]
}

/// A request's `resilience`: the shared `defaults:` constant, or its own `EndpointResilience`.
struct ResilienceModel: TemplateModel {
    /// The `EndpointResilience` static member the request uses as it is, such as
    /// `bookshelfDefaults` or `inherited`; `nil` when the request has arguments of its own.
    var sharedName: String?
    /// The arguments of `EndpointResilience(...)`, such as `maxAttempts: 1`.
    var arguments: [ArgumentModel]
    /// Whether the initialiser fits on one line.
    var isInline: Bool
    /// Whether the whole property, initialiser and all, fits on one line.
    var isOneLine = false

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "sharedName": \.sharedName, "arguments": \.arguments, "isInline": \.isInline, "isOneLine": \.isOneLine,
    ]
}

/// The `EndpointResilience` constant that holds the spec's `defaults:` retry and breaker hints.
struct DefaultResilienceModel: TemplateModel {
    /// The constant's doc comment, indented for a member.
    var doc: String
    /// The constant's name, such as `bookshelfDefaults`.
    var name: String
    /// The arguments of `EndpointResilience(...)`.
    var arguments: [ArgumentModel]
    /// Whether the declaration fits on one line.
    var isInline: Bool

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "arguments": \.arguments, "isInline": \.isInline,
    ]
}

/// `<Endpoint>Content`: the content types an endpoint's body may take, as enum cases.
struct ContentEnumModel: TemplateModel {
    /// The doc comment.
    var doc: String
    /// The type name.
    var name: String
    /// One case per content type, in declaration order.
    var cases: [ContentCaseModel]

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "name": \.name, "cases": \.cases]
}

/// One case of a ``ContentEnumModel``.
struct ContentCaseModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The case name, escaped.
    var name: String
    /// The associated value's Swift type.
    var type: String
    /// The `RequestBody` expression of the associated `value`.
    var expression: String

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "type": \.type, "expression": \.expression,
    ]
}

/// A request's `authentication`: the endpoint's own choice of credentials.
struct AuthenticationModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The `AuthenticationRequirement` expression, such as `.none` or `.anyOf(["bot"])`.
    var value: String

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "value": \.value]
}

/// `<Endpoint>Outcome`: an endpoint's documented success statuses, as enum cases.
struct OutcomeEnumModel: TemplateModel {
    /// The doc comment.
    var doc: String
    /// The type name.
    var name: String
    /// One case per status, in status order.
    var cases: [OutcomeCaseModel]
    /// The statuses, such as `200, 202, 304`, for the message of an unexpected one.
    var statusList: String

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "cases": \.cases, "statusList": \.statusList,
    ]
}

/// One case of an ``OutcomeEnumModel``.
struct OutcomeCaseModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The case name, escaped.
    var name: String
    /// The status, such as `304`.
    var status: String
    /// The body's Swift type, the associated value; `nil` for a status without a body.
    var type: String?

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "status": \.status, "type": \.type,
    ]
}

/// `<Endpoint>ResponseHeaders`: the header fields an endpoint's response declares.
struct ResponseHeadersModel: TemplateModel {
    /// The doc comment.
    var doc: String
    /// The type name.
    var name: String
    /// One property per field, in declaration order.
    var properties: [ResponseHeaderPropertyModel]

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "name": \.name, "properties": \.properties]
}

/// One property of a ``ResponseHeadersModel``.
struct ResponseHeaderPropertyModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The property name, escaped.
    var name: String
    /// The Swift type, optional when the field may be missing.
    var type: String
    /// The expression that reads the field, such as `try response.headerField("ETag", as: String.self)`.
    var read: String

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "name": \.name, "type": \.type, "read": \.read]
}
