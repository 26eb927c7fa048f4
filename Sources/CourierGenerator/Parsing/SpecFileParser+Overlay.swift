import Foundation

/// An overlay file: the OpenAPI document it names, generation options, and per-operation
/// additions written in the spec format's own syntax (error mappings, resilience hints,
/// pagination), parsed by the same functions a spec's endpoints use.
extension SpecFileParser {
    /// Whether a file's root is an overlay: a mapping with an `overlay` key.
    static func isOverlay(_ root: Node?) -> Bool {
        guard case .mapping(let mapping)? = root else { return false }
        return mapping.contains { key, _ in key.scalar?.string == "overlay" }
    }

    /// Parses an overlay's root; `nil` when it names no document.
    mutating func parseOverlay(root: Node) -> OverlaySpec? {
        errorBodiesMayBeInherited = true
        guard let mapping = reader.mapping(root, "the overlay") else { return nil }
        let fields = reader.fields(of: mapping, in: "the overlay", shape: .overlay,
                                   owner: .start(of: file.path))
        guard let documentEntry = fields["overlay"], let documentPath = reader.string(documentEntry.value, "'overlay' (the OpenAPI document's path)")
        else { return nil }
        var overlay = OverlaySpec(documentPath: documentPath, documentLocation: reader.location(of: documentEntry.value), file: file)

        if let entry = fields["service"], let name = reader.string(entry.value, "'service'") {
            checkIdentifier(name, SwiftIdentifier(typeNamed: name), "service name", at: entry.value)
            overlay.serviceName = name
            overlay.serviceLocation = reader.location(of: entry.value)
        }
        overlay.description = fields["description"].flatMap { reader.string($0.value, "'description'") }
        overlay.baseURL = fields["baseURL"].flatMap { parseBaseURL($0.value) }
        overlay.access = fields["access"].flatMap { reader.choice($0.value, "'access'", AccessLevel.allCases) }
        overlay.generatesFake = fields["fake"].flatMap { reader.bool($0.value, "'fake'") }
        overlay.equality = fields["equality"].flatMap { reader.choice($0.value, "'equality'", ModelEquality.allCases) }
        if let entry = fields["headers"] { overlay.headers = parseHeaders(entry.value) }
        if let entry = fields["include"] { parseIncludes(entry.value) }
        overlay.reading.include = fields["filter"].map { parseOperationFilter($0, what: "'filter'") }
        overlay.reading.exclude = fields["exclude"].map { parseOperationFilter($0, what: "'exclude'") }
        if let entry = fields["names"] { parseNames(entry, into: &overlay.reading) }
        if let entry = fields["types"], let types = reader.mapping(entry.value, "'types'") {
            for item in reader.entries(of: types) {
                guard let name = reader.string(item.value, "the type of schema '\(item.key)'") else { continue }
                checkExternalTypeName(name, at: item.value)
                overlay.reading.typeOverrides[item.key] = .init(name: name, location: reader.location(of: item.value))
            }
        }
        overlay.reading.infersErrorCases = fields["inferErrorCases"].flatMap { reader.bool($0.value, "'inferErrorCases'") } ?? false
        if let entry = fields["errorSchemas"] { parseErrorSchemas(entry.value) }
        if let entry = fields["models"] { parseModels(entry.value) }
        if let entry = fields["defaults"] {
            parseDefaults(entry.value)
            overlay.defaultErrors = file.defaultErrors
            overlay.defaultResilience = file.defaultResilience
            file.defaultErrors = []
            file.defaultResilience = ResilienceHints()
        }
        if let entry = fields["operations"], let operations = reader.mapping(entry.value, "'operations'") {
            for operation in reader.entries(of: operations) {
                if let parsed = parseOperationOverlay(operation) { overlay.operations.append(parsed) }
            }
        }
        overlay.file = file
        return overlay
    }

    func parseOperationOverlay(_ entry: NodeReader.Entry) -> OperationOverlay? {
        let what = "operation '\(entry.key)'"
        let location = reader.location(of: entry.keyNode)
        guard let mapping = reader.mapping(entry.value, what) else { return nil }
        let fields = reader.fields(of: mapping, in: what, shape: .operationOverlay, owner: location)
        var operation = OperationOverlay(key: entry.key, location: location)
        operation.description = fields["description"].flatMap { reader.string($0.value, "'description'") }
        operation.errors = fields["errors"].map { parseErrorMappings($0.value, owner: what) } ?? []
        operation.resilience = parseResilience(fields)
        if let idempotency = fields["idempotencyKey"] { operation.resilience.idempotencyKey = parseIdempotencyKey(idempotency.value) }
        operation.pagination = fields["paginate"].flatMap { parsePagination($0, endpoint: what) }
        return operation
    }

    /// `filter:` or `exclude:`: lists of operation ids, tags and path patterns.
    func parseOperationFilter(_ entry: NodeReader.Entry, what: String) -> OperationFilter {
        var filter = OperationFilter()
        guard let mapping = reader.mapping(entry.value, what) else { return filter }
        let fields = reader.fields(of: mapping, in: what, shape: .operationFilter, owner: reader.location(of: entry.keyNode))
        func names(_ key: String) -> [OpenAPIReadOptions.Named] {
            guard let field = fields[key] else { return [] }
            let items: [Node] = if case .sequence = field.value { reader.sequence(field.value, "'\(key)' of \(what)") ?? [] } else { [field.value] }
            return items.compactMap { item in
                reader.string(item, "an entry of '\(key)' in \(what)").map { OpenAPIReadOptions.Named(name: $0, location: reader.location(of: item)) }
            }
        }
        filter.operations = names("operations")
        filter.tags = names("tags")
        filter.paths = names("paths")
        for path in filter.paths where !path.name.hasPrefix("/") && !path.name.hasPrefix("*") {
            reader.error("path pattern '\(NodeReader.abbreviated(path.name))' in \(what) must start with '/' (or '*'), as the document's paths do",
                         at: path.location)
        }
        return filter
    }

    /// `names: { operations: { id: name }, schemas: { component: Name } }`.
    func parseNames(_ entry: NodeReader.Entry, into options: inout OpenAPIReadOptions) {
        guard let mapping = reader.mapping(entry.value, "'names'") else { return }
        let fields = reader.fields(of: mapping, in: "'names'", shape: .overlayNames, owner: reader.location(of: entry.keyNode))
        if let operations = fields["operations"].flatMap({ reader.mapping($0.value, "'operations' of 'names'") }) {
            for item in reader.entries(of: operations) {
                guard let name = reader.string(item.value, "the name of operation '\(item.key)'") else { continue }
                let identifier = SwiftIdentifier(memberNamed: name)
                checkIdentifier(name, identifier, "method name", at: item.value)
                if identifier.name != name {
                    reader.error("'\(NodeReader.abbreviated(name))' is not a Swift method name; write it as '\(identifier.name)'", at: item.value)
                    continue
                }
                options.operationNames[item.key] = .init(name: name, location: reader.location(of: item.value))
            }
        }
        if let schemas = fields["schemas"].flatMap({ reader.mapping($0.value, "'schemas' of 'names'") }) {
            for item in reader.entries(of: schemas) {
                guard let name = reader.string(item.value, "the name of schema '\(item.key)'") else { continue }
                let identifier = SwiftIdentifier(typeNamed: name)
                checkIdentifier(name, identifier, "type name", at: item.value)
                if identifier.name != name {
                    reader.error("'\(NodeReader.abbreviated(name))' is not a Swift type name; write it as '\(identifier.name)'", at: item.value)
                    continue
                }
                options.schemaNames[item.key] = .init(name: name, location: reader.location(of: item.value))
            }
        }
    }
}
