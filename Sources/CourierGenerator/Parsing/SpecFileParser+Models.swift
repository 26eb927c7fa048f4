import Foundation
import Yams

/// Models, enum values, properties and error schemas.
extension SpecFileParser {
    mutating func parseModels(_ node: Node) {
        guard let mapping = reader.mapping(node, "'models'") else { return }
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            checkIdentifier(entry.key, SwiftIdentifier(typeNamed: entry.key), "model name", at: entry.keyNode)
            guard let body = reader.mapping(entry.value, "model '\(entry.key)'") else {
                file.brokenNames.insert(entry.key)
                continue
            }
            let keys = Set(reader.entries(of: body).map(\.key))
            let what = "model '\(entry.key)'"
            if keys.contains("oneOf") || keys.contains("allOf") {
                parseComposedModel(entry, body, what: what, location: location)
            } else if keys.contains("enum") || keys.contains("properties") {
                let fields = reader.fields(of: body, in: what, allowed: ["description", "enum", "properties"], owner: location)
                let description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                if fields["enum"] != nil && fields["properties"] != nil {
                    reader.error("\(what) has both 'enum' and 'properties'; a model is either an object or a string enum", at: location)
                    file.brokenNames.insert(entry.key)
                } else if let values = fields["enum"] {
                    let cases = parseEnumCases(values.value, what: what)
                    file.models.append(ModelSpec(name: entry.key, description: description, kind: .stringEnum(cases), location: location))
                } else if let properties = fields["properties"] {
                    file.models.append(ModelSpec(name: entry.key, description: description,
                                                 kind: .object(parseProperties(properties.value, what: what)), location: location))
                }
            } else {
                file.models.append(ModelSpec(name: entry.key, kind: .object(parseProperties(entry.value, what: what)), location: location))
            }
        }
    }

    func parseEnumCases(_ node: Node, what: String) -> [EnumCaseSpec] {
        guard let items = reader.sequence(node, "'enum' of \(what)") else { return [] }
        if items.isEmpty { reader.error("'enum' of \(what) needs at least one value", at: node) }
        var cases: [EnumCaseSpec] = []
        var seen: [String: SourceLocation] = [:]
        for item in items {
            let location = reader.location(of: item)
            var value: String?
            var description: String?
            var caseName: String?
            if case .mapping(let mapping) = item {
                let fields = reader.fields(of: mapping, in: "an enum value of \(what)", allowed: ["value", "case", "description"],
                                           required: ["value"], owner: location)
                value = fields["value"].flatMap { reader.string($0.value, "'value'") }
                caseName = fields["case"].flatMap { reader.string($0.value, "'case'") }
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
            } else {
                value = reader.string(item, "an enum value of \(what)")
            }
            guard let value else { continue }
            if let first = seen[value] {
                reader.error("enum value '\(NodeReader.abbreviated(value))' appears twice in \(what)", at: location,
                             notes: [.note("first written here", at: first)])
                continue
            }
            seen[value] = location
            let swiftName = SwiftIdentifier(memberNamed: caseName ?? value)
            checkIdentifier(caseName ?? value, swiftName, "enum value", at: item)
            cases.append(EnumCaseSpec(value: value, swiftName: swiftName, description: description, location: location))
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
            if case .mapping(let fieldsMapping) = entry.value {
                let fields = reader.fields(of: fieldsMapping, in: "property '\(entry.key)' of \(what)",
                                           allowed: ["type", "description", "json"], required: ["type"], owner: location)
                guard let type = fields["type"] else { continue }
                typeNode = type.value
                description = fields["description"].flatMap { reader.string($0.value, "'description'") }
                jsonKey = fields["json"].flatMap { reader.string($0.value, "'json'") }
            }
            guard let type = parseType(typeNode, "the type of property '\(entry.key)'") else { continue }
            if jsonKey != nil { file.explicitJSONKeys.insert(location) }
            var property = PropertySpec(name: entry.key, jsonKey: jsonKey, type: type, description: description, location: location)
            property.typeLocation = reader.location(of: typeNode)
            properties.append(property)
        }
        return properties
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
            guard keys.contains("properties") else {
                file.errorSchemas.append(ErrorSchemaSpec(name: entry.key, shape: .object,
                                                         properties: parseProperties(entry.value, what: what), location: location))
                continue
            }
            let fields = reader.fields(of: body, in: what, allowed: ["description", "properties", "wrappedIn", "arrayIn"],
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
}
