import Foundation

/// Checks what no single file can: references between models, error schemas and endpoints,
/// names that collide once converted to Swift or with the names generated code needs, recursion,
/// and error mappings merged with the service's defaults. Builds the final ``ServiceSpec``.
///
/// Every check that can reject a spec runs here, so that `courier validate` rejects exactly what
/// `courier generate` would; translation then assumes a valid spec.
struct SpecValidator {
    let root: ParsedSpecFile
    let included: [ParsedSpecFile]
    private(set) var diagnostics: [Diagnostic] = []

    /// Names whose declarations failed to parse; references to them are not reported again.
    let brokenNames: Set<String>
    var models: [ModelSpec] = []
    var errorSchemas: [ErrorSchemaSpec] = []
    var modelsByName: [String: ModelSpec] = [:]
    var schemasByName: [String: ErrorSchemaSpec] = [:]
    /// Types the app declares (`models: { User: external }`), which references may name.
    var externalTypeNames: Set<String> = []

    init(root: ParsedSpecFile, included: [ParsedSpecFile]) {
        self.root = root
        self.included = included
        brokenNames = ([root] + included).reduce(into: Set()) { $0.formUnion($1.brokenNames) }
    }

    mutating func error(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) {
        diagnostics.append(Diagnostic.error(message, at: location, notes: notes).singleLined())
    }

    mutating func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic.warning(message, at: location).singleLined())
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
        resolveCompositions()
        models = models.map { model in
            guard let union = model.union else { return model }
            var model = model
            model.kind = .union(checkUnion(model, union))
            return model
        }
        modelsByName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        checkUnionCycles()
        for model in models { checkMembers(of: model) }
        for schema in errorSchemas {
            checkPropertyNames(schema.properties, in: "error schema '\(schema.name)'")
            for property in schema.properties {
                checkReference(property.type, at: property.typeLocation ?? property.location, usage: "property '\(property.name)'")
                checkDefault(of: property, in: "error schema '\(schema.name)'")
            }
        }
        markRecursion()

        let defaultErrors = checkErrorMappings(root.defaultErrors, owner: "'defaults'")
        checkCaseConsistency(defaultErrors, owner: "'defaults'")
        checkCaseMeaning(defaultErrors, owner: "'defaults'")
        let endpoints = root.endpoints.map { validateEndpoint($0, defaults: defaultErrors) }
        checkCollisions(endpoints.map { ($0.name, $0.swiftName, $0.location) }, what: "endpoint")
        checkPageMethodNames(endpoints)
        checkHeaderMethodNames(endpoints)
        checkBinaryUses(models: models, errorSchemas: errorSchemas, endpoints: endpoints)
        checkCollisions(root.headers.map { ($0.name.lowercased(), $0.swiftName, $0.location) }, what: "header")
        checkAuth(endpoints: endpoints)

        guard root.isService, let name = root.serviceName, let baseURL = root.baseURL else { return nil }
        var spec = ServiceSpec(name: name, description: root.description, baseURL: baseURL, headers: root.headers, auth: root.auth,
                           coding: root.coding, models: models, errorSchemas: errorSchemas, defaultErrors: defaultErrors,
                           defaultResilience: root.defaultResilience, endpoints: endpoints,
                           includedFiles: included.map(\.path), location: root.serviceLocation)
        spec.rateLimit = root.rateLimit
        spec.authSchemes = root.authSchemes
        spec.access = root.access ?? .public
        spec.generatesFake = root.generatesFake ?? true
        spec.equality = root.equality ?? .equatable
        spec.externalTypes = externalTypeNames.sorted()
        spec.mergedModels = root.mergedModels.filter { modelsByName[$0.name] != nil }
        checkGeneratedNames(of: spec)
        checkReservedNames(of: spec)
        return spec
    }

    // MARK: Coding keys

    func applyKeyStrategy(to model: ModelSpec, explicit: Set<SourceLocation>) -> ModelSpec {
        var model = model
        switch model.kind {
        case .object(let properties):
            model.kind = .object(properties.map { applyKeyStrategy(to: $0, explicit: explicit) })
        case .composition(let parts):
            model.kind = .composition(parts.map { part in
                guard case .properties(let properties) = part else { return part }
                return .properties(properties.map { applyKeyStrategy(to: $0, explicit: explicit) })
            })
        case .stringEnum, .numberEnum, .union:
            break
        }
        return model
    }

    func applyKeyStrategy(to property: PropertySpec, explicit: Set<SourceLocation>) -> PropertySpec {
        guard root.coding.keys == .snakeCase, !explicit.contains(property.location) else { return property }
        var property = property
        property.jsonKey = NameWords.snakeCased(property.name)
        return property
    }
}
