/// The error mappings that v1's one-switch shape cannot say: conditions, nested discriminators,
/// typed (`Double`) values and failures inside success statuses.
///
/// Each mapping becomes a ``MatchingModel``: the facts of its statements (which fields it reads,
/// which conditions it tries, which case each returns), which the `failureMatching` and
/// `failureSwitch` templates lay out. Nesting has no fixed depth, so `failureSwitch` includes
/// itself, and each level carries its own indentation. Every body field a mapping reads is read in one pass (`response.fields(…)`), however
/// many conditions and levels use it.
extension SpecTranslator {
    /// Whether a mapping needs the statement form rather than v1's single case or one string switch.
    static func needsStatements(_ mapping: ErrorMappingSpec) -> Bool {
        if mapping.when != nil || !mapping.conditions.isEmpty { return true }
        if case .discriminated(let discriminator) = mapping.outcome { return discriminator.isCompound }
        return false
    }

    /// The indentation of a status branch's statements: inside `switch response.status.code`,
    /// inside a static method.
    static let branchIndentation = String(repeating: " ", count: 12)

    /// The statements of one mapping's branch, recording in `uses` where each case is produced,
    /// for its doc comment.
    func matchingModel(_ mapping: ErrorMappingSpec, uses: inout [String: [String]]) -> MatchingModel {
        let paths = Self.bodyPaths(of: mapping)
        var model = MatchingModel(indentation: Self.branchIndentation,
                                  fieldPaths: paths.isEmpty ? nil : paths.map(SwiftLiteral.string).joined(separator: ", "))
        var status = Self.statusText(mapping.status)
        if let when = mapping.when {
            model.guardCondition = Self.condition(when)
            status += " \(Self.prose(when))"
        }
        for condition in mapping.conditions {
            uses[condition.errorCase.name, default: []].append("\(status) \(Self.prose(condition.predicate))")
            model.conditions.append(ConditionModel(condition: Self.condition(condition.predicate), value: caseValue(condition.errorCase)))
        }
        let otherwise = mapping.conditions.isEmpty ? "" : ", and no condition above holds"
        switch mapping.outcome {
        case .single(let item):
            uses[item.name, default: []].append(status + otherwise)
            model.returnValue = caseValue(item)
        case .discriminated(let discriminator):
            model.discriminator = discriminatorSwitch(discriminator, indentation: Self.branchIndentation, context: status, uses: &uses)
        }
        return model
    }

    private func discriminatorSwitch(_ discriminator: DiscriminatorSpec, indentation: String, context: String,
                                     uses: inout [String: [String]]) -> DiscriminatorSwitchModel {
        let source: String
        let subject: String
        switch discriminator.source {
        case .bodyField(let path):
            source = "`\(SwiftComment.inline(path.description))`"
            subject = discriminator.valueKind == .double
                ? "fields.double(\(SwiftLiteral.string(path.description)))"
                : "fields[\(SwiftLiteral.string(path.description))]"
        case .header(let name):
            source = "header `\(SwiftComment.inline(name))`"
            subject = "response.header(\(SwiftLiteral.string(name)))"
        }
        // "status 200 whose `ok` is `false`" (a success predicate or an outer discriminator)
        // reads on as "… and whose `error` is …".
        let context = context.contains(" whose ") && !context.hasSuffix(" and") ? context + " and" : context
        var cases: [DiscriminatorCaseModel] = []
        for entry in discriminator.cases {
            let literal = discriminator.valueKind == .double ? entry.value : SwiftLiteral.string(entry.value)
            let whose = "\(context) whose \(source) is `\(SwiftComment.inline(entry.value))`"
            if let nested = entry.nested {
                cases.append(DiscriminatorCaseModel(literal: literal,
                                                    nested: discriminatorSwitch(nested, indentation: indentation + "    ",
                                                                                context: whose + " and", uses: &uses)))
            } else {
                uses[entry.errorCase.name, default: []].append(whose)
                cases.append(DiscriminatorCaseModel(literal: literal, value: caseValue(entry.errorCase)))
            }
        }
        uses[discriminator.fallback.name, default: []].append("\(context) whose \(source) is anything else or missing")
        return DiscriminatorSwitchModel(indentation: indentation, subject: subject, cases: cases,
                                        fallback: caseValue(discriminator.fallback))
    }

    /// The status branches of `mapSuccess(_:)`; empty when no mapping is on a success status.
    func successBranches(_ mappings: [ErrorMappingSpec], uses: inout [String: [String]]) -> [StatusBranchModel] {
        var branches: [StatusBranchModel] = []
        for mapping in mappings where mapping.isSuccessMapping {
            var branch = StatusBranchModel(status: nil, lowerBound: nil, upperBound: nil, isDefault: false,
                                           single: nil, subject: nil, values: [], fallback: nil)
            switch mapping.status {
            case .exact(let status): branch.status = String(status)
            case .range(let hundreds): (branch.lowerBound, branch.upperBound) = (String(hundreds * 100), String(hundreds * 100 + 99))
            case .default: continue
            }
            branch.matching = matchingModel(mapping, uses: &uses)
            branches.append(branch)
        }
        return branches
    }

    /// Every body field path a mapping reads, in first-use order, each once.
    static func bodyPaths(of mapping: ErrorMappingSpec) -> [String] {
        var paths: [String] = []
        func add(_ path: FieldPath?) {
            if let path, !paths.contains(path.description) { paths.append(path.description) }
        }
        add(mapping.when?.fieldPath)
        for condition in mapping.conditions { add(condition.predicate.fieldPath) }
        func addDiscriminator(_ discriminator: DiscriminatorSpec) {
            if case .bodyField(let path) = discriminator.source { add(path) }
            for entry in discriminator.cases { entry.nested.map(addDiscriminator) }
        }
        if case .discriminated(let discriminator) = mapping.outcome { addDiscriminator(discriminator) }
        return paths
    }

    /// A predicate as a Swift condition over `response` and `fields`.
    static func condition(_ predicate: PredicateSpec) -> String {
        switch predicate {
        case .headerPresent(let name):
            "response.header(\(SwiftLiteral.string(name))) != nil"
        case .headerEquals(let name, let value):
            "response.header(\(SwiftLiteral.string(name))) == \(SwiftLiteral.string(value))"
        case .fieldPresent(let path):
            "fields.contains(\(SwiftLiteral.string(path.description)))"
        case .fieldEquals(let path, .double(let value)):
            "fields.double(\(SwiftLiteral.string(path.description))) == \(value.description)"
        case .fieldEquals(let path, let value):
            // Strings, integers and booleans compare as their JSON text: `"false"`, `"42"`.
            "fields[\(SwiftLiteral.string(path.description))] == \(SwiftLiteral.string(value.description))"
        }
    }

    /// A predicate in a doc comment.
    static func prose(_ predicate: PredicateSpec) -> String {
        switch predicate {
        case .headerPresent(let name): "with header `\(SwiftComment.inline(name))`"
        case .headerEquals(let name, let value): "whose header `\(SwiftComment.inline(name))` is `\(SwiftComment.inline(value))`"
        case .fieldPresent(let path): "whose `\(SwiftComment.inline(path.description))` is present"
        case .fieldEquals(let path, let value): "whose `\(SwiftComment.inline(path.description))` is `\(SwiftComment.inline(value.description))`"
        }
    }
}
