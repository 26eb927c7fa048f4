import Foundation

/// Error matching beyond one status and one field: success statuses with `when:`, `conditions:`,
/// and discriminators nested in a discriminator's `cases`.
extension SpecFileParser {
    /// Whether an error mapping's value is a mapping with `when:`, which allows a success status key.
    static func hasWhen(_ node: Node) -> Bool {
        guard case .mapping(let mapping) = node else { return false }
        return mapping.contains { key, _ in key.string == "when" }
    }

    /// Whether a value under `cases` is a nested `{ discriminator, cases, otherwise }`.
    static func isNestedDiscriminator(_ node: Node) -> Bool {
        guard case .mapping(let mapping) = node else { return false }
        return mapping.contains { key, _ in key.string == "discriminator" }
    }

    /// `200`…`299` or `2XX`, for a mapping with `when:`.
    func parseSuccessStatusKey(_ key: String) -> StatusMatcher? {
        if key.uppercased() == "2XX" { return .range(2) }
        if key.count == 3, key.allSatisfy(\.isASCII), let status = Int(key), (200...299).contains(status) {
            return .exact(status)
        }
        return nil
    }

    /// The `conditions:` and `when:` of one error mapping.
    func parseMatching(_ fields: [String: NodeReader.Entry], status: StatusMatcher, body: String?,
                       what: String) -> (conditions: [ErrorConditionSpec], when: PredicateSpec?) {
        var when: PredicateSpec?
        if let entry = fields["when"] {
            if status.isSuccess {
                if let mapping = reader.mapping(entry.value, "'when' of \(what)") {
                    let predicateFields = reader.fields(of: mapping, in: "'when' of \(what)", shape: .predicate,
                                                        owner: reader.location(of: entry.value))
                    when = parsePredicate(predicateFields, at: entry.value, what: "'when' of \(what)")
                }
            } else {
                reader.error("'when' applies only to a success status (200…299 or 2XX), whose matching responses become failures; \(status) is already a failure",
                             at: entry.keyNode)
            }
        }
        var conditions: [ErrorConditionSpec] = []
        if let entry = fields["conditions"], let list = reader.sequence(entry.value, "'conditions' of \(what)") {
            for (index, node) in list.enumerated() {
                if let condition = parseCondition(node, body: body, what: "condition \(index + 1) of \(what)") {
                    conditions.append(condition)
                }
            }
        }
        return (conditions, when)
    }

    /// One condition: predicate keys plus the keys of a case, which `parseCase` reads.
    func parseCondition(_ node: Node, body: String?, what: String) -> ErrorConditionSpec? {
        guard case .mapping(let mapping) = node else {
            reader.error("\(what) must be a mapping of a predicate ('header' or 'field', optionally 'equals') and a 'case', found \(reader.kind(of: node))",
                         at: node)
            return nil
        }
        let location = reader.location(of: node)
        var predicatePairs: [(Node, Node)] = []
        var casePairs: [(Node, Node)] = []
        for (key, value) in mapping {
            // The keys of a condition that make its predicate; the others are the case's.
            if SpecShape.predicate.allowed.contains(key.string ?? "") {
                predicatePairs.append((key, value))
            } else {
                casePairs.append((key, value))
            }
        }
        let predicateFields = reader.fields(of: Node.Mapping(predicatePairs, mapping.tag, mapping.style, mapping.mark),
                                            in: what, shape: .predicate, owner: location)
        let predicate = parsePredicate(predicateFields, at: node, what: what)
        let caseNode = Node.mapping(Node.Mapping(casePairs, mapping.tag, mapping.style, mapping.mark))
        guard let errorCase = parseCase(caseNode, body: body, meaning: CaseMeaning(), description: nil, what: what),
              let predicate else { return nil }
        return ErrorConditionSpec(predicate: predicate, errorCase: errorCase, location: location)
    }

    /// `{ header }`, `{ header, equals }`, `{ field }` or `{ field, equals }`.
    func parsePredicate(_ fields: [String: NodeReader.Entry], at node: Node, what: String) -> PredicateSpec? {
        let equals = fields["equals"]
        switch (fields["header"], fields["field"]) {
        case (let header?, nil):
            guard let name = reader.string(header.value, "'header'"), checkHeaderName(name, at: header.value) else { return nil }
            guard let equals else { return .headerPresent(name) }
            guard let value = reader.string(equals.value, "'equals'") else { return nil }
            return .headerEquals(name, value)
        case (nil, let field?):
            guard let text = reader.string(field.value, "'field'") else { return nil }
            let path: FieldPath
            switch TypeExpression.parseFieldPath(text) {
            case .success(let parsed): path = parsed
            case .failure(let problem):
                reader.error(problem.message, at: field.value)
                return nil
            }
            guard let equals else { return .fieldPresent(path) }
            guard let value = parseScalarLiteral(equals.value) else { return nil }
            return .fieldEquals(path, value)
        default:
            reader.error("\(what) needs exactly one of 'header' (a response header) or 'field' (a body field path)", at: node)
            return nil
        }
    }

    /// A scalar as YAML types it: plain `true`/`false`, integers and numbers; anything else, or
    /// anything quoted, is a string. The validator retypes it as the field's declared type.
    func parseScalarLiteral(_ node: Node) -> ScalarValueSpec? {
        guard case .scalar(let scalar) = node, !reader.isNull(scalar) else {
            reader.error("'equals' must be a string, number or boolean, found \(reader.kind(of: node))", at: node)
            return nil
        }
        let text = scalar.string
        guard scalar.style == .plain else { return .string(text) }
        if let value = ScalarKind.boolean.value(of: text) ?? ScalarKind.integer.value(of: text) { return value }
        if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let value = ScalarKind.double.value(of: text) {
            return value
        }
        return .string(text)
    }

    /// A value under `cases` that discriminates further: `{ discriminator, cases, otherwise }`.
    func parseNestedDiscriminator(_ entry: NodeReader.Entry, body: String?, meaning: CaseMeaning,
                                  description: String?) -> DiscriminatorSpec.Case? {
        guard Self.isNestedDiscriminator(entry.value), case .mapping(let mapping) = entry.value else { return nil }
        let what = "the nested discriminator for '\(NodeReader.abbreviated(entry.key))'"
        let location = reader.location(of: entry.value)
        let fields = reader.fields(of: mapping, in: what, shape: .nestedDiscriminator, owner: location)
        guard let discriminatorEntry = fields["discriminator"],
              let source = parseDiscriminatorSource(discriminatorEntry.value) else { return nil }
        guard let discriminator = parseDiscriminatorCases(fields, source: source, at: discriminatorEntry, body: body,
                                                          meaning: meaning, description: description, what: what,
                                                          location: location) else { return nil }
        return DiscriminatorSpec.Case(value: entry.key, nested: discriminator, valueLocation: reader.location(of: entry.keyNode))
    }

    /// The `cases` and `otherwise` of a discriminator, at the top of a mapping or nested under a
    /// value of another: each listed value is a case or a further discriminator; the mapping's
    /// `message` is every case's default, its `retryable` and `description` only `otherwise`'s.
    func parseDiscriminatorCases(_ fields: [String: NodeReader.Entry], source: DiscriminatorSpec.Source,
                                 at discriminatorEntry: NodeReader.Entry, body: String?, meaning: CaseMeaning,
                                 description: String?, what: String, location: SourceLocation) -> DiscriminatorSpec? {
        var cases: [DiscriminatorSpec.Case] = []
        if let casesEntry = fields["cases"] {
            if let casesMapping = reader.mapping(casesEntry.value, "'cases'") {
                for entry in reader.entries(of: casesMapping) {
                    if let nested = parseNestedDiscriminator(entry, body: body, meaning: meaning, description: description) {
                        cases.append(nested)
                    } else if !Self.isNestedDiscriminator(entry.value),
                              // The mapping's message is each listed case's too, unless the case gives its own:
                              // an overlay over dozens of cases would otherwise repeat it on each.
                              // `retryable` and `description` stay the fallback's, as they say what
                              // one case means.
                              let errorCase = parseCase(entry.value, body: body,
                                                        meaning: CaseMeaning(message: meaning.message, field: meaning.field, key: meaning.key),
                                                        description: nil, what: "the case for '\(entry.key)'") {
                        var listed = DiscriminatorSpec.Case(value: entry.key, errorCase: errorCase)
                        listed.valueLocation = reader.location(of: entry.keyNode)
                        cases.append(listed)
                    }
                }
            }
        } else {
            reader.error("\(what) has a 'discriminator' but no 'cases' mapping values to cases", at: location)
        }
        guard let otherwise = fields["otherwise"] else {
            reader.error("\(what) discriminates on '\(source)' but has no 'otherwise' fallback case; discriminator values are an open set",
                         at: location)
            return nil
        }
        guard let fallback = parseCase(otherwise.value, body: body, meaning: meaning, description: description,
                                       what: "'otherwise' of \(what)") else { return nil }
        return DiscriminatorSpec(source: source, cases: cases, fallback: fallback,
                                 location: reader.location(of: discriminatorEntry.keyNode))
    }
}
