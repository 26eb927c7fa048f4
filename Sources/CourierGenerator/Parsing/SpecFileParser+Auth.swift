import Foundation

/// `auth:` of the service (one scheme, or named schemes and a default) and of an endpoint.
extension SpecFileParser {
    mutating func parseServiceAuth(_ node: Node) {
        if case .mapping(let mapping) = node, reader.entries(of: mapping).contains(where: { $0.key == "schemes" }) {
            file.authSchemes = parseAuthSchemes(mapping, at: node)
        } else {
            file.auth = parseAuthScheme(node, what: "'auth'")
        }
    }

    /// `auth: { schemes: { name: scheme… }, default: name | [names] }`.
    func parseAuthSchemes(_ mapping: Node.Mapping, at node: Node) -> AuthSchemesSpec? {
        let location = reader.location(of: node)
        let fields = reader.fields(of: mapping, in: "'auth'", shape: .authSchemes, owner: location)
        guard let entry = fields["schemes"], let schemesMapping = reader.mapping(entry.value, "'schemes'") else { return nil }
        var schemes: [NamedAuthScheme] = []
        for scheme in reader.entries(of: schemesMapping) {
            let identifier = SwiftIdentifier(memberNamed: scheme.key)
            checkIdentifier(scheme.key, identifier, "auth scheme name", at: scheme.keyNode)
            guard let auth = parseAuthScheme(scheme.value, what: "auth scheme '\(scheme.key)'") else { continue }
            schemes.append(NamedAuthScheme(name: scheme.key, swiftName: identifier, auth: auth,
                                           location: reader.location(of: scheme.keyNode)))
        }
        if schemes.isEmpty && reader.entries(of: schemesMapping).isEmpty {
            reader.error("'schemes' must name at least one scheme, such as 'bot: { scheme: bearer, word: Bot }'", at: entry.value)
        }
        var defaults = schemes.map(\.name)
        if let entry = fields["default"] {
            defaults = parseSchemeNames(entry.value, what: "'default' of 'auth'") ?? defaults
        }
        return AuthSchemesSpec(schemes: schemes, defaultSchemes: defaults, location: location)
    }

    /// One scheme: `bearer` or `basic` alone, or a mapping with `scheme` and its options.
    func parseAuthScheme(_ node: Node, what: String) -> AuthSpec? {
        let location = reader.location(of: node)
        guard case .mapping(let mapping) = node else {
            guard let scheme = reader.choice(node, what, AuthSpec.Scheme.allCases) else { return nil }
            if scheme == .apiKey {
                reader.error("\(what) 'apiKey' needs 'in' and 'name', such as '{ scheme: apiKey, in: header, name: X-API-Key }'", at: node)
                return nil
            }
            return AuthSpec(scheme: scheme, location: location)
        }
        let fields = reader.fields(of: mapping, in: what, shape: .authScheme, owner: location)
        guard let scheme = fields["scheme"].flatMap({ reader.choice($0.value, "'scheme'", AuthSpec.Scheme.allCases) }) else {
            return nil
        }
        // Each option belongs to one scheme; an option the scheme ignores would be a silent surprise.
        let options: [AuthSpec.Scheme: [String]] = [.bearer: ["header", "word"], .basic: [], .apiKey: ["in", "name"]]
        for key in ["header", "word", "in", "name"] where !(options[scheme] ?? []).contains(key) {
            guard let entry = fields[key] else { continue }
            let owners = options.filter { $0.value.contains(key) }.map { "'\($0.key.rawValue)'" }.sorted().joined(separator: " and ")
            reader.error("'\(key)' is an option of \(owners), not of '\(scheme.rawValue)' in \(what)", at: entry.keyNode)
        }
        var auth = AuthSpec(scheme: scheme, description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                            location: location)
        switch scheme {
        case .bearer:
            if let entry = fields["header"], let name = reader.string(entry.value, "'header'"), checkHeaderName(name, at: entry.value) {
                auth.headerName = name
            }
            if let entry = fields["word"], let word = reader.string(entry.value, "'word'") {
                if Self.isHTTPToken(word) {
                    auth.word = word
                } else {
                    reader.error("'word' must be an HTTP token (RFC 9110: letters, digits and !#$%&'*+-.^_`|~), such as 'Bot' or 'token', "
                                 + "found '\(NodeReader.abbreviated(word))'", at: entry.value)
                }
            }
        case .basic:
            break
        case .apiKey:
            let placement = fields["in"].flatMap { reader.choice($0.value, "'in'", AuthSpec.KeyPlacement.allCases) }
            let name = fields["name"].flatMap { reader.string($0.value, "'name'") }
            if fields["in"] == nil || fields["name"] == nil {
                let missing = ["in", "name"].filter { fields[$0] == nil }.map { "'\($0)'" }.joined(separator: " and ")
                reader.error("\(what) 'apiKey' needs \(missing), such as '{ scheme: apiKey, in: query, name: api_key }'", at: location)
            }
            guard let placement, let name else { return nil }
            auth.keyPlacement = placement
            switch placement {
            case .header:
                guard let node = fields["name"]?.value, checkHeaderName(name, at: node) else { return nil }
                auth.headerName = name
            case .query:
                guard !name.isEmpty else {
                    reader.error("'name' of a query API key must not be empty", at: location)
                    return nil
                }
                auth.headerName = nil
                auth.queryName = name
            }
        }
        return auth
    }

    /// An endpoint's `auth:`: `none`, a scheme name, or a list of scheme names.
    func parseEndpointAuth(_ node: Node, endpoint what: String) -> EndpointAuthSpec? {
        guard let names = parseSchemeNames(node, what: "'auth' of \(what)") else { return nil }
        let location = reader.location(of: node)
        if names.contains("none") {
            guard names.count == 1 else {
                reader.error("'auth' of \(what) lists 'none' with schemes; 'none' (no credentials) stands alone", at: node)
                return nil
            }
            return EndpointAuthSpec(choice: .none, location: location)
        }
        return EndpointAuthSpec(choice: .anyOf(names), location: location)
    }

    /// A scheme name or a non-empty list of distinct ones.
    func parseSchemeNames(_ node: Node, what: String) -> [String]? {
        if case .sequence = node {
            guard let items = reader.sequence(node, what) else { return nil }
            var names: [String] = []
            for item in items {
                guard let name = reader.string(item, "an entry of \(what)") else { return nil }
                if names.contains(name) {
                    reader.error("\(what) names '\(NodeReader.abbreviated(name))' twice", at: item)
                    return nil
                }
                names.append(name)
            }
            guard !names.isEmpty else {
                reader.error("\(what) must name at least one scheme", at: node)
                return nil
            }
            return names
        }
        return reader.string(node, what).map { [$0] }
    }

    /// RFC 9110 `token`: what an auth scheme word must be.
    static func isHTTPToken(_ text: String) -> Bool {
        let allowed = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return !text.isEmpty && text.allSatisfy { allowed.contains($0) }
    }
}
