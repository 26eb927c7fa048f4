import Foundation

/// `<Prefix>Client.swift`: the client facade, its authentication and one method per endpoint.
extension SpecTranslator {
    /// The view model of `<Prefix>Client.swift`.
    public func clientFile() -> ClientFileModel {
        let fixed = spec.headers.filter { $0.value != nil }
        let taken = spec.headers.filter { $0.value == nil }
        var headerValues: [(String, String)] = fixed.map { (SwiftLiteral.string($0.name), SwiftLiteral.string($0.value ?? "")) }
        headerValues += taken.map { (SwiftLiteral.string($0.name), $0.swiftName.escaped) }
        let headerModels = headerValues.map { HeaderValueModel(name: $0.0, value: $0.1) }
        let arguments = taken.map { HeaderArgumentModel(name: $0.swiftName.escaped) }
        let dates: String = switch spec.coding.dates {
        case .iso8601: ".iso8601"
        case .iso8601WithFractionalSeconds: ".iso8601WithFractionalSeconds"
        case .epochSeconds: ".secondsSince1970"
        }
        var initText = "Creates a client.\n\n- Parameters:"
        initText += "\n  - baseURL: Where requests go; the spec's `\(SwiftComment.inline(spec.baseURL.absoluteString))` by default."
        initText += "\n  - transport: What sends the bytes; `URLSessionTransport()` by default."
        initText += "\n  - auth: " + authParameterText()
        for header in taken {
            let text = header.description.map(SwiftComment.inline) ?? "The value of the `\(SwiftComment.inline(header.name))` header field."
            initText += "\n  - \(header.swiftName.name): \(text)"
        }
        initText += "\n  - configuration: Logging, events, timeouts and query encoding. Its coding and auth are"
        initText += " replaced by the spec's coding and `auth`, and the spec's header fields are added to its defaults."
        if spec.rateLimit != nil {
            initText += " Its `rateLimitFields` are the spec's `rateLimit` names."
        }
        var text = spec.description ?? "A client for \(spec.name)."
        text += "\n\nEach method sends one request and throws the endpoint's documented failures as typed errors."
        return ClientFileModel(
            version: version, specPath: specPath,
            doc: SwiftComment.documentation(text),
            name: clientName,
            baseURL: SwiftLiteral.string(spec.baseURL.absoluteString),
            dateFormat: dates,
            fixedHeaders: headerModels,
            headerArguments: arguments,
            initDoc: SwiftComment.documentation(initText, indentation: "    "),
            methods: spec.endpoints.map(methodModel),
            authFactories: authFactories(),
            authSchemes: spec.authSchemes.map(authSchemesModel),
            rateLimitFields: spec.rateLimit.map(rateLimitFieldsExpression)
        )
    }

    /// What the initialiser's `auth` parameter documents: the scheme and the factory to call.
    func authParameterText() -> String {
        if let named = spec.authSchemes {
            let example = named.schemes.first.map { "`\(clientName)(auth: .init(\($0.swiftName.name): \(clientName).\($0.swiftName.name) { … }))`" } ?? ""
            return "The credentials the caller has, one per scheme the service names; each call uses the first scheme its "
                + "endpoint accepts that is given here, and a public endpoint none. No credentials by default. Such as \(example)."
        }
        guard let auth = spec.auth else {
            return "How requests authenticate; the service documents none, so `.none` by default."
        }
        let detail = auth.description.map { " " + SwiftComment.inline($0) } ?? ""
        // A plain bearer token keeps the words clients generated before other schemes existed had.
        let expected = auth.scheme == .bearer && auth.word == "Bearer"
            ? "a bearer token in `\(SwiftComment.inline(auth.headerName ?? "Authorization"))`" : schemeText(auth)
        return "How requests authenticate; the service expects \(expected), such as `\(clientName).\(factoryName(auth)) { \(supplierExample(auth)) }`.\(detail)"
    }

    func authFactories() -> [AuthModel] {
        if let auth = spec.auth {
            return [authModel(auth, name: factoryName(auth))]
        }
        return spec.authSchemes?.schemes.map { authModel($0.auth, name: $0.swiftName.escaped, schemeName: $0.name) } ?? []
    }

    func factoryName(_ auth: AuthSpec) -> String {
        switch auth.scheme {
        case .bearer: "bearer"
        case .basic: "basic"
        case .apiKey: "apiKey"
        }
    }

    func supplierExample(_ auth: AuthSpec) -> String {
        switch auth.scheme {
        case .bearer: "token"
        case .basic: "BasicCredentials(userID: id, password: secret)"
        case .apiKey: "key"
        }
    }

    /// The scheme in words, for doc comments.
    func schemeText(_ auth: AuthSpec) -> String {
        switch auth.scheme {
        case .bearer:
            "a token in `\(SwiftComment.inline(auth.headerName ?? "Authorization")): \(SwiftComment.inline(auth.word)) <token>`"
        case .basic:
            "HTTP Basic credentials in `Authorization: Basic base64(user-id:password)`"
        case .apiKey:
            auth.queryName.map { "a key in the query item `\(SwiftComment.inline($0))`, which is never logged" }
                ?? "a key in the header field `\(SwiftComment.inline(auth.headerName ?? ""))`"
        }
    }

    func authModel(_ auth: AuthSpec, name: String, schemeName: String? = nil) -> AuthModel {
        var text = schemeName.map { "The `\(SwiftComment.inline($0))` scheme: " } ?? "Authentication as the spec describes it: "
        text += schemeText(auth) + ", fetched before every send."
        if schemeName == nil, auth.scheme == .bearer, auth.word == "Bearer" {
            // The words clients generated before other schemes existed had.
            text = "Bearer authentication as the spec describes it: `\(SwiftComment.inline(auth.headerName ?? "Authorization")): Bearer <token>`,"
            text += " with the token fetched before every attempt."
        }
        if let description = auth.description, schemeName != nil {
            text += " " + description
        }
        text += "\n\n- Parameters:"
        switch auth.scheme {
        case .bearer:
            text += "\n  - token: Returns the current token, refreshing it when needed; `nil` sends none."
            text += "\n  - onUnauthorized: Called on a 401: refresh and return `.replay`, or sign out and return `.fail`."
        case .basic:
            text += "\n  - credentials: Returns the current user ID and password; `nil` sends none. A user ID with `:` fails the call with `InvalidRequest`."
            text += "\n  - onUnauthorized: Called on a 401: refresh and return `.replay`, or give up and return `.fail`."
        case .apiKey:
            text += "\n  - value: Returns the key; `nil` sends none."
        }
        return AuthModel(
            doc: SwiftComment.documentation(text, indentation: "    "),
            name: name,
            scheme: auth.scheme,
            header: auth.headerName.map(Self.authFieldName),
            word: auth.word == "Bearer" ? nil : SwiftLiteral.string(auth.word),
            queryName: auth.queryName.map(SwiftLiteral.string)
        )
    }

    /// The `HTTPField.Name` expression of an auth header.
    static func authFieldName(_ header: String) -> String {
        header.lowercased() == "authorization"
            ? ".authorization"
            // The name was checked to be a field name when this file was generated, so the
            // fallback is never taken; it keeps generated code free of force-unwraps.
            : "HTTPField.Name(\(SwiftLiteral.string(header))) ?? .authorization"
    }

    func authSchemesModel(_ named: AuthSchemesSpec) -> AuthSchemesModel {
        var text = "The credentials a caller has for \(spec.name)'s auth schemes: give those you have, leave out the rest."
        text += " Each call is signed with the first scheme its endpoint accepts that is given here"
        text += " (endpoints that name none accept \(named.defaultSchemes.map { "`\(SwiftComment.inline($0))`" }.joined(separator: ", then "))),"
        text += " and a public endpoint sends none."
        let schemes = named.schemes.map { scheme in
            let detail = scheme.auth.description.map(SwiftComment.inline) ?? "Credentials for the `\(SwiftComment.inline(scheme.name))` scheme."
            return AuthSchemePropertyModel(
                doc: SwiftComment.documentation(detail + " Made by `\(clientName).\(scheme.swiftName.name)`.", indentation: "        "),
                name: scheme.swiftName.escaped,
                key: SwiftLiteral.string(scheme.name))
        }
        return AuthSchemesModel(doc: SwiftComment.documentation(text, indentation: "    "), schemes: schemes,
                                defaults: named.defaultSchemes.map(SwiftLiteral.string).joined(separator: ", "))
    }

    func methodModel(_ endpoint: EndpointSpec) -> MethodModel {
        let arguments = arguments(of: endpoint)
        // Inside a method only `self` needs another internal name; `payload` and the `Value`
        // suffixes exist for the request type's stored properties.
        func inner(_ argument: Argument) -> String {
            argument.parameter.flatMap { GeneratedNames.internalName(of: $0.swiftName) } ?? argument.label
        }
        let parameters = arguments.map { argument in
            ParameterModel(label: argument.label, internalName: inner(argument) == argument.label ? nil : inner(argument),
                           type: argument.type, defaultValue: argument.defaultValue)
        }
        let call = arguments.map { ArgumentModel(label: Self.callLabel($0.label), value: inner($0)) }
        var text = endpoint.description ?? "Sends `\(endpoint.method.rawValue) \(SwiftComment.inline(endpoint.path.template))`."
        if !arguments.isEmpty {
            text += "\n\n- Parameters:"
            for argument in arguments {
                let name = argument.label.replacingOccurrences(of: "`", with: "")
                let fallback = argument.parameter.map { "The `\(SwiftComment.inline($0.name))` \($0.placement.rawValue) parameter." } ?? "The body."
                let detail = argument.description.map(SwiftComment.inline) ?? fallback
                text += "\n  - \(name): \(detail.isEmpty ? fallback : detail)"
            }
        }
        text += arguments.isEmpty ? "\n" : ""
        if let response = endpoint.response.body {
            let detail = endpoint.response.description.map(SwiftComment.inline) ?? "The decoded `\(swiftType(response))`."
            text += "\n- Returns: \(detail)"
        }
        text += "\n- Throws: `APIError<\(failureName(endpoint))>`; its `.endpoint` case carries the documented failure."
        let returnClause = endpoint.response.body.map { " -> " + swiftType($0) } ?? ""
        let line = "    public func \(endpoint.swiftName.escaped)(\(parameters.inlineText))"
            + " async throws(APIError<\(failureName(endpoint))>)\(returnClause) {"
        return MethodModel(
            doc: SwiftComment.documentation(text, indentation: "    "),
            name: endpoint.swiftName.escaped,
            parameters: parameters,
            isInline: Self.fitsOnOneLine(line),
            failureType: failureName(endpoint),
            returnType: endpoint.response.body.map(swiftType),
            requestType: requestName(endpoint),
            arguments: call
        )
    }
}
