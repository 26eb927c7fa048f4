import Foundation

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
            writeEndpoint(index)
        }
    }

    private mutating func writeEndpoint(_ index: Int) {
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
        var pathParameters: [(String, String)] = []
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

        var query: [String] = []
        var headers: [String] = []
        var bodyLines: [String] = []
        var description: String?
        var response: String?
        var extra: [String] = []
        let name: String
        let method: String
        let path: String

        switch operation {
        case .list:
            name = "list\(model.plural)\(versionSuffix)"
            method = "get"
            path = collection
            description = "\(model.plural), a page at a time."
            query.append("page: { type: Int, default: 1 }")
            query.append("per_page: { type: Int, default: 25, description: \"Results per page, at most 100.\" }")
            if let enumName { query.append("sort: { type: \(enumName.name), default: \(enumName.firstValue) }") }
            if choices.filter { query.append("filter[tag]: \"[String]?\"") }
            if choices.since { query.append("since: { type: Date?, description: Only items changed since then. }") }
            if choices.search { query.append("q: String?") }
            headers.append("X-Request-ID: String?")
            response = "\"[\(model.name)]\""
        case .get:
            name = "get\(model.name)\(versionSuffix)"
            method = "get"
            path = item
            pathParameters.append((model.idParameter, model.idType))
            if index % 2 == 0 { description = "One \(lowerName) by its identifier." }
            if choices.expand { query.append("expand: \"[String]?\"") }
            headers.append("If-None-Match: String?")
            if choices.signature { headers.append("X-Signature: { type: String?, secret: true }") }
            response = model.name
        case .create:
            name = "create\(model.name)\(versionSuffix)"
            method = "post"
            path = collection
            if choices.namedBody {
                bodyLines = ["body: \(model.name)"]
            } else {
                inlineBodies += 1
                bodyLines = ["body:", "  description: The fields of a new \(lowerName).", "  properties:",
                             "    name: String", "    notes: String?", "    labels: \"[String]?\""]
                if let enumName { bodyLines.append("    priority: \(enumName.name)?") }
            }
            response = "{ status: 201, body: \(model.name) }"
            extra.append("idempotencyKey: true")
        case .update:
            name = "update\(model.name)\(versionSuffix)"
            method = "patch"
            path = item
            pathParameters.append((model.idParameter, model.idType))
            description = "Changes the given fields of a \(lowerName)."
            headers.append("If-Match: { type: String?, description: The entity tag of the version being changed. }")
            inlineBodies += 1
            bodyLines = ["body:", "  properties:", "    name: String?", "    notes: String?"]
            if let enumName { bodyLines.append("    state: \(enumName.name)?") }
            response = model.name
            extra.append(choices.accepted ? "idempotencyKey: { header: X-Idempotency-Token }" : "idempotencyKey: true")
        case .delete:
            name = "delete\(model.name)\(versionSuffix)"
            method = "delete"
            path = item
            pathParameters.append((model.idParameter, model.idType))
            if choices.accepted { response = "{ status: 202, description: Accepted for deletion. }" }
        }

        if index % 50 == 49 {
            extra += ["timeout: 2", "retry: false", "breaker: false"]
        } else if index % 25 == 12 {
            extra.append("retry: { maxAttempts: 5, baseDelay: 0.5, maxDelay: 8 }")
        }
        if isEdited {
            description = "Revised: " + (description ?? "the endpoint as changed in the latest version of the API.")
            query.append("include_deleted: { type: Bool?, description: Also list deleted items. }")
        }

        line(1, "\(name):")
        if let description { line(2, "description: \(Self.scalar(description))") }
        line(2, "\(method): \(path)")
        if !pathParameters.isEmpty {
            line(2, "path:")
            for (parameter, type) in pathParameters { line(3, "\(parameter): \(type)") }
        }
        if !query.isEmpty {
            line(2, "query:")
            for entry in query { line(3, entry) }
        }
        if !headers.isEmpty {
            line(2, "headers:")
            for entry in headers { line(3, entry) }
        }
        for entry in bodyLines { line(2, entry) }
        if let response { line(2, "response: \(response)") }
        for entry in extra { line(2, entry) }
        writeErrors(count: configuration.errorMappingsPerEndpoint, start: choices.errorStart)
    }

    private mutating func writeErrors(count: Int, start: Int) {
        guard count > 0 else { return }
        let pool = SyntheticVocabulary.errorMappings
        line(2, "errors:")
        for offset in 0..<count {
            let mapping = pool[(start + offset) % pool.count]
            line(3, "\(mapping.status):")
            for entry in mapping.lines { line(4, entry) }
        }
    }

    /// `Invoices2` gives `invoices-2`.
    private static func pathSegment(_ plural: String) -> String {
        let lower = plural.lowercased()
        guard let digits = lower.firstIndex(where: \.isNumber) else { return lower }
        return lower[..<digits] + "-" + lower[digits...]
    }
}
