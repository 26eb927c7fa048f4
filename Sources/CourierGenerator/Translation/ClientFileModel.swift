// View models only: see FileModels.swift for what the templates may assume of them.

/// `<Prefix>Client.swift`: the client facade.
public struct ClientFileModel: TemplateModel {
    /// The generator version.
    public var version: String
    /// The spec path.
    public var specPath: String
    /// The doc comment of the client type.
    public var doc: String
    /// The client type's name.
    public var name: String
    /// The spec's base URL as a string literal.
    public var baseURL: String
    /// The `JSONCoding.DateFormat` of the spec's `coding`, such as `.iso8601`.
    public var dateFormat: String
    /// Header fields with a fixed value.
    public var fixedHeaders: [HeaderValueModel]
    /// Header fields whose value the initialiser takes.
    public var headerArguments: [HeaderArgumentModel]
    /// The doc comment of the initialiser.
    public var initDoc: String
    /// One method per endpoint.
    public var methods: [MethodModel]
    /// The spec's authentication, when it has one.
    public var auth: AuthModel?
    /// The `RateLimitFields(…)` expression of the spec's `rateLimit:`, when it has one.
    public var rateLimitFields: String? = nil

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "version": \.version, "specPath": \.specPath, "doc": \.doc, "name": \.name, "baseURL": \.baseURL,
        "dateFormat": \.dateFormat, "fixedHeaders": \.fixedHeaders, "headerArguments": \.headerArguments,
        "initDoc": \.initDoc, "methods": \.methods, "hasHeaders": \.hasHeaders, "auth": \.auth,
        "rateLimitFields": \.rateLimitFields,
    ]

    /// Whether the client sets any header field.
    public var hasHeaders: Bool { !fixedHeaders.isEmpty || !headerArguments.isEmpty }
}

/// The client's `bearer(token:onUnauthorized:)` factory, which puts the token where the spec says.
public struct AuthModel: TemplateModel {
    /// The doc comment, indented for a member.
    public var doc: String
    /// The `HTTPField.Name` expression of the header that carries the token.
    public var header: String

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = ["doc": \.doc, "header": \.header]
}

/// A header with a fixed value, or with the value of an initialiser argument.
public struct HeaderValueModel: TemplateModel {
    /// The header name as a string literal.
    public var name: String
    /// The value expression.
    public var value: String

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = ["name": \.name, "value": \.value]
}

/// A header whose value the client's initialiser takes.
public struct HeaderArgumentModel: TemplateModel {
    /// The argument's name, escaped.
    public var name: String

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = ["name": \.name]
}

/// One client method.
public struct MethodModel: TemplateModel {
    /// The doc comment, indented for a member.
    public var doc: String
    /// The method name, escaped.
    public var name: String
    /// The parameters, in call-site order.
    public var parameters: [ParameterModel]
    /// Whether the parameters fit on the declaration's line.
    public var isInline: Bool
    /// The failure type.
    public var failureType: String
    /// The type the method returns, or `nil` for an endpoint without a response body.
    public var returnType: String?
    /// The request type the method sends.
    public var requestType: String
    /// The arguments of the request's initialiser, such as `username: username`.
    public var arguments: [ArgumentModel]
    /// The `<endpoint>Pages` method of a paginated endpoint.
    public var pages: PagesMethodModel?
    /// The statement of a streamed response's method, in place of `send`; `nil` for the others.
    public var call: String?
    /// Whether the method throws: all do but an event stream's, which connects when it is read.
    public var isThrowing = true
    /// The download-to-a-file method of an endpoint whose response is `Binary`.
    public var download: DownloadMethodModel?

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "parameters": \.parameters, "isInline": \.isInline,
        "failureType": \.failureType, "returnType": \.returnType, "requestType": \.requestType,
        "arguments": \.arguments, "pages": \.pages, "call": \.call, "isThrowing": \.isThrowing, "download": \.download,
    ]
}

/// The client method that walks a paginated endpoint's pages.
public struct PagesMethodModel: TemplateModel {
    /// The doc comment, indented for a member.
    public var doc: String
    /// The method name.
    public var name: String
    /// Whether the parameters fit on the declaration's line.
    public var isInline: Bool
    /// The item type.
    public var itemType: String

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "isInline": \.isInline, "itemType": \.itemType,
    ]
}

/// The method that saves a `Binary` response to a file.
public struct DownloadMethodModel: TemplateModel {
    /// The doc comment, indented for a member.
    public var doc: String
    /// The method name.
    public var name: String
    /// The parameters: the endpoint's, then `to` and `progress`.
    public var parameters: [ParameterModel]
    /// Whether the parameters fit on the declaration's line.
    public var isInline: Bool
    /// The request's initialiser arguments.
    public var requestArguments: String
    /// The `Accept` literal: the response's content type.
    public var accept: String

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "parameters": \.parameters, "isInline": \.isInline, "requestArguments": \.requestArguments, "accept": \.accept,
    ]
}
