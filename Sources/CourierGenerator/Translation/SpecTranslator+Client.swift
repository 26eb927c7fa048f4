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
        if let auth = spec.auth {
            let detail = auth.description.map { " " + SwiftComment.inline($0) } ?? ""
            initText += "\n  - auth: How requests authenticate; the service expects a bearer token in"
            initText += " `\(SwiftComment.inline(auth.headerName))`, such as `\(clientName).bearer { token }`.\(detail)"
        } else {
            initText += "\n  - auth: How requests authenticate; the service documents none, so `.none` by default."
        }
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
            auth: spec.auth.map(authModel),
            rateLimitFields: spec.rateLimit.map(rateLimitFieldsExpression)
        )
    }

    func authModel(_ auth: AuthSpec) -> AuthModel {
        let header = auth.headerName
        var text = "Bearer authentication as the spec describes it: `\(SwiftComment.inline(header)): Bearer <token>`,"
        text += " with the token fetched before every attempt."
        text += "\n\n- Parameters:"
        text += "\n  - token: Returns the current token, refreshing it when needed; `nil` sends none."
        text += "\n  - onUnauthorized: Called on a 401: refresh and return `.replay`, or sign out and return `.fail`."
        let expression = header.lowercased() == "authorization"
            ? ".authorization"
            // The name was checked to be a field name when this file was generated, so the
            // fallback is never taken; it keeps generated code free of force-unwraps.
            : "HTTPField.Name(\(SwiftLiteral.string(header))) ?? .authorization"
        return AuthModel(doc: SwiftComment.documentation(text, indentation: "    "), header: expression)
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
            arguments: call,
            pages: pagesMethodModel(endpoint, parameters: parameters)
        )
    }

    func pagesMethodModel(_ endpoint: EndpointSpec, parameters: [ParameterModel]) -> PagesMethodModel? {
        guard let pagination = paginationModel(endpoint) else { return nil }
        var text = (endpoint.description.map { $0 + "\n\n" } ?? "")
            + "Every page of `\(endpoint.name)`, fetched as it is read; `.items(limit:)` gives the items one by one. "
            + "Each page is a call like `\(endpoint.swiftName.name)`, with its retries and typed errors."
        text += "\n\nThe parameters are the first page's; see `\(pagination.requestType).pagination` for how the next pages are asked for."
        text += "\n- Returns: The pages, as `\(pagination.requestType).Response`."
        let line = "    public func \(pagination.method)(\(parameters.inlineText)) -> PageSequence<\(pagination.requestType), \(pagination.itemType)> {"
        return PagesMethodModel(doc: SwiftComment.documentation(text, indentation: "    "), name: pagination.method,
                                isInline: Self.fitsOnOneLine(line), itemType: pagination.itemType)
    }
}
