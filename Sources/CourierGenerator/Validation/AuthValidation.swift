/// `auth:`: header clashes, named schemes and their names, and each endpoint's choice.
extension SpecValidator {
    mutating func checkAuth(endpoints: [EndpointSpec]) {
        let schemes = root.allAuthSchemes
        for auth in schemes {
            guard let header = auth.headerName,
                  let clash = root.headers.first(where: { $0.name.lowercased() == header.lowercased() }) else { continue }
            error("header '\(clash.name)' is already sent by 'auth'; remove it from 'headers'", at: clash.location)
        }
        if let named = root.authSchemes {
            checkNamedSchemes(named, endpoints: endpoints)
        }
        for endpoint in endpoints {
            checkEndpointAuth(endpoint)
        }
    }

    private mutating func checkNamedSchemes(_ named: AuthSchemesSpec, endpoints: [EndpointSpec]) {
        checkScope(named.schemes.map { ScopedName(origin: "auth scheme '\($0.name)'", swiftName: $0.swiftName.name, location: $0.location) },
                   reserved: ReservedNames.authSchemes, scope: "as a factory of the client and a property of its AuthSchemes")
        // A static factory and an instance method of one name read as one overloaded name at the
        // call site, and the same signature does not compile.
        let methods = Dictionary(endpoints.map { ($0.swiftName.name, $0) }, uniquingKeysWith: { first, _ in first })
        for scheme in named.schemes {
            if let endpoint = methods[scheme.swiftName.name] {
                error("auth scheme '\(scheme.name)' and endpoint '\(endpoint.name)' both become the client member '\(scheme.swiftName.name)'; "
                      + "rename one", at: scheme.location, notes: [.note("endpoint '\(endpoint.name)' is declared here", at: endpoint.location)])
            }
        }
        for name in named.defaultSchemes where named.scheme(named: name) == nil {
            unknownScheme(name, in: "'default' of 'auth'", among: named, at: named.location)
        }
    }

    private mutating func checkEndpointAuth(_ endpoint: EndpointSpec) {
        let what = "endpoint '\(endpoint.name)'"
        // The query keys this endpoint may send: one of its own parameters of that name would go
        // out twice, or overwrite the key.
        var queryKeys: [String] = []
        switch endpoint.auth?.choice {
        case .none?:
            break
        case .anyOf(let names)?:
            guard let location = endpoint.auth?.location else { break }
            if root.auth == nil && root.authSchemes == nil {
                error("'auth' of \(what) names \(names.map { "'\($0)'" }.joined(separator: ", ")), but the service declares no 'auth'",
                      at: location)
            } else if let named = root.authSchemes {
                for name in names {
                    if let scheme = named.scheme(named: name) {
                        queryKeys += scheme.auth.queryName.map { [$0] } ?? []
                    } else {
                        unknownScheme(name, in: "'auth' of \(what)", among: named, at: location)
                    }
                }
            } else {
                error("'auth' of \(what) names \(names.map { "'\($0)'" }.joined(separator: ", ")), but the service has one unnamed scheme; "
                      + "an endpoint can only opt out with 'auth: none', or the service can name its schemes under 'auth: { schemes: … }'",
                      at: location)
            }
        case nil:
            if let auth = root.auth {
                queryKeys += auth.queryName.map { [$0] } ?? []
            } else if let named = root.authSchemes {
                queryKeys += named.defaultSchemes.compactMap { named.scheme(named: $0)?.auth.queryName }
            }
        }
        for parameter in endpoint.queryParameters where queryKeys.contains(parameter.name) {
            error("query parameter '\(parameter.name)' of \(what) is already sent as the auth query key", at: parameter.location)
        }
    }

    private mutating func unknownScheme(_ name: String, in what: String, among named: AuthSchemesSpec, at location: SourceLocation) {
        let names = named.schemes.map(\.name)
        let hint = Suggestions.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
        error("\(what) names the auth scheme '\(name)', which 'auth.schemes' does not declare (it declares "
              + "\(names.map { "'\($0)'" }.joined(separator: ", ")))\(hint)", at: location)
    }
}

extension ParsedSpecFile {
    /// Every scheme the file's `auth:` declares, single or named.
    var allAuthSchemes: [AuthSpec] {
        (auth.map { [$0] } ?? []) + (authSchemes?.schemes.map(\.auth) ?? [])
    }
}
