import Foundation

/// The OpenAPI twin of a synthetic spec: the same operations, parameters, models, bodies and
/// error statuses, so that Courier and other generators can be measured on one API.
///
/// OpenAPI has no words for some of what the Courier spec says, and the twin leaves those out:
/// resilience hints and idempotency keys, error discriminators (a discriminated mapping is one
/// response with its body), messages, and the constant `X-Api-Version` header. Every operation
/// documents its own errors, the service's defaults included, as OpenAPI documents do.
extension SyntheticSpecWriter {
    mutating func writeOpenAPI() {
        let endpoints = (0..<configuration.endpoints).map { planEndpoint($0) }
        text.reserveCapacity(configuration.endpoints * 2_000 + configuration.models * configuration.propertiesPerModel * 60)
        writeOpenAPIHeader()
        writeOpenAPIPaths(endpoints)
        line(0, "components:")
        line(1, "securitySchemes:")
        line(2, "bearer: { type: http, scheme: bearer }")
        line(2, "partnerKey: { type: apiKey, in: header, name: X-Partner-Key, description: The partner key given at sign-up. }")
        line(1, "schemas:")
        writeOpenAPIErrorSchemas()
        for entry in layout {
            if entry.isEnum {
                writeOpenAPIEnum(ordinal: entry.ordinal)
            } else {
                writeOpenAPIObject(ordinal: entry.ordinal)
            }
        }
    }

    private mutating func writeOpenAPIHeader() {
        line(0, "# A synthetic OpenAPI document: courier synthesize --openapi \(optionsText)")
        line(0, "# The twin of the Courier spec the same options write, less what OpenAPI cannot say:")
        line(0, "# resilience hints, idempotency keys, error discriminators and messages.")
        line(0, "openapi: 3.1.0")
        line(0, "info:")
        line(1, "title: \(configuration.serviceName)")
        line(1, "version: \"1.0\"")
        line(1, "description: >-")
        line(2, "A synthetic service with \(configuration.endpoints) endpoints and \(configuration.models) models,")
        line(2, "written to measure generators on documents of realistic shape and any size.")
        line(0, "servers:")
        line(1, "- url: https://api.synthetic.example.com/v1")
        line(0, "security:")
        line(1, "- { bearer: [], partnerKey: [] }")
    }

    // MARK: Operations

    private mutating func writeOpenAPIPaths(_ endpoints: [SyntheticEndpoint]) {
        // Operations on one path share its entry; paths keep the order they first appear in.
        var order: [String] = []
        var byPath: [String: [SyntheticEndpoint]] = [:]
        for endpoint in endpoints {
            if byPath[endpoint.path] == nil { order.append(endpoint.path) }
            byPath[endpoint.path, default: []].append(endpoint)
        }
        line(0, "paths:")
        for path in order {
            line(1, "\(path):")
            for endpoint in byPath[path] ?? [] { writeOpenAPIOperation(endpoint) }
        }
    }

    private mutating func writeOpenAPIOperation(_ endpoint: SyntheticEndpoint) {
        line(2, "\(endpoint.method):")
        line(3, "operationId: \(endpoint.name)")
        if let description = endpoint.description { line(3, "description: \(Self.scalar(description))") }
        let parameters = endpoint.pathParameters.map { "{ name: \($0.name), in: path, required: true, schema: \(Self.schema($0.type)) }" }
            + endpoint.query.map { Self.openAPIParameter($0, in: "query") }
            + endpoint.headers.map { Self.openAPIParameter($0, in: "header") }
        if !parameters.isEmpty {
            line(3, "parameters:")
            for parameter in parameters { line(4, "- \(parameter)") }
        }
        switch endpoint.body {
        case .model(let name):
            line(3, "requestBody:")
            line(4, "required: true")
            line(4, "content: { application/json: { schema: \(Self.schema(name)) } }")
        case .inline(let description, let properties):
            line(3, "requestBody:")
            if let description { line(4, "description: \(Self.scalar(description))") }
            line(4, "required: true")
            line(4, "content:")
            line(5, "application/json:")
            line(6, "schema:")
            writeOpenAPIObjectSchema(properties.map { Property(name: $0.name, type: $0.type) }, indent: 7)
        case nil:
            break
        }
        line(3, "responses:")
        if let response = endpoint.response {
            let status = response.status ?? 200
            line(4, "\"\(status)\":")
            line(5, "description: \(Self.scalar(response.description ?? Self.reason(status)))")
            if let type = response.type { line(5, "content: { application/json: { schema: \(Self.schema(type)) } }") }
        } else {
            line(4, "\"204\": { description: No content. }")
        }
        for mapping in endpoint.errors { writeOpenAPIError(status: mapping.status, lines: mapping.lines) }
        writeOpenAPIError(status: "401", lines: ["case: unauthorized"])
        writeOpenAPIError(status: "429", lines: ["body: Problem", "message: Too many requests; try again shortly."])
        writeOpenAPIError(status: "5XX", lines: ["body: Problem", "description: The service failed."])
        writeOpenAPIError(status: "default", lines: ["case: unexpected"])
    }

    /// An error response from a mapping's Courier lines: its body schema and its description
    /// (or message); the rest has no OpenAPI spelling.
    private mutating func writeOpenAPIError(status: String, lines: [String]) {
        func value(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
        }
        let description = value("description") ?? value("message") ?? Self.reason(Int(status))
        line(4, status == "default" ? "default:" : "\"\(status)\":")
        line(5, "description: \(Self.scalar(description))")
        if let body = value("body") { line(5, "content: { application/json: { schema: \(Self.schema(body)) } }") }
    }

    private static func openAPIParameter(_ parameter: SyntheticEndpoint.Parameter, in location: String) -> String {
        let isOptional = parameter.type.hasSuffix("?") || parameter.defaultValue != nil
        let schema = Self.schema(parameter.type, adding: parameter.defaultValue.map { ["default: \($0)"] } ?? [])
        var fields = ["name: \(scalar(parameter.name))", "in: \(location)"]
        if !isOptional { fields.append("required: true") }
        if let description = parameter.description { fields.append("description: \(scalar(description))") }
        fields.append("schema: \(schema)")
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    // MARK: Schemas

    private mutating func writeOpenAPIErrorSchemas() {
        line(2, "Problem:")
        line(3, "description: An RFC 9457-style problem object.")
        writeOpenAPIObjectSchema([
            Property(name: "code", type: "String"), Property(name: "message", type: "String"),
            Property(name: "details", type: "[String]?"),
            Property(name: "traceId", type: "String?", description: "Quote it when reporting a problem."),
        ], indent: 3)
        writeOpenAPIWrapper("ServiceError", key: "error", isArray: false, [
            Property(name: "type", type: "String"), Property(name: "code", type: "String"),
            Property(name: "message", type: "String?"), Property(name: "param", type: "String?"),
        ])
        writeOpenAPIWrapper("ErrorList", key: "errors", isArray: true, [
            Property(name: "status", type: "String"), Property(name: "code", type: "String"),
            Property(name: "title", type: "String?"), Property(name: "detail", type: "String?"),
        ])
    }

    /// An error schema whose fields sit under one key (`wrappedIn:`), or in an array under it (`arrayIn:`).
    private mutating func writeOpenAPIWrapper(_ name: String, key: String, isArray: Bool, _ properties: [Property]) {
        line(2, "\(name):")
        line(3, "type: object")
        line(3, "required: [\(key)]")
        line(3, "properties:")
        line(4, "\(key):")
        if isArray {
            line(5, "type: array")
            line(5, "items:")
        }
        writeOpenAPIObjectSchema(properties, indent: isArray ? 6 : 5)
    }

    private mutating func writeOpenAPIEnum(ordinal: Int) {
        line(2, "\(enums[ordinal].name):")
        if ordinal % 3 == 0 { line(3, "description: Where the item stands.") }
        line(3, "type: string")
        var values = Self.enumValues(ordinal: ordinal)
        if ordinal % 4 == 1 { values.append("-created_at") }
        line(3, "enum: [" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
    }

    private mutating func writeOpenAPIObject(ordinal: Int) {
        line(2, "\(objects[ordinal].name):")
        if let description = objectDescription(ordinal) { line(3, "description: \(Self.scalar(description))") }
        writeOpenAPIObjectSchema(planObject(ordinal: ordinal), indent: 3)
    }

    /// An object schema's lines: JSON keys in `snake_case` as the Courier spec's coding says,
    /// and a property required unless its type is optional.
    private mutating func writeOpenAPIObjectSchema(_ properties: [Property], indent: Int) {
        let keyed = properties.map { ($0, $0.jsonKey ?? Self.snakeCased($0.name)) }
        line(indent, "type: object")
        let required = keyed.filter { !$0.0.type.hasSuffix("?") }.map(\.1)
        if !required.isEmpty { line(indent, "required: [" + required.joined(separator: ", ") + "]") }
        line(indent, "properties:")
        for (property, key) in keyed {
            let extra = property.description.map { ["description: \(Self.scalar($0))"] } ?? []
            line(indent + 1, "\(key): \(Self.schema(property.type, adding: extra))")
        }
    }

    /// A Courier type expression as an OpenAPI schema in flow style, with `extra` fields such as a
    /// default; an optional type's schema is its wrapped type's, since optionality is said by
    /// `required`.
    static func schema(_ type: String, adding extra: [String] = []) -> String {
        "{ " + (schemaFields(type) + extra).joined(separator: ", ") + " }"
    }

    private static func schemaFields(_ type: String) -> [String] {
        let type = type.hasSuffix("?") ? String(type.dropLast()) : type
        if type.hasPrefix("[String: "), type.hasSuffix("]") {
            return ["type: object", "additionalProperties: \(schema(String(type.dropFirst(9).dropLast())))"]
        }
        if type.hasPrefix("["), type.hasSuffix("]") {
            return ["type: array", "items: \(schema(String(type.dropFirst().dropLast())))"]
        }
        switch type {
        case "String": return ["type: string"]
        case "Int": return ["type: integer"]
        case "Int64": return ["type: integer", "format: int64"]
        case "Double": return ["type: number", "format: double"]
        case "Bool": return ["type: boolean"]
        case "Date": return ["type: string", "format: date-time"]
        case "URL": return ["type: string", "format: uri"]
        case "Data": return ["type: string", "format: byte"]
        default: return ["$ref: \"#/components/schemas/\(type)\""]
        }
    }

    /// `createdAt` gives `created_at`, as the format's `snake_case` coding does.
    static func snakeCased(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                if !result.isEmpty { result.append("_") }
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// A response description for a status the mapping gives none for.
    static func reason(_ status: Int?) -> String {
        switch status {
        case 200: "OK."
        case 201: "Created."
        case 202: "Accepted."
        case 400: "Bad request."
        case 401: "Unauthorized."
        case 402: "Payment required."
        case 403: "Forbidden."
        case 404: "Not found."
        case 406: "Not acceptable."
        case 408: "Request timeout."
        case 409: "Conflict."
        case 410: "Gone."
        case 411: "Length required."
        case 412: "Precondition failed."
        case 413: "Content too large."
        case 414: "URI too long."
        case 415: "Unsupported media type."
        case 416: "Range not satisfiable."
        case 422: "Unprocessable content."
        case 423: "Locked."
        case 424: "Failed dependency."
        case 428: "Precondition required."
        case 431: "Request header fields too large."
        case 451: "Unavailable for legal reasons."
        case 501: "Not implemented."
        case 502: "Bad gateway."
        case 503: "Service unavailable."
        case 504: "Gateway timeout."
        case 507: "Insufficient storage."
        case let status?: "Status \(status)."
        case nil: "Unexpected response."
        }
    }
}
