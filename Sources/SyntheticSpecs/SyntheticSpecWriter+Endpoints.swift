import Foundation

/// One endpoint of a synthetic API, decided once and written in either format, so that the
/// Courier spec and its OpenAPI twin describe the same API.
struct SyntheticEndpoint {
    /// A query or header parameter. `type` is a Courier type expression (`Int`, `[String]?`).
    struct Parameter {
        var name: String
        var type: String
        var defaultValue: String?
        var description: String?
        var isSecret = false
    }

    enum Body {
        /// The body is a declared model.
        case model(String)
        /// An inline object: property names and Courier type expressions.
        case inline(description: String?, properties: [(name: String, type: String)])
    }

    struct Response {
        /// The success status; `nil` is the format's default of 200.
        var status: Int?
        /// A Courier type expression, or `nil` for no body.
        var type: String?
        var description: String?
    }

    var name: String
    var method: String
    var path: String
    var description: String?
    var pathParameters: [(name: String, type: String)] = []
    var query: [Parameter] = []
    var headers: [Parameter] = []
    var body: Body?
    var response: Response?
    /// Resilience hints, as lines of the Courier format. OpenAPI has no words for them.
    var hints: [String] = []
    var errors: [SyntheticVocabulary.ErrorMapping] = []
}

/// The endpoints of a synthetic spec: five operations per resource, with parameters, bodies,
/// resilience hints and error mappings.
extension SyntheticSpecWriter {
    private enum Operation: Int, CaseIterable {
        case list, get, create, update, delete
    }

    mutating func writeEndpoints() {
        line(0, "")
        line(0, "endpoints:")
        for index in 0..<configuration.endpoints {
            write(planEndpoint(index))
        }
    }

    mutating func planEndpoint(_ index: Int) -> SyntheticEndpoint {
        var random = SyntheticRandom(seed: configuration.seed, stream: Stream.endpoint.rawValue, index: index)
        let operations = Operation.allCases
        let operation = operations[index % operations.count]
        let resource = index / operations.count
        let ordinal = resource % objects.count
        let version = resource / objects.count
        let model = objects[ordinal]
        let versionSuffix = version > 0 ? "V\(version + 1)" : ""

        // The path: an optional version prefix, an optional parent resource, then the collection.
        var prefix = version > 0 ? "/v\(version + 1)" : ""
        var pathParameters: [(name: String, type: String)] = []
        if resource % 3 == 1, ordinal > 0 {
            let parent = objects[ordinal - 1]
            prefix += "/\(Self.pathSegment(parent.plural))/{\(parent.idParameter)}"
            pathParameters.append((parent.idParameter, parent.idType))
        }
        let collection = prefix + "/" + Self.pathSegment(model.plural)
        let item = collection + "/{\(model.idParameter)}"
        let enumName = enums.isEmpty ? nil : enums[ordinal % enums.count]

        // Every random choice is drawn up front, so that editing an endpoint never shifts them.
        let choices = (filter: random.chance(50), since: random.chance(50), search: random.chance(30),
                       expand: random.chance(30), signature: random.chance(25), namedBody: random.chance(50),
                       accepted: random.chance(20), errorStart: random.below(SyntheticVocabulary.errorMappings.count))
        let isEdited = configuration.editedEndpoint == index
        let lowerName = SyntheticVocabulary.lowerFirst(model.name)

        var endpoint: SyntheticEndpoint
        switch operation {
        case .list:
            endpoint = SyntheticEndpoint(name: "list\(model.plural)\(versionSuffix)", method: "get", path: collection,
                                         description: "\(model.plural), a page at a time.")
            endpoint.query.append(.init(name: "page", type: "Int", defaultValue: "1"))
            endpoint.query.append(.init(name: "per_page", type: "Int", defaultValue: "25",
                                        description: "Results per page, at most 100."))
            if let enumName { endpoint.query.append(.init(name: "sort", type: enumName.name, defaultValue: enumName.firstValue)) }
            if choices.filter { endpoint.query.append(.init(name: "filter[tag]", type: "[String]?")) }
            if choices.since { endpoint.query.append(.init(name: "since", type: "Date?", description: "Only items changed since then.")) }
            if choices.search { endpoint.query.append(.init(name: "q", type: "String?")) }
            endpoint.headers.append(.init(name: "X-Request-ID", type: "String?"))
            endpoint.response = .init(type: "[\(model.name)]")
        case .get:
            endpoint = SyntheticEndpoint(name: "get\(model.name)\(versionSuffix)", method: "get", path: item,
                                         description: index % 2 == 0 ? "One \(lowerName) by its identifier." : nil)
            pathParameters.append((model.idParameter, model.idType))
            if choices.expand { endpoint.query.append(.init(name: "expand", type: "[String]?")) }
            endpoint.headers.append(.init(name: "If-None-Match", type: "String?"))
            if choices.signature { endpoint.headers.append(.init(name: "X-Signature", type: "String?", isSecret: true)) }
            endpoint.response = .init(type: model.name)
        case .create:
            endpoint = SyntheticEndpoint(name: "create\(model.name)\(versionSuffix)", method: "post", path: collection)
            if choices.namedBody {
                endpoint.body = .model(model.name)
            } else {
                inlineBodies += 1
                var properties = [("name", "String"), ("notes", "String?"), ("labels", "[String]?")]
                if let enumName { properties.append(("priority", "\(enumName.name)?")) }
                endpoint.body = .inline(description: "The fields of a new \(lowerName).", properties: properties)
            }
            endpoint.response = .init(status: 201, type: model.name)
            endpoint.hints.append("idempotencyKey: true")
        case .update:
            endpoint = SyntheticEndpoint(name: "update\(model.name)\(versionSuffix)", method: "patch", path: item,
                                         description: "Changes the given fields of a \(lowerName).")
            pathParameters.append((model.idParameter, model.idType))
            endpoint.headers.append(.init(name: "If-Match", type: "String?",
                                          description: "The entity tag of the version being changed."))
            inlineBodies += 1
            var properties = [("name", "String?"), ("notes", "String?")]
            if let enumName { properties.append(("state", "\(enumName.name)?")) }
            endpoint.body = .inline(description: nil, properties: properties)
            endpoint.response = .init(type: model.name)
            endpoint.hints.append(choices.accepted ? "idempotencyKey: { header: X-Idempotency-Token }" : "idempotencyKey: true")
        case .delete:
            endpoint = SyntheticEndpoint(name: "delete\(model.name)\(versionSuffix)", method: "delete", path: item)
            pathParameters.append((model.idParameter, model.idType))
            if choices.accepted { endpoint.response = .init(status: 202, description: "Accepted for deletion.") }
        }
        endpoint.pathParameters = pathParameters

        if index % 50 == 49 {
            endpoint.hints += ["timeout: 2", "retry: false", "breaker: false"]
        } else if index % 25 == 12 {
            endpoint.hints.append("retry: { maxAttempts: 5, baseDelay: 0.5, maxDelay: 8 }")
        }
        if isEdited {
            endpoint.description = "Revised: " + (endpoint.description ?? "the endpoint as changed in the latest version of the API.")
            endpoint.query.append(.init(name: "include_deleted", type: "Bool?", description: "Also list deleted items."))
        }
        let pool = SyntheticVocabulary.errorMappings
        endpoint.errors = (0..<configuration.errorMappingsPerEndpoint).map { pool[(choices.errorStart + $0) % pool.count] }
        return endpoint
    }

    private mutating func write(_ endpoint: SyntheticEndpoint) {
        line(1, "\(endpoint.name):")
        if let description = endpoint.description { line(2, "description: \(Self.scalar(description))") }
        line(2, "\(endpoint.method): \(endpoint.path)")
        if !endpoint.pathParameters.isEmpty {
            line(2, "path:")
            for (parameter, type) in endpoint.pathParameters { line(3, "\(parameter): \(type)") }
        }
        for (key, parameters) in [("query", endpoint.query), ("headers", endpoint.headers)] where !parameters.isEmpty {
            line(2, "\(key):")
            for parameter in parameters { line(3, "\(parameter.name): \(Self.courierParameter(parameter))") }
        }
        switch endpoint.body {
        case .model(let name):
            line(2, "body: \(name)")
        case .inline(let description, let properties):
            line(2, "body:")
            if let description { line(3, "description: \(Self.scalar(description))") }
            line(3, "properties:")
            for (name, type) in properties { line(4, "\(name): \(Self.scalar(type))") }
        case nil:
            break
        }
        if let response = endpoint.response {
            if let status = response.status {
                let body = response.type.map { ", body: \(Self.scalar($0))" } ?? ""
                let description = response.description.map { ", description: \(Self.scalar($0))" } ?? ""
                line(2, "response: { status: \(status)\(body)\(description) }")
            } else if let type = response.type {
                line(2, "response: \(Self.scalar(type))")
            }
        }
        for hint in endpoint.hints { line(2, hint) }
        guard !endpoint.errors.isEmpty else { return }
        line(2, "errors:")
        for mapping in endpoint.errors {
            line(3, "\(mapping.status):")
            for entry in mapping.lines { line(4, entry) }
        }
    }

    /// A parameter's value in the Courier format: its type alone, or a flow map when it has more.
    private static func courierParameter(_ parameter: SyntheticEndpoint.Parameter) -> String {
        var fields: [String] = []
        // Defaults are numbers or enum raw values that read as plain scalars.
        if let value = parameter.defaultValue { fields.append("default: \(value)") }
        if let description = parameter.description { fields.append("description: \(scalar(description))") }
        if parameter.isSecret { fields.append("secret: true") }
        if fields.isEmpty { return scalar(parameter.type) }
        return "{ type: \(scalar(parameter.type)), " + fields.joined(separator: ", ") + " }"
    }

    /// `Invoices2` gives `invoices-2`.
    static func pathSegment(_ plural: String) -> String {
        let lower = plural.lowercased()
        guard let digits = lower.firstIndex(where: \.isNumber) else { return lower }
        return lower[..<digits] + "-" + lower[digits...]
    }
}
