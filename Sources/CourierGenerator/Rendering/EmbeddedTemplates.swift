// Generated from Templates/*.mustache. Do not edit.
// After changing a template, refresh this file with:
//   COURIER_UPDATE_EMBEDDED_TEMPLATES=1 swift test --filter TemplateEmbeddingTests

/// The default templates, compiled in so that the generator needs no resource bundle.
enum EmbeddedTemplates {
    /// Template text by name (the file name without `.mustache`, `/` for subfolders).
    static let all: [String: String] = [
        "client": #"""
            {{% CONTENT_TYPE: TEXT }}
            {{> header}}

            @_spi(Generated) import CourierRuntime
            import Foundation

            {{doc}}
            {{access}} struct {{name}}: {{protocolName}} {
                /// The client that sends the requests; use it for `response(for:)` or hand-built requests.
                {{access}} let client: APIClient

                /// The base URL the spec names.
                {{access}} static var defaultBaseURL: URL {
                    // The spec's URL was checked when this file was generated; the fallback has no host,
                    // so should it ever be used, every call fails with `InvalidRequest` instead of crashing.
                    URL(string: {{baseURL}}) ?? URL(fileURLWithPath: "/")
                }

            {{initDoc}}
                {{access}} init(
                    baseURL: URL = {{name}}.defaultBaseURL,
                    transport: any HTTPTransport = URLSessionTransport(),
                    auth: {{authParameterType}} = {{authParameterDefault}},
            {{#headerArguments}}
                    {{name}}: String,
            {{/headerArguments}}
                    configuration: APIClient.Configuration = APIClient.Configuration()
                ) {
                    var configuration = configuration
                    configuration.coding = JSONCoding(keyStyle: .asIs, dateFormat: {{dateFormat}})
                    configuration.auth = auth{{#authSchemes}}.authentication{{/authSchemes}}
            {{#expectsAuthentication}}
                    configuration.expectsAuthentication = true
            {{/expectsAuthentication}}
            {{#rateLimitFields}}
                    configuration.rateLimitFields = {{rateLimitFields}}
            {{/rateLimitFields}}
            {{#hasHeaders}}
                    let fields: [(String, String)] = [
            {{#fixedHeaders}}
                        ({{name}}, {{value}}){{^last()}},{{/last()}}
            {{/fixedHeaders}}
                    ]
                    for (name, value) in fields {
                        if let name = HTTPField.Name(name) {
                            configuration.defaultHeaderFields[name] = value
                        }
                    }
            {{/hasHeaders}}
                    client = APIClient(baseURL: baseURL, transport: transport, configuration: configuration)
                }
            {{#authFactories}}

            {{doc}}
            {{#isBearer}}
                {{access}} static func {{name}}(
                    token: @escaping @Sendable () async throws -> String?,
                    onUnauthorized: (@Sendable (Authentication.UnauthorizedContext) async -> Authentication.UnauthorizedAction)? = nil
                ) -> Authentication {
                    .bearer(header: {{header}}{{#word}}, word: {{word}}{{/word}}, token: token, onUnauthorized: onUnauthorized)
                }
            {{/isBearer}}
            {{#isBasic}}
                {{access}} static func {{name}}(
                    credentials: @escaping @Sendable () async throws -> BasicCredentials?,
                    onUnauthorized: (@Sendable (Authentication.UnauthorizedContext) async -> Authentication.UnauthorizedAction)? = nil
                ) -> Authentication {
                    .basic(credentials: credentials, onUnauthorized: onUnauthorized)
                }
            {{/isBasic}}
            {{#isHeaderKey}}
                {{access}} static func {{name}}(value: @escaping @Sendable () async throws -> String?) -> Authentication {
                    .apiKey(header: {{header}}, value: value)
                }
            {{/isHeaderKey}}
            {{#isQueryKey}}
                {{access}} static func {{name}}(value: @escaping @Sendable () async throws -> String?) -> Authentication {
                    .apiKey(query: {{queryName}}, value: value)
                }
            {{/isQueryKey}}
            {{/authFactories}}
            {{#authSchemes}}

            {{doc}}
                {{access}} struct AuthSchemes: Sendable {
            {{#schemes}}
            {{doc}}
                    {{access}} var {{name}}: Authentication?
            {{/schemes}}

                    /// Creates the set; leave out the schemes you have no credentials for.
                    {{access}} init({{#schemes}}{{name}}: Authentication? = nil{{^last()}}, {{/last()}}{{/schemes}}) {
            {{#schemes}}
                        self.{{name}} = {{name}}
            {{/schemes}}
                    }

                    /// The client's `Authentication`: the given schemes by their names in the spec, and the
                    /// spec's default for endpoints that name none.
                    {{access}} var authentication: Authentication {
                        var schemes: [String: Authentication] = [:]
            {{#schemes}}
                        if let scheme = self.{{name}} { schemes[{{key}}] = scheme }
            {{/schemes}}
                        return .schemes(schemes, default: [{{defaults}}])
                    }
                }
            {{/authSchemes}}

                /// Sends `request` through `client`: every method of `{{protocolName}}` comes here. Only this
                /// service's requests, so that another service's request cannot reach this base URL.
                {{access}} func send<Request: {{requestProtocolName}}>(_ request: Request) async throws(APIError<Request.Failure>) -> Request.Response {
                    try await self.client.send(request)
                }
            {{#streamedMethods}}

            {{doc}}
            {{<parameters}}
            {{$declaration}}{{access}} func {{name}}{{/declaration}}
            {{$effects}}{{#isThrowing}} async throws(APIError<{{failureType}}>){{/isThrowing}}{{#returnType}} -> {{returnType}}{{/returnType}}{{/effects}}
            {{/parameters}}
                    {{call}}
                }
            {{/streamedMethods}}
            {{#methods}}
            {{#withHeaders}}

            {{doc}}
            {{<parameters}}
            {{$declaration}}{{access}} func {{name}}{{/declaration}}
            {{$effects}} async throws(APIError<{{failureType}}>) -> {{returnType}}{{/effects}}
            {{/parameters}}
                    {{call}}
                }
            {{/withHeaders}}
            {{#download}}

            {{doc}}
            {{<parameters}}
            {{$declaration}}{{access}} func {{name}}{{/declaration}}
            {{$effects}} async throws(APIError<{{failureType}}>) -> DownloadedFile{{/effects}}
            {{/parameters}}
                    try await self.client.download({{requestType}}({{requestArguments}}), to: destination, accept: {{accept}}, progress: progress)
                }
            {{/download}}
            {{#pages}}

            {{doc}}
            {{<parameters}}
            {{$declaration}}{{access}} func {{name}}{{/declaration}}
            {{$effects}} -> PageSequence<{{requestType}}, {{itemType}}>{{/effects}}
            {{/parameters}}
                    self.client.pages({{requestType}}({{#arguments}}{{label}}: {{value}}{{^last()}}, {{/last()}}{{/arguments}}), pagination: {{requestType}}.pagination)
                }
            {{/pages}}
            {{/methods}}
            }

            /// What `{{name}}` sends, as a protocol: depend on it where tests and previews should get {{#hasFake}}`{{fakeName}}`{{/hasFake}}{{^hasFake}}a test double{{/hasFake}}.
            ///
            /// Its one requirement sends any request of the service, so that a wrapper (a cache, a recorder) is one method; the methods of the extension build each endpoint's request from their arguments, defaults included, so every type that adopts it takes the same calls. The streamed, paged, download and with-headers methods are the client's alone.
            {{access}} protocol {{protocolName}}: Sendable {
                /// Sends `request` and returns its decoded response, or throws the endpoint's typed failure.
                func send<Request: {{requestProtocolName}}>(_ request: Request) async throws(APIError<Request.Failure>) -> Request.Response
            }

            extension {{protocolName}} {
            {{#sentMethods}}
            {{^first()}}

            {{/first()}}
            {{doc}}
            {{<parameters}}
            {{$declaration}}{{access}} func {{name}}{{/declaration}}
            {{$effects}} async throws(APIError<{{failureType}}>){{#returnType}} -> {{returnType}}{{/returnType}}{{/effects}}
            {{/parameters}}
                    {{^returnType}}_ = {{/returnType}}try await self.send({{requestType}}({{#arguments}}{{label}}: {{value}}{{^last()}}, {{/last()}}{{/arguments}}))
                }
            {{/sentMethods}}
            }
            {{#hasFake}}

            /// A stand-in for `{{name}}` in tests and previews, with no HTTP: each method answers with the result set on the property of its name, such as `fake.{{#sentMethods}}{{#first()}}{{plainName}}{{/first()}}{{/sentMethods}} = .success(…)`, and its request is recorded in `calls`.
            ///
            /// A method whose result is not set throws `APIError.invalidRequest` (reason `.fakeResultNotSet`), never a transport error: its message names the property to set.
            {{access}} final class {{fakeName}}: {{protocolName}} {
                /// The requests the fake received, in order, and the results set on its properties.
                {{access}} let calls = FakeCalls(fake: "{{fakeName}}")

                /// Creates a fake with no results set.
                {{access}} init() {}

            {{#sentMethods}}
                /// What `{{plainName}}` answers; `nil`, the default, makes it throw.
                {{access}} var {{name}}: FakeResult<{{requestType}}>? { get { calls.result() } set { calls.set(newValue) } }
            {{/sentMethods}}

                /// Records `request` and answers with the result set for its method; only this service's
                /// requests, as the client takes.
                {{access}} func send<Request: {{requestProtocolName}}>(_ request: Request) async throws(APIError<Request.Failure>) -> Request.Response {
                    try calls.answer(request)
                }
            }
            {{/hasFake}}

            """#,
        "errors": #"""
            {{% CONTENT_TYPE: TEXT }}
            {{> header}}

            @_spi(Generated) import CourierRuntime
            import Foundation
            {{#failures}}
            {{^continuesAliases}}

            {{/continuesAliases}}
            {{doc}}
            {{#aliasOf}}
            {{access}} typealias {{name}} = {{aliasOf}}
            {{/aliasOf}}
            {{^aliasOf}}
            {{access}} enum {{name}}: EndpointFailure, LocalizedError {
            {{#cases}}
            {{doc}}
                case {{name}}{{#payloadType}}({{payloadType}}){{/payloadType}}
            {{/cases}}

                /// The documented failure for `response`: exact statuses first, then ranges, then
                /// `default`; `nil` for an undocumented status.
                {{access}} static func map(_ response: RawResponse) -> Self? {
            {{#hasBranches}}
                    switch response.status.code {
            {{#branches}}
                    {{#status}}case {{status}}{{/status}}{{#lowerBound}}case {{lowerBound}}...{{upperBound}}{{/lowerBound}}{{#isDefault}}default{{/isDefault}}:
            {{#single}}
                        return {{single}}
            {{/single}}
            {{#matching}}
            {{> failureMatching}}
            {{/matching}}
            {{#subject}}
                        switch {{subject}} {
            {{#values}}
                        case {{literal}}: return {{value}}
            {{/values}}
                        default: return {{fallback}}
                        }
            {{/subject}}
            {{/branches}}
            {{#needsNilDefault}}
                    default:
                        return nil
            {{/needsNilDefault}}
                    }
            {{/hasBranches}}
            {{^hasBranches}}
                    nil
            {{/hasBranches}}
                }
            {{#hasSuccessBranches}}

                /// The documented failure inside a success response (a success status mapped with
                /// `when:`), or `nil` when the response is the success it says.
                {{access}} static func mapSuccess(_ response: RawResponse) -> Self? {
                    switch response.status.code {
            {{#successBranches}}
                    {{#status}}case {{status}}{{/status}}{{#lowerBound}}case {{lowerBound}}...{{upperBound}}{{/lowerBound}}:
            {{#matching}}
            {{> failureMatching}}
            {{/matching}}
            {{/successBranches}}
                    default:
                        return nil
                    }
                }
            {{/hasSuccessBranches}}
            {{#hasDescriptions}}

                /// The message for the user: the server's words when the spec names their field, else the
                /// spec's text, else a sentence naming the status.
                {{access}} var errorDescription: String? {
                    switch self {
            {{#descriptions}}
                    case {{pattern}}: {{expression}}
            {{/descriptions}}
                    }
                }
            {{/hasDescriptions}}
            {{#hasRetryables}}

                /// Whether the failure is worth repeating, where the spec says; `nil` leaves it to the status rule.
                {{access}} var isRetryable: Bool? {
                    switch self {
            {{#retryables}}
                    case .{{name}}: {{value}}
            {{/retryables}}
            {{#needsRetryableDefault}}
                    default: nil
            {{/needsRetryableDefault}}
                    }
                }
            {{/hasRetryables}}
            }
            {{/aliasOf}}
            {{/failures}}
            {{#needsUnwrap}}

            extension ErrorBody {
                /// The error object inside an envelope, keeping the raw body, any decoding failure and the
                /// response status, which a case without a message names.
                fileprivate func unwrapped<Inner>(_ inner: (Schema) -> Inner) -> ErrorBody<Inner> {
                    ErrorBody<Inner>(value: value.map(inner), raw: raw, decodingFailure: decodingFailure, responseStatus: responseStatus)
                }
            }
            {{/needsUnwrap}}

            """#,
        "failureMatching": #"""
            {{% CONTENT_TYPE: TEXT }}
            {{! The statements of one status branch of a failure's `map(_:)` or `mapSuccess(_:)`, for a
                mapping with conditions or nested discriminators: `fieldPaths` (read once), `guardCondition`
                (the mapping's `when:`), `conditions` (each `condition` with the case `value` it returns),
                then `returnValue` or a `discriminator` switch (the `failureSwitch` template). Every line
                starts with `indentation`: include this template at the start of a line. }}
            {{#fieldPaths}}
            {{indentation}}let fields = response.fields({{fieldPaths}})
            {{/fieldPaths}}
            {{#guardCondition}}
            {{indentation}}guard {{guardCondition}} else { return nil }
            {{/guardCondition}}
            {{#conditions}}
            {{indentation}}if {{condition}} { return {{value}} }
            {{/conditions}}
            {{#returnValue}}
            {{indentation}}return {{returnValue}}
            {{/returnValue}}
            {{#discriminator}}
            {{> failureSwitch}}
            {{/discriminator}}

            """#,
        "failureSwitch": #"""
            {{% CONTENT_TYPE: TEXT }}
            {{! A switch on a discriminator: `subject`, its `cases` (each a `literal` with the case `value`
                it returns, or a `nested` switch, which this template lays out by including itself) and the
                `fallback` for anything else. Every line starts with `indentation`, a nested switch's four
                spaces deeper: include this template at the start of a line. }}
            {{indentation}}switch {{subject}} {
            {{#cases}}
            {{indentation}}case {{literal}}:{{#value}} return {{value}}{{/value}}
            {{#nested}}
            {{> failureSwitch}}
            {{/nested}}
            {{/cases}}
            {{indentation}}default: return {{fallback}}
            {{indentation}}}

            """#,
        "header": #"""
            {{% CONTENT_TYPE: TEXT }}
            // Generated by Courier {{version}} from {{specPath}}. Do not edit.

            """#,
        "models": #"""
            {{% CONTENT_TYPE: TEXT }}
            {{> header}}

            @_spi(Generated) import CourierRuntime
            import Foundation
            {{#structs}}

            {{#doc}}
            {{doc}}
            {{/doc}}
            {{access}} struct {{name}}: Codable, {{#equality}}{{equality}}, {{/equality}}Sendable {
            {{#properties}}
            {{#doc}}
            {{doc}}
            {{/doc}}
            {{#boxed}}
                {{access}} var {{name}}: {{type}} {
                    get { {{storageName}}{{#isOptional}}?{{/isOptional}}.value }
                    set { {{storageName}} = {{#isOptional}}newValue.map(Indirect.init){{/isOptional}}{{^isOptional}}Indirect(newValue){{/isOptional}} }
                }
            {{/boxed}}
            {{^boxed}}
                {{access}} var {{name}}: {{type}}
            {{/boxed}}
            {{/properties}}
            {{#properties}}
            {{#boxed}}
                private var {{storageName}}: Indirect<{{valueType}}>{{#isOptional}}?{{/isOptional}}
            {{/boxed}}
            {{/properties}}

            {{initDoc}}
            {{#hasProperties}}
            {{<parameters}}
            {{$declaration}}{{access}} init{{/declaration}}
            {{/parameters}}
            {{#properties}}
            {{#boxed}}
                    self.{{storageName}} = {{#isOptional}}{{argument}}.map(Indirect.init){{/isOptional}}{{^isOptional}}Indirect({{argument}}){{/isOptional}}
            {{/boxed}}
            {{^boxed}}
                    self.{{name}} = {{argument}}
            {{/boxed}}
            {{/properties}}
                }
            {{#hasCodingKeys}}

                private enum CodingKeys: String, CodingKey {
            {{#codingKeyLines}}
                    {{text}}
            {{/codingKeyLines}}
                }
            {{/hasCodingKeys}}
            {{#customCoding}}
            {{#decodesItself}}

                /// Decodes a value, reading each property as its spec says.
                {{access}} init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
            {{#codedProperties}}
                    self.{{target}} = try container.{{decodeMethod}}({{#type}}{{type}}.self, {{/type}}forKey: .{{key}}{{#dateFormat}}, as: {{dateFormat}}{{/dateFormat}}){{#defaultValue}} ?? {{defaultValue}}{{/defaultValue}}
            {{/codedProperties}}
                }
            {{/decodesItself}}
            {{#encodesItself}}

            {{#leavesOutReadOnly}}
                /// Encodes the value. A request leaves out the read-only properties, which the server sets;
                /// any other encoding keeps them, so that a decoded value encodes back unchanged.
            {{/leavesOutReadOnly}}
            {{^leavesOutReadOnly}}
                /// Encodes the value, writing each property as the spec says.
            {{/leavesOutReadOnly}}
                {{access}} func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
            {{#leavesOutReadOnly}}
                    let isRequest = RequestEncoding.isRequest(encoder)
            {{/leavesOutReadOnly}}
            {{#codedProperties}}
                    {{#isReadOnly}}if !isRequest { {{/isReadOnly}}try container.{{encodeMethod}}(self.{{target}}, forKey: .{{key}}{{#dateFormat}}, as: {{dateFormat}}{{/dateFormat}}){{#isReadOnly}} }{{/isReadOnly}}
            {{/codedProperties}}
                }
            {{/encodesItself}}
            {{/customCoding}}
            {{/hasProperties}}
            {{^hasProperties}}
                {{access}} init() {}
            {{/hasProperties}}
            }
            {{/structs}}
            {{#enums}}

            {{doc}}
            ///
            /// Values this version of the client does not know decode as `{{fallback}}(_:)` instead of failing,
            /// because servers add values.
            {{access}} enum {{name}}: RawRepresentable, Codable, Hashable, Sendable, ParameterConvertible {
            {{#cases}}
            {{doc}}
                case {{name}}
            {{/cases}}
                /// A value the spec does not list, as the server sent it.
                case {{fallback}}({{rawType}})

                /// The case for `rawValue`; never fails.
                {{access}} init(rawValue: {{rawType}}) {
                    switch rawValue {
            {{#cases}}
                    case {{literal}}: self = .{{name}}
            {{/cases}}
                    default: self = .{{fallback}}(rawValue)
                    }
                }

                /// The value as sent on the wire.
                {{access}} var rawValue: {{rawType}} {
                    switch self {
            {{#cases}}
                    case .{{name}}: {{literal}}
            {{/cases}}
                    case .{{fallback}}(let value): value
                    }
                }
            }
            {{/enums}}
            {{#envelopes}}

            /// The response body that holds `{{schemaName}}` under one key.
            struct {{name}}: Decodable, Sendable {
                var value: {{valueType}}

                private enum CodingKeys: String, CodingKey {
                    case value = {{keyLiteral}}
                }
            }
            {{/envelopes}}
            {{#unions}}

            {{doc}}
            ///
            /// Exactly one variant, {{how}}. A value no variant fits decodes as `{{fallback}}(_:)`, holding
            /// the JSON as sent, instead of failing, because servers add variants; encoding writes any case back unchanged.
            {{access}} {{#isIndirect}}indirect {{/isIndirect}}enum {{name}}: Codable, {{#equality}}{{equality}}, {{/equality}}Sendable {
            {{#variants}}
            {{doc}}
                case {{name}}({{type}})
            {{/variants}}
                /// A value no variant of this version of the client fits, as the server sent it.
                case {{fallback}}(JSON)

                /// Decodes the variant the value fits. Variants go through a single-value container, so that
                /// the decoder's date and data strategies apply to a variant that is a `Date` or `Data`.
                {{access}} init(from decoder: any Decoder) throws {
            {{#isDiscriminated}}
                    switch UnionCoding.tag({{keyLiteral}}, in: decoder) {
            {{#variants}}
                    case {{patterns}}: self = .{{name}}(try decoder.singleValueContainer().decode({{type}}.self))
            {{/variants}}
                    default: self = .{{fallback}}(try JSON(from: decoder))
                    }
            {{/isDiscriminated}}
            {{^isDiscriminated}}
            {{#ranksObjects}}
                    let container = try decoder.singleValueContainer()
                    // Object variants best fit first: the one that knows the most of the value's keys.
                    for variant in UnionShape(of: decoder).order(of: [
            {{#variants}}
                        {{fit}},
            {{/variants}}
                    ]) {
                        switch variant {
            {{#variants}}
                        case {{index}}:
                            if let value = try? container.decode({{type}}.self) {
                                self = .{{name}}(value)
                                return
                            }
            {{/variants}}
                        default:
                            break
                        }
                    }
            {{/ranksObjects}}
            {{^ranksObjects}}
            {{#hasShapeChecks}}
                    let shape = UnionShape(of: decoder)
            {{/hasShapeChecks}}
                    let container = try decoder.singleValueContainer()
            {{#variants}}
                    if {{#condition}}{{condition}}, {{/condition}}let value = try? container.decode({{type}}.self) {
                        self = .{{name}}(value)
                        return
                    }
            {{/variants}}
            {{/ranksObjects}}
                    self = .{{fallback}}(try JSON(from: decoder))
            {{/isDiscriminated}}
                }

                /// Encodes the variant as it was received, through the encoder's strategies.
                {{access}} func encode(to encoder: any Encoder) throws {
                    switch self {
            {{#variants}}
                    case .{{name}}(let value):
            {{#tagToWrite}}
                        try value.encode(to: encoder)
                        try UnionCoding.encode(tag: {{tagToWrite}}, forKey: {{keyLiteral}}, to: encoder)
            {{/tagToWrite}}
            {{^tagToWrite}}
                        var container = encoder.singleValueContainer()
                        try container.encode(value)
            {{/tagToWrite}}
            {{/variants}}
                    case .{{fallback}}(let value):
                        var container = encoder.singleValueContainer()
                        try container.encode(value)
                    }
                }
            }
            {{/unions}}
            {{#needsIndirect}}

            /// Stores a value of a recursive model out of line, so that a struct can contain itself.
            ///
            /// An `indirect enum` rather than a class keeps the value semantics and the `Sendable`
            /// conformance of the models for free; it encodes and decodes as the value it holds.
            indirect enum Indirect<Value: Codable & {{#equality}}{{equality}} & {{/equality}}Sendable>: Codable, {{#equality}}{{equality}}, {{/equality}}Sendable {
                case value(Value)

                init(_ value: Value) {
                    self = .value(value)
                }

                var value: Value {
                    switch self {
                    case .value(let value): value
                    }
                }

                init(from decoder: any Decoder) throws {
                    self = .value(try Value(from: decoder))
                }

                func encode(to encoder: any Encoder) throws {
                    try value.encode(to: encoder)
                }
            }
            {{/needsIndirect}}

            """#,
        "parameters": #"""
            {{% CONTENT_TYPE: TEXT }}
            {{! A declaration with a parameter list: an initialiser or a method. The caller fills the blocks
                `declaration` (what precedes the list, such as `public init`) and `effects` (what follows it,
                such as ` async throws(...) -> T`), and provides `isInline` and `parameters` (each with
                `label`, `internalName`, `type` and `defaultValue`). }}
            {{#isInline}}
                {{$declaration}}{{/declaration}}({{#parameters}}{{label}}{{#internalName}} {{internalName}}{{/internalName}}: {{type}}{{#defaultValue}} = {{defaultValue}}{{/defaultValue}}{{^last()}}, {{/last()}}{{/parameters}}){{$effects}}{{/effects}} {
            {{/isInline}}
            {{^isInline}}
                {{$declaration}}{{/declaration}}(
            {{#parameters}}
                    {{label}}{{#internalName}} {{internalName}}{{/internalName}}: {{type}}{{#defaultValue}} = {{defaultValue}}{{/defaultValue}}{{^last()}},{{/last()}}
            {{/parameters}}
                ){{$effects}}{{/effects}} {
            {{/isInline}}

            """#,
        "requests": #"""
            {{% CONTENT_TYPE: TEXT }}
            {{> header}}

            @_spi(Generated) import CourierRuntime
            import Foundation
            {{#requestProtocol}}

            {{doc}}
            {{access}} protocol {{name}}: APIRequest {}
            {{#hasDefaults}}

            extension {{name}} {
            {{#timeout}}
                /// The `defaults:` timeout of each attempt.
                {{access}} var timeout: Duration? { {{timeout}} }
            {{/timeout}}
            {{#resilience}}
                /// The `defaults:` retry and circuit-breaker hints.
                {{access}} var resilience: EndpointResilience { .{{resilience}} }
            {{/resilience}}
            {{#secretHeaderNames}}
                /// The header fields of the service and its auth whose values are never logged.
                {{access}} var secretHeaderNames: Set<String> { {{secretHeaderNames}} }
            {{/secretHeaderNames}}
            }
            {{/hasDefaults}}
            {{/requestProtocol}}
            {{#defaultResilience}}

            extension EndpointResilience {
            {{doc}}
            {{#isInline}}
                static let {{name}} = EndpointResilience({{#arguments}}{{label}}: {{value}}{{^last()}}, {{/last()}}{{/arguments}})
            {{/isInline}}
            {{^isInline}}
                static let {{name}} = EndpointResilience(
            {{#arguments}}
                    {{label}}: {{value}}{{^last()}},{{/last()}}
            {{/arguments}}
                )
            {{/isInline}}
            }
            {{/defaultResilience}}
            {{#requests}}
            {{#contentEnum}}

            {{doc}}
            {{access}} enum {{name}}: Sendable {
            {{#cases}}
            {{doc}}
                case {{name}}({{type}})
            {{/cases}}

                /// The body as the request sends it.
                {{access}} var requestBody: RequestBody {
                    switch self {
            {{#cases}}
                    case .{{name}}(let value): {{expression}}
            {{/cases}}
                    }
                }
            }
            {{/contentEnum}}
            {{#outcome}}

            {{doc}}
            {{access}} enum {{name}}: ResponseDecodable{{#equality}}, {{equality}}{{/equality}} {
            {{#cases}}
            {{doc}}
                case {{name}}{{#type}}({{type}}){{/type}}
            {{/cases}}

                /// Decodes the case of the response's status.
                {{access}} init(decoding response: RawResponse) throws(DecodingFailure) {
                    switch response.status.code {
            {{#cases}}
                    case {{status}}: self = .{{name}}{{#type}}(try response.decodeBody({{type}}.self)){{/type}}
            {{/cases}}
                    default:
                        throw DecodingFailure(codingPath: "", reason: "Status \(response.status.code) is none of {{statusList}}.", response: response)
                    }
                }
            }
            {{/outcome}}
            {{#responseHeaders}}

            {{doc}}
            {{access}} struct {{name}}: {{#equality}}{{equality}}, {{/equality}}Sendable {
            {{#properties}}
            {{doc}}
                {{access}} var {{name}}: {{type}}
            {{/properties}}

                /// Reads the fields from a response.
                {{access}} init(decoding response: RawResponse) throws(DecodingFailure) {
            {{#properties}}
                    self.{{name}} = {{read}}
            {{/properties}}
                }
            }
            {{/responseHeaders}}

            {{! The members below implement APIRequest's requirements, whose documentation they inherit: a comment on each would repeat it on every request. }}
            {{doc}}
            {{access}} struct {{name}}: {{conformance}} {
                {{access}} typealias Response = {{responseType}}
                {{access}} typealias Failure = {{failureType}}
            {{#hasProperties}}

            {{#properties}}
            {{#doc}}
            {{doc}}
            {{/doc}}
                {{access}} var {{name}}: {{type}}
            {{/properties}}

                /// Creates the request.
            {{<parameters}}
            {{$declaration}}{{access}} init{{/declaration}}
            {{/parameters}}
            {{#properties}}
                    self.{{name}} = {{name}}
            {{/properties}}
                }
            {{/hasProperties}}
            {{^hasProperties}}

                /// Creates the request.
                {{access}} init() {}
            {{/hasProperties}}

                {{access}} var method: HTTPRequest.Method { {{method}} }
                {{access}} var path: RequestPath { RequestPath({{pathTemplate}}{{#hasPathValues}}, [{{#pathValues}}{{key}}: {{value}}{{^last()}}, {{/last()}}{{/pathValues}}]{{/hasPathValues}}) }
            {{#hasQuery}}
            {{#queryLine}}
                {{access}} var query: Parameters { {{queryLine}} }
            {{/queryLine}}
            {{^queryLine}}
                {{access}} var query: Parameters {
                    [
            {{#query}}
                        {{key}}: {{value}}{{^last()}},{{/last()}}
            {{/query}}
                    ]
                }
            {{/queryLine}}
            {{/hasQuery}}
            {{#hasHeaders}}
            {{#headersLine}}
                {{access}} var headers: Parameters { {{headersLine}} }
            {{/headersLine}}
            {{^headersLine}}
                {{access}} var headers: Parameters {
                    [
            {{#headers}}
                        {{key}}: {{value}}{{^last()}},{{/last()}}
            {{/headers}}
                    ]
                }
            {{/headersLine}}
            {{/hasHeaders}}
            {{#body}}
                {{access}} var body: RequestBody? { {{body}} }
            {{/body}}
            {{#successStatuses}}
                {{access}} var successStatuses: StatusCodes { {{successStatuses}} }
            {{/successStatuses}}
            {{#idempotencyKeyHeader}}
                {{access}} var idempotencyKeyHeader: HTTPField.Name? { {{idempotencyKeyHeader}} }
            {{/idempotencyKeyHeader}}
            {{#timeout}}
                {{access}} var timeout: Duration? { {{timeout}} }
            {{/timeout}}
            {{#resilience}}
            {{#sharedName}}
                {{access}} var resilience: EndpointResilience { .{{sharedName}} }
            {{/sharedName}}
            {{^sharedName}}
            {{#isOneLine}}
                {{access}} var resilience: EndpointResilience { EndpointResilience({{#arguments}}{{label}}: {{value}}{{^last()}}, {{/last()}}{{/arguments}}) }
            {{/isOneLine}}
            {{^isOneLine}}
                {{access}} var resilience: EndpointResilience {
            {{#isInline}}
                    EndpointResilience({{#arguments}}{{label}}: {{value}}{{^last()}}, {{/last()}}{{/arguments}})
            {{/isInline}}
            {{^isInline}}
                    EndpointResilience(
            {{#arguments}}
                        {{label}}: {{value}}{{^last()}},{{/last()}}
            {{/arguments}}
                    )
            {{/isInline}}
                }
            {{/isOneLine}}
            {{/sharedName}}
            {{/resilience}}
            {{#secretHeaderNames}}
                {{access}} var secretHeaderNames: Set<String> { {{secretHeaderNames}} }
            {{/secretHeaderNames}}
                {{access}} var operationName: String { {{operationName}} }
            {{#authentication}}
            {{doc}}
                {{access}} var authentication: AuthenticationRequirement { {{value}} }
            {{/authentication}}
            }
            {{#pagination}}

            extension {{requestType}} {
            {{doc}}
                {{access}} static var pagination: Pagination<{{requestType}}, {{itemType}}> {
            {{#walk}}
            {{#isLink}}
                    .link(items: {{items}})
            {{/isLink}}
            {{#cursor}}
                    .cursor(items: {{items}}, cursor: { page in
                        {{cursor}}
                    }, request: { request, cursor in
                        var next = request
                        next.{{target}} = cursor
                        return next
                    })
            {{/cursor}}
            {{#numbered}}
                    .numbered(items: {{items}}{{#total}}, total: {{total}}{{/total}}, request: { request, {{seen}} in
                        var next = request
                        next.{{target}} = {{nextValue}}
                        return next
                    }, key: { request in
                        String({{current}})
                    })
            {{/numbered}}
            {{/walk}}
                }
            }
            {{/pagination}}
            {{/requests}}

            """#,
    ]
}
