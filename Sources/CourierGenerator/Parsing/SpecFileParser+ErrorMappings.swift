import Foundation

/// Error mappings: status keys, cases, bodies and discriminators.
extension SpecFileParser {
    /// Parses an `errors:` mapping of endpoint or defaults.
    func parseErrorMappings(_ node: Node, owner: String) -> [ErrorMappingSpec] {
        guard let mapping = reader.mapping(node, "'errors' of \(owner)") else { return [] }
        var mappings: [ErrorMappingSpec] = []
        var seen: [StatusMatcher: SourceLocation] = [:]
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            guard let status = parseStatusKey(entry.key, at: entry.keyNode, allowingSuccess: Self.hasWhen(entry.value)) else { continue }
            if let first = seen[status] {
                reader.error("status \(status) is mapped twice in 'errors' of \(owner); map each status to one case", at: location,
                             notes: [.note("first mapped here", at: first)])
                continue
            }
            seen[status] = location
            if let parsed = parseErrorMapping(entry.value, status: status, location: location) {
                mappings.append(parsed)
            }
        }
        return mappings
    }

    func parseStatusKey(_ key: String, at node: Node, allowingSuccess: Bool = false) -> StatusMatcher? {
        if key == "default" { return .default }
        let upper = key.uppercased()
        if allowingSuccess, let success = parseSuccessStatusKey(key) { return success }
        if upper.count == 3, upper.hasSuffix("XX"), let digit = upper.first?.wholeNumberValue {
            if digit == 4 || digit == 5 { return .range(digit) }
            reader.error("invalid status range '\(key)'; error mappings take 4XX or 5XX", at: node)
            return nil
        }
        if key.count == 3, key.allSatisfy(\.isASCII), let status = Int(key) {
            if (400...599).contains(status) { return .exact(status) }
            if (100...399).contains(status) {
                reader.error("status \(status) is not an error status; error mappings take 400…599, 4XX, 5XX or default", at: node)
                return nil
            }
        }
        reader.error("invalid status '\(NodeReader.abbreviated(key))'; use a status 400…599, 4XX, 5XX or default", at: node)
        return nil
    }

    func parseErrorMapping(_ node: Node, status: StatusMatcher, location: SourceLocation) -> ErrorMappingSpec? {
        let what = "the error mapping for \(status)"
        guard case .mapping(let mapping) = node else {
            guard let name = reader.string(node, "the case of \(what)") else { return nil }
            checkIdentifier(name, SwiftIdentifier(memberNamed: name), "error case name", at: node)
            return ErrorMappingSpec(status: status, outcome: .single(ErrorCaseSpec(name: name, location: reader.location(of: node))),
                                    location: location)
        }
        let fields = reader.fields(of: mapping, in: what,
                                   shape: .errorMapping, owner: location)
        let body = fields["body"].flatMap { reader.string($0.value, "'body'") }
        let meaning = parseMeaning(fields, body: body)
        let description = fields["description"].flatMap { reader.string($0.value, "'description'") }
        let matching = parseMatching(fields, status: status, body: body, what: what)

        guard let discriminatorEntry = fields["discriminator"] else {
            for key in ["cases", "otherwise"] {
                if let entry = fields[key] {
                    reader.error("'\(key)' needs a 'discriminator' in \(what)", at: entry.keyNode)
                }
            }
            guard let caseEntry = fields["case"] else {
                reader.error("\(what) is missing required key 'case'", at: location)
                return nil
            }
            guard let errorCase = parseCase(caseEntry.value, body: body, meaning: meaning, description: description,
                                            what: "the case of \(what)") else { return nil }
            var single = ErrorMappingSpec(status: status, bodySchema: body, outcome: .single(errorCase), description: description,
                                          location: location)
            (single.conditions, single.when) = matching
            return single
        }

        if let caseEntry = fields["case"] {
            reader.error("\(what) discriminates; name its fallback with 'otherwise' instead of 'case'", at: caseEntry.keyNode)
        }
        guard let source = parseDiscriminatorSource(discriminatorEntry.value) else { return nil }
        if case .bodyField = source, body == nil, !errorBodiesMayBeInherited {
            reader.error("\(what) discriminates on a body field, so it needs 'body' to name the error schema", at: discriminatorEntry.keyNode)
        }
        guard let discriminator = parseDiscriminatorCases(fields, source: source, at: discriminatorEntry, body: body,
                                                          meaning: meaning, description: description, what: what,
                                                          location: location) else { return nil }
        var discriminated = ErrorMappingSpec(status: status, bodySchema: body, outcome: .discriminated(discriminator),
                                             description: description, location: location)
        (discriminated.conditions, discriminated.when) = matching
        return discriminated
    }

    /// A case name, or `{ case:, message:, retryable:, description: }`.
    func parseCase(_ node: Node, body: String?, meaning: CaseMeaning, description: String?, what: String) -> ErrorCaseSpec? {
        let location = reader.location(of: node)
        if case .mapping(let mapping) = node {
            let fields = reader.fields(of: mapping, in: what, shape: .errorCase, owner: location)
            guard let caseEntry = fields["case"], let name = reader.string(caseEntry.value, "'case'") else { return nil }
            checkIdentifier(name, SwiftIdentifier(memberNamed: name), "error case name", at: caseEntry.value)
            return ErrorCaseSpec(name: name, bodySchema: body,
                                 description: fields["description"].flatMap { reader.string($0.value, "'description'") } ?? description,
                                 location: reader.location(of: caseEntry.value))
                .with(meaning.overridden(by: parseMeaning(fields, body: body)))
        }
        guard let name = reader.string(node, what) else { return nil }
        checkIdentifier(name, SwiftIdentifier(memberNamed: name), "error case name", at: node)
        return ErrorCaseSpec(name: name, bodySchema: body, description: description, location: location).with(meaning)
    }

    func parseDiscriminatorSource(_ node: Node) -> DiscriminatorSpec.Source? {
        var pathText: String?
        if case .mapping(let mapping) = node {
            let fields = reader.fields(of: mapping, in: "'discriminator'", shape: .discriminatorSource, owner: reader.location(of: node))
            switch (fields["field"], fields["header"]) {
            case (let field?, nil):
                pathText = reader.string(field.value, "'field'")
            case (nil, let header?):
                guard let name = reader.string(header.value, "'header'"), checkHeaderName(name, at: header.value) else { return nil }
                return .header(name)
            default:
                reader.error("'discriminator' needs exactly one of 'field' (a body field path) or 'header'", at: node)
                return nil
            }
        } else {
            pathText = reader.string(node, "'discriminator'")
        }
        guard let pathText else { return nil }
        switch TypeExpression.parseFieldPath(pathText) {
        case .success(let path): return .bodyField(path)
        case .failure(let problem):
            reader.error(problem.message, at: node)
            return nil
        }
    }
}
