import Foundation

/// `<Prefix>Models.swift`: structs for object models and error schemas, string enums, and the
/// envelopes of wrapped error schemas.
extension SpecTranslator {
    /// The parts of `<Prefix>Models.swift` as `split` cuts them, each built only when it is
    /// called, so that a part's view model lives only while the part is rendered.
    ///
    /// Declarations are counted in file order: structs (object models, then error schemas),
    /// enums, unions, envelopes. The `Indirect` helper, one per module, goes in the first part.
    func modelsFileParts(_ split: FileSplit) -> [@Sendable () -> ModelsFileModel] {
        let declarations = ModelDeclarations(spec)
        // A struct boxes a property exactly when `structModel` would: the model is recursive and
        // the property's type needs a box; error schemas are never recursive.
        let needsIndirect = declarations.objects.contains { object in
            object.model.isRecursive && object.properties.contains { needsBox($0.type) }
        }
        return split.runs(of: declarations.count).enumerated().map { index, run in
            { [self] in modelsFile(declarations, in: run, needsIndirect: needsIndirect && index == 0) }
        }
    }

    /// The spec's declarations in the order the models file writes them.
    private struct ModelDeclarations {
        var objects: [(model: ModelSpec, properties: [PropertySpec])] = []
        var enums: [(model: ModelSpec, cases: [EnumCaseSpec], rawType: PrimitiveType)] = []
        var unions: [(model: ModelSpec, union: UnionSpec)] = []
        var errorSchemas: [ErrorSchemaSpec]
        var envelopes: [ErrorSchemaSpec]

        init(_ spec: ServiceSpec) {
            errorSchemas = spec.errorSchemas
            envelopes = spec.errorSchemas.filter { schema in
                if case .object = schema.shape { return false }
                return true
            }
            for model in spec.models {
                switch model.kind {
                case .object(let properties): objects.append((model, properties))
                case .stringEnum(let cases): enums.append((model, cases, .string))
                case .numberEnum(let raw, let cases): enums.append((model, cases, raw))
                case .union(let union): unions.append((model, union))
                // Flattened into `.object` by validation; a valid spec has none left.
                case .composition: break
                }
            }
        }

        var structCount: Int { objects.count + errorSchemas.count }
        var count: Int { structCount + enums.count + unions.count + envelopes.count }
    }

    /// The models file holding the declarations at positions `run` of all of them.
    private func modelsFile(_ declarations: ModelDeclarations, in run: Range<Int>, needsIndirect: Bool) -> ModelsFileModel {
        /// The positions of `run` within a kind that starts at `start` and has `count` declarations.
        func local(from start: Int, count: Int) -> Range<Int> {
            min(max(run.lowerBound - start, 0), count)..<min(max(run.upperBound - start, 0), count)
        }
        let objects = declarations.objects
        let structs = local(from: 0, count: declarations.structCount).map { position in
            guard position >= objects.count else {
                let (model, properties) = objects[position]
                return structModel(name: model.swiftName.escaped, description: model.description,
                                   properties: properties, isRecursive: model.isRecursive)
            }
            let schema = declarations.errorSchemas[position - objects.count]
            return structModel(name: schema.swiftName.escaped, description: schema.description,
                               properties: schema.properties, isRecursive: false)
        }
        var start = declarations.structCount
        let enums = declarations.enums[local(from: start, count: declarations.enums.count)].map { item in
            enumModel(item.model, cases: item.cases, rawType: item.rawType)
        }
        start += declarations.enums.count
        let unions = declarations.unions[local(from: start, count: declarations.unions.count)].map { item in
            unionModel(item.model, item.union)
        }
        start += declarations.unions.count
        let envelopes = declarations.envelopes[local(from: start, count: declarations.envelopes.count)].compactMap { schema -> EnvelopeModel? in
            switch schema.shape {
            case .object:
                nil
            case .wrapped(let key):
                EnvelopeModel(name: envelopeName(schema), valueType: schema.swiftName.escaped,
                              keyLiteral: SwiftLiteral.string(key), schemaName: schema.swiftName.name)
            case .array(let key):
                EnvelopeModel(name: envelopeName(schema), valueType: "[\(schema.swiftName.escaped)]",
                              keyLiteral: SwiftLiteral.string(key), schemaName: schema.swiftName.name)
            }
        }
        return ModelsFileModel(version: version, specPath: specPath, access: spec.access.rawValue, structs: structs, enums: enums,
                               unions: unions, envelopes: envelopes, needsIndirect: needsIndirect, equality: spec.equality.conformance)
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
        let customCoding = properties.contains(where: \.needsCustomCoding)
        var coded: [PropertyCodingModel] = []
        for property in properties {
            let propertyName = property.swiftName.escaped
            let type = property.isNullable ? "Nullable<\(swiftType(property.type.nonOptional))>?" : swiftType(property.type)
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
            let described = property.description.map {
                GeneratedNames.noting(wireName: property.jsonKey, of: property.swiftName, isProperty: true, in: $0)
            }
            let doc = Self.doc(described, indentation: "    ")
                ?? SwiftComment.documentation("The `\(property.jsonKey)` field.", indentation: "    ")
            let defaultValue = property.defaultValue.flatMap { literal($0, type: property.type.nonOptional) }
            parameters.append(ParameterModel(label: propertyName, internalName: argument == propertyName ? nil : argument,
                                             type: type, defaultValue: defaultValue ?? (property.type.isOptional ? "nil" : nil)))
            if customCoding {
                coded.append(codingModel(property, target: boxed == nil ? propertyName : keyName, key: keyName, boxed: boxed))
            }
            models.append(PropertyModel(doc: doc, name: propertyName, type: type, argument: argument, boxed: boxed))
        }
        // Each parameter is a property of the same name, documented where it is declared: a
        // parameter list here would repeat every property's comment.
        let initText = "Creates a value from its properties."
        let plainName = name.replacingOccurrences(of: "`", with: "")
        let doc = Self.doc(description) ?? SwiftComment.documentation("The `\(plainName)` model of \(SwiftComment.inline(spec.name)).")
        // Only the direction that needs it is written out; Swift synthesizes the other one.
        var coding = customCoding ? CustomCodingModel(properties: coded) : nil
        coding?.decodesItself = properties.contains(where: \.needsCustomDecoding)
        coding?.encodesItself = properties.contains(where: \.needsCustomEncoding)
        coding?.leavesOutReadOnly = properties.contains(where: \.isReadOnly)
        return StructModel(doc: doc, name: name, properties: models, codingKeys: keys, parameters: parameters,
                           initDoc: SwiftComment.documentation(initText, indentation: "    "),
                           isInline: Self.fitsOnOneLine("    \(spec.access.rawValue) init(\(parameters.inlineText)) {"), customCoding: coding)
    }

    /// The runtime's name for a property's `dates:` format.
    static func dateField(_ format: PropertyDateFormat) -> String {
        switch format {
        case .iso8601: ".iso8601"
        case .iso8601WithFractionalSeconds: ".iso8601WithFractionalSeconds"
        case .epochSeconds: ".epochSeconds"
        case .date: ".calendarDate"
        }
    }

    /// How `init(from:)` reads one property and `encode(to:)` writes it: synthesized coding's
    /// calls unless an attribute changes them (a date format, an explicit null kept, a default for
    /// a missing key, a box). A read-only property is written only when the encoder does not write
    /// a request (`isRequest`, a local of `encode(to:)`), so that requests leave it out and the
    /// value's own `Codable` round-trips.
    func codingModel(_ property: PropertySpec, target: String, key: String, boxed: BoxedStorage?) -> PropertyCodingModel {
        let optional = property.type.isOptional
        let ifPresent = optional ? "IfPresent" : ""
        let plain = swiftType(property.type.nonOptional)
        var model = PropertyCodingModel(target: target, key: key, decodeMethod: "decode" + ifPresent,
                                        encodeMethod: "encode" + ifPresent, type: plain, isReadOnly: property.isReadOnly)
        if let boxed {
            model.type = "Indirect<\(boxed.valueType)>"
        } else if let format = property.dates {
            model.decodeMethod = property.isNullable ? "decodeNullableDate" : optional ? "decodeDateIfPresent" : "decodeDate"
            model.encodeMethod = property.isNullable ? "encodeNullableDate" : optional ? "encodeDateIfPresent" : "encodeDate"
            model.type = nil
            model.dateFormat = Self.dateField(format)
        } else if property.isNullable {
            model.decodeMethod = "decodeNullable"
        } else if property.type == .optional(.primitive(.json)) {
            model.decodeMethod = "decodeKeepingNull"
            model.type = "JSON"
        } else if let value = property.defaultValue, let literal = literal(value, type: property.type.nonOptional) {
            model.decodeMethod = "decodeIfPresent"
            model.defaultValue = literal
        }
        return model
    }

    func enumModel(_ model: ModelSpec, cases: [EnumCaseSpec], rawType: PrimitiveType = .string) -> StringEnumModel {
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
                           name: item.swiftName.escaped, literal: rawType == .string ? SwiftLiteral.string(item.value) : item.value)
        }
        return StringEnumModel(doc: Self.doc(model.description) ?? SwiftComment.documentation("One of the values of `\(model.swiftName.name)`."),
                               name: model.swiftName.escaped, cases: values, fallback: fallback, rawType: rawType.swiftSpelling)
    }
}
