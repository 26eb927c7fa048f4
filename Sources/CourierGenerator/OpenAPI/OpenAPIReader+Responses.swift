import Foundation

/// Responses: the 2xx (and documented 3xx) become the response or its outcomes, with their header
/// fields; every other status becomes an error mapping, its schema an error schema, its case
/// named from the status or from the shared response it refers to.
extension OpenAPIReader {
    mutating func readResponses(_ operation: OpenAPIDocument.Located, endpoint: String, typeName: String,
                                location: SourceLocation) -> (ResponseSpec, [ErrorMappingSpec]) {
        var outcomes: [ResponseOutcomeSpec] = []
        var headers: [ResponseHeaderSpec] = []
        var stream: ResponseStreamSpec?
        var errors: [ErrorMappingSpec] = []
        var caseSchemas: [String: String?] = [:]
        let responses = document.child(operation, "responses")
        for entry in responses.map(document.entries) ?? [] {
            let key = entry.key.uppercased()
            let status = Int(key)
            let matcher: StatusMatcher?
            switch (status, key) {
            case (let code?, _) where (200...399).contains(code):
                guard let (response, _) = document.resolve(entry.value) else { continue }
                var outcome = ResponseOutcomeSpec(status: code, body: nil, location: document.location(of: entry.keyNode))
                outcome.description = document.string(response, "description").map(Self.firstParagraph)
                if let (type, contentType, coding, streamed) = responseBody(response, endpoint: endpoint, name: typeName + "Response",
                                                                            status: code) {
                    if let streamed {
                        stream = streamed
                    } else if ![204, 205, 304].contains(code) {
                        outcome.body = type
                        outcome.contentType = contentType
                        outcome.mediaCoding = coding
                    }
                }
                outcomes.append(outcome)
                headers += responseHeaders(response, existing: headers)
                continue
            case (let code?, _) where (400...599).contains(code):
                matcher = .exact(code)
            case (nil, "4XX"), (nil, "5XX"):
                matcher = .range(key == "4XX" ? 4 : 5)
            case (nil, "DEFAULT"):
                matcher = .default
            case (nil, "2XX"), (nil, "3XX"):
                // A success range: any such status succeeds; its body, if any, is the first outcome's.
                if outcomes.isEmpty, let (response, _) = document.resolve(entry.value) {
                    var outcome = ResponseOutcomeSpec(status: key == "2XX" ? 200 : 304, body: nil, location: document.location(of: entry.keyNode))
                    if key == "2XX",
                       let (type, contentType, coding, _) = responseBody(response, endpoint: endpoint, name: typeName + "Response", status: 200) {
                        outcome.body = type
                        outcome.contentType = contentType
                        outcome.mediaCoding = coding
                    }
                    outcomes.append(outcome)
                }
                continue
            default:
                document.warning("response '\(entry.key)' of '\(endpoint)' is not a status Courier knows; it is left out", at: entry.keyNode)
                continue
            }
            guard let matcher else { continue }
            if let mapping = errorMapping(entry.value, status: matcher, endpoint: endpoint, caseSchemas: &caseSchemas) {
                errors.append(mapping)
            }
        }
        outcomes.sort { $0.status < $1.status }
        var response: ResponseSpec
        if stream != nil || outcomes.count <= 1 {
            let first = outcomes.first
            // A lone redirection (rare) or a success range: any 2xx succeeds, as without outcomes.
            let status = first.map { (200...299).contains($0.status) ? $0.status : 200 } ?? 204
            response = ResponseSpec(status: status, body: stream == nil ? first?.body : nil, description: first?.description,
                                    location: first?.location ?? location)
            response.contentType = stream == nil ? first?.contentType : nil
            response.mediaCoding = stream == nil ? first?.mediaCoding : nil
            response.stream = stream
        } else {
            response = ResponseSpec(status: outcomes[0].status, body: outcomes[0].body, description: outcomes[0].description,
                                    location: outcomes[0].location)
            response.outcomes = outcomes
        }
        response.headers = stream == nil ? headers : []
        return (response, errors)
    }

    /// A response's body: its type, its content type when that is not `application/json` (with
    /// `.json` when it is JSON under a vendor name), or how it streams.
    mutating func responseBody(_ response: OpenAPIDocument.Located, endpoint: String, name: String,
                               status: Int) -> (TypeReference, String?, MediaCoding?, ResponseStreamSpec?)? {
        guard let content = document.child(response, "content") else { return nil }
        let media = mediaTypes(content)
        guard !media.isEmpty else { return nil }
        func essence(_ type: String) -> String {
            type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? type
        }
        let preferred = media.first { Self.isJSONNamed(essence($0.key)) }
            ?? media.first { essence($0.key) == "text/event-stream" }
            ?? media.first { essence($0.key).hasPrefix("text/") }
            ?? media[0]
        let contentType = essence(preferred.key)
        let schema = document.child(preferred.value, "schema")
        let coding = vendorJSONCoding(contentType, mediaType: contentType, schema: schema,
                                      what: "the \(status) response of '\(endpoint)'", at: preferred.keyNode)
        if Self.isJSONMediaType(contentType) || coding == .json {
            var type = schema.map { self.type(of: $0, name: name) } ?? .primitive(.json)
            // A String under a vendor type would be read as text (the runtime knows JSON by the
            // Content-Type it receives), so a JSON string there is free-form JSON.
            if coding == .json, type.nonOptional == .primitive(.string) { type = .primitive(.json) }
            // An optional response body reads as its type: the status says whether there is one.
            return (type.nonOptional, contentType == "application/json" ? nil : contentType, coding, nil)
        }
        if contentType == "text/event-stream" {
            return (.primitive(.string), nil, nil, .events(.primitive(.string)))
        }
        if contentType.hasPrefix("text/") {
            return (.primitive(.string), contentType, nil, nil)
        }
        if contentType.hasPrefix("multipart/") {
            // A batch answer: the parts as they arrive. A multipart schema describes the parts by
            // name, as a form's fields, which says nothing of one type every part has.
            return (.primitive(.data), nil, nil, .parts(nil, contentType: contentType))
        }
        if contentType == "application/x-ndjson" || contentType == "application/jsonl" {
            let type = schema.map { self.type(of: $0, name: name) } ?? .primitive(.json)
            return (type, nil, nil, .lines(type.nonOptional, contentType: contentType))
        }
        return (.primitive(.data), contentType, nil, nil)
    }

    /// A response's header fields that Courier reads (scalars and string enums), not already listed.
    mutating func responseHeaders(_ response: OpenAPIDocument.Located, existing: [ResponseHeaderSpec]) -> [ResponseHeaderSpec] {
        var result: [ResponseHeaderSpec] = []
        let taken = Set(existing.map { $0.name.lowercased() })
        for entry in document.child(response, "headers").map(document.entries) ?? [] {
            guard !taken.contains(entry.key.lowercased()), !result.contains(where: { $0.name.lowercased() == entry.key.lowercased() }),
                  let (header, _) = document.resolve(entry.value) else { continue }
            let schema = document.child(header, "schema")
            var type = schema.map { self.type(of: $0, name: "Header" + SwiftIdentifier(typeNamed: entry.key).name) } ?? .primitive(.string)
            switch type.nonOptional {
            case .primitive(let primitive) where [.string, .int, .int64, .double, .bool, .date, .url].contains(primitive):
                break
            case .named(let model) where file.models.first(where: { $0.name == model })?.isStringEnum == true:
                break
            default:
                // A list or object header (rare): read as its text.
                type = .primitive(.string)
            }
            // A header may be missing from some responses, whatever `required` says of one.
            if !type.isOptional { type = .optional(type) }
            let allowed = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
            guard !entry.key.isEmpty, entry.key.allSatisfy(allowed.contains) else { continue }
            result.append(ResponseHeaderSpec(name: entry.key, type: type,
                                             description: document.string(header, "description").map(Self.firstParagraph),
                                             location: document.location(of: entry.keyNode)))
        }
        return result
    }

    // MARK: Errors

    /// An error status's mapping: its case (from a shared response's name, else the status) and
    /// its body's error schema.
    mutating func errorMapping(_ located: OpenAPIDocument.Located, status: StatusMatcher, endpoint: String,
                               caseSchemas: inout [String: String?]) -> ErrorMappingSpec? {
        guard let (response, target) = document.resolve(located) else { return nil }
        var caseName: String
        if let target, target.pointer.hasPrefix("/components/responses/"), let last = target.pointer.split(separator: "/").last {
            caseName = SwiftIdentifier(memberNamed: String(last)).name
        } else {
            switch status {
            case .exact(let code): caseName = StatusNames.caseName(for: code)
            case .range(let hundreds): caseName = hundreds == 4 ? "clientError" : "serverError"
            case .default: caseName = "unexpected"
            }
        }
        if caseName.isEmpty || caseName == "_" { caseName = "failure" }
        let schema = errorSchema(of: response, endpoint: endpoint)
        // One case name carries one schema within an endpoint.
        if let existing = caseSchemas[caseName], existing != schema {
            caseName += status.description.replacingOccurrences(of: "X", with: "xx")
        }
        caseSchemas[caseName] = schema
        let location = document.location(of: located)
        let errorCase = ErrorCaseSpec(name: caseName, bodySchema: schema,
                                      description: document.string(response, "description").map(Self.firstParagraph), location: location)
        return ErrorMappingSpec(status: status, bodySchema: schema, outcome: .single(errorCase), location: location)
    }

    /// The error schema of an error response's JSON body: the object schema's properties under a
    /// name of its own (shared by every response that refers to the same schema), or `JSON` for
    /// another shape; `nil` for a response without a JSON body.
    mutating func errorSchema(of response: OpenAPIDocument.Located, endpoint: String) -> String? {
        guard let content = document.child(response, "content") else { return nil }
        let json = mediaTypes(content).first {
            let essence = $0.key.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? $0.key
            return Self.isJSONNamed(essence)
        }
        guard let json, let schema = document.child(json.value, "schema"), let (resolved, target) = document.resolve(schema, reach: .schema) else {
            return nil
        }
        if let target, let known = errorSchemaNames[target] { return known }
        guard document.child(resolved, "properties") != nil, document.child(resolved, "allOf") == nil,
              document.child(resolved, "oneOf") == nil, document.child(resolved, "anyOf") == nil else {
            return PrimitiveType.json.rawValue
        }
        let component = target.flatMap { $0.pointer.split(separator: "/").last.map(String.init) }
        // An overlay's name for the component is the base, so that a schema used as a model too
        // becomes `<Name>Error` here, as without an overlay.
        let base = component.flatMap { options.schemaNames[$0]?.name } ?? component ?? SwiftIdentifier(typeNamed: endpoint).name + "Error"
        // The component's own name when it is free; a model of that name (the same schema used
        // as a body elsewhere) makes it `<Name>Error`.
        // A component named as a reserved type (`Error`) becomes `ErrorResponse`, not `Error2`.
        let name = uniqueTypeName(takenTypeNames.contains(SwiftIdentifier(typeNamed: base).name) && !base.lowercased().hasSuffix("error")
                                  ? base + "Error" : base, alternatives: [base + "Response"])
        if let target { errorSchemaNames[target] = name }
        let properties = properties(of: resolved, owner: name)
        file.errorSchemas.append(ErrorSchemaSpec(name: name, description: document.string(resolved, "description").map(Self.firstParagraph),
                                                 shape: .object, properties: properties, location: document.location(of: resolved)))
        return name
    }

    // MARK: Shared errors

    /// Error mappings that more than half of the operations documenting errors have alike
    /// (status, case and schema) move to the service's defaults, so that each failure enum lists
    /// what is particular to it. The defaults also type the operations that document no error
    /// (333 of GitHub's 814): their 404 is still GitHub's `not_found`, not an undocumented status.
    mutating func factorDefaultErrors() {
        let documenting = file.endpoints.filter { !$0.errors.isEmpty }.count
        guard documenting >= 4 else { return }
        struct Key: Hashable { let status: StatusMatcher; let caseName: String; let schema: String? }
        func key(_ mapping: ErrorMappingSpec) -> Key? {
            guard case .single(let errorCase) = mapping.outcome else { return nil }
            return Key(status: mapping.status, caseName: errorCase.name, schema: mapping.bodySchema)
        }
        var counts: [Key: Int] = [:]
        var first: [Key: ErrorMappingSpec] = [:]
        for endpoint in file.endpoints {
            for mapping in endpoint.errors {
                guard let key = key(mapping) else { continue }
                counts[key, default: 0] += 1
                if first[key] == nil { first[key] = mapping }
            }
        }
        let shared = Set(counts.filter { $0.value * 2 > documenting }.keys)
        guard !shared.isEmpty else { return }
        var seenStatuses: Set<StatusMatcher> = []
        // Marked inherited, as a spec's `defaults.errors` are: endpoints left with only these then
        // share the service's failure enum instead of each declaring a copy.
        file.defaultErrors = first.filter { shared.contains($0.key) }.values.sorted { $0.status < $1.status }
            .filter { seenStatuses.insert($0.status).inserted }
            .map { mapping in
                var inherited = mapping
                inherited.isInherited = true
                return inherited
            }
        let defaults = Set(file.defaultErrors.compactMap(key))
        for index in file.endpoints.indices {
            file.endpoints[index].errors.removeAll { mapping in key(mapping).map(defaults.contains) ?? false }
        }
    }

    /// Operations that document no error response, in a service whose defaults cover none
    /// either, would meet every failure as an unexpected status. Many documents describe only
    /// their successes (Square, Elasticsearch, NetBox); the statuses still say whether the caller
    /// or the server failed, so such a service gets `4XX` → `clientError` and `5XX` →
    /// `serverError` as its defaults, with the server's message. A case name an operation
    /// already uses for something else is not taken.
    mutating func supplyStatusClassErrors(at root: OpenAPIDocument.Located) {
        guard file.defaultErrors.isEmpty else { return }
        guard file.endpoints.contains(where: { $0.errors.isEmpty }) else { return }
        let taken = Set(file.endpoints.flatMap { $0.errors.flatMap(\.allCases).map(\.name) })
        let location = document.child(root, "paths").map(document.location) ?? document.location(of: root)
        var supplied: [ErrorMappingSpec] = []
        for (hundreds, name, meaning) in [(4, "clientError", "the request was refused"), (5, "serverError", "the server failed")]
            where !taken.contains(name) {
            let errorCase = ErrorCaseSpec(name: name, description: "Any \(hundreds)xx status: \(meaning).", location: location)
            supplied.append(ErrorMappingSpec(status: .range(hundreds), outcome: .single(errorCase), isInherited: true, location: location))
        }
        // Not a warning: nothing the document says is lost, and the cases document themselves.
        file.defaultErrors = supplied
    }
}
