/// The view models of the four generated files. Every name, literal, type spelling and doc
/// comment is already computed and escaped for its place; the templates only lay them out.
///
/// Doc comments are complete `///` blocks, indented for where they go, or `nil` when the spec
/// gives no text, so that a template writes `{{#doc}}` sections without further logic.

/// `<Prefix>Models.swift`: the models, string enums and error schemas.
public struct ModelsFileModel: TemplateModel {
    /// The version and spec path for the header.
    public var version: String
    /// The spec path for the header.
    public var specPath: String
    /// Object models and error schemas, as structs, in declaration order.
    public var structs: [StructModel]
    /// String enums, in declaration order.
    public var enums: [StringEnumModel]
    /// Envelopes that hold wrapped or arrayed error objects.
    public var envelopes: [EnvelopeModel]
    /// Whether a recursive model needs the `Indirect` box.
    public var needsIndirect: Bool

    /// The fields the `models` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "version": \.version, "specPath": \.specPath, "structs": \.structs, "enums": \.enums,
        "envelopes": \.envelopes, "needsIndirect": \.needsIndirect,
    ]
}

/// A `Codable` struct.
public struct StructModel: TemplateModel {
    /// The doc comment, indented for top level.
    public var doc: String?
    /// The type name, escaped.
    public var name: String
    /// The properties.
    public var properties: [PropertyModel]
    /// The coding keys; one per property, in property order.
    public var codingKeys: [CodingKeyModel]
    /// The doc comment of the initialiser.
    public var initDoc: String
    /// Whether the initialiser's parameters fit on its line.
    public var isInline: Bool

    /// The fields the `models` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "properties": \.properties, "codingKeys": \.codingKeys,
        "initDoc": \.initDoc, "hasProperties": \.hasProperties, "isInline": \.isInline,
        "inlineParameters": \.inlineParameters,
    ]

    /// Whether the struct has properties (an empty struct gets a plain `init()`).
    public var hasProperties: Bool { !properties.isEmpty }
    /// The initialiser's parameters on one line.
    public var inlineParameters: String {
        properties.map(\.parameter).joined(separator: ", ")
    }
}

/// A stored property of a struct, possibly kept in an `Indirect` box.
public struct PropertyModel: TemplateModel {
    /// The doc comment, indented for a member.
    public var doc: String?
    /// The property name, escaped.
    public var name: String
    /// The Swift type.
    public var type: String
    /// The initialiser parameter, such as `name: String` or `` `self` selfValue: Bool ``.
    public var parameter: String
    /// For a boxed property: the storage's name, type and accessors.
    public var boxed: BoxedStorage?
    /// The initialiser statement that stores the argument.
    public var assignment: String
    /// `,` after every initialiser parameter but the last.
    public var separator: String

    /// The fields the `models` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "type": \.type, "parameter": \.parameter, "boxed": \.boxed,
        "assignment": \.assignment,
        "separator": \.separator,
    ]
}

/// The out-of-line storage of a property whose type leads back to its own model.
public struct BoxedStorage: TemplateModel {
    /// The stored property's name, such as `_parent`.
    public var storageName: String
    /// The stored property's type, such as `Indirect<Category>?`.
    public var storageType: String
    /// The getter expression.
    public var getter: String
    /// The setter statement, reading `newValue`.
    public var setter: String

    /// The fields the `models` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "storageName": \.storageName, "storageType": \.storageType, "getter": \.getter, "setter": \.setter,
    ]
}

/// One case of a `CodingKeys` enum.
public struct CodingKeyModel: TemplateModel {
    /// The case, with `= "json"` when the JSON key differs from the stored property's name.
    public var declaration: String

    /// The fields the `models` template reads.
    public static let templateFields: TemplateFields<Self> = ["declaration": \.declaration]
}

/// A string enum with a fallback case for values the spec does not list.
public struct StringEnumModel: TemplateModel {
    /// The doc comment.
    public var doc: String?
    /// The type name, escaped.
    public var name: String
    /// The listed values.
    public var cases: [EnumValueModel]
    /// The fallback case's name, escaped (`unknown` unless a listed value takes it).
    public var fallback: String

    /// The fields the `models` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "cases": \.cases, "fallback": \.fallback,
    ]
}

/// One listed value of a string enum.
public struct EnumValueModel: TemplateModel {
    /// The doc comment, indented for a member.
    public var doc: String?
    /// The case name, escaped.
    public var name: String
    /// The raw value as a Swift string literal.
    public var literal: String

    /// The fields the `models` template reads.
    public static let templateFields: TemplateFields<Self> = ["doc": \.doc, "name": \.name, "literal": \.literal]
}

/// The body of a wrapped or arrayed error schema, decoded to reach the error object(s).
public struct EnvelopeModel: TemplateModel {
    /// The envelope's type name.
    public var name: String
    /// What the envelope holds: the error object or an array of them.
    public var valueType: String
    /// The JSON key as a Swift string literal.
    public var keyLiteral: String
    /// The error schema's name, for the doc comment.
    public var schemaName: String

    /// The fields the `models` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "name": \.name, "valueType": \.valueType, "keyLiteral": \.keyLiteral, "schemaName": \.schemaName,
    ]
}

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

/// `<Prefix>Errors.swift`: the service's shared failure enum, if an endpoint uses it, then one
/// failure enum or alias of the shared enum per endpoint.
public struct ErrorsFileModel: TemplateModel {
    /// The generator version.
    public var version: String
    /// The spec path.
    public var specPath: String
    /// The shared failure enum first, if any, then each endpoint's enum or alias in endpoint order.
    public var failures: [FailureModel]
    /// Whether some mapping unwraps an envelope, which needs the `unwrapped` helper.
    public var needsUnwrap: Bool

    /// The fields the `errors` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "version": \.version, "specPath": \.specPath, "failures": \.failures, "needsUnwrap": \.needsUnwrap,
    ]
}

/// A failure enum, or an endpoint's alias of the shared one.
public struct FailureModel: TemplateModel {
    /// The doc comment.
    public var doc: String
    /// The type name.
    public var name: String
    /// The cases, in first-use order.
    public var cases: [FailureCaseModel]
    /// The status branches of `map(_:)`, exact codes, then ranges, then `default`.
    public var branches: [StatusBranchModel]
    /// Whether no branch is `default`, so `map(_:)` needs `default: return nil`.
    public var needsNilDefault: Bool
    /// The cases with a user-facing message.
    public var messages: [MessageModel]
    /// Whether some cases have no message, so `errorDescription` needs `default: nil`.
    public var needsMessageDefault: Bool
    /// The shared enum this name stands for, when the endpoint documents only the service's
    /// defaults; the other fields are then empty.
    public var aliasOf: String? = nil
    /// Whether `map(_:)` takes an error object out of an envelope, with the errors file's
    /// `unwrapped` helper.
    public var usesUnwrap = false

    /// The fields the `errors` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "cases": \.cases, "branches": \.branches,
        "hasBranches": \.hasBranches, "needsNilDefault": \.needsNilDefault, "messages": \.messages,
        "hasMessages": \.hasMessages, "needsMessageDefault": \.needsMessageDefault, "aliasOf": \.aliasOf,
    ]

    /// Whether `map(_:)` maps any status.
    public var hasBranches: Bool { !branches.isEmpty }
    /// Whether any case has a message.
    public var hasMessages: Bool { !messages.isEmpty }
}

/// One case of a failure enum.
public struct FailureCaseModel: TemplateModel {
    /// The doc comment, indented for a member.
    public var doc: String
    /// The case declaration, such as `notFound(ErrorBody<GitHubError>)`.
    public var declaration: String

    /// The fields the `errors` template reads.
    public static let templateFields: TemplateFields<Self> = ["doc": \.doc, "declaration": \.declaration]
}

/// One `case` of the status switch in `map(_:)`.
public struct StatusBranchModel: TemplateModel {
    /// The pattern, such as `404`, `500...599` or `default` (already with `case ` where needed).
    public var label: String
    /// The value for a single-case mapping.
    public var single: String?
    /// The discriminator subject, such as `response.discriminator(at: "code")`.
    public var subject: String?
    /// The listed discriminator values.
    public var values: [DiscriminatorValueModel]
    /// The value for anything not listed.
    public var fallback: String?

    /// The fields the `errors` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "label": \.label, "single": \.single, "subject": \.subject, "values": \.values, "fallback": \.fallback,
    ]
}

/// One listed discriminator value.
public struct DiscriminatorValueModel: TemplateModel {
    /// The value as a string literal.
    public var literal: String
    /// The case expression.
    public var value: String

    /// The fields the `errors` template reads.
    public static let templateFields: TemplateFields<Self> = ["literal": \.literal, "value": \.value]
}

/// A case's user-facing message.
public struct MessageModel: TemplateModel {
    /// The case pattern, such as `.notFound`.
    public var pattern: String
    /// The message as a string literal.
    public var literal: String

    /// The fields the `errors` template reads.
    public static let templateFields: TemplateFields<Self> = ["pattern": \.pattern, "literal": \.literal]
}

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
    /// The `JSONCoding` expression for the spec's `coding`.
    public var coding: String
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

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "version": \.version, "specPath": \.specPath, "doc": \.doc, "name": \.name, "baseURL": \.baseURL,
        "coding": \.coding, "fixedHeaders": \.fixedHeaders, "headerArguments": \.headerArguments,
        "initDoc": \.initDoc, "methods": \.methods, "hasHeaders": \.hasHeaders, "auth": \.auth,
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
    /// `,` after every element but the last.
    public var separator: String

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = ["name": \.name, "value": \.value, "separator": \.separator]
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
    /// The parameters, each such as `page: Int = 1`.
    public var parameters: [MethodParameterModel]
    /// Whether the parameters fit on the declaration's line.
    public var isInline: Bool
    /// The failure type.
    public var failureType: String
    /// ` -> Type`, or empty for an endpoint without a response body.
    public var returnClause: String
    /// `return ` when the method returns the response, else `_ = `.
    public var resultPrefix: String
    /// The request initialiser call.
    public var request: String

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "name": \.name, "parameters": \.parameters, "isInline": \.isInline,
        "inlineParameters": \.inlineParameters,
        "failureType": \.failureType, "returnClause": \.returnClause, "resultPrefix": \.resultPrefix,
        "request": \.request,
    ]

    /// The parameters on one line.
    public var inlineParameters: String { parameters.map(\.declaration).joined(separator: ", ") }
}

/// One parameter of a client method.
public struct MethodParameterModel: TemplateModel {
    /// The declaration, such as `page: Int = 1`.
    public var declaration: String
    /// `,` after every parameter but the last.
    public var separator: String

    /// The fields the `client` template reads.
    public static let templateFields: TemplateFields<Self> = ["declaration": \.declaration, "separator": \.separator]
}

// MARK: - Parts

/// Cuts `count` declarations into runs of at most `limit`: one run when `limit` is 0 or not
/// exceeded, otherwise runs of equal size give or take one, so that no part is a small remainder.
private func runs(of count: Int, limit: Int) -> [Range<Int>] {
    guard limit > 0, count > limit else { return [0..<count] }
    let partCount = (count + limit - 1) / limit
    return (0..<partCount).map { part in
        (part * count / partCount)..<((part + 1) * count / partCount)
    }
}

extension ModelsFileModel {
    /// The file cut into parts of at most `limit` declarations (structs, then enums, then
    /// envelopes); the `Indirect` helper, one per module, goes in the first part.
    public func parts(of limit: Int) -> [ModelsFileModel] {
        let all = runs(of: structs.count + enums.count + envelopes.count, limit: limit)
        guard all.count > 1 else { return [self] }
        return all.enumerated().map { index, run in
            func slice<T>(_ items: [T], from start: Int) -> [T] {
                let lower = min(max(run.lowerBound - start, 0), items.count)
                let upper = min(max(run.upperBound - start, 0), items.count)
                return Array(items[lower..<upper])
            }
            var part = self
            part.structs = slice(structs, from: 0)
            part.enums = slice(enums, from: structs.count)
            part.envelopes = slice(envelopes, from: structs.count + enums.count)
            part.needsIndirect = needsIndirect && index == 0
            return part
        }
    }
}

extension RequestsFileModel {
    /// The file cut into parts of at most `limit` request types; the shared resilience
    /// declaration, one per module, goes in the first part.
    public func parts(of limit: Int) -> [RequestsFileModel] {
        let all = runs(of: requests.count, limit: limit)
        guard all.count > 1 else { return [self] }
        return all.enumerated().map { index, run in
            var part = self
            part.requests = Array(requests[run])
            if index > 0 {
                part.defaultResilience = nil
            }
            return part
        }
    }
}

extension ErrorsFileModel {
    /// The file cut into parts of at most `limit` failure enums; every part that unwraps
    /// envelopes gets its own copy of the file-private helper.
    public func parts(of limit: Int) -> [ErrorsFileModel] {
        let all = runs(of: failures.count, limit: limit)
        guard all.count > 1 else { return [self] }
        return all.map { run in
            var part = self
            part.failures = Array(failures[run])
            part.needsUnwrap = part.failures.contains(where: \.usesUnwrap)
            return part
        }
    }
}
