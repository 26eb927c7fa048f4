/// Error mappings: body schemas, discriminators, and one body per case.
extension SpecValidator {
    mutating func checkErrorMappings(_ mappings: [ErrorMappingSpec], owner: String) -> [ErrorMappingSpec] {
        for mapping in mappings {
            // `JSON` is the free-form body: any error body, kept as sent.
            if let name = mapping.bodySchema, name != PrimitiveType.json.rawValue, schemasByName[name] == nil, !brokenNames.contains(name) {
                if modelsByName[name] != nil {
                    error("'\(name)' is a model; 'body' of an error mapping must name an error schema (under 'errorSchemas')",
                          at: mapping.location)
                } else {
                    let hint = Suggestions.closest(to: name, among: schemasByName.keys.sorted()).map { "; did you mean '\($0)'?" } ?? ""
                    error("error schema '\(name)' used by the error mapping for \(mapping.status) is not defined\(hint)", at: mapping.location)
                }
            }
        }
        return mappings.map { checkMatching($0) }
    }

    /// Checks a body field path against an error schema and its shape; returns the problem, if any.
    func problemResolving(_ path: FieldPath, in schema: ErrorSchemaSpec) -> String? {
        switch resolveField(path, in: schema, requiringScalar: true) {
        case .success: nil
        case .failure(let problem): problem.message
        }
    }

    /// The scalar kind a body field path reaches in an error schema (`nil` for an object or array
    /// when `requiringScalar` is false), or the problem.
    ///
    /// A path may pass through a union (`oneOf`): each step goes on in every variant it fits,
    /// and fails only when it fits none, as the runtime reads the field from the bytes whatever
    /// the variant (GitHub's `errors` items, objects or strings, read at `errors[0].code`).
    func resolveField(_ path: FieldPath, in schema: ErrorSchemaSpec,
                      requiringScalar: Bool) -> Result<ScalarKind?, FieldProblem> {
        func problem(_ message: String) -> Result<ScalarKind?, FieldProblem> { .failure(FieldProblem(message: message)) }
        indirect enum Position {
            case object([PropertySpec])
            case array(of: Position)
            case type(TypeReference)
            /// The variants of a union, by the union's spec name.
            case union(String, [Position])
        }
        var position: Position
        switch schema.shape {
        case .object: position = .object(schema.properties)
        case .wrapped(let key): position = .object([PropertySpec(name: key, type: .named("\u{0}"), location: schema.location)])
        case .array(let key): position = .object([PropertySpec(name: key, type: .array(.named("\u{0}")), location: schema.location)])
        }
        // The models a resolution is inside, so that a union that contains itself ends.
        func resolve(_ type: TypeReference, visiting: Set<String> = []) -> Position {
            switch type {
            case .named("\u{0}"): return .object(schema.properties)
            case .named(let name):
                guard let model = modelsByName[name] else { return .type(type) }
                if let union = model.union, !visiting.contains(name) {
                    return .union(name, union.variants.map { resolve($0.type, visiting: visiting.union([name])) })
                }
                return model.isEnum || model.union != nil ? .type(type) : .object(model.properties)
            case .optional(let wrapped): return resolve(wrapped, visiting: visiting)
            case .array(let element): return .array(of: resolve(element, visiting: visiting))
            default: return .type(type)
            }
        }
        func step(_ component: FieldPath.Component, from position: Position) -> Result<Position, FieldProblem> {
            switch (component, position) {
            case (.key(let key), .object(let properties)):
                guard let property = properties.first(where: { $0.jsonKey == key }) else {
                    let hint = Suggestions.closest(to: key, among: properties.map(\.jsonKey)).map { "; did you mean '\($0)'?" } ?? ""
                    return .failure(FieldProblem(message: "it has no field '\(key)'\(hint)"))
                }
                return .success(resolve(property.type))
            case (.index, .array(let element)):
                return .success(element)
            case (_, .union(let name, let variants)):
                let fitting = variants.compactMap { try? step(component, from: $0).get() }
                if fitting.count == 1, let only = fitting.first { return .success(only) }
                if !fitting.isEmpty { return .success(.union(name, fitting)) }
                let what = switch component {
                case .key(let key): "a field '\(key)'"
                case .index(let index): "an array to index with [\(index)]"
                }
                return .failure(FieldProblem(message: "no variant of union '\(name)' has \(what)"))
            case (.key(let key), _):
                return .failure(FieldProblem(message: "'\(key)' is read from something that is not an object"))
            case (.index(let index), _):
                return .failure(FieldProblem(message: "[\(index)] indexes something that is not an array"))
            }
        }
        func scalar(_ position: Position) -> ScalarKind? {
            switch position {
            case .type(.primitive(.string)): return .string
            case .type(.primitive(.int)), .type(.primitive(.int64)): return .integer
            case .type(.primitive(.double)): return .double
            case .type(.primitive(.bool)): return .boolean
            case .type(.named(let name)) where modelsByName[name]?.isEnum == true:
                if case .numberEnum(let raw, _)? = modelsByName[name]?.kind {
                    return raw == .double ? .double : .integer
                }
                return .string
            default: return nil
            }
        }
        for component in path.components {
            switch step(component, from: position) {
            case .success(let next): position = next
            case .failure(let failure): return .failure(failure)
            }
        }
        // Through a union, the variants that end at a scalar must agree on its kind; those
        // that end at an object or array read as no value, as they do at run time.
        if case .union(let name, let variants) = position {
            let kinds = Set(variants.compactMap(scalar))
            if kinds.count > 1 {
                return problem("the variants of union '\(name)' hold different kinds of value there ("
                               + kinds.map(\.rawValue).sorted().joined(separator: ", ") + ")")
            }
            if let kind = kinds.first { return .success(kind) }
            return requiringScalar ? problem("the field must hold a string, number or boolean") : .success(nil)
        }
        if let kind = scalar(position) { return .success(kind) }
        return requiringScalar ? problem("the field must hold a string, number or boolean") : .success(nil)
    }

    /// One case name must carry one body type, and different case names must stay different in
    /// Swift. With `reportingInherited` false, problems between two inherited mappings are left
    /// to the check of `defaults` itself, so that they are reported once, not once per endpoint.
    mutating func checkCaseConsistency(_ mappings: [ErrorMappingSpec], owner: String, reportingInherited: Bool = true) {
        var byName: [String: (errorCase: ErrorCaseSpec, isInherited: Bool)] = [:]
        var bySwiftName: [SwiftIdentifier: (errorCase: ErrorCaseSpec, isInherited: Bool)] = [:]
        for mapping in mappings {
            for errorCase in mapping.allCases {
                if let first = byName[errorCase.name] {
                    let reports = reportingInherited || !(first.isInherited && mapping.isInherited)
                    if first.errorCase.bodySchema != errorCase.bodySchema && reports {
                        let describe = { (schema: String?) in schema.map { "body '\($0)'" } ?? "no body" }
                        error("error case '\(errorCase.name)' of \(owner) carries \(describe(errorCase.bodySchema)) here but \(describe(first.errorCase.bodySchema)) elsewhere; one case has one body",
                              at: errorCase.location, notes: [.note("'\(first.errorCase.name)' is also used here", at: first.errorCase.location)])
                    }
                    continue
                }
                byName[errorCase.name] = (errorCase, mapping.isInherited)
                if let first = bySwiftName[errorCase.swiftName] {
                    if reportingInherited || !(first.isInherited && mapping.isInherited) {
                        error("error cases '\(errorCase.name)' and '\(first.errorCase.name)' of \(owner) both become the Swift case '\(errorCase.swiftName)'; rename one",
                              at: errorCase.location, notes: [.note("'\(first.errorCase.name)' is used here", at: first.errorCase.location)])
                    }
                    continue
                }
                bySwiftName[errorCase.swiftName] = (errorCase, mapping.isInherited)
            }
        }
    }
}

extension HTTPMethod {
    /// Whether requests of this method may carry a body.
    var allowsBody: Bool {
        switch self {
        case .post, .put, .patch, .delete: true
        case .get, .head, .options: false
        }
    }
}
