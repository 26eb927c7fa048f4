/// Error matching: discriminator values and predicate values typed by the field they are
/// compared with, nested discriminators, and the fields conditions and `when:` read.
extension SpecValidator {
    /// Why a body field path does not fit an error schema.
    struct FieldProblem: Error {
        var message: String
    }

    /// The mapping with its discriminator values and predicate values checked and normalized
    /// to the type of the field they are compared with.
    mutating func checkMatching(_ mapping: ErrorMappingSpec) -> ErrorMappingSpec {
        var mapping = mapping
        let schemaName = mapping.bodySchema
        let schema = schemaName.flatMap { schemasByName[$0] }
        if case .discriminated(let discriminator) = mapping.outcome {
            mapping.outcome = .discriminated(checkDiscriminator(discriminator, schemaName: schemaName, schema: schema))
        }
        mapping.conditions = mapping.conditions.map { condition in
            var condition = condition
            condition.predicate = checkPredicate(condition.predicate, schemaName: schemaName, schema: schema, at: condition.location)
            return condition
        }
        if let when = mapping.when {
            mapping.when = checkPredicate(when, schemaName: schemaName, schema: schema, at: mapping.location)
        }
        return mapping
    }

    /// An endpoint's own mapping of a success status it never answers with can never apply
    /// (the defaults' may, for other endpoints).
    mutating func checkSuccessMappings(_ mappings: [ErrorMappingSpec], succeedingWith statuses: [Int], what: String) {
        let list = statuses.map(String.init).joined(separator: ", ")
        for mapping in mappings where mapping.isSuccessMapping && !statuses.contains(where: mapping.status.matches) {
            warning("the error mapping for \(mapping.status) never applies: \(what) succeeds with \(list)", at: mapping.location)
        }
    }

    private mutating func checkDiscriminator(_ discriminator: DiscriminatorSpec, schemaName: String?,
                                             schema: ErrorSchemaSpec?) -> DiscriminatorSpec {
        var discriminator = discriminator
        var kind = ScalarKind.string
        if case .bodyField(let path) = discriminator.source, let schemaName, let schema {
            switch resolveField(path, in: schema, requiringScalar: true) {
            case .success(let found): kind = found ?? .string
            case .failure(let problem):
                error("discriminator '\(path)' does not fit error schema '\(schemaName)': \(problem.message)", at: discriminator.location)
            }
        }
        discriminator.valueKind = kind
        var seen: Set<String> = []
        var checked: [DiscriminatorSpec.Case] = []
        for var entry in discriminator.cases {
            let location = entry.valueLocation ?? entry.errorCase.location
            if kind != .string {
                guard let value = kind.value(of: entry.value) else {
                    error("'\(entry.value)' under 'cases' is not a valid \(kind.rawValue), the type of '\(discriminator.source)'",
                          at: location)
                    continue
                }
                entry.value = value.description
            }
            if !seen.insert(entry.value).inserted {
                // A value listed twice is a mistake whether the second is a case or a nested discriminator.
                error("discriminator value '\(entry.value)' is listed twice", at: entry.nested == nil ? entry.errorCase.location : location)
                continue
            }
            if let nested = entry.nested {
                entry.nested = checkDiscriminator(nested, schemaName: schemaName, schema: schema)
            }
            checked.append(entry)
        }
        discriminator.cases = checked
        return discriminator
    }

    private mutating func checkPredicate(_ predicate: PredicateSpec, schemaName: String?, schema: ErrorSchemaSpec?,
                                         at location: SourceLocation) -> PredicateSpec {
        guard let path = predicate.fieldPath, let schemaName, let schema else { return predicate }
        let requiringScalar = if case .fieldEquals = predicate { true } else { false }
        switch resolveField(path, in: schema, requiringScalar: requiringScalar) {
        case .failure(let problem):
            error("field '\(path)' of a condition does not fit error schema '\(schemaName)': \(problem.message)", at: location)
            return predicate
        case .success(let kind):
            guard case .fieldEquals(_, let literal) = predicate, let kind else { return predicate }
            guard let value = kind.value(of: literal.description) else {
                error("'equals: \(literal)' is not a valid \(kind.rawValue), the type of '\(path)'", at: location)
                return predicate
            }
            return .fieldEquals(path, value)
        }
    }
}
