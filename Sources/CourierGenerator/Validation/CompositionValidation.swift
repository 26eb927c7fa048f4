/// `allOf` compositions (flattened here into object models) and `oneOf` unions.
extension SpecValidator {
    // MARK: Composition

    /// Replaces every composition with the object it stands for: the properties of its parts in
    /// order of first appearance. Reports cycles, parts that are not objects, and a property that
    /// two parts declare with different types.
    mutating func resolveCompositions() {
        let compositions = models.filter { if case .composition = $0.kind { return true } else { return false } }
        guard !compositions.isEmpty else { return }
        var edges: [String: [String]] = [:]
        for model in compositions {
            guard case .composition(let parts) = model.kind else { continue }
            edges[model.name] = parts.compactMap { part in
                if case .model(let name, _) = part, modelsByName[name] != nil { return name }
                return nil
            }
        }
        let graph = ReferenceGraph(nodes: compositions.map(\.name), edges: edges)
        let onCycles = graph.nodesOnCycles()
        var reported = Set<String>()
        for model in compositions where onCycles.contains(model.name) && !reported.contains(model.name) {
            let cycle = graph.cycle(through: model.name, within: onCycles) ?? [model.name]
            reported.formUnion(cycle)
            error("model '\(model.name)' is composed of itself (\((cycle + [model.name]).joined(separator: " → "))); "
                      + "an 'allOf' part cannot lead back to the model", at: model.location)
        }
        // Tarjan's components come out dependencies first, so each part is resolved before its users.
        var resolved = Set<String>()
        for component in graph.stronglyConnectedComponents() {
            for name in component {
                guard let model = modelsByName[name], case .composition(let parts) = model.kind else { continue }
                var flattened = model
                flattened.kind = .object(onCycles.contains(name) ? [] : flatten(parts, of: model, resolved: resolved))
                resolved.insert(name)
                modelsByName[name] = flattened
            }
        }
        models = models.map { model in
            // Only compositions change; a duplicate name (already reported) keeps its declaration.
            guard case .composition = model.kind, let resolvedModel = modelsByName[model.name] else { return model }
            return resolvedModel
        }
    }

    private mutating func flatten(_ parts: [CompositionPart], of model: ModelSpec, resolved: Set<String>) -> [PropertySpec] {
        var properties: [PropertySpec] = []
        var byName: [String: PropertySpec] = [:]
        for part in parts {
            let added: [PropertySpec]
            var referenceLocation: SourceLocation?
            switch part {
            case .properties(let list):
                added = list
            case .model(let name, let location):
                referenceLocation = location
                guard let target = modelsByName[name] else {
                    checkReference(.named(name), at: location, usage: "'allOf' of model '\(model.name)'")
                    continue
                }
                switch target.kind {
                case .object(let list):
                    added = list
                case .composition:
                    // Part of a cycle, already reported.
                    continue
                case .stringEnum, .numberEnum:
                    error("'allOf' of model '\(model.name)' can only combine object models; '\(name)' is an enum", at: location)
                    continue
                case .union:
                    error("'allOf' of model '\(model.name)' can only combine object models; '\(name)' is a union ('oneOf')", at: location)
                    continue
                }
            }
            for property in added {
                guard let first = byName[property.name] else {
                    byName[property.name] = property
                    properties.append(property)
                    continue
                }
                if first.type == property.type && first.jsonKey == property.jsonKey { continue }
                let what = first.type == property.type ? "with the JSON key '\(property.jsonKey)'" : "as '\(property.type)'"
                let firstWhat = first.type == property.type ? "the JSON key '\(first.jsonKey)'" : "'\(first.type)'"
                error("property '\(property.name)' of model '\(model.name)' is declared \(what) here, but as \(firstWhat) at "
                          + "\(first.location); a property of an 'allOf' model must have one type",
                      at: referenceLocation ?? property.location,
                      notes: [.note("'\(property.name)' is first declared here", at: first.location)])
            }
        }
        return properties
    }

    // MARK: Unions

    /// Checks a union's variants and discriminator, and fills in the values that pick each variant.
    mutating func checkUnion(_ model: ModelSpec, _ union: UnionSpec) -> UnionSpec {
        var union = union
        var caseNames: [String: UnionVariantSpec] = [:]
        var types: [TypeReference: UnionVariantSpec] = [:]
        for variant in union.variants {
            checkReference(variant.type, at: variant.location, usage: "a variant of union '\(model.name)'")
            if union.discriminator == nil, let first = types[variant.type] {
                error("union '\(model.name)' lists '\(variant.type)' twice; without a discriminator the second can never be chosen",
                      at: variant.location, notes: [.note("first listed here", at: first.location)])
                continue
            }
            types[variant.type] = types[variant.type] ?? variant
            if let first = caseNames[variant.swiftName.name] {
                error("two variants of union '\(model.name)' become the case '\(variant.swiftName.name)'; give one a 'case:'",
                      at: variant.location, notes: [.note("the first is declared here", at: first.location)])
            } else {
                caseNames[variant.swiftName.name] = variant
            }
        }
        if let discriminator = union.discriminator {
            union.variants = checkDiscriminator(discriminator, of: model, variants: union.variants)
        }
        return union
    }

    /// With a discriminator every variant is an object model; the mapping names variants by model
    /// or case name, and its values are integers when the variants declare the property as one.
    private mutating func checkDiscriminator(_ discriminator: UnionDiscriminatorSpec, of model: ModelSpec,
                                             variants: [UnionVariantSpec]) -> [UnionVariantSpec] {
        var variants = variants
        var declaredTypes: [(type: TypeReference, model: String)] = []
        for variant in variants {
            guard case .named(let name) = variant.type, let target = modelsByName[name] else {
                if variant.type.referencedNames.allSatisfy({ modelsByName[$0] != nil }) {
                    error("variant '\(variant.type)' of union '\(model.name)' must be an object model, because the union has a discriminator",
                          at: variant.location)
                }
                continue
            }
            guard case .object(let properties) = target.kind else {
                if case .composition = target.kind { continue }
                error("variant '\(name)' of union '\(model.name)' must be an object model, because the union has a discriminator",
                      at: variant.location)
                continue
            }
            if let property = properties.first(where: { $0.jsonKey == discriminator.property }) {
                declaredTypes.append((property.type.nonOptional, name))
            }
        }
        var isInteger = !discriminator.mapping.isEmpty && discriminator.mapping.allSatisfy(\.isPlainInteger)
        if let first = declaredTypes.first {
            for declared in declaredTypes where declared.type != first.type {
                error("the discriminator '\(discriminator.property)' of union '\(model.name)' is '\(first.type)' in '\(first.model)' "
                          + "but '\(declared.type)' in '\(declared.model)'; the variants must agree", at: discriminator.location)
                break
            }
            switch first.type {
            case .primitive(.int), .primitive(.int64):
                isInteger = true
            case .primitive(.string):
                isInteger = false
            case .named(let name) where modelsByName[name]?.isStringEnum == true:
                isInteger = false
            case .named(let name) where modelsByName[name]?.isIntegerEnum == true:
                // Discord's channel `type` is an integer enum: its values are the integers of the mapping.
                isInteger = true
            default:
                error("the discriminator '\(discriminator.property)' of union '\(model.name)' is '\(first.type)' in '\(first.model)'; "
                          + "a discriminator must be a String, a string enum, Int, Int64 or an integer enum", at: discriminator.location)
            }
        }
        var tagsByVariant: [Int: [UnionTag]] = [:]
        // Variants the mapping names, even with a value already reported as wrong.
        var named = Set<Int>()
        for entry in discriminator.mapping {
            let index = variants.firstIndex { $0.type == .named(entry.variant) }
                ?? variants.firstIndex { $0.swiftName.name == SwiftIdentifier(memberNamed: entry.variant).name }
            guard let index else {
                let names = variants.flatMap { [$0.type.description, $0.swiftName.name] }
                let hint = Suggestions.closest(to: entry.variant, among: names).map { "; did you mean '\($0)'?" } ?? ""
                error("'\(entry.variant)' in the mapping of union '\(model.name)' is not one of its variants\(hint)", at: entry.variantLocation)
                continue
            }
            named.insert(index)
            if isInteger {
                guard let value = Int64(entry.value) else {
                    error("discriminator value '\(NodeReader.abbreviated(entry.value))' of union '\(model.name)' must be an integer, "
                              + "because '\(discriminator.property)' is one", at: entry.location)
                    continue
                }
                tagsByVariant[index, default: []].append(.integer(value))
            } else {
                tagsByVariant[index, default: []].append(.string(entry.value))
            }
        }
        var seen: [UnionTag: SourceLocation] = [:]
        for index in variants.indices {
            var tags = tagsByVariant[index] ?? []
            if tags.isEmpty {
                guard !named.contains(index), case .named(let name) = variants[index].type else { continue }
                if isInteger {
                    error("variant '\(name)' of union '\(model.name)' has no value in 'mapping'; an integer discriminator needs one",
                          at: variants[index].location)
                    continue
                }
                tags = [.string(name)]
            }
            for tag in tags {
                if let first = seen[tag] {
                    error("discriminator value \(tag) of union '\(model.name)' picks two variants", at: variants[index].location,
                          notes: [.note("first used here", at: first)])
                }
                seen[tag] = seen[tag] ?? variants[index].location
            }
            variants[index].tags = tags
        }
        return variants
    }

    /// Reports unions that list themselves as a variant, directly or through other unions: decoding
    /// one would never end.
    mutating func checkUnionCycles() {
        var edges: [String: [String]] = [:]
        for model in models {
            guard let union = model.union else { continue }
            edges[model.name] = union.variants.compactMap { variant in
                if case .named(let name) = variant.type, modelsByName[name]?.union != nil { return name }
                return nil
            }
        }
        guard !edges.isEmpty else { return }
        let graph = ReferenceGraph(nodes: models.filter { $0.union != nil }.map(\.name), edges: edges)
        let onCycles = graph.nodesOnCycles()
        var reported = Set<String>()
        for model in models where onCycles.contains(model.name) && !reported.contains(model.name) {
            let cycle = graph.cycle(through: model.name, within: onCycles) ?? [model.name]
            reported.formUnion(cycle)
            error("union '\(model.name)' is a variant of itself (\((cycle + [model.name]).joined(separator: " → "))); "
                      + "a variant must hold a value, such as an object or an array", at: model.location)
        }
    }
}

extension UnionTag: CustomStringConvertible {
    /// The value as JSON: `"card"` or `0`.
    var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .integer(let value): String(value)
        }
    }
}
