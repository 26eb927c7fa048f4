import Foundation

/// Every mapping with fixed keys in the spec and overlay formats, and its keys: the one table
/// that the parser checks keys against (``NodeReader/fields(of:in:shape:owner:unknownKey:)``) and
/// that ``SpecSchema`` writes as JSON Schema. A key added here is accepted by the parser and
/// described to editors at once; a key the parser reads must be here, because `fields` takes no
/// other list.
enum SpecShape: String, CaseIterable, Sendable {
    case service, sharedFile, headerValue, authScheme, authSchemes, coding, rateLimit, defaults, retry, breaker
    case model, composedModel, property, enumValue, unionVariant, unionDiscriminator, compositionPart, errorSchema
    case endpoint, pathParameter, queryParameter, headerParameter, body, mediaType, multipartFile, partHeader, formStyle, bodyVariant
    case response, responseStatuses, outcome, responseHeader, idempotencyKey
    case pagination, cursor, numberedPages, totalHeader
    case errorMapping, errorCase, discriminatorSource, nestedDiscriminator, predicate, condition, message
    case overlay, operationFilter, overlayNames, operationOverlay

    /// The keys the parser accepts, in the order the documentation lists them.
    var allowed: [String] { keys.map(\.name) }

    /// The keys the parser reports missing.
    var required: [String] { keys.filter(\.isRequired).map(\.name) }

    /// The key named `name`.
    func key(_ name: String) -> SpecKey? { keys.first { $0.name == name } }

    /// Whether the parser accepts `key` in this mapping: a fixed key, or one of ``names``.
    func accepts(_ key: String) -> Bool {
        allowed.contains(key) || names.map { $0.0.accepts(key) } == true
    }

    /// Keys beyond the fixed ones, as a pattern and their values: the statuses of a response.
    var names: (SpecNames, SpecValue)? {
        switch self {
        case .responseStatuses: (.successStatus, .either([.type, .shape(.outcome)]))
        default: nil
        }
    }

    /// A model with one of these keys is a union or a composition.
    static let composedModelMarkers = ["oneOf", "allOf"]
    /// A model with one of these keys (and none of ``composedModelMarkers``) is written in the long form.
    static let longModelMarkers = ["enum", "properties"]
    /// An error schema with this key is written in the long form.
    static let longErrorSchemaMarker = "properties"

    /// What the mapping is, for the schema's description.
    var summary: String {
        switch self {
        case .service: "A Courier spec: one HTTP service, its models, error schemas and endpoints."
        case .sharedFile: "A shared file: error schemas and models that specs include."
        case .headerValue: "A header sent with every request."
        case .authScheme: "How requests authenticate: a scheme and its options."
        case .authSchemes: "Named auth schemes, and which of them endpoints use by default."
        case .coding: "How JSON keys and dates are encoded."
        case .rateLimit: "The service's own rate-limit header fields and body retry delay."
        case .defaults: "Error mappings and resilience hints every endpoint inherits."
        case .retry: "How failed attempts are retried."
        case .breaker: "The circuit breaker: when it opens, and how it closes again."
        case .model: "A model in the long form: an object ('properties') or an enum ('enum')."
        case .composedModel: "A union ('oneOf') or a composition ('allOf')."
        case .property: "A property: its type and options."
        case .enumValue: "An enum value with its own case name or description."
        case .unionVariant: "A variant of a union, with its own case name or description."
        case .unionDiscriminator: "The property that names a union's variant, and its values."
        case .compositionPart: "Properties a composition adds."
        case .errorSchema: "An error body's shape in the long form."
        case .endpoint: "An endpoint: one method and path (such as 'get: /books/{id}'), its parameters, body, response and errors."
        case .pathParameter: "A path parameter: its type and options."
        case .queryParameter: "A query parameter: its type and options."
        case .headerParameter: "A header parameter: its type and options."
        case .body: "The request body: a model ('type'), an inline body ('properties'), a form or files."
        case .mediaType: "A media type and how its body is coded, for a vendor type that is JSON (application/x-amz-json-1.0)."
        case .multipartFile: "A file part of a multipart/form-data body."
        case .partHeader: "A header of a file part: its type and description."
        case .formStyle: "How a form body writes nested objects and arrays."
        case .bodyVariant: "One of several content types the body may be sent as."
        case .response: "The success response: its status, body, streamed body or header fields."
        case .responseStatuses: "Several success statuses (200…399), each with its body, and the header fields."
        case .outcome: "One success status's body, case name and description."
        case .responseHeader: "A response header field: its type and description."
        case .idempotencyKey: "The header that carries the idempotency key."
        case .pagination: "How a list endpoint pages: one of 'link', 'cursor', 'page' or 'offset'."
        case .cursor: "Cursor pagination: the query parameter and where the next cursor comes from."
        case .numberedPages: "Page or offset pagination: the query parameter and the total."
        case .totalHeader: "A total read from a response header."
        case .errorMapping: "How responses with this status become error cases."
        case .errorCase: "An error case: its name and what it means."
        case .discriminatorSource: "Where the discriminating value is read: a body field or a header."
        case .nestedDiscriminator: "A further discriminator for one value of another."
        case .predicate: "What a response must have: a header or a body field, optionally equal to a value."
        case .condition: "A predicate and the case a response matching it becomes."
        case .message: "The user message: the server's words at a body field, a fallback text, a localization key."
        case .overlay: "A Courier overlay: an OpenAPI document and what Courier adds to it."
        case .operationFilter: "Operations chosen by operationId, tag or path pattern."
        case .overlayNames: "Swift names for operations and schemas of the document."
        case .operationOverlay: "What Courier adds to one operation of the document."
        }
    }

    /// The keys, in the order the documentation lists them.
    var keys: [SpecKey] {
        switch self {
        case .service:
            [
                SpecKey("service", "The service name; every generated type starts with it (GitHub → GitHubClient).", .text, required: true),
                SpecKey("description", "Documentation; becomes the client's doc comment.", .text),
                SpecKey("baseURL", "The absolute http or https URL endpoint paths are appended to, without query or fragment.", .url, required: true),
                SpecKey("access", "The access level of every generated declaration.", .choice(AccessLevel.allCases.map(\.rawValue)), default: .string("public")),
                SpecKey("fake", "Whether the client file also declares <Service>Fake, the test double; false leaves it out of the module.", .flag, default: .boolean(true)),
                SpecKey("equality", "What models, unions and response types conform to for comparing values: Equatable, Hashable too (for sets and dictionary keys), or neither (the fastest to compile).", .choice(ModelEquality.allCases.map(\.rawValue)), default: .string("equatable")),
                SpecKey("include", "Shared files whose error schemas and models join this spec, relative to it.", .oneOrList(.text)),
                SpecKey("headers", "Headers sent with every request: a value, or a mapping with 'value', 'secret' and 'description'.",
                        .names(.header, .either([.text, .shape(.headerValue)]))),
                SpecKey("auth", "How requests authenticate: 'bearer', 'basic', a scheme mapping, or named 'schemes'.",
                        .either([.choice(["bearer", "basic"]), .shape(.authScheme), .shape(.authSchemes)])),
                SpecKey("coding", "How JSON keys and dates are encoded.", .shape(.coding),
                        default: .object([("keys", .string("asIs")), ("dates", .string("iso8601"))])),
                SpecKey("rateLimit", "The service's own rate-limit header fields and body retry delay.", .shape(.rateLimit)),
                SpecKey("defaults", "Error mappings and resilience hints every endpoint inherits.", .shape(.defaults)),
                SpecKey("errorSchemas", "Shapes of error bodies, by name.", .errorSchemas),
                SpecKey("models", "Object models, enums, unions and compositions, by name; 'external' for a type the app declares.", .models),
                SpecKey("endpoints", "The operations, by name (the Swift method's name).", .names(.endpoint, .shape(.endpoint))),
            ]
        case .sharedFile:
            [
                SpecKey("description", "Documentation of the shared file.", .text),
                SpecKey("include", "Further shared files, relative to this one.", .oneOrList(.text)),
                SpecKey("errorSchemas", "Shapes of error bodies, by name.", .errorSchemas),
                SpecKey("models", "Object models, enums, unions and compositions, by name.", .models),
            ]
        case .headerValue:
            [
                SpecKey("value", "The value sent; without one, the client's initializer takes it.", .text),
                SpecKey("secret", "Keeps the value out of logs and descriptions.", .flag, default: .boolean(false)),
                SpecKey("description", "Documentation of the header.", .text),
            ]
        case .authScheme:
            [
                SpecKey("scheme", "The scheme.", .choice(AuthSpec.Scheme.allCases.map(\.rawValue)), required: true),
                SpecKey("header", "bearer: the header that carries the token.", .headerName, default: .string("Authorization")),
                SpecKey("word", "bearer: the word before the token (an HTTP token, such as Bot or token).", .text, default: .string("Bearer")),
                SpecKey("in", "apiKey: where the key goes.", .choice(AuthSpec.KeyPlacement.allCases.map(\.rawValue))),
                SpecKey("name", "apiKey: the header or query parameter name.", .text),
                SpecKey("description", "Documentation of the scheme.", .text),
            ]
        case .authSchemes:
            [
                SpecKey("schemes", "The schemes, by name: 'bearer', 'basic' or a scheme mapping.",
                        .names(.scheme, .either([.choice(["bearer", "basic"]), .shape(.authScheme)])), required: true),
                SpecKey("default", "The scheme or schemes endpoints use unless they say otherwise (default: every scheme).", .oneOrList(.text)),
            ]
        case .coding:
            [
                SpecKey("keys", "How property names become JSON keys.", .choice(CodingSpec.KeyStrategy.allCases.map(\.rawValue)), default: .string("asIs")),
                SpecKey("dates", "How dates are encoded.", .choice(CodingSpec.DateStrategy.allCases.map(\.rawValue)), default: .string("iso8601")),
            ]
        case .rateLimit:
            [
                SpecKey("limit", "The header with the request quota of the window.", .headerName),
                SpecKey("remaining", "The header with the requests left in the window.", .headerName),
                SpecKey("reset", "The header with the window's end in epoch seconds.", .headerName),
                SpecKey("resetAfter", "The header with the seconds until the window ends.", .headerName),
                SpecKey("retryAfterField", "The body field with the seconds to wait before retrying, such as retry_after.", .fieldPath),
            ]
        case .defaults:
            [
                SpecKey("errors", "Error mappings every endpoint inherits, by status.", .errorMappings),
                SpecKey("timeout", "Seconds each attempt may take.", .seconds(allowingZero: false)),
                SpecKey("retry", "How failed attempts are retried; false for never.", .disabledOr(.retry)),
                SpecKey("breaker", "The circuit breaker; false for none.", .disabledOr(.breaker)),
            ]
        case .retry:
            [
                SpecKey("maxAttempts", "Attempts, counting the first (default: the client's).", .whole(1...100)),
                SpecKey("baseDelay", "Seconds: the ceiling of the first retry's delay; later ceilings double.", .seconds(allowingZero: true)),
                SpecKey("maxDelay", "Seconds: the longest delay between attempts.", .seconds(allowingZero: true)),
                SpecKey("nonIdempotent", "Also retries methods that are not idempotent (POST, PATCH).", .flag, default: .boolean(false)),
            ]
        case .breaker:
            [
                SpecKey("failureThreshold", "Failures in a row that open the breaker; selects the consecutive-failures model.", .whole(1...Int.max)),
                SpecKey("failureRate", "Share of calls within 'window' that must fail to open the breaker (failure-rate model).", .fraction, default: .number(0.5)),
                SpecKey("minimumCalls", "Calls within 'window' before the rate counts (failure-rate model).", .whole(1...Int.max), default: .integer(20)),
                SpecKey("window", "Seconds: the sliding window of the failure-rate model.", .seconds(allowingZero: false), default: .integer(30)),
                SpecKey("resetAfter", "Seconds the breaker stays open before a trial call (60 consecutive, 5 rate).", .seconds(allowingZero: false)),
                SpecKey("successesToClose", "Trial calls in a row that must succeed to close the breaker (2 consecutive, 1 rate).", .whole(1...1000)),
            ]
        case .model:
            [
                SpecKey("description", "Documentation; becomes the type's doc comment.", .text),
                SpecKey("enum", "The values of an enum: scalars, or mappings with 'value', 'case' and 'description'.",
                        .list(.either([.text, .shape(.enumValue)]))),
                SpecKey("properties", "The properties of an object, by name.", .properties),
                SpecKey("type", "The raw type of an enum's values.", .choice(["String", "Int", "Int64", "Double"]), default: .string("String")),
            ]
        case .composedModel:
            [
                SpecKey("description", "Documentation; becomes the type's doc comment.", .text),
                SpecKey("oneOf", "The variants of a union: types, or mappings with 'type', 'case' and 'description'.",
                        .list(.either([.type, .shape(.unionVariant)]))),
                SpecKey("allOf", "The parts of a composition: model names, or mappings with 'properties'.",
                        .list(.either([.text, .shape(.compositionPart)]))),
                SpecKey("discriminator", "A union's discriminating property, or a mapping with 'property' and 'mapping'.",
                        .either([.text, .shape(.unionDiscriminator)])),
                SpecKey("enum", "Not with 'oneOf' or 'allOf': a model is one of an object, an enum, a union or a composition.",
                        .list(.either([.text, .shape(.enumValue)]))),
                SpecKey("properties", "Not with 'oneOf' or 'allOf': a model is one of an object, an enum, a union or a composition.", .properties),
            ]
        case .property:
            [
                SpecKey("type", "The property's type, such as String, Int?, [Book] or [String: Int].", .type, required: true),
                SpecKey("description", "Documentation; becomes the property's doc comment.", .text),
                SpecKey("json", "The JSON key, when it is not the property name as 'coding.keys' writes it.", .text),
                SpecKey("dates", "How this Date property is encoded, instead of 'coding.dates'.", .choice(PropertyDateFormat.allCases.map(\.rawValue))),
                SpecKey("nullable", "An optional property that is sent as null, not left out, when nil.", .flag, default: .boolean(false)),
                SpecKey("default", "The value used when the key is missing from a response.", .text),
                SpecKey("readOnly", "Set by the server: in responses only, never sent.", .flag, default: .boolean(false)),
            ]
        case .enumValue:
            [
                SpecKey("value", "The value as sent.", .text, required: true),
                SpecKey("case", "The Swift case name; required for a number.", .text),
                SpecKey("description", "Documentation; becomes the case's doc comment.", .text),
            ]
        case .unionVariant:
            [
                SpecKey("type", "The variant's type.", .type, required: true),
                SpecKey("case", "The Swift case name.", .text),
                SpecKey("description", "Documentation; becomes the case's doc comment.", .text),
            ]
        case .unionDiscriminator:
            [
                SpecKey("property", "The JSON property that names the variant.", .text, required: true),
                SpecKey("mapping", "Values of the property to variant names, where they differ.",
                        .names(.discriminatorValue, .text)),
            ]
        case .compositionPart:
            [SpecKey("properties", "Properties this part adds, by name.", .properties, required: true)]
        case .errorSchema:
            [
                SpecKey("description", "Documentation; becomes the type's doc comment.", .text),
                SpecKey("properties", "The error body's properties, by name.", .properties),
                SpecKey("wrappedIn", "The key of the object the error sits in, such as error for {\"error\": {…}}.", .text),
                SpecKey("arrayIn", "The key of the array whose first element is the error, such as errors.", .text),
            ]
        case .endpoint:
            [SpecKey("description", "Documentation; becomes the method's doc comment.", .text)]
                + HTTPMethod.allCases.map { SpecKey($0.specKey, "The \($0.rawValue) method and the path, such as /books/{id}.", .text) }
                + [
                    SpecKey("path", "The path's parameters, by name: a type or a mapping.", .names(.parameter, .either([.type, .shape(.pathParameter)]))),
                    SpecKey("query", "The query parameters, by name: a type or a mapping.", .names(.parameter, .either([.type, .shape(.queryParameter)]))),
                    SpecKey("headers", "The header parameters, by header name: a type or a mapping.",
                            .names(.header, .either([.type, .shape(.headerParameter)]))),
                    SpecKey("body", "The request body: a type, or a mapping.", .either([.type, .shape(.body)])),
                    SpecKey("response", "The success response: a type, a mapping, or success statuses as keys (no key: 204, no body).",
                            .either([.type, .shape(.response), .shape(.responseStatuses)])),
                    SpecKey("errors", "How failed responses become error cases, by status.", .errorMappings),
                    SpecKey("idempotencyKey", "Sends an idempotency key, so that retries of a POST are safe.",
                            .either([.flag, .shape(.idempotencyKey)]), default: .boolean(false)),
                    SpecKey("timeout", "Seconds each attempt may take.", .seconds(allowingZero: false)),
                    SpecKey("retry", "How failed attempts are retried; false for never.", .disabledOr(.retry)),
                    SpecKey("breaker", "The circuit breaker; false for none.", .disabledOr(.breaker)),
                    SpecKey("paginate", "How the endpoint pages: link, or a mapping.", .either([.word("link"), .shape(.pagination)])),
                    SpecKey("auth", "The auth schemes this endpoint uses: none, a scheme name or a list.", .oneOrList(.text)),
                ]
        case .pathParameter:
            [SpecKey("type", "The parameter's type.", .type, required: true), SpecKey("description", "Documentation.", .text)] + Self.styleKeys
        case .queryParameter:
            [SpecKey("type", "The parameter's type.", .type, required: true), SpecKey("description", "Documentation.", .text)] + Self.styleKeys
                + [SpecKey("default", "The value the method's argument defaults to.", .text)]
        case .headerParameter:
            [SpecKey("type", "The parameter's type.", .type, required: true), SpecKey("description", "Documentation.", .text)] + Self.styleKeys
                + [SpecKey("default", "The value the method's argument defaults to.", .text),
                   SpecKey("secret", "Keeps the value out of logs and descriptions.", .flag, default: .boolean(false))]
        case .body:
            [
                SpecKey("type", "The body's type: a model.", .type),
                SpecKey("properties", "An inline body's properties, by name (a model <Endpoint>Body).", .properties),
                SpecKey("description", "Documentation of the body.", .text),
                SpecKey("contentType", "The media type the body is sent as, or a mapping that also says how it is coded.", .mediaType,
                        default: .string("application/json")),
                SpecKey("files", "The file parts of a multipart/form-data body, by name.", .names(.file, .shape(.multipartFile))),
                SpecKey("form", "How a form body writes nested objects and arrays.", .shape(.formStyle)),
                SpecKey("contentTypes", "Several content types the body may be sent as, each with its type.", .list(.shape(.bodyVariant))),
            ]
        case .mediaType:
            [
                SpecKey("type", "The media type, sent as Content-Type (Accept for a response).", .text, required: true),
                SpecKey("coding", "How the body is coded: json encodes and decodes it as JSON, with the service's coding.",
                        .choice(MediaCoding.allCases.map(\.rawValue)), required: true),
            ]
        case .multipartFile:
            [
                SpecKey("optional", "Whether the caller may leave the file out.", .flag, default: .boolean(false)),
                SpecKey("description", "Documentation of the file.", .text),
                SpecKey("contentType", "The file's usual media type, for documentation.", .text),
                SpecKey("headers", "Headers of the part, by name: a type or a mapping.", .names(.header, .either([.type, .shape(.partHeader)]))),
            ]
        case .partHeader, .responseHeader:
            [SpecKey("type", "The header's type.", .type, required: true), SpecKey("description", "Documentation.", .text)]
        case .formStyle:
            [
                SpecKey("objects", "How nested objects are written.", .choice(FormStyleSpec.Objects.allCases.map(\.rawValue)), default: .string("brackets")),
                SpecKey("arrays", "How arrays are written.", .choice(FormStyleSpec.Arrays.allCases.map(\.rawValue)), default: .string("brackets")),
            ]
        case .bodyVariant:
            [
                SpecKey("type", "The body's type for this content type.", .type, required: true),
                SpecKey("contentType", "The media type, or a mapping that also says how it is coded.", .mediaType,
                        default: .string("application/json")),
                SpecKey("form", "How a form body writes nested objects and arrays.", .shape(.formStyle)),
                SpecKey("case", "The Swift case name of this variant.", .text),
            ]
        case .response:
            [
                SpecKey("status", "The success status, 200…299 (default: 200 with a body, 204 without).", .whole(200...299)),
                SpecKey("body", "The response body's type; Binary streams it; under a multipart contentType, each part's type.", .type),
                SpecKey("description", "Documentation of the response.", .text),
                SpecKey("events", "The type of each server-sent event's data.", .type),
                SpecKey("lines", "The type of each line of a JSON Lines response.", .type),
                SpecKey("contentType", "The media type of the body when it is not application/json, or a mapping that also says how it is coded; a multipart/* type streams the parts.",
                        .mediaType),
                SpecKey("headers", "Response header fields the method returns, by name: a type or a mapping.", .responseHeaders),
            ]
        case .responseStatuses:
            [SpecKey("headers", "Response header fields the method returns, by name: a type or a mapping.", .responseHeaders)]
        case .outcome:
            [
                SpecKey("body", "The status's body type.", .type),
                SpecKey("description", "Documentation of the status.", .text),
                SpecKey("case", "The Swift case name of the outcome.", .text),
                SpecKey("contentType", "The media type of the body when it is not application/json, or a mapping that also says how it is coded.",
                        .mediaType),
            ]
        case .idempotencyKey:
            [SpecKey("header", "The header that carries the key.", .headerName, required: true)]
        case .pagination:
            [
                SpecKey("link", "Pages by the Link header's rel=next (RFC 8288); written link: true.", .flag),
                SpecKey("cursor", "Pages by a cursor.", .shape(.cursor)),
                SpecKey("page", "Pages by page number.", .shape(.numberedPages)),
                SpecKey("offset", "Pages by item offset.", .shape(.numberedPages)),
                SpecKey("items", "The path to the array of items, when the body is not the array itself, such as data.", .fieldPath),
            ]
        case .cursor:
            [
                SpecKey("param", "The query parameter that takes the cursor.", .text, required: true),
                SpecKey("from", "Where the next cursor comes from: a body field path, or lastItem.<member>.", .text, required: true),
                SpecKey("hasMore", "The body field that says whether more pages follow.", .fieldPath),
            ]
        case .numberedPages:
            [
                SpecKey("param", "The query parameter that takes the page or offset.", .text, required: true),
                SpecKey("total", "The total: a body field path, or a mapping with 'header'.", .either([.fieldPath, .shape(.totalHeader)])),
            ]
        case .totalHeader:
            [SpecKey("header", "The response header with the total.", .headerName, required: true)]
        case .errorMapping:
            [
                SpecKey("case", "The error case's name, or a mapping with 'case' and its meaning.", .errorCase),
                SpecKey("body", "The error schema the body decodes as.", .text),
                SpecKey("description", "Documentation; becomes the case's doc comment.", .text),
                SpecKey("discriminator", "The body field path (or a mapping with 'field' or 'header') whose value picks the case.",
                        .either([.fieldPath, .shape(.discriminatorSource)])),
                SpecKey("cases", "Discriminator values to cases (or further discriminators).", .discriminatorCases),
                SpecKey("otherwise", "The case for any other discriminator value.", .errorCase),
                SpecKey("conditions", "Predicates checked in order, each with the case a matching response becomes.", .list(.shape(.condition))),
                SpecKey("when", "With a success status: what makes a success response a failure.", .shape(.predicate)),
            ] + Self.meaningKeys
        case .errorCase:
            [
                SpecKey("case", "The error case's name.", .text, required: true),
                SpecKey("description", "Documentation; becomes the case's doc comment.", .text),
            ] + Self.meaningKeys
        case .discriminatorSource:
            [
                SpecKey("field", "A body field path, such as error.code or errors[0].code.", .fieldPath),
                SpecKey("header", "A response header.", .headerName),
            ]
        case .nestedDiscriminator:
            [
                SpecKey("discriminator", "The body field path (or a mapping with 'field' or 'header') whose value picks the case.",
                        .either([.fieldPath, .shape(.discriminatorSource)]), required: true),
                SpecKey("cases", "Discriminator values to cases (or further discriminators).", .discriminatorCases),
                SpecKey("otherwise", "The case for any other discriminator value.", .errorCase),
            ]
        case .predicate:
            [
                SpecKey("header", "A response header that must be present.", .headerName),
                SpecKey("field", "A body field path that must be present.", .fieldPath),
                SpecKey("equals", "The value the header or field must have.", .text),
            ]
        case .condition:
            // A condition is read in two halves: its predicate, then the rest as a case.
            SpecShape.predicate.keys + SpecShape.errorCase.keys
        case .message:
            [
                SpecKey("field", "The body field path with the server's own message.", .fieldPath),
                SpecKey("fallback", "The text shown when the field is missing or there is none.", .text),
                SpecKey("key", "A localization key for the message (needs 'fallback').", .text),
            ]
        case .overlay:
            [
                SpecKey("overlay", "The OpenAPI document's path, relative to the overlay.", .text, required: true),
                SpecKey("service", "The service name, instead of the one made from the document's title.", .text),
                SpecKey("description", "Documentation, instead of the document's.", .text),
                SpecKey("baseURL", "The base URL, instead of the document's first server.", .url),
                SpecKey("access", "The access level of every generated declaration.", .choice(AccessLevel.allCases.map(\.rawValue)), default: .string("public")),
                SpecKey("fake", "Whether the client file also declares <Service>Fake, the test double; false leaves it out of the module.", .flag, default: .boolean(true)),
                SpecKey("equality", "What models, unions and response types conform to for comparing values: Equatable, Hashable too (for sets and dictionary keys), or neither (the fastest to compile).", .choice(ModelEquality.allCases.map(\.rawValue)), default: .string("equatable")),
                SpecKey("headers", "Headers sent with every request: a value, or a mapping with 'value', 'secret' and 'description'.",
                        .names(.header, .either([.text, .shape(.headerValue)]))),
                SpecKey("include", "Shared files whose error schemas and models join the service.", .oneOrList(.text)),
                SpecKey("filter", "Only the operations chosen by id, tag or path.", .shape(.operationFilter)),
                SpecKey("exclude", "Leaves out the operations chosen by id, tag or path.", .shape(.operationFilter)),
                SpecKey("names", "Swift names for operations and schemas.", .shape(.overlayNames)),
                SpecKey("types", "Component schemas replaced by a type the app declares, by schema name.", .names(.schemaName, .text)),
                SpecKey("inferErrorCases", "Gives each error schema's enum field an error case per value.", .flag, default: .boolean(false)),
                SpecKey("errorSchemas", "Error schemas beyond the document's, by name.", .errorSchemas),
                SpecKey("models", "Models beyond the document's, by name.", .models),
                SpecKey("defaults", "Error mappings and resilience hints every operation inherits.", .shape(.defaults)),
                SpecKey("operations", "Additions to operations, by operationId.", .names(.operation, .shape(.operationOverlay))),
            ]
        case .operationFilter:
            [
                SpecKey("operations", "operationIds.", .oneOrList(.text)),
                SpecKey("tags", "Tags.", .oneOrList(.text)),
                SpecKey("paths", "Path patterns starting with / (or *), such as /pets/*.", .oneOrList(.text)),
            ]
        case .overlayNames:
            [
                SpecKey("operations", "Method names, by operationId.", .names(.operation, .text)),
                SpecKey("schemas", "Type names, by component schema name.", .names(.schemaName, .text)),
            ]
        case .operationOverlay:
            [
                SpecKey("description", "Documentation, instead of the operation's.", .text),
                SpecKey("errors", "Error mappings for the operation, by status.", .errorMappings),
                SpecKey("timeout", "Seconds each attempt may take.", .seconds(allowingZero: false)),
                SpecKey("retry", "How failed attempts are retried; false for never.", .disabledOr(.retry)),
                SpecKey("breaker", "The circuit breaker; false for none.", .disabledOr(.breaker)),
                SpecKey("idempotencyKey", "Sends an idempotency key, so that retries of a POST are safe.",
                        .either([.flag, .shape(.idempotencyKey)]), default: .boolean(false)),
                SpecKey("paginate", "How the operation pages: link, or a mapping.", .either([.word("link"), .shape(.pagination)])),
            ]
        }
    }

    /// A query parameter's style keys. They are read on every placement so that the validator can
    /// say why a path or header parameter takes none, rather than the parser calling them unknown.
    private static let styleKeys = [
        SpecKey("style", "How a list or object is written in the query.", .choice(ParameterStyleSpec.Style.allCases.map(\.rawValue)), default: .string("form")),
        SpecKey("explode", "Whether each value gets its own name=value pair.", .flag),
    ]

    /// The keys of a mapping or case that say what the case means.
    private static let meaningKeys = [
        SpecKey("message", "The user message: a text, or a mapping with 'field', 'fallback' and 'key'.", .either([.text, .shape(.message)])),
        SpecKey("retryable", "Whether the failure is worth repeating.", .flag),
    ]
}

extension SpecValue {
    /// Error schemas by name: the long form, or a mapping of properties.
    static let errorSchemas = SpecValue.names(.errorSchema, .either([
        .shape(.errorSchema),
        .names(SpecNames("a property's name", excluding: [SpecShape.longErrorSchemaMarker], example: "message"), .either([.type, .shape(.property)])),
    ]))

    /// Models by name: `external`, the long form, a union or composition, or a mapping of properties.
    static let models = SpecValue.names(.model, .either([
        .word("external"),
        .shape(.model),
        .shape(.composedModel),
        .names(SpecNames("a property's name", excluding: SpecShape.composedModelMarkers + SpecShape.longModelMarkers, example: "title"),
               .either([.type, .shape(.property)])),
    ]))

    /// Response header fields by name.
    static let responseHeaders = SpecValue.names(.header, .either([.type, .shape(.responseHeader)]))

    /// A discriminator's values to cases or further discriminators.
    static let discriminatorCases = SpecValue.names(.discriminatorValue, .either([.text, .shape(.errorCase), .shape(.nestedDiscriminator)]))
}

extension SpecNames {
    /// Whether the parser accepts `key` as one of these names.
    func accepts(_ key: String) -> Bool {
        if excluded.contains(key) { return false }
        guard let pattern else { return true }
        return key.range(of: pattern, options: .regularExpression) != nil
    }

    /// The success and redirection statuses under `response:`: three digits.
    static let successStatus = SpecNames("a success or redirection status, 200…399", pattern: "^[0-9][0-9][0-9]$", example: "200")
}
