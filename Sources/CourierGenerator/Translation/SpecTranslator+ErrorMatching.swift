/// The Swift of error mappings that v1's one-switch shape cannot say: conditions, nested
/// discriminators, typed (`Double`) values and failures inside success statuses.
///
/// Each mapping becomes straight-line statements that always `return`, laid out here rather than
/// in `errors.mustache` because nesting has no fixed depth. Every body field a mapping reads is
/// read in one pass (`response.fields(…)`), however many conditions and levels use it.
extension SpecTranslator {
    /// Whether a mapping needs the statement form rather than v1's single case or one string switch.
    static func needsStatements(_ mapping: ErrorMappingSpec) -> Bool {
        if mapping.when != nil || !mapping.conditions.isEmpty { return true }
        if case .discriminated(let discriminator) = mapping.outcome { return discriminator.isCompound }
        return false
    }

    /// The statements of one mapping's branch, indented by `indentation`, recording in `uses`
    /// where each case is produced, for its doc comment.
    func matchingStatements(_ mapping: ErrorMappingSpec, indentation: String,
                            uses: inout [String: [String]]) -> [String] {
        var lines: [String] = []
        let paths = Self.bodyPaths(of: mapping)
        if !paths.isEmpty {
            lines.append(indentation + "let fields = response.fields(" + paths.map(SwiftLiteral.string).joined(separator: ", ") + ")")
        }
        var status = Self.statusText(mapping.status)
        if let when = mapping.when {
            lines.append(indentation + "guard \(Self.condition(when)) else { return nil }")
            status += " \(Self.prose(when))"
        }
        for condition in mapping.conditions {
            uses[condition.errorCase.name, default: []].append("\(status) \(Self.prose(condition.predicate))")
            lines.append(indentation + "if \(Self.condition(condition.predicate)) { return \(caseValue(condition.errorCase)) }")
        }
        let otherwise = mapping.conditions.isEmpty ? "" : ", and no condition above holds"
        switch mapping.outcome {
        case .single(let item):
            uses[item.name, default: []].append(status + otherwise)
            lines.append(indentation + "return " + caseValue(item))
        case .discriminated(let discriminator):
            lines += discriminatorStatements(discriminator, indentation: indentation, context: status, uses: &uses)
        }
        return lines
    }

    private func discriminatorStatements(_ discriminator: DiscriminatorSpec, indentation: String, context: String,
                                         uses: inout [String: [String]]) -> [String] {
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
        var lines = [indentation + "switch \(subject) {"]
        for entry in discriminator.cases {
            let literal = discriminator.valueKind == .double ? entry.value : SwiftLiteral.string(entry.value)
            let whose = "\(context) whose \(source) is `\(SwiftComment.inline(entry.value))`"
            if let nested = entry.nested {
                lines.append(indentation + "case \(literal):")
                lines += discriminatorStatements(nested, indentation: indentation + "    ", context: whose + " and", uses: &uses)
            } else {
                uses[entry.errorCase.name, default: []].append(whose)
                lines.append(indentation + "case \(literal): return \(caseValue(entry.errorCase))")
            }
        }
        uses[discriminator.fallback.name, default: []].append("\(context) whose \(source) is anything else or missing")
        lines.append(indentation + "default: return \(caseValue(discriminator.fallback))")
        lines.append(indentation + "}")
        return lines
    }

    /// The body of `mapSuccess(_:)`, or `nil` when no mapping is on a success status.
    func successMappingBody(_ mappings: [ErrorMappingSpec], uses: inout [String: [String]]) -> String? {
        let success = mappings.filter(\.isSuccessMapping)
        guard !success.isEmpty else { return nil }
        var lines = ["        switch response.status.code {"]
        for mapping in success {
            switch mapping.status {
            case .exact(let status): lines.append("        case \(status):")
            case .range(let hundreds): lines.append("        case \(hundreds * 100)...\(hundreds * 100 + 99):")
            case .default: continue
            }
            lines += matchingStatements(mapping, indentation: "            ", uses: &uses)
        }
        lines += ["        default:", "            return nil", "        }"]
        return lines.joined(separator: "\n")
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
