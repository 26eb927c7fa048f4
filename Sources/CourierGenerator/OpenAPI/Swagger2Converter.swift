import Foundation

/// Turns a Swagger 2.0 document into the OpenAPI 3.0 shape ``OpenAPIReader`` reads, in memory,
/// so that one reader serves both and a 2.0 document gets every check and fallback a 3.0 one gets.
///
/// The new tree reuses the 2.0 nodes wherever a value carries over (schemas, enums, names,
/// descriptions, keys), and every node it has to build takes the mark of the 2.0 node it stands
/// for (a `requestBody` the body parameter's, a parameter's `schema` its `type`'s), so each
/// diagnostic, the reader's too, points into the 2.0 file. What has no 3.0 equivalent Courier
/// can send is a warning at its place naming the fallback, never a failed document.
struct Swagger2Converter {
    /// Where the conversion's own diagnostics go: the document's reporter, so that they come out
    /// in the same run as the reader's.
    let reporter: NodeReader
    /// Locates the nodes of the file being converted (its path in diagnostics).
    let locator: NodeReader
    /// The document's root as written, for the `#/parameters/…` a body or form parameter is
    /// kept under: those become a request body, so they must be looked up, not referred to.
    private var root: Node?
    /// The document's `consumes`, the default for every operation.
    private var consumes: Located?
    /// The document's `produces`, the default for every operation.
    private var produces: Located?
    /// Media types already named in a warning about `consumes`, so that a type every operation
    /// lists (Kubernetes' `application/apply-patch+yaml`) is reported once, not per operation.
    private var reportedMediaTypes: Set<String> = []

    /// A media type list as written (`consumes` or `produces`), with the node it came from.
    private struct Located {
        let types: [String]
        let node: Node
    }

    /// Creates a converter reporting to `reporter`, locating nodes with `locator`.
    init(reporter: NodeReader, locator: NodeReader) {
        self.reporter = reporter
        self.locator = locator
    }

    /// Whether a document's root is a Swagger 2.0 document: a mapping with a `swagger` key and no
    /// `openapi` key (a document with both is read as the OpenAPI document it says it is).
    static func isSwagger2(_ root: Node?) -> Bool {
        guard let root else { return false }
        return OpenAPIDocument.child(root, "swagger") != nil && OpenAPIDocument.child(root, "openapi") == nil
    }

    // MARK: The document

    /// The whole document in the 3.0 shape: servers from `host`, `basePath` and `schemes`;
    /// `definitions`, `parameters`, `responses` and `securityDefinitions` under `components`;
    /// every operation's body and form parameters as its `requestBody`.
    mutating func convertDocument(_ document: Node) -> Node {
        guard case .mapping(let mapping) = document else { return document }
        root = document
        checkVersion(of: document)
        consumes = mediaTypes(Self.child(document, "consumes"))
        produces = mediaTypes(Self.child(document, "produces"))
        var pairs: [(Node, Node)] = []
        var components: [(Node, Node)] = []
        var componentsKey: Node?
        for (key, value) in mapping {
            if let entry = componentsEntry(key, value) {
                componentsKey = componentsKey ?? key
                components.append(entry)
                continue
            }
            switch key.scalar?.string {
            case "swagger", "host", "basePath", "schemes", "consumes", "produces":
                continue
            case "paths":
                pairs.append((key, convertPaths(value)))
            default:
                // `info`, `security`, `tags`, `externalDocs` and extensions mean the same in 3.0.
                pairs.append((key, value))
            }
        }
        if let server = server(of: document) {
            pairs.append((Self.scalar("servers", at: server), Self.sequence([server], at: server)))
        }
        if let componentsKey {
            pairs.append((Self.renamed(componentsKey, "components"), Self.mapping(components, at: componentsKey)))
        }
        return Self.mapping(pairs, at: document)
    }

    /// The 3.0 `components` entry a 2.0 section becomes (`definitions` → `schemas`, `parameters`,
    /// `responses`, `securityDefinitions` → `securitySchemes`), its entries converted; `nil` for
    /// any other key. The root and every file a `$ref` reaches move their sections alike, where
    /// the converted references look for them.
    mutating func componentsEntry(_ key: Node, _ value: Node) -> (Node, Node)? {
        switch key.scalar?.string {
        case "definitions":
            return (Self.renamed(key, "schemas"), convertEach(value) { $0.convertSchema($1) })
        case "parameters":
            return (key, convertParameterDefinitions(value))
        case "responses":
            let produces = self.produces
            return (key, convertEach(value) { converter, response in converter.convertResponse(response, produces: produces) })
        case "securityDefinitions":
            return (Self.renamed(key, "securitySchemes"), convertEach(value) { $0.convertSecurityScheme($1) })
        default:
            return nil
        }
    }

    /// A file a `$ref` of a 2.0 document reaches. A whole 2.0 document is converted as the root
    /// is, a schema or a path item as one; any other file is a fragment whose sections (`definitions`, `parameters`,
    /// `responses`) move where the converted references look for them, and whose other entries
    /// are read as the schemas, parameters or responses their keys say they are.
    mutating func convertReferencedFile(_ file: Node) -> Node {
        if Self.isSwagger2(file) { return convertDocument(file) }
        guard case .mapping(let mapping) = file else { return file }
        if Self.looksLikeSchema(file) { return convertSchema(file) }
        // A path item kept in a file of its own (`/pets: { $ref: pets.yaml }`).
        if OpenAPIReader.methods.contains(where: { Self.child(file, $0.0) != nil }) { return convertPathItem(file) }
        var pairs: [(Node, Node)] = []
        var components: [(Node, Node)] = []
        var componentsKey: Node?
        for (key, value) in mapping {
            if let entry = componentsEntry(key, value) {
                componentsKey = componentsKey ?? key
                components.append(entry)
            } else {
                pairs.append((key, convertFragment(value)))
            }
        }
        if let componentsKey {
            pairs.append((Self.renamed(componentsKey, "components"), Self.mapping(components, at: componentsKey)))
        }
        return Self.mapping(pairs, at: file)
    }

    /// One entry of a fragment file, read as what its keys say it is: a parameter has `in`, a
    /// response has a `schema` or `headers` beside its description, anything else is a schema.
    private mutating func convertFragment(_ node: Node) -> Node {
        guard case .mapping = node else { return node }
        if Self.child(node, "in") != nil, Self.child(node, "name") != nil { return convertParameter(node) }
        if Self.child(node, "schema") != nil || Self.child(node, "headers") != nil { return convertResponse(node, produces: produces) }
        return convertSchema(node)
    }

    /// Whether a node reads as a schema rather than as a map of named things.
    private static func looksLikeSchema(_ node: Node) -> Bool {
        ["type", "properties", "allOf", "items", "$ref", "enum", "additionalProperties"].contains { child(node, $0) != nil }
    }

    /// `swagger` must be `2.0`; another version (1.2's resource listings) is a different format.
    private func checkVersion(of document: Node) {
        guard let version = Self.child(document, "swagger") else { return }
        let text = version.scalar?.string ?? ""
        if text != "2.0" {
            reporter.error("'swagger' is '\(NodeReader.abbreviated(text))'; Courier reads Swagger 2.0 and OpenAPI 3.0 and 3.1 documents",
                           at: locator.location(of: version))
        }
    }

    /// The one server of a 2.0 document: the first of `schemes` (`https` when listed, since a
    /// client should not downgrade), `host` and `basePath`; a relative URL when there is no host
    /// (the reader then warns that the base URL must be passed), `nil` when there is neither.
    private func server(of document: Node) -> Node? {
        let host = Self.child(document, "host")
        let basePath = Self.child(document, "basePath")
        guard let anchor = host ?? basePath else { return nil }
        var path = basePath?.scalar?.string ?? ""
        if !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
        while path.hasSuffix("/") { path.removeLast() }
        var url = path.isEmpty ? "/" : path
        if let host = host?.scalar?.string, !host.isEmpty {
            let schemes = Self.child(document, "schemes").flatMap(\.sequence).map { $0.compactMap(\.scalar?.string) } ?? []
            let scheme = schemes.contains("https") ? "https" : (schemes.first ?? "https")
            url = "\(scheme)://\(host)\(path)"
        }
        return Self.mapping([(Self.scalar("url", at: anchor), Self.scalar(url, at: anchor))], at: anchor)
    }

    // MARK: Paths and operations

    /// Every path item converted, keys (the paths) kept.
    private mutating func convertPaths(_ paths: Node) -> Node {
        guard case .mapping(let mapping) = paths else { return paths }
        return Self.mapping(mapping.map { key, item in (key, convertPathItem(item)) }, at: paths)
    }

    /// A path item: its parameters stay on it, except body and form parameters, which every
    /// operation of the item folds into its request body.
    private mutating func convertPathItem(_ item: Node) -> Node {
        guard case .mapping(let mapping) = item else { return item }
        if Self.child(item, "$ref") != nil { return convertReference(in: item) }
        let (shared, sharedBody) = splitParameters(Self.child(item, "parameters"))
        var pairs: [(Node, Node)] = []
        for (key, value) in mapping {
            let name = key.scalar?.string ?? ""
            if name == "parameters" {
                if !shared.isEmpty { pairs.append((key, Self.sequence(shared, at: value))) }
            } else if OpenAPIReader.methods.contains(where: { $0.0 == name }) {
                pairs.append((key, convertOperation(value, inherited: sharedBody)))
            } else {
                pairs.append((key, value))
            }
        }
        return Self.mapping(pairs, at: item)
    }

    /// The parameters of a list in 3.0 form, and apart from them the body and form parameters
    /// (looked up when they are `#/parameters/…` references), which become a request body.
    private mutating func splitParameters(_ list: Node?) -> (parameters: [Node], body: [Node]) {
        var parameters: [Node] = []
        var body: [Node] = []
        for item in list?.sequence.map(Array.init) ?? [] {
            let resolved = localParameter(item) ?? item
            switch Self.string(resolved, "in") {
            case "body", "formData":
                body.append(resolved)
            default:
                parameters.append(convertParameter(item))
            }
        }
        return (parameters, body)
    }

    /// The parameter a local `#/parameters/…` reference names, or the node itself when it is no
    /// reference; `nil` for a reference elsewhere (another file's parameters are read there).
    private func localParameter(_ node: Node) -> Node? {
        guard let reference = Self.string(node, "$ref") else { return node }
        let prefix = "#/parameters/"
        guard reference.hasPrefix(prefix), let root else { return nil }
        let key = String(reference.dropFirst(prefix.count)).removingPercentEncoding.map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        } ?? ""
        return Self.child(root, "parameters").flatMap { Self.child($0, key) }
    }

    /// An operation: its own parameters and the path item's body and form parameters become its
    /// `requestBody`, in the media types its `consumes` (or the document's) lists; its responses
    /// carry their schemas under the media types of `produces`.
    private mutating func convertOperation(_ operation: Node, inherited: [Node]) -> Node {
        guard case .mapping(let mapping) = operation else { return operation }
        let consumes = mediaTypes(Self.child(operation, "consumes")) ?? self.consumes
        let produces = mediaTypes(Self.child(operation, "produces")) ?? self.produces
        let (parameters, own) = splitParameters(Self.child(operation, "parameters"))
        // The operation's own body and form parameters win over the path item's of the same name.
        let ownKeys = Set(own.map { "\(Self.string($0, "in") ?? "") \(Self.string($0, "name") ?? "")" })
        let body = inherited.filter { !ownKeys.contains("\(Self.string($0, "in") ?? "") \(Self.string($0, "name") ?? "")") } + own
        var pairs: [(Node, Node)] = []
        var bodyAdded = false
        for (key, value) in mapping {
            switch key.scalar?.string {
            case "consumes", "produces", "schemes":
                continue
            case "parameters":
                if !parameters.isEmpty { pairs.append((key, Self.sequence(parameters, at: value))) }
                if let requestBody = requestBody(of: body, own: own, consumes: consumes) {
                    pairs.append((Self.scalar("requestBody", at: requestBody), requestBody))
                    bodyAdded = true
                }
            case "responses":
                pairs.append((key, convertResponses(value, produces: produces)))
            default:
                pairs.append((key, value))
            }
        }
        if !bodyAdded, let requestBody = requestBody(of: body, own: own, consumes: consumes) {
            pairs.append((Self.scalar("requestBody", at: requestBody), requestBody))
        }
        return Self.mapping(pairs, at: operation)
    }

    // MARK: Request bodies

    /// The request body of an operation's body and form parameters (`own` those it declares
    /// itself): the `in: body` parameter's schema, or one object of the form parameters; `nil`
    /// when there are none.
    private mutating func requestBody(of parameters: [Node], own: [Node], consumes: Located?) -> Node? {
        let bodies = parameters.filter { Self.string($0, "in") == "body" }
        let fields = parameters.filter { Self.string($0, "in") == "formData" }
        if let body = bodies.first {
            for extra in bodies.dropFirst() {
                warn("an operation has one body; body parameter '\(Self.string(extra, "name") ?? "")' is left out", at: extra)
            }
            for field in fields {
                warn("form parameter '\(Self.string(field, "name") ?? "")' cannot be sent beside a body parameter; it is left out",
                     at: field)
            }
            return jsonBody(body, consumes: consumes)
        }
        // The form's place is a field of the operation's own where there is one: the reader takes
        // two inline schemas at one place for one, and the operations of a path item share its
        // fields but may add others.
        guard let first = own.first(where: { Self.string($0, "in") == "formData" }) ?? fields.first else { return nil }
        return formBody(fields, at: first, consumes: consumes)
    }

    /// A body parameter as a request body: its schema, in the media types `consumes` lists.
    private mutating func jsonBody(_ parameter: Node, consumes: Located?) -> Node {
        let schema = Self.child(parameter, "schema").map { convertSchema($0) }
            ?? Self.mapping([], at: parameter)
        var content: [(Node, Node)] = []
        for type in bodyMediaTypes(consumes) {
            content.append((Self.scalar(type, at: consumes?.node ?? parameter),
                            Self.mapping([(Self.scalar("schema", at: schema), schema)], at: parameter)))
        }
        var pairs: [(Node, Node)] = []
        if let description = Self.child(parameter, "description") { pairs.append((Self.scalar("description", at: description), description)) }
        if let required = Self.child(parameter, "required") { pairs.append((Self.scalar("required", at: required), required)) }
        pairs.append((Self.scalar("content", at: parameter), Self.mapping(content, at: parameter)))
        return Self.mapping(pairs, at: parameter)
    }

    /// The media types a body parameter is sent in: those of `consumes` that are JSON, else those
    /// listed (a file upload's `application/octet-stream`), else JSON. A body's schema describes
    /// JSON, so another type listed beside a JSON one (XML, most often, which frameworks list
    /// for every operation) is not offered, and is named in one warning per document.
    private mutating func bodyMediaTypes(_ consumes: Located?) -> [String] {
        let listed = (consumes?.types ?? []).filter { !$0.contains("*") && !Self.isForm($0) }
        let json = listed.filter(Self.isJSON)
        guard !json.isEmpty else { return listed.isEmpty ? ["application/json"] : listed }
        let dropped = listed.filter { !Self.isJSON($0) && reportedMediaTypes.insert($0).inserted }
        if let node = consumes?.node, !dropped.isEmpty {
            warn("'consumes' lists \(dropped.joined(separator: ", ")) beside JSON; Courier sends this document's body parameters "
                 + "as JSON and does not offer \(dropped.count == 1 ? "it" : "them")", at: node)
        }
        return json
    }

    /// Form parameters as one object body: `multipart/form-data` when one is a file or
    /// `consumes` lists only that, else `application/x-www-form-urlencoded`.
    private mutating func formBody(_ fields: [Node], at anchor: Node, consumes: Located?) -> Node {
        let listed = consumes?.types ?? []
        let hasFile = fields.contains { Self.string($0, "type") == "file" }
        let multipart = hasFile || (listed.contains { Self.essence($0) == "multipart/form-data" }
                                    && !listed.contains { Self.essence($0) == "application/x-www-form-urlencoded" })
        var properties: [(Node, Node)] = []
        var required: [Node] = []
        for field in fields {
            guard let name = Self.child(field, "name") else { continue }
            if let format = Self.child(field, "collectionFormat"), let text = format.scalar?.string, text != "multi" {
                warn("form parameter '\(name.scalar?.string ?? "")' is a '\(text)' list; Courier spells the arrays of a form body "
                     + "as the client's form encoding says (repeated '\(name.scalar?.string ?? "")[]' fields by default)", at: format)
            }
            properties.append((name, parameterSchema(field)))
            if Self.string(field, "required") == "true" { required.append(name) }
        }
        // The object's mark is the first field's `in`, apart from that field's own schema, so
        // that the reader never takes the two for one inline schema.
        let objectAnchor = Self.child(anchor, "in") ?? anchor
        var object: [(Node, Node)] = [
            (Self.scalar("type", at: objectAnchor), Self.scalar("object", at: objectAnchor)),
            (Self.scalar("properties", at: objectAnchor), Self.mapping(properties, at: objectAnchor)),
        ]
        if !required.isEmpty { object.append((Self.scalar("required", at: objectAnchor), Self.sequence(required, at: objectAnchor))) }
        let schema = Self.mapping(object, at: objectAnchor)
        let type = multipart ? "multipart/form-data" : "application/x-www-form-urlencoded"
        let media = Self.mapping([(Self.scalar("schema", at: objectAnchor), schema)], at: anchor)
        let content = Self.mapping([(Self.scalar(type, at: consumes?.node ?? anchor), media)], at: anchor)
        var pairs: [(Node, Node)] = [(Self.scalar("content", at: anchor), content)]
        if !required.isEmpty { pairs.append((Self.scalar("required", at: anchor), Self.scalar("true", at: anchor))) }
        return Self.mapping(pairs, at: anchor)
    }

    // MARK: Parameters

    /// The shared parameters, each converted. A body or form parameter among them stays a
    /// parameter: the operations of this file that refer to it fold it into their request body,
    /// and one another file refers to is read as a parameter, which the reader warns is not sent.
    private mutating func convertParameterDefinitions(_ definitions: Node) -> Node {
        convertEach(definitions) { $0.convertParameter($1) }
    }

    /// A path, query or header parameter: its type keys become a `schema`, its `collectionFormat`
    /// the 3.0 `style` and `explode` of the same encoding.
    private mutating func convertParameter(_ parameter: Node) -> Node {
        guard case .mapping(let mapping) = parameter else { return parameter }
        if Self.child(parameter, "$ref") != nil { return convertReference(in: parameter) }
        var pairs: [(Node, Node)] = []
        for (key, value) in mapping {
            switch key.scalar?.string {
            case "name", "in", "description", "required", "deprecated", "allowEmptyValue":
                pairs.append((key, value))
            case let name? where name.hasPrefix("x-") && name != "x-nullable":
                pairs.append((key, value))
            default:
                continue
            }
        }
        let schema = Self.child(parameter, "schema").map { convertSchema($0) } ?? parameterSchema(parameter)
        pairs.append((Self.scalar("schema", at: schema), schema))
        pairs += style(of: parameter)
        return Self.mapping(pairs, at: parameter)
    }

    /// The 3.0 `style` and `explode` of a query parameter's `collectionFormat`. An array's
    /// default in 2.0 is `csv`, which 3.0 spells `explode: false` (its default there is `multi`);
    /// `tsv` has no 3.0 form and is sent as `csv`, with a warning.
    private func style(of parameter: Node) -> [(Node, Node)] {
        let place = Self.string(parameter, "in")
        let formatNode = Self.child(parameter, "collectionFormat")
        let format = formatNode?.scalar?.string
        guard Self.string(parameter, "type") == "array" || format != nil else { return [] }
        let anchor = formatNode ?? parameter
        func pair(_ key: String, _ value: String) -> (Node, Node) { (Self.scalar(key, at: anchor), Self.scalar(value, at: anchor)) }
        let name = Self.string(parameter, "name") ?? ""
        // A path or header list is 3.0's `simple` style, comma-separated as 2.0's default; the
        // reader says what it does with a list in those places.
        guard place == "query" else { return [] }
        switch format {
        case nil, "csv":
            return [pair("style", "form"), pair("explode", "false")]
        case "ssv":
            return [pair("style", "spaceDelimited"), pair("explode", "false")]
        case "pipes":
            return [pair("style", "pipeDelimited"), pair("explode", "false")]
        case "multi":
            return [pair("style", "form"), pair("explode", "true")]
        case "tsv":
            warn("query parameter '\(name)' is a 'tsv' list, which Courier cannot send tab-separated; it is sent comma-separated (csv)",
                 at: anchor)
            return [pair("style", "form"), pair("explode", "false")]
        case let other?:
            warn("query parameter '\(name)' has collectionFormat '\(NodeReader.abbreviated(other))', which Swagger 2.0 does not define; "
                 + "it is sent comma-separated (csv)", at: anchor)
            return [pair("style", "form"), pair("explode", "false")]
        }
    }

    /// The schema a non-body parameter (or a header, or an `items` object) spells with keys of
    /// its own: `type`, `format`, `items`, `enum` and the validation keys. Its mark is its
    /// `type`'s, apart from the parameter's, so that no two inline schemas share one.
    private mutating func parameterSchema(_ parameter: Node) -> Node {
        let anchor = Self.child(parameter, "type") ?? Self.child(parameter, "enum") ?? parameter
        var pairs: [(Node, Node)] = []
        let isFile = Self.string(parameter, "type") == "file"
        for (key, value) in parameter.mapping.map(Array.init) ?? [] {
            switch key.scalar?.string {
            case "type" where isFile:
                pairs.append((key, Self.scalar("string", at: value)))
                pairs.append((Self.scalar("format", at: value), Self.scalar("binary", at: value)))
            case "format" where isFile:
                continue
            case "type", "format", "enum", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength",
                 "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "multipleOf", "description":
                pairs.append((key, value))
            case "items":
                pairs.append((key, Self.child(value, "$ref") != nil ? convertSchema(value) : parameterSchema(value)))
            case "x-nullable":
                pairs.append((Self.renamed(key, "nullable"), value))
            default:
                continue
            }
        }
        return Self.mapping(pairs, at: anchor)
    }

    // MARK: Responses

    /// An operation's responses, each converted with the operation's `produces`.
    private mutating func convertResponses(_ responses: Node, produces: Located?) -> Node {
        guard case .mapping(let mapping) = responses else { return responses }
        var pairs: [(Node, Node)] = []
        for (key, value) in mapping {
            // Extensions among the statuses mean nothing to a client.
            if key.scalar?.string.hasPrefix("x-") == true { continue }
            pairs.append((key, convertResponse(value, produces: produces)))
        }
        return Self.mapping(pairs, at: responses)
    }

    /// A response: its `schema` under each media type of `produces` (JSON when none is listed;
    /// `application/octet-stream` for a `type: file` that only JSON types are listed for), and
    /// its headers' type keys as schemas.
    private mutating func convertResponse(_ response: Node, produces: Located?) -> Node {
        guard case .mapping(let mapping) = response else { return response }
        if Self.child(response, "$ref") != nil { return convertReference(in: response) }
        var pairs: [(Node, Node)] = []
        for (key, value) in mapping {
            switch key.scalar?.string {
            case "schema":
                let schema = convertSchema(value)
                var types = (produces?.types ?? []).filter { !$0.contains("*") }
                if Self.string(value, "type") == "file" {
                    types = types.filter { !Self.isJSON($0) }
                    if types.isEmpty { types = ["application/octet-stream"] }
                } else if types.isEmpty {
                    types = ["application/json"]
                }
                let content = types.map { type in
                    (Self.scalar(type, at: produces?.node ?? value), Self.mapping([(Self.scalar("schema", at: value), schema)], at: value))
                }
                pairs.append((Self.renamed(key, "content"), Self.mapping(content, at: value)))
            case "headers":
                guard case .mapping(let headers) = value else { continue }
                let converted = headers.map { name, header in
                    (name, Self.mapping([(Self.scalar("schema", at: header), parameterSchema(header))]
                                        + (Self.child(header, "description").map { [(Self.scalar("description", at: $0), $0)] } ?? []),
                                        at: header))
                }
                pairs.append((key, Self.mapping(converted, at: value)))
            case "examples":
                // 2.0's examples by media type have no place a client reads.
                continue
            default:
                pairs.append((key, value))
            }
        }
        return Self.mapping(pairs, at: response)
    }

    // MARK: Schemas

    /// A schema in 3.0 form: references into `definitions` point into `components/schemas`,
    /// `x-nullable` is `nullable`, `type: file` is binary, and a `discriminator` names its
    /// property as 3.0 does. Nested schemas are converted alike.
    mutating func convertSchema(_ schema: Node) -> Node {
        guard case .mapping(let mapping) = schema else { return schema }
        if let reference = Self.child(schema, "$ref") {
            let converted = convertReference(in: schema)
            guard Self.string(schema, "x-nullable") == "true", let nullable = Self.child(schema, "x-nullable") else { return converted }
            // 3.0 ignores a reference's siblings; `allOf` of the one reference carries the nullability.
            let reference = Self.mapping([(Self.scalar("$ref", at: reference), Self.rewritten(reference))], at: reference)
            return Self.mapping([(Self.scalar("allOf", at: schema), Self.sequence([reference], at: schema)),
                                 (Self.scalar("nullable", at: nullable), nullable)], at: schema)
        }
        let isFile = Self.string(schema, "type") == "file"
        var pairs: [(Node, Node)] = []
        for (key, value) in mapping {
            switch key.scalar?.string {
            case "type" where isFile:
                pairs.append((key, Self.scalar("string", at: value)))
                pairs.append((Self.scalar("format", at: value), Self.scalar("binary", at: value)))
            case "format" where isFile:
                continue
            case "x-nullable":
                pairs.append((Self.renamed(key, "nullable"), value))
            case "discriminator":
                if value.scalar != nil {
                    pairs.append((key, Self.mapping([(Self.scalar("propertyName", at: value), value)], at: value)))
                } else {
                    pairs.append((key, value))
                }
            case "properties":
                pairs.append((key, convertEach(value) { $0.convertSchema($1) }))
            case "items", "additionalProperties", "not":
                pairs.append((key, value.sequence != nil ? Self.sequence((value.sequence.map(Array.init) ?? []).map { convertSchema($0) }, at: value)
                                                         : convertSchema(value)))
            case "allOf", "anyOf", "oneOf":
                pairs.append((key, Self.sequence((value.sequence.map(Array.init) ?? []).map { convertSchema($0) }, at: value)))
            default:
                pairs.append((key, value))
            }
        }
        return Self.mapping(pairs, at: schema)
    }

    /// A mapping holding a `$ref`, the reference pointed where the 3.0 tree keeps its target.
    private func convertReference(in node: Node) -> Node {
        guard case .mapping(let mapping) = node else { return node }
        return Self.mapping(mapping.map { key, value in
            key.scalar?.string == "$ref" ? (key, Self.rewritten(value)) : (key, value)
        }, at: node)
    }

    /// A reference's text with a pointer into `definitions`, `parameters` or `responses` moved
    /// under `components`, as the conversion moves those sections, in this file or another.
    static func rewritten(_ reference: Node) -> Node {
        guard let text = reference.scalar?.string, let hash = text.firstIndex(of: "#") else { return reference }
        let pointer = text[text.index(after: hash)...]
        for (old, new) in movedSections where pointer.hasPrefix(old) {
            return scalar(String(text[..<hash]) + "#" + new + pointer.dropFirst(old.count), at: reference)
        }
        return reference
    }

    /// The pointers ``rewritten(_:)`` moves, and where to.
    private static let movedSections = [("/definitions/", "/components/schemas/"), ("/parameters/", "/components/parameters/"),
                                        ("/responses/", "/components/responses/")]

    /// A reference or pointer as the 2.0 file spelled it before ``rewritten(_:)``, for messages:
    /// a 2.0 document has no `components`, so a pointer under it was moved there.
    static func asWritten(_ reference: String) -> String {
        guard let hash = reference.firstIndex(of: "#") ?? (reference.hasPrefix("/") ? reference.startIndex : nil) else { return reference }
        let pointerStart = reference[hash] == "#" ? reference.index(after: hash) : hash
        let pointer = reference[pointerStart...]
        for (old, new) in movedSections where pointer.hasPrefix(new) {
            return String(reference[..<pointerStart]) + old + pointer.dropFirst(new.count)
        }
        return reference
    }

    // MARK: Security

    /// `basic` is HTTP basic, `apiKey` the same, `oauth2` its flow under 3.0's `flows`.
    private func convertSecurityScheme(_ scheme: Node) -> Node {
        guard case .mapping = scheme else { return scheme }
        let type = Self.child(scheme, "type")
        var pairs: [(Node, Node)] = []
        func keep(_ key: String) {
            if let value = Self.child(scheme, key) { pairs.append((Self.scalar(key, at: value), value)) }
        }
        switch type?.scalar?.string {
        case "basic":
            pairs.append((Self.scalar("type", at: type), Self.scalar("http", at: type)))
            pairs.append((Self.scalar("scheme", at: type), Self.scalar("basic", at: type)))
        case "apiKey":
            keep("type")
            keep("name")
            keep("in")
        case "oauth2":
            keep("type")
            let flowNames = ["implicit": "implicit", "password": "password", "application": "clientCredentials",
                             "accessCode": "authorizationCode"]
            let flowNode = Self.child(scheme, "flow")
            let flow = flowNames[flowNode?.scalar?.string ?? ""] ?? "implicit"
            var flowPairs: [(Node, Node)] = []
            for key in ["authorizationUrl", "tokenUrl", "scopes"] {
                if let value = Self.child(scheme, key) { flowPairs.append((Self.scalar(key, at: value), value)) }
            }
            let anchor = flowNode ?? scheme
            pairs.append((Self.scalar("flows", at: anchor),
                          Self.mapping([(Self.scalar(flow, at: anchor), Self.mapping(flowPairs, at: anchor))], at: anchor)))
        default:
            // The reader names an unknown type in its warning, at the scheme.
            return scheme
        }
        keep("description")
        return Self.mapping(pairs, at: scheme)
    }

    // MARK: Helpers

    /// Each value of a mapping converted with `convert`, keys kept.
    private mutating func convertEach(_ node: Node, _ convert: (inout Self, Node) -> Node) -> Node {
        guard case .mapping(let mapping) = node else { return node }
        var pairs: [(Node, Node)] = []
        for (key, value) in mapping { pairs.append((key, convert(&self, value))) }
        return Self.mapping(pairs, at: node)
    }

    /// A `consumes` or `produces` list and where it is; `nil` when there is none (an empty list
    /// is one, and overrides the document's).
    private func mediaTypes(_ node: Node?) -> Located? {
        guard let node, let items = node.sequence else { return nil }
        return Located(types: items.compactMap(\.scalar?.string), node: node)
    }

    /// A warning at a node of the file being converted.
    private func warn(_ message: String, at node: Node) {
        reporter.warning(message, at: locator.location(of: node))
    }

    /// A media type without its parameters, lowercased: `application/json; charset=utf-8` → `application/json`.
    private static func essence(_ type: String) -> String {
        type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? type
    }

    /// Whether a media type is JSON, which a body schema describes: `application/json`, a `+json`
    /// type, or AWS's `application/x-amz-json-<version>`.
    private static func isJSON(_ type: String) -> Bool {
        OpenAPIReader.isJSONNamed(essence(type))
    }

    /// Whether a media type is a form, which only form parameters are sent as.
    private static func isForm(_ type: String) -> Bool {
        ["application/x-www-form-urlencoded", "multipart/form-data"].contains(essence(type))
    }

    /// The value of `key` in a mapping node, looked up as the reader looks it up.
    static func child(_ node: Node, _ key: String) -> Node? { OpenAPIDocument.child(node, key) }

    /// The text of `key`'s scalar value in a mapping node.
    static func string(_ node: Node, _ key: String) -> String? { child(node, key)?.scalar?.string }

    /// A new scalar at the place of `anchor`, so that whatever the reader says of it points there.
    static func scalar(_ text: String, at anchor: Node?) -> Node {
        .scalar(Node.Scalar(text, .implicit, .plain, anchor?.mark))
    }

    /// A new mapping at the place of `anchor`.
    static func mapping(_ pairs: [(Node, Node)], at anchor: Node?) -> Node {
        .mapping(Node.Mapping(pairs, .implicit, .block, anchor?.mark))
    }

    /// A new list at the place of `anchor`.
    static func sequence(_ items: [Node], at anchor: Node?) -> Node {
        .sequence(Node.Sequence(items, .implicit, .block, anchor?.mark))
    }

    /// A key spelled the 3.0 way, at the 2.0 key's place.
    static func renamed(_ key: Node, _ name: String) -> Node {
        scalar(name, at: key)
    }
}
