import Foundation

/// `<Prefix>Models.swift`: structs for object models and error schemas, string enums, and the
/// envelopes of wrapped error schemas.
extension SpecTranslator {
    /// The view model of `<Prefix>Models.swift`.
    public func modelsFile() -> ModelsFileModel {
        var structs: [StructModel] = []
        var enums: [StringEnumModel] = []
        var unions: [UnionModel] = []
        var needsIndirect = false
        for model in spec.models {
            switch model.kind {
            case .object(let properties):
                let made = structModel(name: model.swiftName.escaped, description: model.description,
                                       properties: properties, isRecursive: model.isRecursive)
                needsIndirect = needsIndirect || made.properties.contains { $0.boxed != nil }
                structs.append(made)
            case .stringEnum(let cases):
                enums.append(enumModel(model, cases: cases))
            case .union(let union):
                unions.append(unionModel(model, union))
            case .composition:
                // Flattened into `.object` by validation; a valid spec has none left.
                break
            }
        }
        var envelopes: [EnvelopeModel] = []
        for schema in spec.errorSchemas {
            structs.append(structModel(name: schema.swiftName.escaped, description: schema.description,
                                       properties: schema.properties, isRecursive: false))
            switch schema.shape {
            case .object:
                break
            case .wrapped(let key):
                envelopes.append(EnvelopeModel(name: envelopeName(schema), valueType: schema.swiftName.escaped,
                                               keyLiteral: SwiftLiteral.string(key), schemaName: schema.swiftName.name))
            case .array(let key):
                envelopes.append(EnvelopeModel(name: envelopeName(schema), valueType: "[\(schema.swiftName.escaped)]",
                                               keyLiteral: SwiftLiteral.string(key), schemaName: schema.swiftName.name))
            }
        }
        return ModelsFileModel(version: version, specPath: specPath, structs: structs, enums: enums, unions: unions,
                               envelopes: envelopes, needsIndirect: needsIndirect)
    }


    /// Whether a property of a recursive model must be stored out of line: its type (not through
    /// an array or map, which already store elements out of line) is a recursive object model.
    /// A recursive union is an `indirect enum`, already out of line.
    func needsBox(_ type: TypeReference) -> Bool {
        guard case .named(let name) = type.nonOptional, let target = models[name] else { return false }
        guard case .object = target.kind else { return false }
        return target.isRecursive
    }

    func structModel(name: String, description: String?, properties: [PropertySpec], isRecursive: Bool) -> StructModel {
        var models: [PropertyModel] = []
        var keys: [CodingKeyModel] = []
        var parameters: [ParameterModel] = []
        for property in properties {
            let propertyName = property.swiftName.escaped
            let type = swiftType(property.type)
            let argument = Self.internalName(property.swiftName) ?? propertyName
            var boxed: BoxedStorage?
            var keyName = propertyName
            if isRecursive && needsBox(property.type) {
                let storage = "_" + property.swiftName.name
                boxed = BoxedStorage(storageName: storage, valueType: swiftType(property.type.nonOptional),
                                     isOptional: property.type.isOptional)
                keyName = storage
            }
            let plainKey = boxed == nil ? property.swiftName.name : keyName
            keys.append(CodingKeyModel(name: keyName,
                                       rawValue: property.jsonKey == plainKey ? nil : SwiftLiteral.string(property.jsonKey)))
            let doc = Self.doc(property.description, indentation: "    ")
                ?? SwiftComment.documentation("The `\(property.jsonKey)` field.", indentation: "    ")
            parameters.append(ParameterModel(label: propertyName, internalName: argument == propertyName ? nil : argument,
                                             type: type, defaultValue: property.type.isOptional ? "nil" : nil))
            models.append(PropertyModel(doc: doc, name: propertyName, type: type, argument: argument, boxed: boxed))
        }
        var initText = "Creates a value from its properties."
        let described = properties.filter { $0.description != nil }
        if !described.isEmpty {
            initText += "\n\n- Parameters:"
            for property in properties {
                let text = property.description.map(SwiftComment.inline) ?? "The `\(property.jsonKey)` value."
                initText += "\n  - \(property.swiftName.name): \(text.isEmpty ? "The value." : text)"
            }
        }
        let plainName = name.replacingOccurrences(of: "`", with: "")
        let doc = Self.doc(description) ?? SwiftComment.documentation("The `\(plainName)` model of \(SwiftComment.inline(spec.name)).")
        return StructModel(doc: doc, name: name, properties: models, codingKeys: keys, parameters: parameters,
                           initDoc: SwiftComment.documentation(initText, indentation: "    "),
                           isInline: Self.fitsOnOneLine("    public init(\(parameters.inlineText)) {"))
    }

    func enumModel(_ model: ModelSpec, cases: [EnumCaseSpec]) -> StringEnumModel {
        let taken = Set(cases.map(\.swiftName.name))
        var fallback = "unknown"
        var counter = 1
        while taken.contains(fallback) {
            counter += 1
            fallback = "unknown\(counter)"
        }
        let values = cases.map { item in
            EnumValueModel(doc: Self.doc(item.description, indentation: "    ")
                               ?? SwiftComment.documentation("The value \(SwiftComment.inline(item.value)).", indentation: "    "),
                           name: item.swiftName.escaped, literal: SwiftLiteral.string(item.value))
        }
        return StringEnumModel(doc: Self.doc(model.description) ?? SwiftComment.documentation("One of the values of `\(model.swiftName.name)`."),
                               name: model.swiftName.escaped, cases: values, fallback: fallback)
    }
}
