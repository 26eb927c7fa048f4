/// Names: one namespace for types, and no two names that become the same Swift identifier.
extension SpecValidator {
    /// Models and error schemas share one namespace: both become Swift types.
    mutating func checkTypeNames() {
        var byName: [String: (kind: String, location: SourceLocation)] = [:]
        var bySwiftName: [SwiftIdentifier: (name: String, kind: String, location: SourceLocation)] = [:]
        let declarations = models.map { ($0.name, $0.swiftName, $0.synthesizedForEndpoint == nil ? "model" : "inline body model", $0.location) }
            + errorSchemas.map { ($0.name, $0.swiftName, "error schema", $0.location) }
            + ([root] + included).flatMap(\.externalTypes).map { ($0.name, SwiftIdentifier(typeNamed: $0.name), "external type", $0.location) }
        for (name, swiftName, kind, location) in declarations {
            if PrimitiveType(rawValue: name) != nil {
                error("\(kind) '\(name)' has the name of a built-in type; rename it", at: location)
                continue
            }
            if let first = byName[name] {
                error("\(kind) '\(name)' is already declared as \("aeiou".contains(first.kind.first ?? "x") ? "an" : "a") \(first.kind)", at: location,
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
        externalTypeNames = Set(([root] + included).flatMap(\.externalTypes).map(\.name))
        modelsByName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        schemasByName = Dictionary(errorSchemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reports names declared twice, and names that are different in the spec but the same in
    /// Swift. `scopes`, when given, holds each item's scope: a name may stand once in each (a
    /// path parameter and a query parameter may both be `index`), while Swift names share one.
    mutating func checkCollisions(_ items: [(name: String, swiftName: SwiftIdentifier, location: SourceLocation)], what: String,
                                  scopes: [String]? = nil) {
        var seen: [SwiftIdentifier: (name: String, location: SourceLocation)] = [:]
        var seenNames: [String: SourceLocation] = [:]
        for (index, item) in items.enumerated() {
            let identity = (scopes?[index]).map { $0 + " " + item.name } ?? item.name
            if let first = seenNames[identity] {
                error("\(what) '\(item.name)' is declared twice", at: item.location, notes: [.note("first declared here", at: first)])
                continue
            }
            seenNames[identity] = item.location
            if let first = seen[item.swiftName] {
                error("\(what) '\(item.name)' and \(what) '\(first.name)' both become the Swift name '\(item.swiftName)'; rename one",
                      at: item.location, notes: [.note("'\(first.name)' is declared here", at: first.location)])
                continue
            }
            seen[item.swiftName] = (item.name, item.location)
        }
    }

    mutating func checkPropertyNames(_ properties: [PropertySpec], in owner: String) {
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

    mutating func checkMembers(of model: ModelSpec) {
        switch model.kind {
        case .object(let properties):
            checkPropertyNames(properties, in: "model '\(model.name)'")
            for property in properties {
                checkReference(property.type, at: property.typeLocation ?? property.location, usage: "property '\(property.name)'")
                checkDefault(of: property, in: "model '\(model.name)'")
            }
        case .stringEnum(let cases), .numberEnum(_, let cases):
            checkCollisions(cases.map { ($0.value, $0.swiftName, $0.location) }, what: "enum value")
        case .union, .composition:
            // Checked by `checkUnion` and `resolveCompositions`.
            break
        }
    }
}
