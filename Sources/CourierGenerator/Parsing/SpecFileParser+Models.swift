import Foundation

/// Models, enum values, properties and error schemas.
extension SpecFileParser {
    mutating func parseModels(_ node: Node) {
        guard let mapping = reader.mapping(node, "'models'") else { return }
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            checkIdentifier(entry.key, SwiftIdentifier(typeNamed: entry.key), "model name", at: entry.keyNode)
            // `User: external`: a type the app declares (Codable, Hashable and Sendable), used
            // by name and not generated.
            if reader.scalarText(entry.value) == "external" {
                checkExternalTypeName(entry.key, at: entry.keyNode)
                file.externalTypes.append((entry.key, location))
                continue
            }
            guard let body = reader.mapping(entry.value, "model '\(entry.key)' (a mapping, or 'external' for a type the app declares)") else {
                file.brokenNames.insert(entry.key)
                continue
            }
            let keys = Set(reader.entries(of: body).map(\.key))
            let what = "model '\(entry.key)'"
            if !keys.isDisjoint(with: SpecShape.composedModelMarkers) {
                parseComposedModel(entry, body, what: what, location: location)
            } else if !keys.isDisjoint(with: SpecShape.longModelMarkers) {
                let fields = reader.fields(of: body, in: what, shape: .model, owner: location)
                let description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                if fields["enum"] != nil && fields["properties"] != nil {
                    reader.error("\(what) has both 'enum' and 'properties'; a model is either an object or a string enum", at: location)
                    file.brokenNames.insert(entry.key)
                } else if let values = fields["enum"] {
                    guard let kind = parseEnum(values.value, type: fields["type"]?.value, what: what) else {
                        file.brokenNames.insert(entry.key)
                        continue
                    }
                    file.models.append(ModelSpec(name: entry.key, description: description, kind: kind, location: location))
                } else if let properties = fields["properties"] {
                    if let type = fields["type"] {
                        reader.error("'type' of \(what) applies to an enum; an object's type is its properties", at: type.keyNode)
                    }
                    file.models.append(ModelSpec(name: entry.key, description: description,
                                                 kind: .object(parseProperties(properties.value, what: what)), location: location))
                }
            } else {
                file.models.append(ModelSpec(name: entry.key, kind: .object(parseProperties(entry.value, what: what)), location: location))
            }
        }
    }

    /// One written enum value before the enum's kind is known.
    private struct RawEnumValue {
        var text: String
        /// Written as a plain YAML number (`0`, `0.5`), not quoted.
        var isNumber: Bool
        var caseName: String?
        var description: String?
        var node: Node
    }

    /// The enum's kind: a string enum as in v1, or a number enum when `type:` says `Int`, `Int64`
    /// or `Double`, or when a `{ value: <number>, case: … }` item shows it. A list of bare
    /// numbers without `type:` stays a string enum, as v1 read it, so that v1 specs keep their
    /// meaning.
    func parseEnum(_ node: Node, type typeNode: Node?, what: String) -> ModelSpec.Kind? {
        guard let items = reader.sequence(node, "'enum' of \(what)") else { return .stringEnum([]) }
        if items.isEmpty { reader.error("'enum' of \(what) needs at least one value", at: node) }
        var values: [RawEnumValue] = []
        var numberedItem = false
        for item in items {
            var valueNode = item
            var caseName: String?
            var description: String?
            if case .mapping(let mapping) = item {
                let fields = reader.fields(of: mapping, in: "an enum value of \(what)", shape: .enumValue, owner: reader.location(of: item))
                guard let value = fields["value"] else { continue }
                valueNode = value.value
                caseName = fields["case"].flatMap { reader.string($0.value, "'case'") }
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
            }
            guard let text = reader.string(valueNode, "an enum value of \(what)") else { continue }
            var isNumber = false
            if case .scalar(let scalar) = valueNode, scalar.style == .plain, let number = Double(text), number.isFinite {
                isNumber = true
                if valueNode.mark != item.mark { numberedItem = true }
            }
            values.append(RawEnumValue(text: text, isNumber: isNumber, caseName: caseName, description: description, node: valueNode))
        }
        var raw: PrimitiveType?
        if let typeNode {
            guard let name = reader.string(typeNode, "'type' of \(what)") else { return nil }
            switch PrimitiveType(rawValue: name) {
            case .string?: raw = nil
            case .int?, .int64?, .double?: raw = PrimitiveType(rawValue: name)
            default:
                reader.error("'type' of \(what) must be Int, Int64, Double or String, found '\(NodeReader.abbreviated(name))'", at: typeNode)
                return nil
            }
        } else if numberedItem {
            let numbers = values.filter(\.isNumber)
            raw = numbers.allSatisfy({ Int64($0.text) != nil }) ? .int : .double
        }
        guard let raw else {
            return .stringEnum(enumCases(values.map { ($0.text, $0) }, what: what))
        }
        var typed: [(String, RawEnumValue)] = []
        for value in values {
            guard value.isNumber else {
                reader.error("enum value '\(NodeReader.abbreviated(value.text))' of \(what) is a string, but the enum's values are numbers (\(raw.rawValue)); an enum is all strings or all numbers",
                             at: value.node)
                continue
            }
            let canonical: String
            if raw == .double {
                canonical = Double(value.text).map { "\($0)" } ?? value.text
            } else if let number = Int64(value.text), raw == .int64 || Int(exactly: number) != nil {
                canonical = String(number)
            } else {
                reader.error("enum value '\(value.text)' of \(what) is not a whole number that fits \(raw.rawValue)\(typeNode == nil ? "" : ", the enum's 'type'")",
                             at: value.node)
                continue
            }
            guard value.caseName != nil else {
                reader.error("number \(value.text) of \(what) needs a case name: write { value: \(value.text), case: <name> }", at: value.node)
                continue
            }
            typed.append((canonical, value))
        }
        return .numberEnum(raw, enumCases(typed, what: what))
    }

    private func enumCases(_ values: [(String, RawEnumValue)], what: String) -> [EnumCaseSpec] {
        var cases: [EnumCaseSpec] = []
        var seen: [String: SourceLocation] = [:]
        for (value, item) in values {
            let location = reader.location(of: item.node)
            if let first = seen[value] {
                reader.error("enum value '\(NodeReader.abbreviated(item.text))' appears twice in \(what)", at: location,
                             notes: [.note("first written here", at: first)])
                continue
            }
            seen[value] = location
            let swiftName = SwiftIdentifier(memberNamed: item.caseName ?? value)
            checkIdentifier(item.caseName ?? value, swiftName, "enum value", at: item.node)
            cases.append(EnumCaseSpec(value: value, swiftName: swiftName, description: item.description, location: location))
        }
        return cases
    }

    mutating func parseProperties(_ node: Node, what: String) -> [PropertySpec] {
        guard let mapping = reader.mapping(node, "the properties of \(what)") else { return [] }
        var properties: [PropertySpec] = []
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            checkIdentifier(entry.key, SwiftIdentifier(memberNamed: entry.key), "property name", at: entry.keyNode)
            var typeNode = entry.value
            var description: String?
            var jsonKey: String?
            var fields: [String: NodeReader.Entry] = [:]
            if case .mapping(let fieldsMapping) = entry.value {
                fields = reader.fields(of: fieldsMapping, in: "property '\(entry.key)' of \(what)",
                                       shape: .property, owner: location)
                guard let type = fields["type"] else { continue }
                typeNode = type.value
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                jsonKey = fields["json"].flatMap { reader.string($0.value, "'json'") }
            }
            guard let type = parseType(typeNode, "the type of property '\(entry.key)'") else { continue }
            if jsonKey != nil { file.explicitJSONKeys.insert(location) }
            var property = PropertySpec(name: entry.key, jsonKey: jsonKey, type: type, description: description, location: location)
            property.typeLocation = reader.location(of: typeNode)
            parsePropertyAttributes(fields, into: &property, what: "property '\(entry.key)' of \(what)")
            properties.append(property)
        }
        return properties
    }

    /// `dates:`, `nullable:`, `default:` and `readOnly:`, each checked against the property's type
    /// where it is written. Enum defaults are checked by the validator, once every model is known.
    func parsePropertyAttributes(_ fields: [String: NodeReader.Entry], into property: inout PropertySpec, what: String) {
        let type = property.type
        if let entry = fields["dates"], let format = reader.choice(entry.value, "'dates' of \(what)", PropertyDateFormat.allCases) {
            if type.nonOptional == .primitive(.date) {
                property.dates = format
            } else {
                reader.error("'dates' of \(what) applies to a Date or Date? property, but the type is '\(type)'", at: entry.keyNode)
            }
        }
        if let entry = fields["nullable"], let nullable = reader.bool(entry.value, "'nullable' of \(what)"), nullable {
            if !type.isOptional {
                reader.error("'nullable' of \(what) needs an optional type ('\(type)?'): null and a missing key are two states of an optional property",
                             at: entry.keyNode)
            } else if type.nonOptional == .primitive(.json) {
                reader.error("'nullable' of \(what) is not needed: a 'JSON?' property already keeps an explicit null as JSON.null", at: entry.keyNode)
            } else {
                property.isNullable = true
            }
        }
        if let entry = fields["readOnly"], let readOnly = reader.bool(entry.value, "'readOnly' of \(what)") {
            property.isReadOnly = readOnly
        }
        if let entry = fields["default"] {
            guard case .scalar = entry.value else {
                reader.error("the default of \(what) must be a scalar, found \(reader.kind(of: entry.value))", at: entry.value)
                return
            }
            if property.isNullable {
                reader.error("\(what) is nullable and cannot also have a default: a missing key must stay distinct from null", at: entry.keyNode)
            } else if let value = parseDefault(entry.value, type: type, what: what) {
                property.defaultValue = value
                property.defaultLocation = reader.location(of: entry.value)
            }
        }
    }

    mutating func parseErrorSchemas(_ node: Node) {
        guard let mapping = reader.mapping(node, "'errorSchemas'") else { return }
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            let what = "error schema '\(entry.key)'"
            checkIdentifier(entry.key, SwiftIdentifier(typeNamed: entry.key), "error schema name", at: entry.keyNode)
            guard let body = reader.mapping(entry.value, what) else {
                file.brokenNames.insert(entry.key)
                continue
            }
            let keys = Set(reader.entries(of: body).map(\.key))
            guard keys.contains(SpecShape.longErrorSchemaMarker) else {
                file.errorSchemas.append(ErrorSchemaSpec(name: entry.key, shape: .object,
                                                         properties: parseProperties(entry.value, what: what), location: location))
                continue
            }
            let fields = reader.fields(of: body, in: what, shape: .errorSchema,
                                       owner: location)
            var shape = ErrorSchemaSpec.Shape.object
            if fields["wrappedIn"] != nil && fields["arrayIn"] != nil {
                reader.error("\(what) has both 'wrappedIn' and 'arrayIn'; choose one shape", at: location)
            } else if let key = fields["wrappedIn"].flatMap({ reader.string($0.value, "'wrappedIn'") }) {
                shape = .wrapped(key: key)
            } else if let key = fields["arrayIn"].flatMap({ reader.string($0.value, "'arrayIn'") }) {
                shape = .array(key: key)
            }
            let properties = fields["properties"].map { parseProperties($0.value, what: what) } ?? []
            file.errorSchemas.append(ErrorSchemaSpec(
                name: entry.key,
                description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                shape: shape, properties: properties, location: location))
        }
    }

    /// An external type is written in generated code exactly as named, so the name must already
    /// be a Swift type name: a module-qualified type is reached through a `typealias` in the app.
    func checkExternalTypeName(_ name: String, at node: Node) {
        let identifier = SwiftIdentifier(typeNamed: name)
        if identifier.name != name || identifier.escaped != name {
            reader.error("the external type '\(NodeReader.abbreviated(name))' must be a Swift type name as written "
                         + "(such as 'User'); for a type of another module, declare a typealias in the app", at: node)
        }
    }
}
