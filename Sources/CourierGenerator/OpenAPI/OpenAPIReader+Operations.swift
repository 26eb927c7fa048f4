import Foundation

/// Operations: each becomes an endpoint named by its `operationId` (or by method and path), with
/// its path, query and header parameters, its request body and its security.
extension OpenAPIReader {
    static let methods: [(String, HTTPMethod)] = [("get", .get), ("put", .put), ("post", .post), ("delete", .delete),
                                                  ("options", .options), ("head", .head), ("patch", .patch)]

    mutating func readOperations(_ root: OpenAPIDocument.Located) {
        guard let paths = document.child(root, "paths") else {
            document.error("the document has no 'paths'; Courier makes a client of its operations", at: root)
            return
        }
        guard case .mapping = paths.node else {
            // A list or a scalar holds no operations: reading it as none would generate an empty client.
            document.error("'paths' must be a mapping from each path to its operations, such as '/pets: { get: … }'; "
                           + "found \(document.reporter.kind(of: paths.node))", at: paths)
            return
        }
        // Names first, so that every generated type name is taken before any model picks one.
        var operations: [(name: String, method: HTTPMethod, path: String, pathItem: OpenAPIDocument.Located,
                          operation: OpenAPIDocument.Located)] = []
        var endpointNames: Set<String> = []
        for entry in document.entries(paths) {
            guard let (pathItem, _) = document.resolve(entry.value) else { continue }
            for (key, method) in Self.methods {
                // Some documents (DigitalOcean's) keep each operation in a file of its own.
                guard let written = document.child(pathItem, key), let (operation, _) = document.resolve(written) else { continue }
                let operationID = document.string(operation, "operationId")
                let tags = document.child(operation, "tags").map { document.items($0).compactMap(\.node.scalar?.string) } ?? []
                allTags.formUnion(tags)
                let fallback = SwiftIdentifier(memberNamed: "\(key) \(entry.key)").name
                if let operationID { allOperationIDs.insert(operationID) } else { allOperationIDs.insert(fallback) }
                guard options.keeps(operationID: operationID ?? fallback, tags: tags, path: entry.key) else {
                    filteredOut.insert(operationID ?? fallback)
                    continue
                }
                let base = options.operationNames[operationID ?? fallback]?.name ?? operationID ?? "\(key) \(entry.key)"
                var name = SwiftIdentifier(memberNamed: base).name
                if name.isEmpty || name == "_" { name = key }
                if name.first?.isNumber == true { name = "operation" + name }
                var candidate = name
                var number = 2
                while endpointNames.contains(candidate) || ReservedNames.endpoints[candidate] != nil {
                    candidate = name + String(number)
                    number += 1
                }
                endpointNames.insert(candidate)
                endpointsByOperationID[operationID ?? fallback] = candidate
                operations.append((candidate, method, entry.key, pathItem, operation))
            }
        }
        for operation in operations {
            let type = SwiftIdentifier(typeNamed: operation.name).name
            for suffix in ["Request", "Failure", "Outcome", "ResponseHeaders", "Content"] {
                takenTypeNames.insert(type + suffix)
            }
        }
        for operation in operations {
            readOperation(named: operation.name, method: operation.method, path: operation.path,
                          pathItem: operation.pathItem, operation: operation.operation)
        }
    }

    mutating func readOperation(named name: String, method: HTTPMethod, path: String, pathItem: OpenAPIDocument.Located,
                                operation: OpenAPIDocument.Located) {
        operationCount += 1
        let location = document.location(of: operation)
        let typeName = SwiftIdentifier(typeNamed: name).name
        // Box keys operations on one path apart with a fragment (`/files/{file_id}#get_shared_link`);
        // a client never sends a fragment, so the request goes to the path before it.
        let sentPath = path.firstIndex(of: "#").map { String(path[..<$0]) } ?? path
        // A query in a path key (`/pets?kind=dog`) is not part of the path; sent as written, it
        // would be percent-encoded into the path and reach another resource.
        if sentPath.contains("?") {
            document.warning("the path '\(NodeReader.abbreviated(path))' of operation '\(name)' holds a query, which Courier "
                             + "does not send as part of a path; the operation is left out", at: operation)
            endpointsByOperationID = endpointsByOperationID.filter { $0.value != name }
            return
        }
        guard let template = Self.pathTemplate(sentPath) else {
            // No request to it can be built as the document means, but the rest of the document stands.
            document.warning("path '\(NodeReader.abbreviated(path))' of operation '\(name)' has an unbalanced '{' or '}'; "
                             + "the operation is left out", at: operation)
            endpointsByOperationID = endpointsByOperationID.filter { $0.value != name }
            return
        }
        var description = [document.string(operation, "summary"), document.string(operation, "description")]
            .compactMap { $0.map(Self.firstParagraph) }.first
        if document.bool(operation, "deprecated") == true {
            description = (description.map { $0 + " " } ?? "") + "Deprecated."
        }
        let parameters = readParameters(pathItem: pathItem, operation: operation, endpoint: name, template: template)
        var body = document.child(operation, "requestBody").flatMap { readRequestBody($0, endpoint: name, typeName: typeName) }
        if body != nil && !method.allowsBody, let written = document.child(operation, "requestBody") {
            document.warning("operation '\(name)' uses \(method.rawValue), which Courier sends without a body; its request body is left out",
                             at: written)
            body = nil
        }
        let (response, errors) = readResponses(operation, endpoint: name, typeName: typeName, location: location)
        var endpoint = EndpointSpec(name: name, description: description, method: method, path: template, parameters: parameters,
                                    body: body, response: response, errors: errors, location: location)
        endpoint.resilience.retry = speakeasyRetries(in: operation)
        if let security = document.child(operation, "security") {
            let names = securityNames(security)
            if names.isEmpty {
                endpoint.auth = EndpointAuthSpec(choice: .none, location: document.location(of: security))
            } else if file.authSchemes != nil {
                let usable = names.filter { securitySchemes[$0] != nil }
                endpoint.auth = EndpointAuthSpec(choice: usable.isEmpty ? .none : .anyOf(usable), location: document.location(of: security))
            }
        } else if defaultSecurity?.isEmpty == true, !securitySchemes.isEmpty {
            endpoint.auth = EndpointAuthSpec(choice: .none, location: location)
        }
        file.endpoints.append(endpoint)
    }

    /// A path such as `/repos/{owner}/{repo}` split into literals and parameters; `nil` when its
    /// braces do not pair up.
    static func pathTemplate(_ path: String) -> PathTemplate? {
        var segments: [PathTemplate.Segment] = []
        var literal = ""
        var parameter: String?
        for character in path {
            switch (character, parameter) {
            case ("{", nil):
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
                parameter = ""
            case ("}", let name?):
                segments.append(.parameter(name))
                parameter = nil
            case ("{", _?), ("}", nil):
                return nil
            case (_, let name?):
                parameter = name + String(character)
            case (_, nil):
                literal.append(character)
            }
        }
        guard parameter == nil else { return nil }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return PathTemplate(template: path, segments: segments)
    }

    // MARK: Parameters

    /// The path item's parameters overridden by the operation's, in path, query, header order.
    mutating func readParameters(pathItem: OpenAPIDocument.Located, operation: OpenAPIDocument.Located, endpoint: String,
                                 template: PathTemplate) -> [ParameterSpec] {
        var byKey: [String: OpenAPIDocument.Located] = [:]
        var order: [String] = []
        for list in [document.child(pathItem, "parameters"), document.child(operation, "parameters")].compactMap({ $0 }) {
            for item in document.items(list) {
                guard let (parameter, _) = document.resolve(item), let name = document.string(parameter, "name"),
                      let place = document.string(parameter, "in") else { continue }
                let key = place + " " + (place == "header" ? name.lowercased() : name)
                if byKey[key] == nil { order.append(key) }
                byKey[key] = parameter
            }
        }
        var result: [ParameterSpec] = []
        var swiftNames: Set<String> = []
        for key in order {
            guard let parameter = byKey[key], let name = document.string(parameter, "name"),
                  let place = document.string(parameter, "in") else { continue }
            let placement: ParameterSpec.Placement
            switch place {
            case "path": placement = .path
            case "query": placement = .query
            case "header":
                if ["content-type", "accept", "authorization"].contains(name.lowercased()) {
                    document.warning("header parameter '\(name)' is one Courier sets itself; it is left out", at: parameter)
                    continue
                }
                placement = .header
            default:
                document.warning("\(place) parameter '\(name)' is not sent: Courier sends path, query and header parameters", at: parameter)
                continue
            }
            if placement == .path && !template.parameterNames.contains(name) {
                document.warning("path parameter '\(name)' is not in the path '\(template.template)'; it is left out", at: parameter)
                continue
            }
            let schema = document.child(parameter, "schema")
            var type = schema.map { self.type(of: $0, name: SwiftIdentifier(typeNamed: endpoint).name + SwiftIdentifier(typeNamed: name).name) }
                ?? .primitive(.string)
            // A parameter cannot send a null item: `[String?]` (NetBox's nullable filter values) is `[String]`.
            type = Self.withoutNullItems(type)
            let required = placement == .path || document.bool(parameter, "required") == true
            if !required && !type.isOptional { type = .optional(type) }
            if required, case .optional(let wrapped) = type { type = wrapped }
            var style: ParameterStyleSpec?
            if placement == .query {
                let explode = document.bool(parameter, "explode")
                let styleName = document.string(parameter, "style")
                let styleValue: ParameterStyleSpec.Style? = switch styleName {
                case "spaceDelimited": .spaceDelimited
                case "pipeDelimited": .pipeDelimited
                case "deepObject": .deepObject
                default: nil
                }
                var exploded = explode
                if styleValue == .deepObject && explode == false {
                    // OpenAPI defines deepObject only exploded; the fields still go out one item each.
                    document.warning("query parameter '\(name)' has style 'deepObject' with 'explode: false', which OpenAPI leaves "
                                     + "undefined; Courier sends one item per field", at: parameter)
                    exploded = nil
                }
                if styleValue != nil || exploded == false {
                    style = ParameterStyleSpec(style: styleValue, explode: exploded, location: document.location(of: parameter))
                }
            }
            if style?.style == .deepObject {
                switch type.nonOptional {
                case .array:
                    // OpenAPI defines deepObject for objects only; servers that document it on a
                    // list (Stripe's `expand`) read `expand[]=a&expand[]=b`.
                    document.warning("query parameter '\(name)' has style 'deepObject' on a list, which OpenAPI leaves undefined; "
                                     + "Courier sends each item as '\(name)[]=…'", at: parameter)
                case .primitive(.json):
                    // A free-form object: its fields, whatever they are.
                    type = required ? .map(.primitive(.json)) : .optional(.map(.primitive(.json)))
                case .primitive:
                    document.warning("query parameter '\(name)' has style 'deepObject' on a single value, which has no fields; "
                                     + "Courier sends it as '\(name)=…'", at: parameter)
                    style = nil
                default:
                    break
                }
            }
            if let given = style, given.style != .deepObject {
                var isList = false
                if case .array = type.nonOptional { isList = true }
                style = Self.normalized(given, isList: isList, name: name, document: document, at: parameter)
            }
            if !isScalarParameter(type, placement: placement, style: style), let schema, isUnionOfScalars(schema) {
                // `oneOf: [integer, string]` (GitHub's workflow_id): the caller writes the text.
                // `oneOf: [string, [string]]` (Elasticsearch's index names) too: one value or a
                // list, which the caller writes as the server reads it (`a,b`).
                document.warning("\(place) parameter '\(name)' is one of several scalar or list types; Courier sends it as a String",
                                 at: parameter)
                type = required ? .primitive(.string) : .optional(.primitive(.string))
            }
            if placement == .path, !isScalarParameter(type, placement: placement, style: style) {
                // A path cannot do without its placeholder's value, and a path segment is text
                // whatever the schema (`schema: {}`, Supabase's `addon_variant`): the caller writes it.
                document.warning("path parameter '\(name)' of type '\(type)' is sent as a String, which the caller writes as the "
                                 + "server reads it", at: parameter)
                type = .primitive(.string)
            }
            if !isScalarParameter(type, placement: placement, style: style) {
                document.warning("\(place) parameter '\(name)' of type '\(type)' cannot be sent as Courier sends parameters; it is left out",
                                 at: parameter)
                continue
            }
            let swiftName = Self.parameterName(name, besides: &swiftNames)
            result.append(ParameterSpec(name: name, swiftName: swiftName, placement: placement, type: type, style: style,
                                        description: document.string(parameter, "description").map(Self.firstParagraph),
                                        location: document.location(of: parameter)))
        }
        // A placeholder the document declares no parameter for (Square's `{vendor_id}`, Intercom's
        // `{job_identifier}`) still needs a value, or the request would go to a path with braces in it.
        for placeholder in template.parameterNames where !result.contains(where: { $0.placement == .path && $0.name == placeholder }) {
            document.warning("the path '\(NodeReader.abbreviated(template.template))' of '\(endpoint)' has '{\(placeholder)}', which no "
                             + "parameter declares; Courier takes it as a String path parameter", at: operation)
            let swiftName = Self.parameterName(placeholder, besides: &swiftNames)
            result.append(ParameterSpec(name: placeholder, swiftName: swiftName, placement: .path, type: .primitive(.string),
                                        location: document.location(of: operation)))
        }
        let placements: [ParameterSpec.Placement] = [.path, .query, .header]
        return placements.flatMap { placement in result.filter { $0.placement == placement } }
    }

    /// The Swift name of the parameter `name`, numbered past the names already in `taken` and
    /// the request's body labels, and then taken.
    static func parameterName(_ name: String, besides taken: inout Set<String>) -> SwiftIdentifier {
        let base = SwiftIdentifier(memberNamed: name)
        var swiftName = base
        var number = 2
        while taken.contains(swiftName.name) || ["body", "requestBody"].contains(swiftName.name) {
            swiftName = SwiftIdentifier(verbatim: base.name + String(number))
            number += 1
        }
        taken.insert(swiftName.name)
        return swiftName
    }

    /// A query style as Courier's format says it, from one OpenAPI allows: `explode` on a single
    /// value changes nothing, and a delimited style exploded is the repeated key (OpenAPI's own
    /// table), so both are dropped; a delimited style on a single value joins nothing, and is
    /// dropped with a warning.
    static func normalized(_ style: ParameterStyleSpec, isList: Bool, name: String, document: OpenAPIDocument,
                           at parameter: OpenAPIDocument.Located) -> ParameterStyleSpec? {
        guard isList else {
            if let delimited = style.style {
                document.warning("query parameter '\(name)' has style '\(delimited.rawValue)' on a single value, which has nothing "
                                 + "to join; Courier sends it as '\(name)=…'", at: parameter)
            }
            return nil
        }
        if style.style != nil && style.explode == true { return nil }
        return style
    }

    /// Whether a schema is a `oneOf` or `anyOf` of scalar types (enums included) and lists of them only.
    mutating func isUnionOfScalars(_ schema: OpenAPIDocument.Located) -> Bool {
        guard let (resolved, _) = document.resolve(schema, reach: .schema),
              let parts = document.child(resolved, "oneOf") ?? document.child(resolved, "anyOf") else { return false }
        let scalars = ["string", "integer", "number", "boolean", "null"]
        return document.items(parts).allSatisfy { part in
            guard let (variant, _) = document.resolve(part, reach: .schema) else { return false }
            if typeName(of: variant) == "array" {
                guard let items = document.child(variant, "items"), let (item, _) = document.resolve(items, reach: .schema) else { return false }
                return scalars.contains(typeName(of: item) ?? "")
            }
            if document.child(variant, "enum") != nil && typeName(of: variant) == nil { return true }
            return scalars.contains(typeName(of: variant) ?? "")
        }
    }

    /// `type` with the optionality of a list's items removed, at any depth of list.
    static func withoutNullItems(_ type: TypeReference) -> TypeReference {
        switch type {
        case .optional(let wrapped): .optional(withoutNullItems(wrapped))
        case .array(let element): .array(withoutNullItems(element.nonOptional))
        default: type
        }
    }

    /// Whether Courier can send a parameter of `type`: a scalar or string enum, a query list of
    /// them, or a `deepObject` model, map or list.
    func isScalarParameter(_ type: TypeReference, placement: ParameterSpec.Placement, style: ParameterStyleSpec?) -> Bool {
        var inner = type.nonOptional
        if style?.style == .deepObject, placement == .query {
            switch inner {
            case .map, .array: return true
            default: break
            }
        }
        if case .array(let element) = inner, placement == .query { inner = element }
        switch inner {
        case .primitive(let primitive):
            return [.string, .int, .int64, .double, .bool, .date, .url].contains(primitive)
        case .named(let name):
            if style?.style == .deepObject { return true }
            return file.models.first { $0.name == name }?.isEnum ?? pendingModels.contains { $0.name == name && document.child($0.schema, "enum") != nil }
        default:
            return false
        }
    }

    // MARK: Request bodies

    /// The request body in the first media type Courier sends, preferring JSON.
    mutating func readRequestBody(_ located: OpenAPIDocument.Located, endpoint: String, typeName: String) -> RequestBodySpec? {
        guard let (body, _) = document.resolve(located), let content = document.child(body, "content") else { return nil }
        let media = mediaTypes(content)
        guard !media.isEmpty else { return nil }
        let description = document.string(body, "description").map(Self.firstParagraph)
        let location = document.location(of: located)
        func essence(_ type: String) -> String {
            type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? type
        }
        if media.count > 1, !media.contains(where: { essence($0.key) == "multipart/form-data" }),
           let variants = readBodyVariants(media, endpoint: endpoint, typeName: typeName, at: located), variants.count > 1 {
            return RequestBodySpec(type: variants[0].type, contentType: variants[0].contentType, description: description,
                                   variants: variants, location: location)
        }
        let preferred = media.first { Self.isJSONNamed(essence($0.key)) }
            ?? media.first { essence($0.key) == "application/x-www-form-urlencoded" }
            ?? media.first { essence($0.key) == "multipart/form-data" }
            ?? media.first { essence($0.key).hasPrefix("text/") }
            ?? media[0]
        let contentType = essence(preferred.key)
        let skipped = media.filter { $0.key != preferred.key }.map(\.key)
        if !skipped.isEmpty {
            document.warning("the request body of '\(endpoint)' is also accepted as \(skipped.joined(separator: ", ")); "
                             + "Courier sends \(contentType)", at: located)
        }
        let schema = document.child(preferred.value, "schema")
        var result: RequestBodySpec
        if contentType == "multipart/form-data", let schema, let (resolved, _) = document.resolve(schema, reach: .schema) {
            var fields: [PropertySpec] = []
            var files: [MultipartFileSpec] = []
            let required = Set(document.child(resolved, "required").map(document.items)?.compactMap(\.node.scalar?.string) ?? [])
            for property in properties(of: resolved, owner: typeName + "Body") {
                let node = document.child(resolved, "properties").flatMap { document.child($0, property.name) }
                let isFile = node.map { isBinary($0) } ?? false
                if isFile {
                    files.append(MultipartFileSpec(name: property.name, isOptional: !required.contains(property.name),
                                                   description: property.description, location: property.location))
                } else {
                    fields.append(property)
                }
            }
            if fields.isEmpty {
                result = RequestBodySpec(type: .primitive(.string), contentType: contentType, description: description, location: location)
                result.isFilesOnly = true
            } else {
                let model = uniqueTypeName(typeName + "Body")
                file.models.append(ModelSpec(name: model, kind: .object(fields), synthesizedForEndpoint: endpoint, location: location))
                result = RequestBodySpec(type: .named(model), contentType: contentType, description: description, location: location)
            }
            result.files = files
            if fields.isEmpty && files.isEmpty {
                document.warning("the multipart body of '\(endpoint)' has no parts Courier can see; it is not sent", at: located)
                return nil
            }
            return result
        }
        let mediaCoding = vendorJSONCoding(contentType, mediaType: preferred.key, schema: schema,
                                           what: "the request body of '\(endpoint)'", at: preferred.keyNode)
        let isJSON = Self.isJSONMediaType(contentType) || mediaCoding == .json
        let isForm = contentType == "application/x-www-form-urlencoded"
        let isText = contentType.hasPrefix("text/")
        var type: TypeReference
        if isJSON || isForm {
            type = schema.map { self.type(of: $0, name: typeName + "Body") } ?? .primitive(.json)
            if isForm { type = Self.formType(type) }
            if isForm, Self.isFormShaped(type) {} else if isForm {
                document.warning("the form body of '\(endpoint)' is not an object; Courier sends it as JSON", at: located)
                return RequestBodySpec(type: type, description: description, location: location)
            }
        } else if isText {
            type = .primitive(.string)
        } else {
            type = .primitive(.binary)
        }
        if case .optional(let wrapped) = type, document.bool(body, "required") == true { type = wrapped }
        result = RequestBodySpec(type: type, contentType: isJSON ? (contentType == "application/json" ? RequestBodySpec.json : preferred.key) : contentType,
                                 description: description, location: location)
        result.mediaCoding = mediaCoding
        return result
    }

    /// The media types under a `content` key. A key that is not a media type (a stray `examples:`
    /// beside `application/json`, which some documents carry) is no body to send or read: it is
    /// ignored, with a warning.
    func mediaTypes(_ content: OpenAPIDocument.Located) -> [(key: String, keyNode: OpenAPIDocument.Located, value: OpenAPIDocument.Located)] {
        document.entries(content).filter { entry in
            if entry.key.contains("/") { return true }
            document.warning("'\(NodeReader.abbreviated(entry.key))' under 'content' is not a media type (such as 'application/json'); "
                             + "it is ignored", at: entry.keyNode)
            return false
        }
    }

    /// A form body's type: an object without properties (free-form, or always empty as
    /// `{properties: {}, additionalProperties: false}`) is named fields of any value, so that it
    /// still goes out as a form, empty when the caller gives no field.
    static func formType(_ type: TypeReference) -> TypeReference {
        switch type {
        case .primitive(.json): .map(.primitive(.json))
        case .optional(.primitive(.json)): .optional(.map(.primitive(.json)))
        default: type
        }
    }

    /// Whether a type can be sent as a form: a model or a map (named fields).
    static func isFormShaped(_ type: TypeReference) -> Bool {
        switch type.nonOptional {
        case .named, .map: true
        default: false
        }
    }

    /// Whether a schema is bytes: `format: binary` (3.0) or a `contentMediaType` (3.1).
    func isBinary(_ schema: OpenAPIDocument.Located) -> Bool {
        if document.string(schema, "format") == "binary" || document.child(schema, "contentMediaType") != nil { return true }
        if let items = document.child(schema, "items") { return isBinary(items) }
        return false
    }
}

/// A request body in several media types: the caller picks one through `<Endpoint>Content`.
extension OpenAPIReader {
    /// One variant per media type Courier can send, in the document's order; `nil` when fewer
    /// than two remain. A media type Courier cannot offer beside the others (a second JSON type,
    /// a form of something other than an object, a case name already taken) is a warning naming
    /// it, and the rest are offered.
    mutating func readBodyVariants(_ media: [(key: String, keyNode: OpenAPIDocument.Located, value: OpenAPIDocument.Located)],
                                   endpoint: String, typeName: String, at located: OpenAPIDocument.Located) -> [BodyVariantSpec]? {
        var variants: [BodyVariantSpec] = []
        var caseNames: Set<String> = []
        var skipped: [String] = []
        for entry in media {
            let essence = entry.key.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? entry.key
            let schema = document.child(entry.value, "schema")
            var type: TypeReference
            var caseName: String?
            if essence == RequestBodySpec.json {
                type = schema.map { self.type(of: $0, name: typeName + "Body") } ?? .primitive(.json)
            } else if Self.isJSONNamed(essence) {
                skipped.append(entry.key)
                continue
            } else if essence == "application/x-www-form-urlencoded" {
                type = Self.formType(schema.map { self.type(of: $0, name: typeName + "Body") } ?? .primitive(.json))
                guard Self.isFormShaped(type) else {
                    skipped.append(entry.key)
                    continue
                }
            } else if essence.hasPrefix("text/") {
                type = .primitive(.string)
            } else {
                type = .primitive(.binary)
                if essence != "application/octet-stream" {
                    // `image/png` → `png`, `application/vnd.api+xml` → `vndApiXml`.
                    let subtype = essence.split(separator: "/").last.map(String.init) ?? essence
                    caseName = SwiftIdentifier(memberNamed: subtype).name
                }
            }
            type = type.nonOptional
            var variant = BodyVariantSpec(type: type, contentType: essence, caseName: caseName, location: document.location(of: entry.keyNode))
            guard let name = variant.effectiveCaseName, !name.isEmpty, name != "_", caseNames.insert(name).inserted else {
                skipped.append(entry.key)
                continue
            }
            if caseName == nil, variant.effectiveCaseName == nil { variant.caseName = name }
            variants.append(variant)
        }
        guard variants.count > 1 else { return nil }
        if !skipped.isEmpty {
            document.warning("the request body of '\(endpoint)' is also accepted as \(skipped.joined(separator: ", ")), which Courier "
                             + "does not offer beside \(variants.map(\.contentType).joined(separator: ", "))", at: located)
        }
        return variants
    }
}
