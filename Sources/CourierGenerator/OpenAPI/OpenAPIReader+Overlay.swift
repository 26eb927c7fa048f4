import Foundation

/// An overlay applied to what the reader made of its document: the service's settings, extra
/// error schemas and models, default errors and hints, and per-operation additions. Every name
/// the overlay uses is checked against the document, at the overlay's own `file:line:col`.
extension OpenAPIReader {
    mutating func apply(_ overlay: OverlaySpec) {
        checkNames(in: overlay)
        if let name = overlay.serviceName {
            file.serviceName = name
            file.serviceLocation = overlay.serviceLocation ?? file.serviceLocation
        }
        if let description = overlay.description { file.description = description }
        if let baseURL = overlay.baseURL { file.baseURL = baseURL }
        if let access = overlay.access { file.access = access }
        if let fake = overlay.generatesFake { file.generatesFake = fake }
        if let equality = overlay.equality { file.equality = equality }
        file.headers += overlay.headers
        file.includes += overlay.file.includes
        file.errorSchemas += overlay.file.errorSchemas
        file.models += overlay.file.models
        file.brokenNames.formUnion(overlay.file.brokenNames)
        file.defaultErrors = Self.merge(overlay.defaultErrors, over: file.defaultErrors, inherited: [])
        requireBodies(of: overlay.defaultErrors, in: file.defaultErrors)
        file.defaultResilience = Self.merge(overlay.defaultResilience, over: file.defaultResilience)

        for operation in overlay.operations {
            guard let name = endpointsByOperationID[operation.key] ?? (file.endpoints.contains { $0.name == operation.key } ? operation.key : nil),
                  let index = file.endpoints.firstIndex(where: { $0.name == name }) else {
                if filteredOut.contains(operation.key) {
                    document.reporter.warning("operation '\(operation.key)' is left out by 'filter' or 'exclude'; "
                                              + "what the overlay says of it is not used", at: operation.location)
                } else if allOperationIDs.contains(operation.key) {
                    document.reporter.warning("operation '\(operation.key)' is left out of the client (a warning in the document "
                                              + "says why); what the overlay says of it is not used", at: operation.location)
                } else {
                    reportUnknownOperation(operation.key, at: operation.location)
                }
                continue
            }
            var endpoint = file.endpoints[index]
            if let description = operation.description { endpoint.description = description }
            endpoint.errors = Self.merge(operation.errors, over: endpoint.errors, inherited: file.defaultErrors)
            requireBodies(of: operation.errors, in: endpoint.errors)
            endpoint.resilience = Self.merge(operation.resilience, over: endpoint.resilience)
            if let pagination = operation.pagination { endpoint.pagination = pagination }
            file.endpoints[index] = endpoint
        }
    }

    /// An overlay mapping that reads the body (a field discriminator, a `message.field`) and
    /// names none needs the document to have given its status a body; where it did not, that is
    /// the error a spec's mapping without `body` gets, at the overlay's mapping.
    func requireBodies(of added: [ErrorMappingSpec], in merged: [ErrorMappingSpec]) {
        for mapping in merged where mapping.bodySchema == nil && added.contains(where: { $0.location == mapping.location }) {
            if case .discriminated(let discriminator) = mapping.outcome, case .bodyField = discriminator.source {
                document.reporter.error("the error mapping for \(mapping.status) discriminates on a body field, so it needs 'body' to name "
                                        + "the error schema (the document gives this status no body to take)", at: mapping.location)
            } else if mapping.allCases.contains(where: { $0.messageField != nil }) {
                document.reporter.error("the error mapping for \(mapping.status) reads its message from a body field, so it needs 'body' "
                                        + "to name the error schema (the document gives this status no body to take)", at: mapping.location)
            }
        }
    }

    /// The document's mappings with the overlay's put in their place, status by status. An
    /// overlay mapping that names no body (`404: repositoryNotFound`, a rename, or one that
    /// discriminates on a body field or reads its message from one) keeps the body the document
    /// gave that status, on the operation or in the defaults.
    static func merge(_ added: [ErrorMappingSpec], over existing: [ErrorMappingSpec], inherited: [ErrorMappingSpec]) -> [ErrorMappingSpec] {
        guard !added.isEmpty else { return existing }
        var result = existing
        for var mapping in added {
            let previous = existing.first { $0.status == mapping.status } ?? inherited.first { $0.status == mapping.status }
            if mapping.bodySchema == nil, let schema = previous?.bodySchema, mapping.conditions.isEmpty {
                switch mapping.outcome {
                case .single(var errorCase):
                    mapping.bodySchema = schema
                    errorCase.bodySchema = schema
                    if errorCase.description == nil, let previous, case .single(let old) = previous.outcome {
                        errorCase.description = old.description
                    }
                    mapping.outcome = .single(errorCase)
                case .discriminated(let discriminator):
                    mapping.bodySchema = schema
                    mapping.outcome = .discriminated(discriminator.carrying(schema))
                }
            }
            if let index = result.firstIndex(where: { $0.status == mapping.status }) {
                result[index] = mapping
            } else {
                result.append(mapping)
            }
        }
        return result
    }

    /// The document's hints with each one the overlay sets in its place.
    static func merge(_ added: ResilienceHints, over existing: ResilienceHints) -> ResilienceHints {
        var result = existing
        if let key = added.idempotencyKey { result.idempotencyKey = key }
        if let timeout = added.timeout { result.timeout = timeout }
        if let retry = added.retry { result.retry = retry }
        if let breaker = added.breaker { result.breaker = breaker }
        return result
    }

    /// Every operation, tag and schema the overlay names exists in the document.
    mutating func checkNames(in overlay: OverlaySpec) {
        for filter in [overlay.reading.include, overlay.reading.exclude].compactMap({ $0 }) {
            for operation in filter.operations where !allOperationIDs.contains(operation.name) {
                reportUnknownOperation(operation.name, at: operation.location)
            }
            for tag in filter.tags where !allTags.contains(tag.name) {
                let hint = Suggestions.closest(to: tag.name, among: allTags.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                document.reporter.error("no operation of the document has the tag '\(NodeReader.abbreviated(tag.name))'\(hint)",
                                        at: tag.location)
            }
        }
        for (key, named) in overlay.reading.operationNames where !allOperationIDs.contains(key) {
            reportUnknownOperation(key, at: named.location)
        }
        let schemas = document.root.flatMap { document.child($0, "components") }.flatMap { document.child($0, "schemas") }
        let schemaKeys = schemas.map { document.entries($0).map(\.key) } ?? []
        let known = Set(schemaKeys)
        for (key, named) in overlay.reading.schemaNames.merging(overlay.reading.typeOverrides, uniquingKeysWith: { first, _ in first })
            where !known.contains(key) {
            let hint = Suggestions.closest(to: key, among: schemaKeys).map { "; did you mean '\($0)'?" } ?? ""
            // A 2.0 document's schemas are its `definitions`, as its author knows them.
            let section = document.isSwagger2 ? "definitions" : "components/schemas"
            document.reporter.error("the document has no schema '\(NodeReader.abbreviated(key))' under \(section)\(hint)",
                                    at: named.location)
        }
        if let include = overlay.reading.include, endpointsByOperationID.isEmpty, !allOperationIDs.isEmpty {
            let location = include.operations.first?.location ?? include.tags.first?.location ?? include.paths.first?.location
            document.reporter.warning("'filter' keeps none of the document's \(allOperationIDs.count) operations",
                                      at: location ?? overlay.documentLocation)
        }
    }

    func reportUnknownOperation(_ key: String, at location: SourceLocation) {
        let hint = Suggestions.closest(to: key, among: allOperationIDs.sorted()).map { "; did you mean '\($0)'?" } ?? ""
        document.reporter.error("the document has no operation '\(NodeReader.abbreviated(key))'\(hint)", at: location)
    }
}
