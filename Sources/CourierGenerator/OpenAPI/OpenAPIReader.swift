import Foundation

/// Reads an OpenAPI 3.0 or 3.1 document (or a Swagger 2.0 one, converted on the way in by
/// ``Swagger2Converter``) into the same ``ParsedSpecFile`` a Courier spec parses to, with every
/// location in the document's own files, so that the validator, the translator and the templates
/// treat both inputs alike.
///
/// The stages, each in an extension of its own: service-level fields and security here, schemas
/// (`+Schemas`), operations and their parameters and bodies (`+Operations`), and responses,
/// outcomes and error mappings (`+Responses`). Only what the operations reach is read, so a
/// document's unused schemas cost nothing. Whatever Courier cannot express is a warning at its
/// location naming the fallback; it never fails the document.
struct OpenAPIReader {
    var document: OpenAPIDocument
    var file: ParsedSpecFile

    /// Spec names of models, by the component (or inline node) they were made from.
    var modelNames: [OpenAPIDocument.Target: String] = [:]
    /// Spec names of models made from inline schemas, by the schema's location.
    var inlineModelNames: [String: String] = [:]
    /// Spec names of error schemas, by the component they were made from.
    var errorSchemaNames: [OpenAPIDocument.Target: String] = [:]
    /// Components to read as models once the operations are read: the model's name and schema.
    var pendingModels: [(name: String, schema: OpenAPIDocument.Located)] = []
    /// The component model being read, which a dynamic reference (`$recursiveRef: "#"`) means.
    var enclosingComponentModel: String?
    /// Every type name given out or reserved, so that no two are alike.
    var takenTypeNames: Set<String> = []
    /// The type names of the document's component schemas (`components/schemas` keys, or the
    /// names an overlay gives them), which a `title` never takes from them.
    var componentTypeNames: Set<String> = []
    /// Where each model made from an inline schema came from, by its name, for finding alike
    /// ones once the document is read (``InlineOrigin``).
    var inlineOrigins: [String: InlineOrigin] = [:]
    /// The names the first reading chose for inline schemas that are alike, by the schema's
    /// location; empty in the first reading (`+Merging`).
    var namingPlan: [String: String] = [:]
    /// The planned names whose model is read already: the first schema of a merged group reached.
    var readPlannedModels: Set<String> = []
    /// The service's default security, by scheme name; `nil` when the document has none.
    var defaultSecurity: [String]?
    /// The security schemes the document declares and Courier can use, by name.
    var securitySchemes: [String: AuthSpec] = [:]

    /// Operations read, and those whose errors came out typed, for the compatibility report.
    var operationCount = 0

    /// What an overlay asked for: which operations, which names.
    let options: OpenAPIReadOptions
    /// Every operation's id (or, without one, the method name from method and path), kept or not.
    var allOperationIDs: Set<String> = []
    /// Every tag an operation has.
    var allTags: Set<String> = []
    /// The operations the options left out, by id.
    var filteredOut: Set<String> = []
    /// The endpoint each kept operation became, by the operation's id.
    var endpointsByOperationID: [String: String] = [:]

    init(root: Node, url: URL, displayPath: String, options: OpenAPIReadOptions = OpenAPIReadOptions()) {
        self.options = options
        document = OpenAPIDocument(root: root, url: url, displayPath: displayPath)
        file = ParsedSpecFile(path: displayPath)
        file.isService = true
        // JSON keys are written as the document spells them; Swift names are derived from them.
        file.coding.keys = .asIs
        for primitive in PrimitiveType.allCases {
            takenTypeNames.insert(primitive.rawValue)
            takenTypeNames.insert(primitive.swiftSpelling)
        }
        takenTypeNames.formUnion(ReservedNames.types.keys)
        takenTypeNames.insert("Binary")
        if let root = document.root,
           let schemas = document.child(root, "components").flatMap({ document.child($0, "schemas") }) {
            for entry in document.entries(schemas) {
                componentTypeNames.insert(options.schemaNames[entry.key]?.name ?? SwiftIdentifier(typeNamed: entry.key).name)
            }
        }
    }

    /// Whether a document's root is an OpenAPI document: a mapping with an `openapi` key, or a
    /// `swagger` key (Swagger 2.0, which ``Swagger2Converter`` turns into the shape read here).
    static func isOpenAPI(_ root: Node?) -> Bool {
        root.flatMap { OpenAPIDocument.child($0, "openapi") ?? OpenAPIDocument.child($0, "swagger") } != nil
    }

    /// Reads the whole document. Inline schemas that come out alike (train-travel's three
    /// `links` objects) are one model: a first reading finds them, and when it does, a second
    /// reading names each group once (`+Merging`) and is the one kept, diagnostics included.
    mutating func read() -> ParsedSpecFile {
        readOnce()
        let plan = mergePlan()
        guard !plan.groups.isEmpty, let root = document.root else { return file }
        var second = OpenAPIReader(root: root.node, url: document.files[0].url, displayPath: document.files[0].displayPath,
                                   options: options)
        second.document = document.rereading()
        second.namingPlan = plan.names
        second.takenTypeNames.formUnion(plan.names.values)
        second.readOnce()
        second.file.mergedModels = plan.groups
        self = second
        return file
    }

    /// One reading of the document, with the names of ``namingPlan``.
    mutating func readOnce() {
        guard let root = document.root else { return }
        readVersion(root)
        readInfo(root)
        readServers(root)
        readSecurity(root)
        if let retry = speakeasyRetries(in: root) { file.defaultResilience.retry = retry }
        readOperations(root)
        while !pendingModels.isEmpty {
            let next = pendingModels.removeFirst()
            enclosingComponentModel = next.name
            readModel(named: next.name, schema: next.schema)
            enclosingComponentModel = nil
        }
        settle()
        factorDefaultErrors()
        supplyStatusClassErrors(at: root)
        inferErrorCases()
    }

    // MARK: The service

    mutating func readVersion(_ root: OpenAPIDocument.Located) {
        guard let version = document.child(root, "openapi") else { return }
        let text = version.node.scalar?.string ?? ""
        if !(text.hasPrefix("3.0") || text.hasPrefix("3.1")) {
            document.error("'openapi' is '\(NodeReader.abbreviated(text))'; Courier reads OpenAPI 3.0 and 3.1 documents", at: version)
        }
    }

    mutating func readInfo(_ root: OpenAPIDocument.Located) {
        let info = document.child(root, "info")
        let title = document.string(root, "x-courier-service") ?? document.string(info, "title") ?? "API"
        var name = SwiftIdentifier(typeNamed: title).name
        if name.isEmpty || name == "_" { name = "API" }
        // A title whose generated types would be the runtime's (`API` gives `APIClient`, as the
        // client's suffix is not doubled) would be rejected; `APIService` gives `APIServiceClient`.
        if Self.serviceTypeNames(of: name).contains(where: { GeneratedNames.reservedTypes.contains($0) || ReservedNames.types[$0] != nil }) {
            name += "Service"
        }
        file.serviceName = name
        file.serviceLocation = info.map(document.location) ?? .start(of: file.path)
        file.description = document.string(info, "description").map(Self.firstParagraph)
        takenTypeNames.formUnion(Self.serviceTypeNames(of: name))
    }

    /// The types generated for the service `name` itself (its client, shared failure, protocols
    /// and fake), which no model may take.
    static func serviceTypeNames(of name: String) -> [String] {
        let service = SwiftIdentifier(typeNamed: name)
        return [GeneratedNames.client(ofService: service), GeneratedNames.sharedFailure(ofService: service),
                GeneratedNames.requestProtocol(ofService: service), GeneratedNames.apiProtocol(ofService: service),
                GeneratedNames.fake(ofService: service)]
    }

    mutating func readServers(_ root: OpenAPIDocument.Located) {
        guard let server = document.child(root, "servers").flatMap({ document.items($0).first }),
              var text = document.string(server, "url") else {
            document.warning("the document names no server; the client's base URL must be passed", at: root)
            file.baseURL = URL(string: "https://api.example.invalid")
            return
        }
        for (variable, definition) in document.child(server, "variables").map(document.entries).map({ $0.map { ($0.key, $0.value) } }) ?? [] {
            if let value = document.string(definition, "default") {
                text = text.replacingOccurrences(of: "{\(variable)}", with: value)
            }
        }
        if let url = URL(string: text), url.scheme != nil, url.host != nil {
            file.baseURL = url
        } else {
            document.warning("the server URL '\(NodeReader.abbreviated(text))' is not absolute; the client's base URL must be passed",
                             at: server)
            file.baseURL = URL(string: "https://api.example.invalid")
        }
    }

    // MARK: Security

    mutating func readSecurity(_ root: OpenAPIDocument.Located) {
        let schemes = document.child(root, "components").flatMap { document.child($0, "securitySchemes") }
        for entry in schemes.map(document.entries) ?? [] {
            guard let (scheme, _) = document.resolve(entry.value) else { continue }
            let location = document.location(of: entry.keyNode)
            let description = document.string(scheme, "description").map(Self.firstParagraph)
            switch (document.string(scheme, "type")?.lowercased(), document.string(scheme, "scheme")?.lowercased()) {
            case ("http", "basic"):
                securitySchemes[entry.key] = AuthSpec(scheme: .basic, description: description, location: location)
            case ("http", "bearer"), ("oauth2", _), ("openidconnect", _):
                securitySchemes[entry.key] = AuthSpec(scheme: .bearer, description: description, location: location)
            case ("http", let other):
                document.warning("security scheme '\(entry.key)' uses HTTP '\(other ?? "")', which Courier does not sign; "
                                 + "operations that need only it are sent without credentials", at: entry.keyNode)
            case ("apikey", _):
                guard let name = document.string(scheme, "name"), let place = document.string(scheme, "in") else { continue }
                switch place {
                case "header":
                    var auth = AuthSpec(scheme: .apiKey, headerName: name, description: description, location: location)
                    auth.keyPlacement = .header
                    securitySchemes[entry.key] = auth
                case "query":
                    var auth = AuthSpec(scheme: .apiKey, headerName: nil, description: description, location: location)
                    auth.keyPlacement = .query
                    auth.queryName = name
                    securitySchemes[entry.key] = auth
                default:
                    document.warning("security scheme '\(entry.key)' sends its key in a \(place), which Courier does not; "
                                     + "operations that need only it are sent without credentials", at: entry.keyNode)
                }
            default:
                document.warning("security scheme '\(entry.key)' is of a type Courier does not know; operations that need only it "
                                 + "are sent without credentials", at: entry.keyNode)
            }
        }
        defaultSecurity = document.child(root, "security").map(securityNames)
        let usable = securitySchemes.keys.sorted()
        guard !usable.isEmpty else { return }
        if usable.count == 1, let only = securitySchemes[usable[0]] {
            file.auth = only
        } else {
            let named = usable.compactMap { name in
                securitySchemes[name].map { NamedAuthScheme(name: name, auth: $0, location: $0.location) }
            }
            let defaults = (defaultSecurity ?? []).filter { securitySchemes[$0] != nil }
            file.authSchemes = AuthSchemesSpec(schemes: named, defaultSchemes: defaults.isEmpty ? [usable[0]] : defaults,
                                               location: named[0].location)
        }
    }

    /// The scheme names of a `security` list, in order, each once; alternatives and
    /// combinations alike (Courier sends the first configured one).
    func securityNames(_ list: OpenAPIDocument.Located) -> [String] {
        var names: [String] = []
        for requirement in document.items(list) {
            for entry in document.entries(requirement) where !names.contains(entry.key) {
                names.append(entry.key)
            }
        }
        return names
    }

    // MARK: Names

    /// A type name not given out yet: `base`; else, for a name generated code reserves
    /// (`Error`, `Result`), the first free of `alternatives` and the service's name before it
    /// (`ShopError`), names a person would guess; else `base` with a number.
    mutating func uniqueTypeName(_ base: String, alternatives: [String] = []) -> String {
        var name = SwiftIdentifier(typeNamed: base).name
        if name.isEmpty || name == "_" { name = "Value" }
        if name.first?.isNumber == true { name = "Value" + name }
        if takenTypeNames.contains(name) && (ReservedNames.types[name] != nil || PrimitiveType(rawValue: name) != nil) {
            let guesses = alternatives.map { SwiftIdentifier(typeNamed: $0).name } + [(file.serviceName ?? "") + name]
            if let free = guesses.first(where: { !$0.isEmpty && !takenTypeNames.contains($0) }) {
                takenTypeNames.insert(free)
                return free
            }
        }
        var candidate = name
        var number = 2
        while takenTypeNames.contains(candidate) {
            candidate = name + String(number)
            number += 1
        }
        takenTypeNames.insert(candidate)
        return candidate
    }

    /// The first paragraph of a description: the doc comment's summary, without the long prose
    /// and Markdown tables some documents carry.
    static func firstParagraph(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let paragraph = trimmed.components(separatedBy: "\n\n").first ?? trimmed
        return paragraph.replacingOccurrences(of: "\n", with: " ")
    }
}
