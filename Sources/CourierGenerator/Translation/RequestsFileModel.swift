// View models only: see FileModels.swift for what the templates may assume of them.

/// `<Prefix>Requests.swift`: one request type per endpoint.
public struct RequestsFileModel: TemplateModel {
    /// The generator version.
    public var version: String
    /// The spec path.
    public var specPath: String
    /// The request types, in endpoint order.
    public var requests: [RequestModel]
    /// The declaration of the `EndpointResilience` constant for the spec's `defaults:` retry
    /// and breaker hints (`static let <service>Defaults = ...`), if they give any.
    public var defaultResilience: String?
    /// The constant's doc comment, indented for a member.
    public var defaultResilienceDoc: String

    /// The fields the `requests` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "version": \.version, "specPath": \.specPath, "requests": \.requests,
        "defaultResilience": \.defaultResilience, "defaultResilienceDoc": \.defaultResilienceDoc,
    ]
}

/// One endpoint's `APIRequest` type.
public struct RequestModel: TemplateModel {
    /// The doc comment.
    public var doc: String
    /// The type name.
    public var name: String
    /// The `Response` type.
    public var responseType: String
    /// The `Failure` type.
    public var failureType: String
    /// The stored properties: path, body, query and header values.
    public var properties: [RequestPropertyModel]
    /// Whether the initialiser's parameters fit on its line.
    public var isInline: Bool
    /// The HTTP method, such as `.get`.
    public var method: String
    /// The `path` expression.
    public var path: String
    /// The query items.
    public var query: [ParameterItemModel]
    /// The header items.
    public var headers: [ParameterItemModel]
    /// The `body` expression, if any.
    public var body: String?
    /// The `HTTPField.Name?` expression of the idempotency key's header, such as
    /// `.idempotencyKey`, when the endpoint sends a key.
    public var idempotencyKeyHeader: String?
    /// The timeout expression, such as `.seconds(20)`, if the spec gives one.
    public var timeout: String?
    /// The `EndpointResilience` expression of the spec's retry and breaker hints, if they say
    /// anything; it may span lines, indented for the body of a computed property.
    public var resilience: String?
    /// The secret header names as a set literal, if any.
    public var secretHeaderNames: String?
    /// The operation name as a string literal.
    public var operationName: String

    /// The fields the `requests` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "responseType": \.responseType, "failureType": \.failureType,
        "properties": \.properties, "hasProperties": \.hasProperties, "isInline": \.isInline,
        "inlineParameters": \.inlineParameters, "method": \.method, "path": \.path,
        "query": \.query, "hasQuery": \.hasQuery, "headers": \.headers, "hasHeaders": \.hasHeaders,
        "body": \.body, "idempotencyKeyHeader": \.idempotencyKeyHeader, "timeout": \.timeout,
        "resilience": \.resilience,
        "secretHeaderNames": \.secretHeaderNames, "operationName": \.operationName,
    ]

    /// Whether the request has stored properties.
    public var hasProperties: Bool { !properties.isEmpty }
    /// The initialiser's parameters on one line.
    public var inlineParameters: String { properties.map(\.parameterDeclaration).joined(separator: ", ") }
    /// Whether the request has query items.
    public var hasQuery: Bool { !query.isEmpty }
    /// Whether the request has header items.
    public var hasHeaders: Bool { !headers.isEmpty }
}

/// A stored property of a request type, with its initialiser parameter.
public struct RequestPropertyModel: TemplateModel {
    /// The doc comment, indented for a member.
    public var doc: String?
    /// The stored property's name, escaped.
    public var name: String
    /// The initialiser's argument label, escaped (differs from `name` when the name would
    /// shadow a requirement of `APIRequest`).
    public var label: String
    /// The Swift type.
    public var type: String
    /// ` = default` for the initialiser, or empty.
    public var defaultClause: String
    /// `,` after every parameter but the last.
    public var separator: String

    /// The fields the `requests` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "label": \.label, "type": \.type, "defaultClause": \.defaultClause,
        "separator": \.separator, "parameterDeclaration": \.parameterDeclaration,
    ]

    /// The initialiser parameter, such as `page: Int = 1` or `path pathValue: String`.
    public var parameterDeclaration: String {
        (label == name ? name : "\(label) \(name)") + ": " + type + defaultClause
    }
}

/// One item of a `Parameters` literal.
public struct ParameterItemModel: TemplateModel {
    /// The wire name as a string literal.
    public var key: String
    /// The value expression.
    public var value: String
    /// `,` after every item but the last.
    public var separator: String

    /// The fields the `requests` template reads.
    public static let templateFields: TemplateFields<Self> = ["key": \.key, "value": \.value, "separator": \.separator]
}
