
/// `oneOf` unions and `allOf` compositions under `models:`.
extension SpecFileParser {
    mutating func parseComposedModel(_ entry: NodeReader.Entry, _ body: Node.Mapping, what: String, location: SourceLocation) {
        let fields = reader.fields(of: body, in: what, shape: .composedModel, owner: location)
        let description = fields["description"].flatMap { reader.string($0.value, "'description'") }
        let shapes = ["oneOf", "allOf", "enum", "properties"].filter { fields[$0] != nil }
        guard shapes.count == 1 else {
            reader.error("\(what) has \(shapes.map { "'\($0)'" }.joined(separator: " and ")); a model is one of an object, "
                             + "an enum, a union ('oneOf') or a composition ('allOf')", at: location)
            file.brokenNames.insert(entry.key)
            return
        }
        if let oneOf = fields["oneOf"] {
            let variants = parseVariants(oneOf.value, what: what)
            let discriminator = fields["discriminator"].flatMap { parseUnionDiscriminator($0, what: what) }
            if variants.isEmpty { file.brokenNames.insert(entry.key) }
            file.models.append(ModelSpec(name: entry.key, description: description,
                                         kind: .union(UnionSpec(variants: variants, discriminator: discriminator)), location: location))
        } else if let allOf = fields["allOf"] {
            if let discriminator = fields["discriminator"] {
                reader.error("'discriminator' belongs to a union ('oneOf'), not to \(what), which is a composition ('allOf')",
                             at: discriminator.keyNode)
            }
            let parts = parseCompositionParts(allOf.value, what: what)
            if parts.isEmpty { file.brokenNames.insert(entry.key) }
            file.models.append(ModelSpec(name: entry.key, description: description, kind: .composition(parts), location: location))
        }
    }

    /// `oneOf: [TextChannel, { type: String, case: message, description: … }]`.
    mutating func parseVariants(_ node: Node, what: String) -> [UnionVariantSpec] {
        guard let items = reader.sequence(node, "'oneOf' of \(what)") else { return [] }
        if items.isEmpty { reader.error("'oneOf' of \(what) needs at least one variant", at: node) }
        var variants: [UnionVariantSpec] = []
        for item in items {
            let location = reader.location(of: item)
            var typeNode = item
            var caseName: String?
            var description: String?
            if case .mapping(let mapping) = item {
                let fields = reader.fields(of: mapping, in: "a variant of \(what)", shape: .unionVariant, owner: location)
                guard let type = fields["type"] else { continue }
                typeNode = type.value
                caseName = fields["case"].flatMap { reader.string($0.value, "'case'") }
                if let caseEntry = fields["case"], let caseName {
                    checkIdentifier(caseName, SwiftIdentifier(memberNamed: caseName), "variant case", at: caseEntry.value)
                }
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
            }
            guard let type = parseType(typeNode, "the type of a variant of \(what)") else { continue }
            if type.isOptional {
                reader.error("a variant of \(what) cannot be optional ('\(type)'); make the property that holds the union optional instead",
                             at: typeNode)
                continue
            }
            variants.append(UnionVariantSpec(type: type, swiftName: caseName.map { SwiftIdentifier(memberNamed: $0) },
                                             description: description, location: location))
        }
        return variants
    }

    /// `discriminator: object` or `discriminator: { property: type, mapping: { "0": TextChannel } }`.
    func parseUnionDiscriminator(_ entry: NodeReader.Entry, what: String) -> UnionDiscriminatorSpec? {
        let location = reader.location(of: entry.value)
        if case .scalar = entry.value {
            guard let property = reader.string(entry.value, "'discriminator' of \(what)") else { return nil }
            return UnionDiscriminatorSpec(property: property, mapping: [], location: location)
        }
        guard let mapping = reader.mapping(entry.value, "'discriminator' of \(what)") else { return nil }
        let fields = reader.fields(of: mapping, in: "'discriminator' of \(what)", shape: .unionDiscriminator, owner: location)
        guard let property = fields["property"].flatMap({ reader.string($0.value, "'property'") }) else { return nil }
        var entries: [UnionDiscriminatorSpec.MappingEntry] = []
        if let mappingField = fields["mapping"], let values = reader.mapping(mappingField.value, "'mapping' of \(what)") {
            var seen: [String: SourceLocation] = [:]
            for item in reader.entries(of: values) {
                let valueLocation = reader.location(of: item.keyNode)
                guard let variant = reader.string(item.value, "the variant for '\(NodeReader.abbreviated(item.key))'") else { continue }
                if let first = seen[item.key] {
                    reader.error("discriminator value '\(NodeReader.abbreviated(item.key))' appears twice in \(what)", at: valueLocation,
                                 notes: [.note("first written here", at: first)])
                    continue
                }
                seen[item.key] = valueLocation
                var isPlainInteger = false
                if case .scalar(let scalar) = item.keyNode, scalar.style == .plain, Int64(scalar.string) != nil {
                    isPlainInteger = true
                }
                entries.append(UnionDiscriminatorSpec.MappingEntry(value: item.key, isPlainInteger: isPlainInteger, variant: variant,
                                                                   location: valueLocation,
                                                                   variantLocation: reader.location(of: item.value)))
            }
        }
        return UnionDiscriminatorSpec(property: property, mapping: entries, location: location)
    }

    /// `allOf: [User, { properties: { email: String? } }]`.
    mutating func parseCompositionParts(_ node: Node, what: String) -> [CompositionPart] {
        guard let items = reader.sequence(node, "'allOf' of \(what)") else { return [] }
        if items.isEmpty { reader.error("'allOf' of \(what) needs at least one part", at: node) }
        var parts: [CompositionPart] = []
        for item in items {
            let location = reader.location(of: item)
            if case .mapping(let mapping) = item {
                let fields = reader.fields(of: mapping, in: "a part of \(what)", shape: .compositionPart, owner: location)
                guard let properties = fields["properties"] else { continue }
                parts.append(.properties(parseProperties(properties.value, what: what)))
            } else if let name = reader.string(item, "a part of \(what)") {
                guard case .success(.named(let model)) = TypeExpression.parse(name) else {
                    reader.error("a part of \(what) must be a model name or '{ properties: … }', found '\(NodeReader.abbreviated(name))'",
                                 at: item)
                    continue
                }
                parts.append(.model(model, location: location))
            }
        }
        return parts
    }
}
