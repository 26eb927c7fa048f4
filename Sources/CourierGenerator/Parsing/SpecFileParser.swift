import Foundation
import Yams

/// Turns one file's node tree into a ``ParsedSpecFile``: the first, structural half of parsing.
/// Cross-references (types, error schemas, includes) are checked later by ``SpecValidator``.
struct SpecFileParser {
    static let serviceKeys = ["service", "description", "baseURL", "include", "headers", "auth", "coding",
                              "defaults", "errorSchemas", "models", "endpoints"]
    static let sharedFileKeys = ["description", "include", "errorSchemas", "models"]
    /// Keys only a service has: a file with any of them is checked as a service.
    static let serviceOnlyKeys = ["service", "baseURL", "headers", "auth", "coding", "defaults", "endpoints"]
    static let endpointKeys = ["description"] + HTTPMethod.allCases.map(\.specKey)
        + ["path", "query", "headers", "body", "response", "errors", "idempotencyKey", "timeout", "retry", "breaker"]

    let reader: NodeReader
    private(set) var file: ParsedSpecFile

    init(path: String) {
        reader = NodeReader(path: path)
        file = ParsedSpecFile(path: path)
    }

    /// Parses the document root. `nil` means the file held no YAML document.
    mutating func parse(root: Node?) -> ParsedSpecFile {
        guard let root else {
            reader.error("the file is empty; a spec needs at least 'service', 'baseURL' and 'endpoints'", at: .start(of: file.path))
            return file
        }
        guard case .mapping(let mapping) = root else {
            reader.error("the top level must be a mapping with keys such as 'service' and 'endpoints', found \(reader.kind(of: root))", at: root)
            return file
        }
        let keys = reader.entries(of: mapping).map(\.key)
        file.isService = keys.contains { Self.serviceOnlyKeys.contains($0) } || !keys.contains { Self.sharedFileKeys.contains($0) }
        let fields = reader.fields(
            of: mapping, in: file.isService ? "the service" : "the shared file",
            allowed: file.isService ? Self.serviceKeys : Self.sharedFileKeys,
            required: file.isService ? ["service", "baseURL"] : [],
            owner: .start(of: file.path))

        if let entry = fields["service"], let name = reader.string(entry.value, "'service'") {
            file.serviceName = name
            file.serviceLocation = reader.location(of: entry.value)
            checkIdentifier(name, SwiftIdentifier(typeNamed: name), "service name", at: entry.value)
        }
        file.description = fields["description"].flatMap { reader.string($0.value, "'description'") }
        if let entry = fields["baseURL"] { file.baseURL = parseBaseURL(entry.value) }
        if let entry = fields["include"] { parseIncludes(entry.value) }
        if let entry = fields["headers"] { file.headers = parseHeaders(entry.value) }
        if let entry = fields["auth"] { file.auth = parseAuth(entry.value) }
        if let entry = fields["coding"] { file.coding = parseCoding(entry.value) }
        if let entry = fields["defaults"] { parseDefaults(entry.value) }
        if let entry = fields["errorSchemas"] { parseErrorSchemas(entry.value) }
        if let entry = fields["models"] { parseModels(entry.value) }
        if let entry = fields["endpoints"] { parseEndpoints(entry.value) }
        return file
    }

    // MARK: Service settings

    private func parseBaseURL(_ node: Node) -> URL? {
        guard let text = reader.string(node, "'baseURL'") else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            reader.error("'baseURL' must be an absolute http or https URL, found '\(NodeReader.abbreviated(text))'", at: node)
            return nil
        }
        if url.query != nil || url.fragment != nil {
            reader.error("'baseURL' must not have a query or fragment", at: node)
            return nil
        }
        return url
    }

    private mutating func parseIncludes(_ node: Node) {
        let items: [Node]
        if case .sequence = node {
            items = reader.sequence(node, "'include'") ?? []
        } else {
            items = [node]
        }
        for item in items {
            guard let path = reader.string(item, "an 'include' entry") else { continue }
            file.includes.append((path, reader.location(of: item)))
        }
    }

    private func parseHeaders(_ node: Node) -> [HeaderSpec] {
        guard let mapping = reader.mapping(node, "'headers'") else { return [] }
        var headers: [HeaderSpec] = []
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            guard checkHeaderName(entry.key, at: entry.keyNode) else { continue }
            if case .mapping(let fieldsMapping) = entry.value {
                let fields = reader.fields(of: fieldsMapping, in: "header '\(entry.key)'",
                                           allowed: ["value", "secret", "description"], owner: location)
                headers.append(HeaderSpec(
                    name: entry.key,
                    value: fields["value"].flatMap { reader.string($0.value, "'value'") },
                    isSecret: fields["secret"].flatMap { reader.bool($0.value, "'secret'") } ?? false,
                    description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                    location: location))
            } else if let value = reader.string(entry.value, "the value of header '\(entry.key)'") {
                headers.append(HeaderSpec(name: entry.key, value: value, location: location))
            }
        }
        return headers
    }

    private func parseAuth(_ node: Node) -> AuthSpec? {
        let location = reader.location(of: node)
        guard case .mapping(let mapping) = node else {
            return reader.choice(node, "'auth'", AuthSpec.Scheme.allCases).map { AuthSpec(scheme: $0, location: location) }
        }
        let fields = reader.fields(of: mapping, in: "'auth'", allowed: ["scheme", "header", "description"],
                                   required: ["scheme"], owner: location)
        guard let scheme = fields["scheme"].flatMap({ reader.choice($0.value, "'scheme'", AuthSpec.Scheme.allCases) }) else {
            return nil
        }
        var headerName = "Authorization"
        if let entry = fields["header"], let name = reader.string(entry.value, "'header'"), checkHeaderName(name, at: entry.value) {
            headerName = name
        }
        return AuthSpec(scheme: scheme, headerName: headerName,
                        description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                        location: location)
    }

    private func parseCoding(_ node: Node) -> CodingSpec {
        var coding = CodingSpec()
        guard let mapping = reader.mapping(node, "'coding'") else { return coding }
        let fields = reader.fields(of: mapping, in: "'coding'", allowed: ["keys", "dates"], owner: reader.location(of: node))
        if let entry = fields["keys"], let keys = reader.choice(entry.value, "'keys'", CodingSpec.KeyStrategy.allCases) {
            coding.keys = keys
        }
        if let entry = fields["dates"], let dates = reader.choice(entry.value, "'dates'", CodingSpec.DateStrategy.allCases) {
            coding.dates = dates
        }
        return coding
    }

    private mutating func parseDefaults(_ node: Node) {
        guard let mapping = reader.mapping(node, "'defaults'") else { return }
        let fields = reader.fields(of: mapping, in: "'defaults'", allowed: ["errors", "timeout", "retry", "breaker"],
                                   owner: reader.location(of: node))
        if let entry = fields["errors"] {
            file.defaultErrors = parseErrorMappings(entry.value, owner: "'defaults'").map {
                var mapping = $0
                mapping.isInherited = true
                return mapping
            }
        }
        file.defaultResilience = parseResilience(fields)
    }

    // MARK: Models and error schemas

    private mutating func parseModels(_ node: Node) {
        guard let mapping = reader.mapping(node, "'models'") else { return }
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            checkIdentifier(entry.key, SwiftIdentifier(typeNamed: entry.key), "model name", at: entry.keyNode)
            guard let body = reader.mapping(entry.value, "model '\(entry.key)'") else {
                file.brokenNames.insert(entry.key)
                continue
            }
            let keys = Set(reader.entries(of: body).map(\.key))
            let what = "model '\(entry.key)'"
            if keys.contains("enum") || keys.contains("properties") {
                let fields = reader.fields(of: body, in: what, allowed: ["description", "enum", "properties"], owner: location)
                let description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                if fields["enum"] != nil && fields["properties"] != nil {
                    reader.error("\(what) has both 'enum' and 'properties'; a model is either an object or a string enum", at: location)
                    file.brokenNames.insert(entry.key)
                } else if let values = fields["enum"] {
                    let cases = parseEnumCases(values.value, what: what)
                    file.models.append(ModelSpec(name: entry.key, description: description, kind: .stringEnum(cases), location: location))
                } else if let properties = fields["properties"] {
                    file.models.append(ModelSpec(name: entry.key, description: description,
                                                 kind: .object(parseProperties(properties.value, what: what)), location: location))
                }
            } else {
                file.models.append(ModelSpec(name: entry.key, kind: .object(parseProperties(entry.value, what: what)), location: location))
            }
        }
    }

    private func parseEnumCases(_ node: Node, what: String) -> [EnumCaseSpec] {
        guard let items = reader.sequence(node, "'enum' of \(what)") else { return [] }
        if items.isEmpty { reader.error("'enum' of \(what) needs at least one value", at: node) }
        var cases: [EnumCaseSpec] = []
        var seen: [String: SourceLocation] = [:]
        for item in items {
            let location = reader.location(of: item)
            var value: String?
            var description: String?
            var caseName: String?
            if case .mapping(let mapping) = item {
                let fields = reader.fields(of: mapping, in: "an enum value of \(what)", allowed: ["value", "case", "description"],
                                           required: ["value"], owner: location)
                value = fields["value"].flatMap { reader.string($0.value, "'value'") }
                caseName = fields["case"].flatMap { reader.string($0.value, "'case'") }
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
            } else {
                value = reader.string(item, "an enum value of \(what)")
            }
            guard let value else { continue }
            if let first = seen[value] {
                reader.error("enum value '\(NodeReader.abbreviated(value))' appears twice in \(what)", at: location,
                             notes: [.note("first written here", at: first)])
                continue
            }
            seen[value] = location
            let swiftName = SwiftIdentifier(memberNamed: caseName ?? value)
            checkIdentifier(caseName ?? value, swiftName, "enum value", at: item)
            cases.append(EnumCaseSpec(value: value, swiftName: swiftName, description: description, location: location))
        }
        return cases
    }

    private mutating func parseProperties(_ node: Node, what: String) -> [PropertySpec] {
        guard let mapping = reader.mapping(node, "the properties of \(what)") else { return [] }
        var properties: [PropertySpec] = []
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            checkIdentifier(entry.key, SwiftIdentifier(memberNamed: entry.key), "property name", at: entry.keyNode)
            var typeNode = entry.value
            var description: String?
            var jsonKey: String?
            if case .mapping(let fieldsMapping) = entry.value {
                let fields = reader.fields(of: fieldsMapping, in: "property '\(entry.key)' of \(what)",
                                           allowed: ["type", "description", "json"], required: ["type"], owner: location)
                guard let type = fields["type"] else { continue }
                typeNode = type.value
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                jsonKey = fields["json"].flatMap { reader.string($0.value, "'json'") }
            }
            guard let type = parseType(typeNode, "the type of property '\(entry.key)'") else { continue }
            if jsonKey != nil { file.explicitJSONKeys.insert(location) }
            var property = PropertySpec(name: entry.key, jsonKey: jsonKey, type: type, description: description, location: location)
            property.typeLocation = reader.location(of: typeNode)
            properties.append(property)
        }
        return properties
    }

    private mutating func parseErrorSchemas(_ node: Node) {
        guard let mapping = reader.mapping(node, "'errorSchemas'") else { return }
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            let what = "error schema '\(entry.key)'"
            checkIdentifier(entry.key, SwiftIdentifier(typeNamed: entry.key), "error schema name", at: entry.keyNode)
            guard let body = reader.mapping(entry.value, what) else {
                file.brokenNames.insert(entry.key)
                continue
            }
            let keys = Set(reader.entries(of: body).map(\.key))
            guard keys.contains("properties") else {
                file.errorSchemas.append(ErrorSchemaSpec(name: entry.key, shape: .object,
                                                         properties: parseProperties(entry.value, what: what), location: location))
                continue
            }
            let fields = reader.fields(of: body, in: what, allowed: ["description", "properties", "wrappedIn", "arrayIn"],
                                       owner: location)
            var shape = ErrorSchemaSpec.Shape.object
            if fields["wrappedIn"] != nil && fields["arrayIn"] != nil {
                reader.error("\(what) has both 'wrappedIn' and 'arrayIn'; choose one shape", at: location)
            } else if let key = fields["wrappedIn"].flatMap({ reader.string($0.value, "'wrappedIn'") }) {
                shape = .wrapped(key: key)
            } else if let key = fields["arrayIn"].flatMap({ reader.string($0.value, "'arrayIn'") }) {
                shape = .array(key: key)
            }
            let properties = fields["properties"].map { parseProperties($0.value, what: what) } ?? []
            file.errorSchemas.append(ErrorSchemaSpec(
                name: entry.key,
                description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                shape: shape, properties: properties, location: location))
        }
    }

    // MARK: Endpoints

    private mutating func parseEndpoints(_ node: Node) {
        guard let mapping = reader.mapping(node, "'endpoints'") else { return }
        for entry in reader.entries(of: mapping) {
            checkIdentifier(entry.key, SwiftIdentifier(memberNamed: entry.key), "endpoint name", at: entry.keyNode)
            if let endpoint = parseEndpoint(entry) {
                file.endpoints.append(endpoint)
            }
        }
    }

    private mutating func parseEndpoint(_ entry: NodeReader.Entry) -> EndpointSpec? {
        let name = entry.key
        let location = reader.location(of: entry.keyNode)
        let what = "endpoint '\(name)'"
        guard let body = reader.mapping(entry.value, what) else { return nil }
        var invalidMethodReported = false
        let fields = reader.fields(of: body, in: what, allowed: Self.endpointKeys, owner: location) { unknown in
            // `fetch: /pets` or `GET: /pets`: a method key that is not one.
            guard let value = reader.scalarText(unknown.value), value.hasPrefix("/") else { return false }
            let lower = unknown.key.lowercased()
            let hint = HTTPMethod.allCases.contains { $0.specKey == lower }
                ? "; methods are written in lowercase: '\(lower)'"
                : "; expected one of \(HTTPMethod.allCases.map(\.specKey).joined(separator: ", "))"
            reader.error("invalid HTTP method '\(NodeReader.abbreviated(unknown.key))' in \(what)\(hint)", at: unknown.keyNode)
            invalidMethodReported = true
            return true
        }

        // Method and path.
        let methodEntries = HTTPMethod.allCases.compactMap { method in fields[method.specKey].map { (method, $0) } }
            .sorted { reader.location(of: $0.1.keyNode) < reader.location(of: $1.1.keyNode) }
        if methodEntries.count > 1 {
            reader.error("\(what) has more than one method ('\(methodEntries.map(\.0.specKey).joined(separator: "', '"))'); declare one endpoint per method",
                         at: methodEntries[1].1.keyNode)
        }
        if methodEntries.isEmpty && !invalidMethodReported {
            reader.error("\(what) needs a method and path, such as 'get: /items/{id}'", at: location)
        }
        var template: PathTemplate?
        var pathNode: Node?
        if let (_, methodEntry) = methodEntries.first, let text = reader.string(methodEntry.value, "the path of \(what)") {
            pathNode = methodEntry.value
            switch TypeExpression.parsePathTemplate(text) {
            case .success(let parsed): template = parsed
            case .failure(let problem): reader.error(problem.message, at: methodEntry.value)
            }
        }

        // Parameters.
        var parameters: [ParameterSpec] = []
        if let entry = fields["path"] { parameters += parseParameters(entry.value, placement: .path, endpoint: what) }
        if let template, let pathNode {
            var seen = Set<String>()
            for placeholder in template.parameterNames {
                if !seen.insert(placeholder).inserted {
                    reader.error("path parameter '{\(placeholder)}' appears twice in '\(template)'", at: pathNode)
                } else if !parameters.contains(where: { $0.name == placeholder }) {
                    reader.error("path parameter '{\(placeholder)}' of \(what) is not declared under 'path:'", at: pathNode)
                }
            }
            for parameter in parameters where !seen.contains(parameter.name) {
                reader.error("path parameter '\(parameter.name)' is declared but '\(template)' does not use it", at: parameter.location)
            }
        }
        if let entry = fields["query"] { parameters += parseParameters(entry.value, placement: .query, endpoint: what) }
        if let entry = fields["headers"] { parameters += parseParameters(entry.value, placement: .header, endpoint: what) }

        let requestBody = fields["body"].flatMap { parseBody($0, endpoint: name) }
        let response = parseResponse(fields["response"], endpointLocation: location, endpoint: what)
        let errors = fields["errors"].map { parseErrorMappings($0.value, owner: what) } ?? []
        var resilience = parseResilience(fields)
        if let entry = fields["idempotencyKey"] { resilience.idempotencyKey = parseIdempotencyKey(entry.value) }

        guard let (method, _) = methodEntries.first, let template else { return nil }
        return EndpointSpec(name: name, description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                            method: method, path: template, parameters: parameters, body: requestBody, response: response,
                            errors: errors, resilience: resilience, location: location)
    }

    private func parseParameters(_ node: Node, placement: ParameterSpec.Placement, endpoint: String) -> [ParameterSpec] {
        guard let mapping = reader.mapping(node, "'\(placement == .header ? "headers" : placement.rawValue)' of \(endpoint)") else { return [] }
        var parameters: [ParameterSpec] = []
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            let what = "\(placement.rawValue) parameter '\(entry.key)'"
            if placement == .header {
                guard checkHeaderName(entry.key, at: entry.keyNode) else { continue }
            }
            checkIdentifier(entry.key, SwiftIdentifier(memberNamed: entry.key), "parameter name", at: entry.keyNode)
            var typeNode = entry.value
            var defaultNode: Node?
            var description: String?
            var isSecret = false
            if case .mapping(let fieldsMapping) = entry.value {
                var allowed = ["type", "description"]
                if placement != .path { allowed.append("default") }
                if placement == .header { allowed.append("secret") }
                let fields = reader.fields(of: fieldsMapping, in: what, allowed: allowed, required: ["type"], owner: location)
                guard let type = fields["type"] else { continue }
                typeNode = type.value
                defaultNode = fields["default"]?.value
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                isSecret = fields["secret"].flatMap { reader.bool($0.value, "'secret'") } ?? false
            }
            guard let type = parseType(typeNode, "the type of \(what)") else { continue }
            if placement == .path && type.isOptional {
                reader.error("\(what) cannot be optional; path parameters are always required", at: typeNode)
            }
            var defaultValue: LiteralValue?
            if let defaultNode {
                defaultValue = parseDefault(defaultNode, type: type, what: what)
            }
            parameters.append(ParameterSpec(name: entry.key, placement: placement, type: type, defaultValue: defaultValue,
                                            isSecret: isSecret, description: description, location: location))
        }
        return parameters
    }

    private func parseDefault(_ node: Node, type: TypeReference, what: String) -> LiteralValue? {
        guard let text = reader.string(node, "the default of \(what)") else { return nil }
        switch type.nonOptional {
        case .primitive(.string): return .string(text)
        case .primitive(.int), .primitive(.int64):
            if let value = Int(text) { return .integer(value) }
        case .primitive(.double):
            if let value = Double(text), value.isFinite { return .number(value) }
        case .primitive(.bool):
            if text == "true" || text == "false" { return .boolean(text == "true") }
        case .named:
            // An enum value; the validator checks it once every model is known.
            return .string(text)
        default:
            reader.error("\(what) of type '\(type)' cannot have a default", at: node)
            return nil
        }
        reader.error("the default of \(what) must be a \(type.nonOptional), found '\(NodeReader.abbreviated(text))'", at: node)
        return nil
    }

    private mutating func parseBody(_ entry: NodeReader.Entry, endpoint: String) -> RequestBodySpec? {
        let location = reader.location(of: entry.keyNode)
        guard case .mapping(let mapping) = entry.value else {
            return parseType(entry.value, "the request body").map { RequestBodySpec(type: $0, location: location) }
        }
        let fields = reader.fields(of: mapping, in: "'body'", allowed: ["type", "properties", "description", "contentType"],
                                   owner: location)
        let description = fields["description"].flatMap { reader.string($0.value, "'description'") }
        let contentType = fields["contentType"].flatMap { reader.string($0.value, "'contentType'") } ?? "application/json"
        switch (fields["type"], fields["properties"]) {
        case (let type?, nil):
            return parseType(type.value, "the request body").map {
                RequestBodySpec(type: $0, contentType: contentType, description: description, location: location)
            }
        case (nil, let properties?):
            let modelName = SwiftIdentifier(typeNamed: endpoint).name + "Body"
            let model = ModelSpec(name: modelName, description: description,
                                  kind: .object(parseProperties(properties.value, what: "the body of endpoint '\(endpoint)'")),
                                  synthesizedForEndpoint: endpoint, location: location)
            file.models.append(model)
            return RequestBodySpec(type: .named(modelName), contentType: contentType, description: description, location: location)
        case (_?, _?):
            reader.error("'body' has both 'type' and 'properties'; give a model with 'type' or an inline body with 'properties'", at: location)
        case (nil, nil):
            reader.error("'body' needs 'type' (a model) or 'properties' (an inline body)", at: location)
        }
        return nil
    }

    private func parseResponse(_ entry: NodeReader.Entry?, endpointLocation: SourceLocation, endpoint: String) -> ResponseSpec {
        guard let entry else { return ResponseSpec(status: 204, body: nil, location: endpointLocation) }
        let location = reader.location(of: entry.keyNode)
        guard case .mapping(let mapping) = entry.value else {
            return ResponseSpec(status: 200, body: parseType(entry.value, "the response"), location: location)
        }
        let fields = reader.fields(of: mapping, in: "'response'", allowed: ["status", "body", "description"], owner: location)
        let body = fields["body"].flatMap { parseType($0.value, "the response body") }
        var status = body == nil ? 204 : 200
        if let statusEntry = fields["status"] {
            if let text = reader.scalarText(statusEntry.value), let value = Int(text), (200...299).contains(value) {
                status = value
            } else {
                reader.error("the success status of \(endpoint) must be 200…299, found \(reader.kind(of: statusEntry.value))", at: statusEntry.value)
            }
        }
        if body != nil && (status == 204 || status == 205) {
            reader.error("a \(status) response has no body; remove 'body' or use another status", at: location)
        }
        return ResponseSpec(status: status, body: body,
                            description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                            location: location)
    }

    // MARK: Error mappings

    /// Parses an `errors:` mapping of endpoint or defaults.
    private func parseErrorMappings(_ node: Node, owner: String) -> [ErrorMappingSpec] {
        guard let mapping = reader.mapping(node, "'errors' of \(owner)") else { return [] }
        var mappings: [ErrorMappingSpec] = []
        var seen: [StatusMatcher: SourceLocation] = [:]
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            guard let status = parseStatusKey(entry.key, at: entry.keyNode) else { continue }
            if let first = seen[status] {
                reader.error("status \(status) is mapped twice in 'errors' of \(owner); map each status to one case", at: location,
                             notes: [.note("first mapped here", at: first)])
                continue
            }
            seen[status] = location
            if let parsed = parseErrorMapping(entry.value, status: status, location: location) {
                mappings.append(parsed)
            }
        }
        return mappings
    }

    private func parseStatusKey(_ key: String, at node: Node) -> StatusMatcher? {
        if key == "default" { return .default }
        let upper = key.uppercased()
        if upper.count == 3, upper.hasSuffix("XX"), let digit = upper.first?.wholeNumberValue {
            if digit == 4 || digit == 5 { return .range(digit) }
            reader.error("invalid status range '\(key)'; error mappings take 4XX or 5XX", at: node)
            return nil
        }
        if key.count == 3, key.allSatisfy(\.isASCII), let status = Int(key) {
            if (400...599).contains(status) { return .exact(status) }
            if (100...399).contains(status) {
                reader.error("status \(status) is not an error status; error mappings take 400…599, 4XX, 5XX or default", at: node)
                return nil
            }
        }
        reader.error("invalid status '\(NodeReader.abbreviated(key))'; use a status 400…599, 4XX, 5XX or default", at: node)
        return nil
    }

    private func parseErrorMapping(_ node: Node, status: StatusMatcher, location: SourceLocation) -> ErrorMappingSpec? {
        let what = "the error mapping for \(status)"
        guard case .mapping(let mapping) = node else {
            guard let name = reader.string(node, "the case of \(what)") else { return nil }
            checkIdentifier(name, SwiftIdentifier(memberNamed: name), "error case name", at: node)
            return ErrorMappingSpec(status: status, outcome: .single(ErrorCaseSpec(name: name, location: reader.location(of: node))),
                                    location: location)
        }
        let fields = reader.fields(of: mapping, in: what,
                                   allowed: ["case", "body", "message", "description", "discriminator", "cases", "otherwise"],
                                   owner: location)
        let body = fields["body"].flatMap { reader.string($0.value, "'body'") }
        let message = fields["message"].flatMap { reader.string($0.value, "'message'") }
        let description = fields["description"].flatMap { reader.string($0.value, "'description'") }

        guard let discriminatorEntry = fields["discriminator"] else {
            for key in ["cases", "otherwise"] {
                if let entry = fields[key] {
                    reader.error("'\(key)' needs a 'discriminator' in \(what)", at: entry.keyNode)
                }
            }
            guard let caseEntry = fields["case"] else {
                reader.error("\(what) is missing required key 'case'", at: location)
                return nil
            }
            guard let errorCase = parseCase(caseEntry.value, body: body, message: message, description: description,
                                            what: "the case of \(what)") else { return nil }
            return ErrorMappingSpec(status: status, bodySchema: body, outcome: .single(errorCase), description: description,
                                    location: location)
        }

        if let caseEntry = fields["case"] {
            reader.error("\(what) discriminates; name its fallback with 'otherwise' instead of 'case'", at: caseEntry.keyNode)
        }
        guard let source = parseDiscriminatorSource(discriminatorEntry.value) else { return nil }
        if case .bodyField = source, body == nil {
            reader.error("\(what) discriminates on a body field, so it needs 'body' to name the error schema", at: discriminatorEntry.keyNode)
        }
        var cases: [DiscriminatorSpec.Case] = []
        if let casesEntry = fields["cases"] {
            if let casesMapping = reader.mapping(casesEntry.value, "'cases'") {
                for entry in reader.entries(of: casesMapping) {
                    if let errorCase = parseCase(entry.value, body: body, message: nil, description: nil,
                                                 what: "the case for '\(entry.key)'") {
                        cases.append(.init(value: entry.key, errorCase: errorCase))
                    }
                }
            }
        } else {
            reader.error("\(what) has a 'discriminator' but no 'cases' mapping values to cases", at: location)
        }
        guard let otherwise = fields["otherwise"] else {
            reader.error("\(what) discriminates on '\(source)' but has no 'otherwise' fallback case; discriminator values are an open set",
                         at: location)
            return nil
        }
        guard let fallback = parseCase(otherwise.value, body: body, message: message, description: description,
                                       what: "'otherwise' of \(what)") else { return nil }
        let discriminator = DiscriminatorSpec(source: source, cases: cases, fallback: fallback,
                                              location: reader.location(of: discriminatorEntry.keyNode))
        return ErrorMappingSpec(status: status, bodySchema: body, outcome: .discriminated(discriminator),
                                description: description, location: location)
    }

    /// A case name, or `{ case:, message:, description: }`.
    private func parseCase(_ node: Node, body: String?, message: String?, description: String?, what: String) -> ErrorCaseSpec? {
        let location = reader.location(of: node)
        if case .mapping(let mapping) = node {
            let fields = reader.fields(of: mapping, in: what, allowed: ["case", "message", "description"],
                                       required: ["case"], owner: location)
            guard let caseEntry = fields["case"], let name = reader.string(caseEntry.value, "'case'") else { return nil }
            checkIdentifier(name, SwiftIdentifier(memberNamed: name), "error case name", at: caseEntry.value)
            return ErrorCaseSpec(name: name, bodySchema: body,
                                 message: fields["message"].flatMap { reader.string($0.value, "'message'") } ?? message,
                                 description: fields["description"].flatMap { reader.string($0.value, "'description'") } ?? description,
                                 location: reader.location(of: caseEntry.value))
        }
        guard let name = reader.string(node, what) else { return nil }
        checkIdentifier(name, SwiftIdentifier(memberNamed: name), "error case name", at: node)
        return ErrorCaseSpec(name: name, bodySchema: body, message: message, description: description, location: location)
    }

    private func parseDiscriminatorSource(_ node: Node) -> DiscriminatorSpec.Source? {
        var pathText: String?
        if case .mapping(let mapping) = node {
            let fields = reader.fields(of: mapping, in: "'discriminator'", allowed: ["field", "header"], owner: reader.location(of: node))
            switch (fields["field"], fields["header"]) {
            case (let field?, nil):
                pathText = reader.string(field.value, "'field'")
            case (nil, let header?):
                guard let name = reader.string(header.value, "'header'"), checkHeaderName(name, at: header.value) else { return nil }
                return .header(name)
            default:
                reader.error("'discriminator' needs exactly one of 'field' (a body field path) or 'header'", at: node)
                return nil
            }
        } else {
            pathText = reader.string(node, "'discriminator'")
        }
        guard let pathText else { return nil }
        switch TypeExpression.parseFieldPath(pathText) {
        case .success(let path): return .bodyField(path)
        case .failure(let problem):
            reader.error(problem.message, at: node)
            return nil
        }
    }

    // MARK: Resilience

    private func parseResilience(_ fields: [String: NodeReader.Entry]) -> ResilienceHints {
        var hints = ResilienceHints()
        if let entry = fields["timeout"] { hints.timeout = reader.seconds(entry.value, "'timeout'") }
        if let entry = fields["retry"] {
            if reader.scalarText(entry.value) == "false" {
                hints.retry = .disabled
            } else if let mapping = reader.mapping(entry.value, "'retry' (false or a mapping)") {
                let retry = reader.fields(of: mapping, in: "'retry'", allowed: ["maxAttempts", "baseDelay", "maxDelay", "nonIdempotent"],
                                          owner: reader.location(of: entry.keyNode))
                hints.retry = .custom(RetryPolicySpec(
                    maxAttempts: retry["maxAttempts"].flatMap { reader.integer($0.value, "'maxAttempts'", in: 1...100) },
                    baseDelay: retry["baseDelay"].flatMap { reader.seconds($0.value, "'baseDelay'", allowingZero: true) },
                    maxDelay: retry["maxDelay"].flatMap { reader.seconds($0.value, "'maxDelay'", allowingZero: true) },
                    retriesNonIdempotent: retry["nonIdempotent"].flatMap { reader.bool($0.value, "'nonIdempotent'") } ?? false))
            }
        }
        if let entry = fields["breaker"] {
            if reader.scalarText(entry.value) == "false" {
                hints.breaker = .disabled
            } else if let mapping = reader.mapping(entry.value, "'breaker' (false or a mapping)") {
                let breaker = reader.fields(of: mapping, in: "'breaker'", allowed: ["failureThreshold", "resetAfter"],
                                            owner: reader.location(of: entry.keyNode))
                hints.breaker = .custom(BreakerPolicySpec(
                    failureThreshold: breaker["failureThreshold"].flatMap { reader.integer($0.value, "'failureThreshold'", in: 1...Int.max) },
                    resetAfter: breaker["resetAfter"].flatMap { reader.seconds($0.value, "'resetAfter'") }))
            }
        }
        return hints
    }

    private func parseIdempotencyKey(_ node: Node) -> IdempotencyKeySpec? {
        if case .mapping(let mapping) = node {
            let fields = reader.fields(of: mapping, in: "'idempotencyKey'", allowed: ["header"], required: ["header"],
                                       owner: reader.location(of: node))
            guard let entry = fields["header"], let name = reader.string(entry.value, "'header'"),
                  checkHeaderName(name, at: entry.value) else { return nil }
            return IdempotencyKeySpec(headerName: name)
        }
        return reader.bool(node, "'idempotencyKey' (true, false or { header: Name })") == true ? IdempotencyKeySpec() : nil
    }

    // MARK: Shared checks

    private func parseType(_ node: Node, _ what: String) -> TypeReference? {
        guard let text = reader.string(node, what) else { return nil }
        switch TypeExpression.parse(text) {
        case .success(let type): return type
        case .failure(let problem):
            reader.error("invalid type '\(NodeReader.abbreviated(text))' for \(what.replacingOccurrences(of: "the type of ", with: "")): \(problem.message)", at: node)
            return nil
        }
    }

    /// Reports names that cannot become Swift identifiers (no letters or digits at all).
    private func checkIdentifier(_ name: String, _ identifier: SwiftIdentifier, _ what: String, at node: Node) {
        if identifier.isPlaceholder {
            reader.error("\(what) '\(NodeReader.abbreviated(name))' has no letters or digits to form a Swift identifier", at: node)
        }
    }

    /// Header names are RFC 9110 tokens.
    @discardableResult
    private func checkHeaderName(_ name: String, at node: Node) -> Bool {
        let allowed = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        if !name.isEmpty && name.allSatisfy({ allowed.contains($0) }) { return true }
        reader.error("'\(NodeReader.abbreviated(name))' is not a valid HTTP header name", at: node)
        return false
    }
}
