import Foundation

/// Checks what no single file can: references between models, error schemas and endpoints,
/// names that collide once converted to Swift, recursion, and error mappings merged with the
/// service's defaults. Builds the final ``ServiceSpec``.
struct SpecValidator {
    let root: ParsedSpecFile
    let included: [ParsedSpecFile]
    private(set) var diagnostics: [Diagnostic] = []

    /// Names whose declarations failed to parse; references to them are not reported again.
    private let brokenNames: Set<String>
    private var models: [ModelSpec] = []
    private var errorSchemas: [ErrorSchemaSpec] = []
    private var modelsByName: [String: ModelSpec] = [:]
    private var schemasByName: [String: ErrorSchemaSpec] = [:]

    init(root: ParsedSpecFile, included: [ParsedSpecFile]) {
        self.root = root
        self.included = included
        brokenNames = ([root] + included).reduce(into: Set()) { $0.formUnion($1.brokenNames) }
    }

    private mutating func error(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) {
        diagnostics.append(Diagnostic.error(message, at: location, notes: notes).singleLined())
    }

    /// Validates and assembles the spec. Returns `nil` when the root file is not a service or
    /// lacks what a service needs; diagnostics say why.
    mutating func validate() -> ServiceSpec? {
        let files = included + [root]
        let explicitJSONKeys = files.reduce(into: Set<SourceLocation>()) { $0.formUnion($1.explicitJSONKeys) }
        models = files.flatMap(\.models).map { applyKeyStrategy(to: $0, explicit: explicitJSONKeys) }
        errorSchemas = files.flatMap(\.errorSchemas).map { schema in
            var schema = schema
            schema.properties = schema.properties.map { applyKeyStrategy(to: $0, explicit: explicitJSONKeys) }
            return schema
        }

        checkTypeNames()
        for model in models { checkMembers(of: model) }
        for schema in errorSchemas {
            checkPropertyNames(schema.properties, in: "error schema '\(schema.name)'")
            for property in schema.properties {
                checkReference(property.type, at: property.typeLocation ?? property.location, usage: "property '\(property.name)'")
            }
        }
        markRecursion()

        let defaultErrors = checkErrorMappings(root.defaultErrors, owner: "'defaults'")
        checkCaseConsistency(defaultErrors, owner: "'defaults'")
        let endpoints = root.endpoints.map { validateEndpoint($0, defaults: defaultErrors) }
        checkCollisions(endpoints.map { ($0.name, $0.swiftName, $0.location) }, what: "endpoint")
        checkCollisions(root.headers.map { ($0.name.lowercased(), $0.swiftName, $0.location) }, what: "header")

        guard root.isService, let name = root.serviceName, let baseURL = root.baseURL else { return nil }
        return ServiceSpec(name: name, description: root.description, baseURL: baseURL, headers: root.headers, auth: root.auth,
                           coding: root.coding, models: models, errorSchemas: errorSchemas, defaultErrors: defaultErrors,
                           defaultResilience: root.defaultResilience, endpoints: endpoints,
                           includedFiles: included.map(\.path), location: root.serviceLocation)
    }

    // MARK: Names

    private func applyKeyStrategy(to model: ModelSpec, explicit: Set<SourceLocation>) -> ModelSpec {
        guard case .object(let properties) = model.kind else { return model }
        var model = model
        model.kind = .object(properties.map { applyKeyStrategy(to: $0, explicit: explicit) })
        return model
    }

    private func applyKeyStrategy(to property: PropertySpec, explicit: Set<SourceLocation>) -> PropertySpec {
        guard root.coding.keys == .snakeCase, !explicit.contains(property.location) else { return property }
        var property = property
        property.jsonKey = NameWords.snakeCased(property.name)
        return property
    }

    /// Models and error schemas share one namespace: both become Swift types.
    private mutating func checkTypeNames() {
        var byName: [String: (kind: String, location: SourceLocation)] = [:]
        var bySwiftName: [SwiftIdentifier: (name: String, kind: String, location: SourceLocation)] = [:]
        let declarations = models.map { ($0.name, $0.swiftName, $0.synthesizedForEndpoint == nil ? "model" : "inline body model", $0.location) }
            + errorSchemas.map { ($0.name, $0.swiftName, "error schema", $0.location) }
        for (name, swiftName, kind, location) in declarations {
            if PrimitiveType(rawValue: name) != nil {
                error("\(kind) '\(name)' has the name of a built-in type; rename it", at: location)
                continue
            }
            if let first = byName[name] {
                error("\(kind) '\(name)' is already declared as \(first.kind == "error schema" ? "an" : "a") \(first.kind)", at: location,
                      notes: [.note("'\(name)' is first declared here", at: first.location)])
                continue
            }
            byName[name] = (kind, location)
            if let first = bySwiftName[swiftName] {
                error("\(kind) '\(name)' and \(first.kind) '\(first.name)' both become the Swift type '\(swiftName)'; rename one",
                      at: location, notes: [.note("'\(first.name)' is declared here", at: first.location)])
                continue
            }
            bySwiftName[swiftName] = (name, kind, location)
        }
        modelsByName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        schemasByName = Dictionary(errorSchemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reports names that are different in the spec but the same in Swift.
    private mutating func checkCollisions(_ items: [(name: String, swiftName: SwiftIdentifier, location: SourceLocation)], what: String) {
        var seen: [SwiftIdentifier: (name: String, location: SourceLocation)] = [:]
        var seenNames: [String: SourceLocation] = [:]
        for item in items {
            if let first = seenNames[item.name] {
                error("\(what) '\(item.name)' is declared twice", at: item.location, notes: [.note("first declared here", at: first)])
                continue
            }
            seenNames[item.name] = item.location
            if let first = seen[item.swiftName] {
                error("\(what) '\(item.name)' and \(what) '\(first.name)' both become the Swift name '\(item.swiftName)'; rename one",
                      at: item.location, notes: [.note("'\(first.name)' is declared here", at: first.location)])
                continue
            }
            seen[item.swiftName] = (item.name, item.location)
        }
    }

    private mutating func checkPropertyNames(_ properties: [PropertySpec], in owner: String) {
        checkCollisions(properties.map { ($0.name, $0.swiftName, $0.location) }, what: "property")
        var keys: [String: PropertySpec] = [:]
        for property in properties {
            if let first = keys[property.jsonKey] {
                error("properties '\(first.name)' and '\(property.name)' of \(owner) both use the JSON key '\(property.jsonKey)'",
                      at: property.location, notes: [.note("'\(first.name)' is declared here", at: first.location)])
            }
            keys[property.jsonKey] = property
        }
    }

    private mutating func checkMembers(of model: ModelSpec) {
        switch model.kind {
        case .object(let properties):
            checkPropertyNames(properties, in: "model '\(model.name)'")
            for property in properties {
                checkReference(property.type, at: property.typeLocation ?? property.location, usage: "property '\(property.name)'")
            }
        case .stringEnum(let cases):
            checkCollisions(cases.map { ($0.value, $0.swiftName, $0.location) }, what: "enum value")
        }
    }

    // MARK: References

    /// Reports named types that are not models. Error schemas describe error bodies only, so
    /// they cannot be used as property or body types.
    private mutating func checkReference(_ type: TypeReference, at location: SourceLocation, usage: String) {
        for name in type.referencedNames where modelsByName[name] == nil && !brokenNames.contains(name) {
            if schemasByName[name] != nil {
                error("'\(name)' is an error schema, which only error mappings can use; declare a model for \(usage)", at: location)
            } else {
                let hint = Suggestions.closest(to: name, among: modelsByName.keys.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                error("model '\(name)' used by \(usage) is not defined\(hint)", at: location)
            }
        }
    }

    // MARK: Recursion

    /// Marks models that reach themselves, and reports cycles through required, non-collection
    /// properties, which no finite JSON value can satisfy.
    private mutating func markRecursion() {
        var allEdges: [String: [String]] = [:]
        var requiredEdges: [String: [String]] = [:]
        // The property a required edge goes through, for the message.
        var requiredVia: [String: [String: String]] = [:]
        for model in models {
            for property in model.properties {
                for name in property.type.referencedNames where modelsByName[name] != nil {
                    allEdges[model.name, default: []].append(name)
                }
                if case .named(let name) = property.type, modelsByName[name] != nil {
                    requiredEdges[model.name, default: []].append(name)
                    requiredVia[model.name, default: [:]][name] = requiredVia[model.name]?[name] ?? property.name
                }
            }
        }
        let names = models.map(\.name)
        let recursive = ReferenceGraph(nodes: names, edges: allEdges).nodesOnCycles()
        let requiredGraph = ReferenceGraph(nodes: names, edges: requiredEdges)
        let impossible = requiredGraph.nodesOnCycles()
        var reported = Set<String>()
        for model in models where impossible.contains(model.name) && !reported.contains(model.name) {
            guard let cycle = requiredGraph.cycle(through: model.name, within: impossible) else { continue }
            reported.formUnion(cycle)
            let steps = cycle.enumerated().map { offset, name in
                let next = offset + 1 < cycle.count ? cycle[offset + 1] : model.name
                return "\(name).\(requiredVia[name]?[next] ?? "?")"
            }
            error("model '\(model.name)' contains itself through required properties (\(steps.joined(separator: " → "))); make one of them optional or an array",
                  at: model.location)
        }
        models = models.map { model in
            var model = model
            model.isRecursive = recursive.contains(model.name)
            return model
        }
        modelsByName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Endpoints

    private mutating func validateEndpoint(_ endpoint: EndpointSpec, defaults: [ErrorMappingSpec]) -> EndpointSpec {
        var endpoint = endpoint
        let what = "endpoint '\(endpoint.name)'"
        checkCollisions(endpoint.parameters.map { ($0.placement == .header ? $0.name.lowercased() : $0.name, $0.swiftName, $0.location) },
                        what: "parameter")
        for parameter in endpoint.parameters {
            checkParameter(parameter)
        }
        if let body = endpoint.body {
            checkReference(body.type, at: body.location, usage: "the body of \(what)")
            if !endpoint.method.allowsBody {
                error("\(what) uses \(endpoint.method.rawValue), which sends no body; remove 'body' or use another method", at: body.location)
            }
        }
        if let type = endpoint.response.body {
            checkReference(type, at: endpoint.response.location, usage: "the response of \(what)")
        }
        let own = checkErrorMappings(endpoint.errors, owner: what)
        endpoint.errors = own
        let overridden = Set(own.map(\.status))
        endpoint.effectiveErrors = (own + defaults.filter { !overridden.contains($0.status) }).sorted { $0.status < $1.status }
        checkCaseConsistency(endpoint.effectiveErrors, owner: what)
        endpoint.resilience = endpoint.resilience.merged(withDefaults: root.defaultResilience)
        if endpoint.resilience.idempotencyKey != nil && endpoint.method.isIdempotent {
            diagnostics.append(.warning(NodeReader.singleLine("\(what) uses \(endpoint.method.rawValue), which is already idempotent; 'idempotencyKey' is not needed"),
                                        at: endpoint.location))
        }
        return endpoint
    }

    private mutating func checkParameter(_ parameter: ParameterSpec) {
        let what = "\(parameter.placement.rawValue) parameter '\(parameter.name)'"
        checkReference(parameter.type, at: parameter.location, usage: what)
        var type = parameter.type.nonOptional
        if case .array(let element) = type, parameter.placement == .query {
            type = element
        }
        let isScalar: Bool
        switch type {
        case .primitive(let primitive): isScalar = primitive.isScalarParameterType
        case .named(let name): isScalar = modelsByName[name]?.isStringEnum ?? brokenNames.contains(name) || modelsByName[name] == nil
        default: isScalar = false
        }
        if !isScalar {
            let allowed = parameter.placement == .query ? "String, Int, Int64, Double, Bool, Date, URL, a string enum, or a list of these" :
                "String, Int, Int64, Double, Bool, Date, URL or a string enum"
            error("\(what) has type '\(parameter.type)'; \(parameter.placement.rawValue) parameters take \(allowed)", at: parameter.location)
        }
        if case .string(let value)? = parameter.defaultValue, case .named(let name) = type, let model = modelsByName[name],
           model.isStringEnum, !model.enumCases.contains(where: { $0.value == value }) {
            let hint = Suggestions.closest(to: value, among: model.enumCases.map(\.value)).map { "; did you mean '\($0)'?" } ?? ""
            error("the default of \(what) is '\(value)', which is not a value of enum '\(name)'\(hint)", at: parameter.location)
        }
    }

    // MARK: Error mappings

    private mutating func checkErrorMappings(_ mappings: [ErrorMappingSpec], owner: String) -> [ErrorMappingSpec] {
        for mapping in mappings {
            if let name = mapping.bodySchema, schemasByName[name] == nil, !brokenNames.contains(name) {
                if modelsByName[name] != nil {
                    error("'\(name)' is a model; 'body' of an error mapping must name an error schema (under 'errorSchemas')",
                          at: mapping.location)
                } else {
                    let hint = Suggestions.closest(to: name, among: schemasByName.keys.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                    error("error schema '\(name)' used by the error mapping for \(mapping.status) is not defined\(hint)", at: mapping.location)
                }
            }
            if case .discriminated(let discriminator) = mapping.outcome {
                if case .bodyField(let path) = discriminator.source, let name = mapping.bodySchema, let schema = schemasByName[name] {
                    if let problem = problemResolving(path, in: schema) {
                        error("discriminator '\(path)' does not fit error schema '\(name)': \(problem)", at: discriminator.location)
                    }
                }
                var seen: [String: Int] = [:]
                for (index, entry) in discriminator.cases.enumerated() {
                    if seen[entry.value] != nil {
                        error("discriminator value '\(entry.value)' is listed twice", at: entry.errorCase.location)
                    }
                    seen[entry.value] = index
                }
            }
        }
        return mappings
    }

    /// Checks a body field path against an error schema and its shape; returns the problem, if any.
    private func problemResolving(_ path: FieldPath, in schema: ErrorSchemaSpec) -> String? {
        indirect enum Position {
            case object([PropertySpec])
            case array(of: Position)
            case type(TypeReference)
        }
        var position: Position
        switch schema.shape {
        case .object: position = .object(schema.properties)
        case .wrapped(let key): position = .object([PropertySpec(name: key, type: .named("\u{0}"), location: schema.location)])
        case .array(let key): position = .object([PropertySpec(name: key, type: .array(.named("\u{0}")), location: schema.location)])
        }
        func resolve(_ type: TypeReference) -> Position {
            switch type {
            case .named("\u{0}"): return .object(schema.properties)
            case .named(let name): return modelsByName[name].map { $0.isStringEnum ? .type(type) : .object($0.properties) } ?? .type(type)
            case .optional(let wrapped): return resolve(wrapped)
            case .array(let element): return .array(of: resolve(element))
            default: return .type(type)
            }
        }
        for component in path.components {
            switch (component, position) {
            case (.key(let key), .object(let properties)):
                guard let property = properties.first(where: { $0.jsonKey == key }) else {
                    let hint = Suggestions.closest(to: key, among: properties.map(\.jsonKey)).map { "; did you mean '\($0)'?" } ?? ""
                    return "it has no field '\(key)'\(hint)"
                }
                position = resolve(property.type)
            case (.index, .array(let element)):
                position = element
            case (.key(let key), _):
                return "'\(key)' is read from something that is not an object"
            case (.index(let index), _):
                return "[\(index)] indexes something that is not an array"
            }
        }
        switch position {
        case .type(.primitive(.string)), .type(.primitive(.int)), .type(.primitive(.int64)), .type(.primitive(.bool)):
            return nil
        case .type(.named(let name)) where modelsByName[name]?.isStringEnum == true:
            return nil
        default:
            return "the field must hold a string, number or boolean"
        }
    }

    /// One case name must carry one body type, and different case names must stay different in Swift.
    private mutating func checkCaseConsistency(_ mappings: [ErrorMappingSpec], owner: String) {
        var byName: [String: ErrorCaseSpec] = [:]
        var bySwiftName: [SwiftIdentifier: ErrorCaseSpec] = [:]
        for errorCase in mappings.flatMap(\.allCases) {
            if let first = byName[errorCase.name] {
                if first.bodySchema != errorCase.bodySchema {
                    let describe = { (schema: String?) in schema.map { "body '\($0)'" } ?? "no body" }
                    error("error case '\(errorCase.name)' of \(owner) carries \(describe(errorCase.bodySchema)) here but \(describe(first.bodySchema)) elsewhere; one case has one body",
                          at: errorCase.location, notes: [.note("'\(first.name)' is also used here", at: first.location)])
                }
                continue
            }
            byName[errorCase.name] = errorCase
            if let first = bySwiftName[errorCase.swiftName] {
                error("error cases '\(errorCase.name)' and '\(first.name)' of \(owner) both become the Swift case '\(errorCase.swiftName)'; rename one",
                      at: errorCase.location, notes: [.note("'\(first.name)' is used here", at: first.location)])
                continue
            }
            bySwiftName[errorCase.swiftName] = errorCase
        }
    }
}

extension HTTPMethod {
    /// Whether requests of this method may carry a body.
    var allowsBody: Bool {
        switch self {
        case .post, .put, .patch, .delete: true
        case .get, .head, .options: false
        }
    }
}
