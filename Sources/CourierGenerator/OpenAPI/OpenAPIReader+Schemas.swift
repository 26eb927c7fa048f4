import Foundation

/// Schemas: a component becomes a model of its own name; an inline object, enum, union or
/// composition becomes a model named from where it is (`<Parent><Property>`); scalars, lists and
/// maps become type expressions. What Courier cannot express becomes `JSON` with a warning.
extension OpenAPIReader {
    /// The Courier type of a schema, met at `name` (the name an inline model would take).
    mutating func type(of schema: OpenAPIDocument.Located, name: String) -> TypeReference {
        if let reference = document.string(schema, "$ref") {
            guard let (resolved, target) = document.resolve(schema, reach: .schema), let target else { return .primitive(.json) }
            if let known = modelNames[target] { return .named(known) }
            if let external = externalType(for: target) { return .named(external) }
            if isModelShaped(resolved) {
                // A reference to a whole file (DigitalOcean's) is named after the file.
                let base = target.pointer.split(separator: "/").last.map(String.init)
                    ?? document.files[target.file].url.deletingPathExtension().lastPathComponent
                let model = overriddenTypeName(of: target) ?? uniqueTypeName(base)
                modelNames[target] = model
                pendingModels.append((model, resolved))
                return .named(model)
            }
            // A component that is a scalar, list or map is written in place, nullability included.
            _ = reference
            return type(of: resolved, name: name)
        }
        if let recursive = document.string(schema, "$recursiveRef") ?? document.string(schema, "$dynamicRef"),
           recursive.hasPrefix("#"), let enclosing = enclosingComponentModel {
            // JSON Schema's dynamic reference to the outermost schema (`$recursiveRef: "#"` in
            // OpenAI's descriptions): the component being read, the nearest faithful type.
            return .named(enclosing)
        }
        let nullable = isNullable(schema)
        var type = nonNullType(of: schema, name: name)
        if nullable && !type.isOptional { type = .optional(type) }
        return type
    }

    /// The app's own type an overlay puts in place of a component schema (`types: { simple-user:
    /// User }`), declared as an external type the first time; `nil` when there is none.
    mutating func externalType(for target: OpenAPIDocument.Target) -> String? {
        let prefix = "/components/schemas/"
        guard target.file == 0, target.pointer.hasPrefix(prefix),
              let named = options.typeOverrides[String(target.pointer.dropFirst(prefix.count))] else { return nil }
        if !file.externalTypes.contains(where: { $0.name == named.name }) {
            file.externalTypes.append((named.name, named.location))
            takenTypeNames.insert(named.name)
        }
        return named.name
    }

    /// The type name an overlay gives a component schema (`names: { schemas: { simple-user: User } }`),
    /// reserved (numbered, with a warning, when another generated type has it); `nil` when it gives
    /// none.
    mutating func overriddenTypeName(of target: OpenAPIDocument.Target) -> String? {
        let prefix = "/components/schemas/"
        guard target.file == 0, target.pointer.hasPrefix(prefix),
              let named = options.schemaNames[String(target.pointer.dropFirst(prefix.count))] else { return nil }
        guard takenTypeNames.insert(named.name).inserted else {
            let numbered = uniqueTypeName(named.name)
            document.reporter.warning("the name '\(named.name)' given to schema '\(target.pointer.dropFirst(prefix.count))' is taken "
                                      + "by another generated type; it is '\(numbered)'", at: named.location)
            return numbered
        }
        return named.name
    }

    /// The type name an inline schema's `title` gives (`title: Bank Account` → `BankAccount`),
    /// reserved; `nil` without a title, or when the name is taken, a component's or a type
    /// generated code needs, so that the schema is named from where it is instead of a numbered
    /// title (`Card2` says less than `PaymentSourceVariant2`).
    mutating func titledTypeName(of schema: OpenAPIDocument.Located) -> String? {
        guard let title = document.string(schema, "title") else { return nil }
        let name = SwiftIdentifier(typeNamed: title).name
        guard name.first?.isLetter == true, !componentTypeNames.contains(name), !takenTypeNames.contains(name) else { return nil }
        takenTypeNames.insert(name)
        return name
    }

    /// The name the properties of a component reached through `allOf` are named after: the
    /// component's model name when it has one, else its key as a type name. An inline enum of
    /// `BookingPayment`'s is then `BookingPaymentCurrency` wherever it is met first, and not
    /// `CreateBookingPaymentResponseCurrency` because a response's `allOf` reached it before the
    /// request body did.
    func ownerName(of target: OpenAPIDocument.Target, fallback: String) -> String {
        if let known = modelNames[target] { return known }
        let prefix = "/components/schemas/"
        if target.file == 0, target.pointer.hasPrefix(prefix),
           let named = options.schemaNames[String(target.pointer.dropFirst(prefix.count))] {
            return named.name
        }
        guard let key = target.pointer.split(separator: "/").last.map(String.init) else { return fallback }
        let name = SwiftIdentifier(typeNamed: key.removingPercentEncoding ?? key).name
        return name.first?.isLetter == true ? name : fallback
    }

    /// Whether a schema needs a model of its own: an object with properties, an enum, a union or
    /// a composition.
    func isModelShaped(_ schema: OpenAPIDocument.Located) -> Bool {
        // A boolean enum (`deleted: {type: boolean, enum: [true]}`, a marker) is a `Bool`: an
        // enum of `true` would need a case no JSON boolean decodes into.
        if document.child(schema, "enum") != nil { return !isBooleanEnum(schema) }
        if document.child(schema, "oneOf") != nil || document.child(schema, "anyOf") != nil { return true }
        if let parts = document.child(schema, "allOf") { return document.items(parts).count > 1 || document.child(schema, "properties") != nil }
        return document.child(schema, "properties").map { !document.entries($0).isEmpty } ?? false
    }

    /// Whether a schema is an `enum` of booleans, read as `Bool`.
    func isBooleanEnum(_ schema: OpenAPIDocument.Located) -> Bool {
        guard let values = document.child(schema, "enum") else { return false }
        if typeName(of: schema) == "boolean" { return true }
        let items = document.items(values).compactMap(\.node.scalar?.string).filter { $0 != "null" }
        return !items.isEmpty && items.allSatisfy { $0 == "true" || $0 == "false" } && typeName(of: schema) == nil
    }

    /// What a property's documentation says of a boolean enum's only value (`Always true.`),
    /// which the `Bool` it is read as cannot say; `nil` for any other schema.
    mutating func booleanEnumNote(_ schema: OpenAPIDocument.Located) -> String? {
        guard let (resolved, _) = document.resolve(schema, reach: .schema), isBooleanEnum(resolved), let values = document.child(resolved, "enum") else {
            return nil
        }
        let items = Set(document.items(values).compactMap(\.node.scalar?.string).filter { $0 == "true" || $0 == "false" })
        return items.count == 1 ? "Always `\(items.first ?? "")`." : nil
    }

    /// `nullable: true` (3.0), or `null` among the types (3.1).
    func isNullable(_ schema: OpenAPIDocument.Located) -> Bool {
        if document.bool(schema, "nullable") == true { return true }
        if let types = document.child(schema, "type"), document.items(types).contains(where: { $0.node.scalar?.string == "null" }) {
            return true
        }
        return false
    }

    /// The schema's `type`: the one given, or the first that is not `null` of a 3.1 list.
    func typeName(of schema: OpenAPIDocument.Located) -> String? {
        guard let node = document.child(schema, "type") else { return nil }
        if let scalar = node.node.scalar { return scalar.string }
        let types = document.items(node).compactMap(\.node.scalar?.string).filter { $0 != "null" }
        return types.count == 1 ? types[0] : (types.isEmpty ? nil : "mixed")
    }

    mutating func nonNullType(of schema: OpenAPIDocument.Located, name: String) -> TypeReference {
        if let parts = document.child(schema, "allOf"), document.child(schema, "properties") == nil {
            let items = document.items(parts)
            // `allOf: [$ref]` is how 3.0 documents add a description or nullability to a reference.
            if items.count == 1 { return type(of: items[0], name: name) }
        }
        if let parts = document.child(schema, "oneOf") ?? document.child(schema, "anyOf") {
            let items = document.items(parts)
            let nonNull = items.filter { typeName(of: $0) != "null" }
            if nonNull.count == 1 {
                let inner = type(of: nonNull[0], name: name)
                return nonNull.count < items.count && !inner.isOptional ? .optional(inner) : inner
            }
        }
        if isModelShaped(schema) {
            // One inline schema reached along several paths (a shared file's property, through
            // each part that includes it) is one model, so that its users agree on the type.
            let key = document.location(of: schema).description
            if let known = inlineModelNames[key] { return .named(known) }
            // The second reading names the schemas the first found alike (`InlineMerging`): the
            // first of them reached is read, the others are the same model.
            if let planned = namingPlan[key] {
                inlineModelNames[key] = planned
                if readPlannedModels.insert(planned).inserted {
                    readModel(named: planned, schema: schema)
                }
                return .named(planned)
            }
            let model = titledTypeName(of: schema) ?? uniqueTypeName(name)
            inlineModelNames[key] = model
            inlineOrigins[model] = InlineOrigin(key: key, pathName: name, title: document.string(schema, "title"),
                                                location: document.location(of: schema))
            readModel(named: model, schema: schema)
            return .named(model)
        }
        if isBooleanEnum(schema) { return .primitive(.bool) }
        switch typeName(of: schema) {
        case "string":
            switch document.string(schema, "format") {
            case "date-time": return .primitive(.date)
            case "uri", "url": return .primitive(.url)
            case "byte": return .primitive(.data)
            default: return .primitive(.string)
            }
        case "integer":
            let format = document.string(schema, "format")
            return format == "int64" || format == "uint64" ? .primitive(.int64) : .primitive(.int)
        case "number":
            return .primitive(.double)
        case "boolean":
            return .primitive(.bool)
        case "array":
            guard let items = document.child(schema, "items") else { return .array(.primitive(.json)) }
            return .array(type(of: items, name: name + "Item"))
        case "object", nil:
            if let additional = document.child(schema, "additionalProperties"), case .mapping = additional.node,
               !document.entries(additional).isEmpty {
                return .map(type(of: additional, name: name + "Value"))
            }
            // No properties and no value schema: any JSON, kept as sent.
            return .primitive(.json)
        case "mixed":
            document.warning("this schema allows several types; Courier reads it as free-form JSON", at: schema)
            return .primitive(.json)
        case let other?:
            document.warning("schema type '\(other)' is not one OpenAPI defines; Courier reads it as free-form JSON", at: schema)
            return .primitive(.json)
        }
    }

    // MARK: Models

    /// Reads a schema as the model `name`: an object, an enum, a union or a composition.
    mutating func readModel(named name: String, schema: OpenAPIDocument.Located) {
        let location = document.location(of: schema)
        let description = document.string(schema, "description").map(Self.firstParagraph)
        let kind: ModelSpec.Kind
        if let values = document.child(schema, "enum") {
            kind = enumKind(values, schema: schema, name: name)
        } else if let parts = document.child(schema, "oneOf") ?? document.child(schema, "anyOf") {
            kind = unionKind(parts, schema: schema, name: name)
        } else if let parts = document.child(schema, "allOf") {
            kind = compositionKind(parts, schema: schema, name: name)
        } else {
            kind = .object(properties(of: schema, owner: name))
            warnAboutExtraKeys(of: schema, model: name)
        }
        file.models.append(ModelSpec(name: name, description: description, kind: kind, location: location))
    }

    /// A model reads the properties its schema declares. Keys beyond them, which
    /// `additionalProperties: true` (or a schema) beside `properties` allows, are not kept: a
    /// warning says so, since a value decoded and encoded again loses them.
    func warnAboutExtraKeys(of schema: OpenAPIDocument.Located, model: String) {
        guard let additional = document.child(schema, "additionalProperties") else { return }
        let allows: Bool = switch additional.node {
        case .scalar(let scalar): scalar.string == "true"
        case .mapping: true
        default: false
        }
        guard allows else { return }
        document.warning("'\(model)' declares properties and allows other keys ('additionalProperties'); Courier reads the declared "
                         + "properties, and keys beyond them are not kept", at: additional)
    }

    /// An object schema's properties; those not in `required` are optional.
    mutating func properties(of schema: OpenAPIDocument.Located, owner: String) -> [PropertySpec] {
        let required = Set(document.child(schema, "required").map(document.items)?.compactMap(\.node.scalar?.string) ?? [])
        var result: [PropertySpec] = []
        var swiftNames: Set<String> = []
        for entry in document.child(schema, "properties").map(document.entries) ?? [] {
            // `account_type` of `BankAccount` is `BankAccountType`, not `BankAccountAccountType`.
            var type = type(of: entry.value, name: GeneratedNames.joined(owner, SwiftIdentifier(typeNamed: entry.key).name, keepingAWord: true))
            if (!required.contains(entry.key) || isWriteOnly(entry.value)) && !type.isOptional { type = .optional(type) }
            // Keys such as `+1` and `-1` (GitHub's reactions) convert to one Swift name: number the later ones.
            var swiftName = SwiftIdentifier(memberNamed: Self.spelledOut(entry.key))
            if swiftName.isPlaceholder || swiftName.name.isEmpty { swiftName = SwiftIdentifier(verbatim: "value") }
            var candidate = swiftName
            var number = 2
            while swiftNames.contains(candidate.name) || ReservedNames.properties[candidate.name] != nil {
                candidate = SwiftIdentifier(verbatim: swiftName.name + String(number))
                number += 1
            }
            swiftNames.insert(candidate.name)
            var description = document.string(entry.value, "description").map(Self.firstParagraph)
            if let note = booleanEnumNote(entry.value) {
                description = description.map { $0.hasSuffix(".") ? "\($0) \(note)" : "\($0). \(note)" } ?? note
            }
            var property = PropertySpec(name: entry.key, jsonKey: entry.key, swiftName: candidate, type: type,
                                        description: description, location: document.location(of: entry.keyNode))
            property.isReadOnly = document.bool(entry.value, "readOnly") == true && type.isOptional
            result.append(property)
        }
        return result
    }

    /// A key without letters (GitHub's reactions `+1` and `-1`) with its signs spelled out, so
    /// that the two do not both become `_1`.
    static func spelledOut(_ key: String) -> String {
        guard !key.contains(where: \.isLetter) else { return key }
        return key.replacingOccurrences(of: "+", with: "plus ").replacingOccurrences(of: "-", with: "minus ")
    }

    /// A string or number enum; values of another kind make it a string enum of their spelling.
    mutating func enumKind(_ values: OpenAPIDocument.Located, schema: OpenAPIDocument.Located, name: String) -> ModelSpec.Kind {
        let items = document.items(values).filter { $0.node.scalar.map { !document.reporter.isNull($0) } ?? false }
        let kind = typeName(of: schema)
        if kind == "integer" || kind == "number" {
            let raw: PrimitiveType = kind == "number" ? .double : (document.string(schema, "format") == "int64" ? .int64 : .int)
            var seen: Set<String> = []
            var cases: [EnumCaseSpec] = []
            for item in items {
                guard let text = item.node.scalar?.string else { continue }
                // Spelled as a spec's number enum spells it (`1.0` for a number, `1` for an
                // integer), so that the same enum written either way generates the same code.
                let canonical: String?
                if raw == .double {
                    canonical = Double(text).flatMap { $0.isFinite ? "\($0)" : nil }
                } else {
                    canonical = Int64(text).map(String.init)
                }
                guard let canonical else {
                    document.warning("enum value '\(NodeReader.abbreviated(text))' of \(kind ?? "a number") schema '\(name)' is not "
                                     + "\(raw == .double ? "a finite number" : "an integer"); it is left out", at: item)
                    continue
                }
                guard seen.insert(canonical).inserted else { continue }
                // `1.5` is `value1Point5`, `-1` is `valueMinus1`: names a spec's `case:` gives back unchanged.
                let caseName = "value" + canonical.replacingOccurrences(of: "-", with: "Minus").replacingOccurrences(of: ".", with: "Point")
                cases.append(EnumCaseSpec(value: canonical, swiftName: SwiftIdentifier(verbatim: caseName), location: document.location(of: item)))
            }
            return .numberEnum(raw, cases)
        }
        var seenValues: Set<String> = []
        var seenNames: Set<String> = []
        let cases = items.compactMap { item -> EnumCaseSpec? in
            guard let text = item.node.scalar?.string, seenValues.insert(text).inserted else { return nil }
            var swiftName = SwiftIdentifier(memberNamed: Self.spelledOut(text))
            if swiftName.isPlaceholder || swiftName.name.isEmpty { swiftName = SwiftIdentifier(verbatim: "value") }
            var candidate = swiftName.name
            var number = 2
            while seenNames.contains(candidate) || ReservedNames.enumValues[candidate] != nil {
                candidate = swiftName.name + String(number)
                number += 1
            }
            seenNames.insert(candidate)
            return EnumCaseSpec(value: text, swiftName: SwiftIdentifier(verbatim: candidate), location: document.location(of: item))
        }
        return .stringEnum(cases)
    }

    /// `oneOf`/`anyOf`: a union of the variants, by the discriminator when there is one; a
    /// variant that is `null` makes the holder optional instead.
    mutating func unionKind(_ parts: OpenAPIDocument.Located, schema: OpenAPIDocument.Located, name: String) -> ModelSpec.Kind {
        var variants: [UnionVariantSpec] = []
        var caseNames: Set<String> = []
        for (index, part) in document.items(parts).enumerated() where typeName(of: part) != "null" {
            var type = type(of: part, name: name + "Variant\(index + 1)")
            if case .optional(let wrapped) = type { type = wrapped }
            if type == .named(name) {
                // A variant that is the union itself (a recursive reference) adds no value the
                // other variants do not already decode.
                document.warning("a variant of '\(name)' is the union itself; it adds nothing to the others and is left out", at: part)
                continue
            }
            // Two variants Courier reads alike (two free-form objects) are one variant.
            if variants.contains(where: { $0.type == type }) { continue }
            var variant = UnionVariantSpec(type: type, location: document.location(of: part))
            var candidate = variant.swiftName.name
            var number = 2
            while caseNames.contains(candidate) || candidate == "unknown" {
                candidate = variant.swiftName.name + String(number)
                number += 1
            }
            caseNames.insert(candidate)
            variant.swiftName = SwiftIdentifier(verbatim: candidate)
            variants.append(variant)
        }
        var discriminator: UnionDiscriminatorSpec?
        if let definition = document.child(schema, "discriminator"), let property = document.string(definition, "propertyName"),
           !discriminatorTypesDiffer(property, variants: document.items(parts), at: definition) {
            var mapping: [UnionDiscriminatorSpec.MappingEntry] = []
            for entry in document.child(definition, "mapping").map(document.entries) ?? [] {
                guard let reference = entry.value.node.scalar?.string,
                      let target = document.target(of: reference.contains("#") || reference.contains("/") ? reference : "#/components/schemas/\(reference)",
                                                       from: entry.value),
                      let model = modelNames[target] else {
                    document.warning("discriminator value '\(entry.key)' names no variant of this union; it decodes as `unknown`", at: entry.value)
                    continue
                }
                mapping.append(.init(value: entry.key, isPlainInteger: false, variant: model,
                                     location: document.location(of: entry.keyNode), variantLocation: document.location(of: entry.value)))
            }
            discriminator = UnionDiscriminatorSpec(property: property, mapping: mapping, location: document.location(of: definition))
        }
        return .union(UnionSpec(variants: variants, discriminator: discriminator))
    }

    /// Whether the variants declare the discriminator property with different types (each its
    /// own one-value enum, as DigitalOcean's actions do), which a Courier union cannot read; such
    /// a union is read without its discriminator, trying the variants in order, with a warning.
    mutating func discriminatorTypesDiffer(_ property: String, variants: [OpenAPIDocument.Located], at definition: OpenAPIDocument.Located) -> Bool {
        var signatures: Set<String> = []
        for variant in variants {
            guard let schema = discriminatorSchema(property, in: variant, depth: 0) else { continue }
            if document.child(schema, "enum") != nil {
                signatures.insert("enum@\(document.location(of: schema))")
            } else {
                signatures.insert(document.string(schema, "$ref") ?? typeName(of: schema) ?? "?")
            }
        }
        guard signatures.count > 1 else { return false }
        document.warning("the variants declare the discriminator '\(property)' with different types; Courier reads this union "
                         + "by trying each variant in order", at: definition)
        return true
    }

    /// The schema of `property` in a variant, looking through `allOf` parts; the last one wins,
    /// as in ``compositionKind(_:schema:name:)``.
    mutating func discriminatorSchema(_ property: String, in variant: OpenAPIDocument.Located, depth: Int) -> OpenAPIDocument.Located? {
        guard depth < 16, let (schema, _) = document.resolve(variant, reach: .schema) else { return nil }
        var found: OpenAPIDocument.Located?
        for part in document.child(schema, "allOf").map(document.items) ?? [] {
            found = discriminatorSchema(property, in: part, depth: depth + 1) ?? found
        }
        if let own = document.child(schema, "properties").flatMap({ document.child($0, property) }) {
            found = own
        }
        return found
    }

    /// Whether a property is `writeOnly`. Such a property is never in a response, so one model for
    /// both directions must not require it when decoding, even where `required` lists it.
    func isWriteOnly(_ property: OpenAPIDocument.Located) -> Bool {
        document.bool(property, "writeOnly") == true
    }

    /// `allOf`: one object of every part's properties, flattened here rather than by the format's
    /// composition, because OpenAPI parts refine each other: a later part may narrow a property an
    /// earlier one left open (`data: [object]`, then `data: [Station]`), so the later type wins,
    /// and a property required by any part is required, unless a part makes it write-only.
    mutating func compositionKind(_ parts: OpenAPIDocument.Located, schema: OpenAPIDocument.Located, name: String) -> ModelSpec.Kind {
        var merged: [PropertySpec] = []
        var required: Set<String> = []
        var writeOnly: Set<String> = []
        var visited: Set<OpenAPIDocument.Target> = []
        collectProperties(of: schema, owner: name, into: &merged, required: &required, writeOnly: &writeOnly, visited: &visited)
        required.subtract(writeOnly)
        for index in merged.indices where required.contains(merged[index].jsonKey) {
            if case .optional(let wrapped) = merged[index].type { merged[index].type = wrapped }
            merged[index].isReadOnly = false
        }
        return .object(merged)
    }

    private mutating func collectProperties(of schema: OpenAPIDocument.Located, owner: String, into merged: inout [PropertySpec],
                                            required: inout Set<String>, writeOnly: inout Set<String>,
                                            visited: inout Set<OpenAPIDocument.Target>) {
        for part in document.child(schema, "allOf").map(document.items) ?? [] {
            guard let (resolved, target) = document.resolve(part, reach: .schema) else { continue }
            if let target, !visited.insert(target).inserted { continue }
            if document.child(resolved, "oneOf") != nil || document.child(resolved, "anyOf") != nil || document.child(resolved, "enum") != nil {
                document.warning("an 'allOf' part that is a union or an enum adds no properties in Courier; it is left out", at: part)
                continue
            }
            // A referenced part's own inline schemas are named after it, as they are where it
            // is read on its own; an inline part's are the composition's.
            let partOwner = target.map { ownerName(of: $0, fallback: owner) } ?? owner
            collectProperties(of: resolved, owner: partOwner, into: &merged, required: &required, writeOnly: &writeOnly, visited: &visited)
        }
        required.formUnion(document.child(schema, "required").map(document.items)?.compactMap(\.node.scalar?.string) ?? [])
        guard let declared = document.child(schema, "properties") else { return }
        // `properties(of:)` already made these optional; a `required` from another part must not undo it.
        for entry in document.entries(declared) where isWriteOnly(entry.value) {
            writeOnly.insert(entry.key)
        }
        for property in properties(of: schema, owner: owner) {
            if let index = merged.firstIndex(where: { $0.jsonKey == property.jsonKey }) {
                var refined = property
                refined.swiftName = merged[index].swiftName
                merged[index] = refined
            } else {
                var added = property
                var candidate = added.swiftName.name
                var number = 2
                while merged.contains(where: { $0.swiftName.name == candidate }) {
                    candidate = property.swiftName.name + String(number)
                    number += 1
                }
                added.swiftName = SwiftIdentifier(verbatim: candidate)
                merged.append(added)
            }
        }
    }
}
