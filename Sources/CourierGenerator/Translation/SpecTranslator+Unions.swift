/// Unions (`oneOf` models) in `<Prefix>Models.swift`. Compositions (`allOf`) need nothing here:
/// validation has already flattened them into object models.
extension SpecTranslator {
    func unionModel(_ model: ModelSpec, _ union: UnionSpec) -> UnionModel {
        let taken = Set(union.variants.map(\.swiftName.name))
        var fallback = "unknown"
        var counter = 1
        while taken.contains(fallback) {
            counter += 1
            fallback = "unknown\(counter)"
        }
        let discriminator = union.discriminator
        let variants = union.variants.enumerated().map { index, variant in
            let type = swiftType(variant.type)
            let doc = Self.doc(variant.description, indentation: "    ")
                ?? SwiftComment.documentation("The `\(SwiftComment.inline(variant.type.description))` variant.", indentation: "    ")
            var tagToWrite: String?
            if let discriminator, let tag = variant.tags.first, !declares(variant.type, discriminator.property) {
                tagToWrite = jsonLiteral(tag)
            }
            let fit = shapeFit(variant.type)
            return UnionVariantModel(doc: doc, name: variant.swiftName.escaped, type: type,
                                     patterns: variant.tags.map { jsonLiteral($0) + "?" }.joined(separator: ", "),
                                     condition: shapeCondition(variant.type), tagToWrite: tagToWrite,
                                     index: index, fit: fit, isObject: fit.hasPrefix(".object"))
        }
        let plainName = model.swiftName.name
        let doc = Self.doc(model.description) ?? SwiftComment.documentation("One of the variants of `\(plainName)`.")
        let ranks = discriminator == nil && variants.filter(\.isObject).count > 1
        let how = discriminator.map { "chosen by `\(SwiftComment.inline($0.property))`" }
            ?? (ranks ? "best fit first" : "tried in order")
        return UnionModel(doc: doc, how: how, name: model.swiftName.escaped, isIndirect: model.isRecursive, variants: variants,
                          fallback: fallback, isDiscriminated: discriminator != nil,
                          keyLiteral: discriminator.map { SwiftLiteral.string($0.property) })
    }

    /// Whether the variant's model declares the discriminator, so that encoding the variant writes it.
    private func declares(_ type: TypeReference, _ property: String) -> Bool {
        guard case .named(let name) = type, let target = models[name] else { return false }
        return target.properties.contains { $0.jsonKey == property }
    }

    /// The tag as a `JSON` case in Swift: `.string("card")`, `.integer(0)`.
    private func jsonLiteral(_ tag: UnionTag) -> String {
        switch tag {
        case .string(let value): ".string(\(SwiftLiteral.string(value)))"
        case .integer(let value): ".integer(\(value))"
        }
    }

    /// What values a variant fits, as a `UnionShape.Fit` expression, for unions whose object
    /// variants are ranked: the same tests as ``shapeCondition(_:)``, with an object's keys.
    private func shapeFit(_ type: TypeReference) -> String {
        if case .named(let name) = type, let target = models[name], case .object(let properties) = target.kind {
            let required = properties.filter(\.isRequired).map { SwiftLiteral.string($0.jsonKey) }
            let known = properties.map { SwiftLiteral.string($0.jsonKey) }
            return ".object(required: [\(required.joined(separator: ", "))], known: [\(known.joined(separator: ", "))])"
        }
        guard let condition = shapeCondition(type), condition.hasPrefix("shape.is(") else { return ".any" }
        // `shape.is(.string)` → `.kind(.string)`.
        return ".kind" + condition.dropFirst("shape.is".count)
    }

    /// The shape test that must pass before a variant is attempted; `nil` when every shape may fit.
    private func shapeCondition(_ type: TypeReference) -> String? {
        switch type {
        case .optional:
            return nil
        case .array:
            return "shape.is(.array)"
        case .map:
            return "shape.is(.object)"
        case .primitive(let primitive):
            switch primitive {
            case .string, .url, .data: return "shape.is(.string)"
            case .int, .int64, .double: return "shape.is(.number)"
            case .bool: return "shape.is(.bool)"
            // Dates are strings or numbers, as the service's coding says; JSON is anything.
            case .date, .json, .binary: return nil
            }
        case .named(let name):
            guard let target = models[name] else { return nil }
            switch target.kind {
            case .object(let properties):
                let required = properties.filter(\.isRequired).map { SwiftLiteral.string($0.jsonKey) }
                return "shape.isObject(requiring: [\(required.joined(separator: ", "))])"
            case .stringEnum:
                return "shape.is(.string)"
            case .numberEnum:
                return "shape.is(.number)"
            case .union, .composition:
                return nil
            }
        }
    }
}
