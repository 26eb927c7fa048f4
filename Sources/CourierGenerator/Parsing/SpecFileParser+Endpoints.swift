import Foundation

/// Endpoints: method and path, parameters, body, response and resilience hints.
extension SpecFileParser {
    mutating func parseEndpoints(_ node: Node) {
        guard let mapping = reader.mapping(node, "'endpoints'") else { return }
        for entry in reader.entries(of: mapping) {
            checkIdentifier(entry.key, SwiftIdentifier(memberNamed: entry.key), "endpoint name", at: entry.keyNode)
            if let endpoint = parseEndpoint(entry) {
                file.endpoints.append(endpoint)
            }
        }
    }

    mutating func parseEndpoint(_ entry: NodeReader.Entry) -> EndpointSpec? {
        let name = entry.key
        let location = reader.location(of: entry.keyNode)
        let what = "endpoint '\(name)'"
        guard let body = reader.mapping(entry.value, what) else { return nil }
        var invalidMethodReported = false
        let fields = reader.fields(of: body, in: what, shape: .endpoint, owner: location) { unknown in
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

        let pagination = fields["paginate"].flatMap { parsePagination($0, endpoint: what) }
        let auth = fields["auth"].flatMap { parseEndpointAuth($0.value, endpoint: what) }

        guard let (method, _) = methodEntries.first, let template else { return nil }
        var endpoint = EndpointSpec(name: name, description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                                    method: method, path: template, parameters: parameters, body: requestBody, response: response,
                                    errors: errors, resilience: resilience, location: location)
        endpoint.pagination = pagination
        endpoint.auth = auth
        return endpoint
    }

    func parseParameters(_ node: Node, placement: ParameterSpec.Placement, endpoint: String) -> [ParameterSpec] {
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
            var style: ParameterStyleSpec?
            if case .mapping(let fieldsMapping) = entry.value {
                let shape: SpecShape = switch placement {
                case .path: .pathParameter
                case .query: .queryParameter
                case .header: .headerParameter
                }
                let fields = reader.fields(of: fieldsMapping, in: what, shape: shape, owner: location)
                guard let type = fields["type"] else { continue }
                typeNode = type.value
                defaultNode = fields["default"]?.value
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                isSecret = fields["secret"].flatMap { reader.bool($0.value, "'secret'") } ?? false
                style = parseParameterStyle(fields, what: what)
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
                                            isSecret: isSecret, style: style, description: description, location: location))
        }
        return parameters
    }

    func parseDefault(_ node: Node, type: TypeReference, what: String) -> LiteralValue? {
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
        // Only `Int` and `Int64` among the types that take a default begin with a vowel sound.
        let expected = type.nonOptional.description
        let article = expected.hasPrefix("Int") ? "an" : "a"
        reader.error("the default of \(what) must be \(article) \(expected), found '\(NodeReader.abbreviated(text))'", at: node)
        return nil
    }

    mutating func parseBody(_ entry: NodeReader.Entry, endpoint: String) -> RequestBodySpec? {
        let location = reader.location(of: entry.keyNode)
        guard case .mapping(let mapping) = entry.value else {
            return parseType(entry.value, "the request body").map { RequestBodySpec(type: $0, location: location) }
        }
        let fields = reader.fields(of: mapping, in: "'body'", shape: .body, owner: location)
        let files = fields["files"].map { parseMultipartFiles($0.value) } ?? []
        let description = fields["description"].flatMap { reader.string($0.value, "'description'") }
        let mediaType = fields["contentType"].flatMap { parseContentType($0) }
        let contentType = mediaType?.type ?? RequestBodySpec.json
        let formStyle = fields["form"].flatMap { parseFormStyle($0.value) }
        if let variants = fields["contentTypes"] {
            return parseBodyVariants(variants, fields: fields, description: description, location: location)
        }
        switch (fields["type"], fields["properties"]) {
        case (let type?, nil):
            return parseType(type.value, "the request body").map {
                var body = RequestBodySpec(type: $0, contentType: contentType, description: description, formStyle: formStyle, location: location)
                body.mediaCoding = mediaType?.coding
                body.files = files
                return body
            }
        case (nil, let properties?):
            let modelName = SwiftIdentifier(typeNamed: endpoint).name + "Body"
            let model = ModelSpec(name: modelName, description: description,
                                  kind: .object(parseProperties(properties.value, what: "the body of endpoint '\(endpoint)'")),
                                  synthesizedForEndpoint: endpoint, location: location)
            file.models.append(model)
            var body = RequestBodySpec(type: .named(modelName), contentType: contentType, description: description, formStyle: formStyle,
                                       location: location)
            body.mediaCoding = mediaType?.coding
            body.files = files
            return body
        case (_?, _?):
            reader.error("'body' has both 'type' and 'properties'; give a model with 'type' or an inline body with 'properties'", at: location)
        case (nil, nil):
            if !files.isEmpty {
                // A form of files only: no fields, so no body argument. `type` is a placeholder.
                var body = RequestBodySpec(type: .primitive(.string), contentType: contentType, description: description, formStyle: formStyle,
                                           location: location)
                body.mediaCoding = mediaType?.coding
                body.files = files
                body.isFilesOnly = true
                return body
            }
            reader.error("'body' needs 'type' (a model), 'properties' (an inline body) or, for a 'multipart/form-data' form of files only, 'files'",
                         at: location)
        }
        return nil
    }

    /// `files: { photo: { optional: true, description: …, contentType: image/png, headers: { X-Checksum: String } } }`,
    /// or `files: { photo: {} }`.
    func parseMultipartFiles(_ node: Node) -> [MultipartFileSpec] {
        guard let mapping = reader.mapping(node, "'files'") else { return [] }
        var files: [MultipartFileSpec] = []
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            checkIdentifier(entry.key, SwiftIdentifier(memberNamed: entry.key), "file name", at: entry.keyNode)
            guard let fileMapping = reader.mapping(entry.value, "file '\(entry.key)'") else { continue }
            let fields = reader.fields(of: fileMapping, in: "file '\(entry.key)'", shape: .multipartFile, owner: location)
            var file = MultipartFileSpec(name: entry.key,
                                         isOptional: fields["optional"].flatMap { reader.bool($0.value, "'optional'") } ?? false,
                                         description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                                         location: location)
            if let contentTypeEntry = fields["contentType"], let contentType = reader.string(contentTypeEntry.value, "'contentType'") {
                if RequestBodySpec.isMediaType(contentType) {
                    file.contentType = contentType
                } else {
                    reader.error("the content type of file '\(entry.key)' is '\(NodeReader.abbreviated(contentType))', which is not a media type "
                                 + "such as 'image/png'", at: contentTypeEntry.value)
                }
            }
            if let headers = fields["headers"] {
                file.headers = parsePartHeaders(headers.value, file: entry.key)
            }
            files.append(file)
        }
        return files
    }

    /// A file's `headers:`, modelled on OpenAPI's `encoding.<part>.headers`: each a name and the
    /// type of its value (or `{ type:, description: }`), given by the caller for each request.
    func parsePartHeaders(_ node: Node, file: String) -> [PartHeaderSpec] {
        let what = "the headers of file '\(file)'"
        guard let mapping = reader.mapping(node, what) else { return [] }
        var headers: [PartHeaderSpec] = []
        var seen: [String: String] = [:]
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            guard checkHeaderName(entry.key, at: entry.keyNode) else { continue }
            switch entry.key.lowercased() {
            case "content-type":
                reader.error("file '\(file)' declares the part header 'Content-Type', which the form writes from the file's content type; "
                             + "the caller gives it in 'MultipartForm.File(contentType:)' (write 'contentType:' under the file to document the usual one)",
                             at: entry.keyNode)
                continue
            case "content-disposition":
                reader.error("file '\(file)' declares the part header 'Content-Disposition', which the form writes from the part's name "
                             + "(the key under 'files') and the file name in 'MultipartForm.File(filename:)'", at: entry.keyNode)
                continue
            default:
                break
            }
            if let earlier = seen[entry.key.lowercased()] {
                reader.error("file '\(file)' declares the part header '\(entry.key)' twice (also as '\(earlier)'); header names are case-insensitive",
                             at: entry.keyNode)
                continue
            }
            seen[entry.key.lowercased()] = entry.key
            var typeNode = entry.value
            var description: String?
            if case .mapping(let fieldsMapping) = entry.value {
                let fields = reader.fields(of: fieldsMapping, in: "part header '\(entry.key)' of file '\(file)'", shape: .partHeader, owner: location)
                guard let type = fields["type"] else { continue }
                typeNode = type.value
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
            }
            guard let type = parseType(typeNode, "the type of part header '\(entry.key)' of file '\(file)'") else { continue }
            headers.append(PartHeaderSpec(name: entry.key, fileName: file, type: type, description: description, location: location))
        }
        return headers
    }

    func parseResponse(_ entry: NodeReader.Entry?, endpointLocation: SourceLocation, endpoint: String) -> ResponseSpec {
        guard let entry else { return ResponseSpec(status: 204, body: nil, location: endpointLocation) }
        let location = reader.location(of: entry.keyNode)
        guard case .mapping(let mapping) = entry.value else {
            let body = parseType(entry.value, "the response")
            guard body == .primitive(.binary) else { return ResponseSpec(status: 200, body: body, location: location) }
            var response = ResponseSpec(status: 200, body: nil, location: location)
            response.stream = .bytes(contentType: "application/octet-stream")
            return response
        }
        if reader.entries(of: mapping).contains(where: { Self.isStatusKey($0.key) }) {
            return parseOutcomes(mapping, at: entry.keyNode, endpoint: endpoint)
        }
        let fields = reader.fields(of: mapping, in: "'response'",
                                   shape: .response, owner: location)
        var body = fields["body"].flatMap { parseType($0.value, "the response body") }
        let mediaType = fields["contentType"].flatMap { parseContentType($0) }
        let contentType = mediaType?.type
        var stream: ResponseStreamSpec?
        let streamed = ["body", "events", "lines"].filter { fields[$0] != nil }
        if streamed.count > 1 {
            reader.error("the response of \(endpoint) has \(streamed.map { "'\($0)'" }.joined(separator: " and ")); give one of them",
                         at: fields[streamed[1]]?.keyNode ?? entry.keyNode)
        }
        var bufferedContentType: String?
        var mediaCoding: MediaCoding?
        let isStreamed = body == .primitive(.binary) || fields["events"] != nil || fields["lines"] != nil
        if mediaType?.coding != nil, isStreamed, let node = fields["contentType"]?.value {
            // A stream is read by its own reader (bytes, events, lines), never decoded whole.
            reader.error("the response of \(endpoint) is streamed, so its 'contentType' has no 'coding'; write the media type alone", at: node)
        }
        if body == .primitive(.binary) {
            stream = .bytes(contentType: contentType ?? "application/octet-stream")
            body = nil
        } else if let events = fields["events"].flatMap({ parseType($0.value, "the events") }) {
            stream = .events(events)
        } else if let lines = fields["lines"].flatMap({ parseType($0.value, "the lines") }) {
            stream = .lines(lines, contentType: contentType ?? "application/jsonl")
        } else if let contentType, let node = fields["contentType"]?.value, RequestBodySpec.isMultipart(contentType) {
            // A batch answer: the parts stream; `body`, if given, is each part's type.
            if checkMediaType(contentType, at: node) {
                stream = .parts(body, contentType: contentType)
            }
            body = nil
        } else if let contentType, let node = fields["contentType"]?.value {
            if body == nil {
                reader.error("'contentType' of the response of \(endpoint) is '\(contentType)', but the response has no 'body'", at: node)
            } else if checkMediaType(contentType, at: node) {
                bufferedContentType = contentType
                mediaCoding = mediaType?.coding
            }
        }
        var status = body == nil && stream == nil ? 204 : 200
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
        var response = ResponseSpec(status: status, body: body,
                                    description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                                    location: location)
        response.stream = stream
        response.contentType = bufferedContentType
        response.mediaCoding = mediaCoding
        response.headers = fields["headers"].map { parseResponseHeaders($0.value, endpoint: endpoint) } ?? []
        return response
    }

    /// Whether a key under `response:` is a status (three digits) rather than a field.
    static func isStatusKey(_ key: String) -> Bool {
        key.count == 3 && key.allSatisfy(\.isASCII) && key.allSatisfy(\.isNumber)
    }

    /// `response: { 200: Report, 202: { body: Job, case: queued }, 304: { description: … }, headers: … }`.
    func parseOutcomes(_ mapping: Node.Mapping, at keyNode: Node, endpoint: String) -> ResponseSpec {
        let location = reader.location(of: keyNode)
        var outcomes: [ResponseOutcomeSpec] = []
        var headers: [ResponseHeaderSpec] = []
        for entry in reader.entries(of: mapping) {
            let entryLocation = reader.location(of: entry.keyNode)
            guard Self.isStatusKey(entry.key) else {
                if SpecShape.responseStatuses.key(entry.key) != nil {
                    headers = parseResponseHeaders(entry.value, endpoint: endpoint)
                } else {
                    let hint = ["status", "body", "description", "contentType"].contains(entry.key)
                        ? "; with statuses as keys, each status has its own 'body' and 'description'" : ""
                    reader.error("unknown key '\(NodeReader.abbreviated(entry.key))' in the response of \(endpoint), which lists statuses; "
                                 + "allowed: statuses (200…399) and 'headers'\(hint)", at: entry.keyNode)
                }
                continue
            }
            guard let status = Int(entry.key), (200...399).contains(status) else {
                let why = entry.key.hasPrefix("4") || entry.key.hasPrefix("5") ? "; map failures under 'errors'" : ""
                reader.error("status \(entry.key) of \(endpoint) is not a success or redirection status (200…399)\(why)",
                             at: entry.keyNode)
                continue
            }
            var outcome = ResponseOutcomeSpec(status: status, body: nil, location: entryLocation)
            if case .mapping(let fieldsMapping) = entry.value {
                let fields = reader.fields(of: fieldsMapping, in: "status \(status) of \(endpoint)",
                                           shape: .outcome, owner: entryLocation)
                outcome.body = fields["body"].flatMap { parseType($0.value, "the \(status) response body") }
                outcome.description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                if let caseEntry = fields["case"], let name = reader.string(caseEntry.value, "'case'") {
                    let identifier = SwiftIdentifier(memberNamed: name)
                    checkIdentifier(name, identifier, "case", at: caseEntry.value)
                    outcome.caseName = identifier
                    outcome.hasExplicitCase = true
                }
                if let typeEntry = fields["contentType"], let (contentType, coding) = parseContentType(typeEntry) {
                    if outcome.body == nil {
                        reader.error("'contentType' of status \(status) of \(endpoint) is '\(contentType)', but that status has no 'body'",
                                     at: typeEntry.value)
                    } else if checkMediaType(contentType, at: typeEntry.value) {
                        outcome.contentType = contentType
                        outcome.mediaCoding = coding
                    }
                }
            } else if case .scalar = entry.value {
                outcome.body = parseType(entry.value, "the \(status) response body")
            } else {
                reader.error("status \(status) of \(endpoint) must be a type or a mapping with 'body', 'description', 'case' "
                             + "or 'contentType', found \(reader.kind(of: entry.value))", at: entry.value)
            }
            if outcome.body != nil && [204, 205, 304].contains(status) {
                reader.error("a \(status) response has no body (RFC 9110); remove its 'body'", at: entry.keyNode)
                outcome.body = nil
            }
            outcomes.append(outcome)
        }
        outcomes.sort { $0.status < $1.status }
        guard let first = outcomes.first else {
            var response = ResponseSpec(status: 204, body: nil, location: location)
            response.headers = headers
            return response
        }
        var response = ResponseSpec(status: first.status, body: first.body, description: first.description, location: location)
        response.headers = headers
        if outcomes.count == 1 {
            // One status keeps the plain shape: no enum of one case.
            if !(200...299).contains(first.status) {
                reader.error("the only status of \(endpoint) is \(first.status); a redirection is an outcome beside a 2xx status, "
                             + "not the only one", at: first.location)
            }
            if first.hasExplicitCase {
                reader.warning("'case' of status \(first.status) of \(endpoint) is not used: an endpoint with one success status "
                               + "returns its body, not an enum", at: first.location)
            }
            response.contentType = first.contentType
            response.mediaCoding = first.mediaCoding
        } else {
            response.outcomes = outcomes
        }
        return response
    }

    /// `headers: { ETag: String?, X-Total-Count: { type: Int, description: … } }` under `response:`.
    func parseResponseHeaders(_ node: Node, endpoint: String) -> [ResponseHeaderSpec] {
        guard let mapping = reader.mapping(node, "'headers' of the response of \(endpoint)") else { return [] }
        var headers: [ResponseHeaderSpec] = []
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            guard checkHeaderName(entry.key, at: entry.keyNode) else { continue }
            checkIdentifier(entry.key, SwiftIdentifier(memberNamed: entry.key), "header", at: entry.keyNode)
            let what = "response header '\(entry.key)'"
            var type: TypeReference?
            var description: String?
            if case .mapping(let fieldsMapping) = entry.value {
                let fields = reader.fields(of: fieldsMapping, in: what, shape: .responseHeader, owner: location)
                type = fields["type"].flatMap { parseType($0.value, "the type of \(what)") }
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
            } else {
                type = parseType(entry.value, "the type of \(what)")
            }
            guard let type else { continue }
            headers.append(ResponseHeaderSpec(name: entry.key, type: type, description: description, location: location))
        }
        return headers
    }

    /// Reports a `contentType` that is not `type/subtype` (with optional parameters).
    func checkMediaType(_ contentType: String, at node: Node) -> Bool {
        if RequestBodySpec.isMediaType(contentType) { return true }
        reader.error("'\(NodeReader.abbreviated(contentType))' is not a media type such as 'text/plain' or 'application/json'", at: node)
        return false
    }

    // MARK: Resilience

    func parseResilience(_ fields: [String: NodeReader.Entry]) -> ResilienceHints {
        var hints = ResilienceHints()
        if let entry = fields["timeout"] { hints.timeout = reader.seconds(entry.value, "'timeout'") }
        if let entry = fields["retry"] {
            if reader.scalarText(entry.value) == "false" {
                hints.retry = .disabled
            } else if let mapping = reader.mapping(entry.value, "'retry' (false or a mapping)") {
                let retry = reader.fields(of: mapping, in: "'retry'", shape: .retry, owner: reader.location(of: entry.keyNode))
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
                let breaker = reader.fields(of: mapping, in: "'breaker'",
                                            shape: .breaker, owner: reader.location(of: entry.keyNode))
                let rateKeys = ["failureRate", "minimumCalls", "window"].filter { breaker[$0] != nil }
                if breaker["failureThreshold"] != nil, let first = rateKeys.first, let node = breaker[first] {
                    // Two models at once would leave one of them silently ignored.
                    reader.error("'breaker' takes 'failureThreshold' (opens after that many failures in a row) "
                                 + "or '\(first)' (opens on a failure rate within a window), not both", at: node.keyNode)
                }
                hints.breaker = .custom(BreakerPolicySpec(
                    failureThreshold: breaker["failureThreshold"].flatMap { reader.integer($0.value, "'failureThreshold'", in: 1...Int.max) },
                    failureRate: breaker["failureRate"].flatMap { reader.fraction($0.value, "'failureRate'") },
                    minimumCalls: breaker["minimumCalls"].flatMap { reader.integer($0.value, "'minimumCalls'", in: 1...Int.max) },
                    window: breaker["window"].flatMap { reader.seconds($0.value, "'window'") },
                    resetAfter: breaker["resetAfter"].flatMap { reader.seconds($0.value, "'resetAfter'") },
                    successesToClose: breaker["successesToClose"].flatMap { reader.integer($0.value, "'successesToClose'", in: 1...1000) }))
            }
        }
        return hints
    }

    func parseIdempotencyKey(_ node: Node) -> IdempotencyKeySpec? {
        if case .mapping(let mapping) = node {
            let fields = reader.fields(of: mapping, in: "'idempotencyKey'", shape: .idempotencyKey, owner: reader.location(of: node))
            guard let entry = fields["header"], let name = reader.string(entry.value, "'header'"),
                  checkHeaderName(name, at: entry.value) else { return nil }
            return IdempotencyKeySpec(headerName: name)
        }
        return reader.bool(node, "'idempotencyKey' (true, false or { header: Name })") == true ? IdempotencyKeySpec() : nil
    }
}
