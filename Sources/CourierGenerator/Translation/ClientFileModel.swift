// View models only: see FileModels.swift for what the templates may assume of them.

/// `<Prefix>Client.swift`: the client facade.
struct ClientFileModel: TemplateModel {
    /// The generator version.
    var version: String
    /// The spec path.
    var specPath: String
    /// The access level of every declaration: `public`, `package` or `internal`.
    var access = "public"
    /// The doc comment of the client type.
    var doc: String
    /// The client type's name.
    var name: String
    /// The name of the protocol the client and the fake adopt, such as `GitHubAPIProtocol`.
    var protocolName: String = ""
    /// The protocol every request of the service adopts, such as `GitHubAPIRequest`: what the
    /// client protocol's `send` takes.
    var requestProtocolName: String = ""
    /// The name of the fake, such as `GitHubFake`.
    var fakeName: String = ""
    /// Whether the file declares the fake (the spec's `fake:`).
    var hasFake = true
    /// The spec's base URL as a string literal.
    var baseURL: String
    /// The `JSONCoding.DateFormat` of the spec's `coding`, such as `.iso8601`.
    var dateFormat: String
    /// Header fields with a fixed value.
    var fixedHeaders: [HeaderValueModel]
    /// Header fields whose value the initialiser takes.
    var headerArguments: [HeaderArgumentModel]
    /// The doc comment of the initialiser.
    var initDoc: String
    /// One method per endpoint.
    var methods: [MethodModel]
    /// The client's auth factories: one for a single scheme, one per named scheme.
    var authFactories: [AuthModel]
    /// The client's `AuthSchemes` type, for a spec with named schemes.
    var authSchemes: AuthSchemesModel?
    /// Whether the spec has one `auth` scheme, so that a client made without credentials says so
    /// in its log (`APIClient.Configuration.expectsAuthentication`).
    var expectsAuthentication = false
    /// The `RateLimit.Fields` initializer (`.init(…)`) of the spec's `rateLimit:`, when it has one.
    var rateLimitFields: String? = nil

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = [
        "access": \.access, "version": \.version, "specPath": \.specPath, "doc": \.doc, "name": \.name, "baseURL": \.baseURL,
        "dateFormat": \.dateFormat, "fixedHeaders": \.fixedHeaders, "headerArguments": \.headerArguments,
        "initDoc": \.initDoc, "methods": \.methods, "hasHeaders": \.hasHeaders, "authFactories": \.authFactories,
        "authSchemes": \.authSchemes, "authParameterType": \.authParameterType, "authParameterDefault": \.authParameterDefault,
        "expectsAuthentication": \.expectsAuthentication,
        "rateLimitFields": \.rateLimitFields, "protocolName": \.protocolName, "requestProtocolName": \.requestProtocolName, "fakeName": \.fakeName, "hasFake": \.hasFake,
        "sentMethods": \.sentMethods, "streamedMethods": \.streamedMethods,
    ]

    /// The methods that send one request and return its decoded result: the protocol's, which the
    /// fake answers.
    var sentMethods: [MethodModel] { methods.filter(\.isSent) }
    /// The methods whose result is read as it arrives (a streamed body, server-sent events): the
    /// client's alone.
    var streamedMethods: [MethodModel] { methods.filter { !$0.isSent } }

    /// Whether the client sets any header field.
    var hasHeaders: Bool { !fixedHeaders.isEmpty || !headerArguments.isEmpty }
    /// The type of the initialiser's `auth` parameter.
    var authParameterType: String { authSchemes == nil ? "Authentication" : "AuthSchemes" }
    /// The default of the initialiser's `auth` parameter: no credentials.
    var authParameterDefault: String { authSchemes == nil ? ".none" : "AuthSchemes()" }
}

/// One of the client's static auth factories, which puts the credential where the spec says.
struct AuthModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The factory's name, escaped: `bearer`, `basic` or `apiKey` for a single scheme, the
    /// scheme's name for a named one.
    var name: String
    /// The scheme.
    var scheme: AuthSpec.Scheme
    /// The `HTTPField.Name` expression of the header that carries the credential, if one does.
    var header: String?
    /// The bearer word as a string literal, when it is not `Bearer`.
    var word: String?
    /// The query item's name as a string literal, for an API key in the query.
    var queryName: String?

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "header": \.header, "word": \.word, "queryName": \.queryName,
        "isBearer": \.isBearer, "isBasic": \.isBasic, "isHeaderKey": \.isHeaderKey, "isQueryKey": \.isQueryKey,
    ]

    /// A bearer-style token.
    var isBearer: Bool { scheme == .bearer }
    /// HTTP Basic.
    var isBasic: Bool { scheme == .basic }
    /// An API key in a header field.
    var isHeaderKey: Bool { scheme == .apiKey && queryName == nil }
    /// An API key in the query.
    var isQueryKey: Bool { scheme == .apiKey && queryName != nil }
}

/// The client's nested `AuthSchemes`: an optional `Authentication` per named scheme.
struct AuthSchemesModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The schemes, in declaration order.
    var schemes: [AuthSchemePropertyModel]
    /// The spec's `default` as the elements of a string array literal.
    var defaults: String

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "schemes": \.schemes, "defaults": \.defaults]
}

/// One property of `AuthSchemes`.
struct AuthSchemePropertyModel: TemplateModel {
    /// The doc comment, indented for a member of a nested type.
    var doc: String
    /// The property's name, escaped.
    var name: String
    /// The scheme's spec name as a string literal.
    var key: String

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = ["doc": \.doc, "name": \.name, "key": \.key]
}

/// A header with a fixed value, or with the value of an initialiser argument.
struct HeaderValueModel: TemplateModel {
    /// The header name as a string literal.
    var name: String
    /// The value expression.
    var value: String

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = ["name": \.name, "value": \.value]
}

/// A header whose value the client's initialiser takes.
struct HeaderArgumentModel: TemplateModel {
    /// The argument's name, escaped.
    var name: String

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = ["name": \.name]
}

/// One client method.
struct MethodModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The method name, escaped.
    var name: String
    /// The parameters, in call-site order.
    var parameters: [ParameterModel]
    /// Whether the parameters fit on the declaration's line.
    var isInline: Bool
    /// The failure type.
    var failureType: String
    /// The type the method returns, or `nil` for an endpoint without a response body.
    var returnType: String?
    /// The request type the method sends.
    var requestType: String
    /// The arguments of the request's initialiser, such as `username: username`.
    var arguments: [ArgumentModel]
    /// The `<endpoint>Pages` method of a paginated endpoint.
    var pages: PagesMethodModel?
    /// The statement of a streamed response's method, in place of `send`; `nil` for the others.
    var call: String?
    /// Whether the method throws: all do but an event stream's, which connects when it is read.
    var isThrowing = true
    /// The download-to-a-file method of an endpoint whose response is `Binary`.
    var download: DownloadMethodModel?
    /// The `<endpoint>WithHeaders` method of an endpoint whose response declares header fields.
    var withHeaders: WithHeadersMethodModel?

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "parameters": \.parameters, "isInline": \.isInline,
        "failureType": \.failureType, "returnType": \.returnType, "requestType": \.requestType,
        "arguments": \.arguments, "pages": \.pages, "call": \.call, "isThrowing": \.isThrowing, "download": \.download,
        "withHeaders": \.withHeaders, "responseType": \.responseType, "plainName": \.plainName,
    ]

    /// The method name without backticks, for documentation.
    var plainName: String { name.replacingOccurrences(of: "`", with: "") }

    /// Whether the method sends one request and returns its decoded result, through `send`.
    var isSent: Bool { call == nil }
    /// The request's `Response`: the return type, or `NoContent` for an endpoint without a body.
    var responseType: String { returnType ?? "NoContent" }
}

/// The client method that walks a paginated endpoint's pages.
struct PagesMethodModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The method name.
    var name: String
    /// Whether the parameters fit on the declaration's line.
    var isInline: Bool
    /// The item type.
    var itemType: String

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "isInline": \.isInline, "itemType": \.itemType,
    ]
}

/// The method that saves a `Binary` response to a file.
struct DownloadMethodModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The method name.
    var name: String
    /// The parameters: the endpoint's, then `to` and `progress`.
    var parameters: [ParameterModel]
    /// Whether the parameters fit on the declaration's line.
    var isInline: Bool
    /// The request's initialiser arguments.
    var requestArguments: String
    /// The `Accept` literal: the response's content type.
    var accept: String

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "parameters": \.parameters, "isInline": \.isInline, "requestArguments": \.requestArguments, "accept": \.accept,
    ]
}

/// The client method that returns the body with the response's declared header fields.
struct WithHeadersMethodModel: TemplateModel {
    /// The doc comment, indented for a member.
    var doc: String
    /// The method name, such as `getRepositoryWithHeaders`.
    var name: String
    /// The parameters, the same as the plain method's.
    var parameters: [ParameterModel]
    /// Whether the parameters fit on the declaration's line.
    var isInline: Bool
    /// The return type, a `ResponseWithHeaders`.
    var returnType: String
    /// The statement that sends the request.
    var call: String

    /// The fields the `client` template reads.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "parameters": \.parameters, "isInline": \.isInline, "returnType": \.returnType, "call": \.call,
    ]
}
