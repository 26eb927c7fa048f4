import Foundation

/// `<Prefix>Client.swift`: the client facade, its authentication and one method per endpoint.
extension SpecTranslator {
    /// The view model of `<Prefix>Client.swift`.
    func clientFile() -> ClientFileModel {
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
        initText += "\n  - configuration: Logging, events, timeouts, query encoding and middlewares (`ClientMiddleware`). Its coding and auth are"
        initText += " replaced by the spec's coding and `auth`, and the spec's header fields are added to its defaults."
        if spec.rateLimit != nil {
            initText += " Its `rateLimitFields` are the spec's `rateLimit` names."
        }
        var text = spec.description ?? "A client for \(spec.name)."
        text += "\n\nEach method sends one request and throws the endpoint's documented failures as typed errors."
        return ClientFileModel(
            version: version, specPath: specPath, access: spec.access.rawValue,
            doc: SwiftComment.documentation(text),
            name: clientName,
            protocolName: GeneratedNames.apiProtocol(ofService: spec.swiftName),
            requestProtocolName: GeneratedNames.requestProtocol(ofService: spec.swiftName),
            fakeName: GeneratedNames.fake(ofService: spec.swiftName),
            hasFake: spec.generatesFake,
            baseURL: SwiftLiteral.string(spec.baseURL.absoluteString),
            dateFormat: dates,
            fixedHeaders: headerModels,
            headerArguments: arguments,
            initDoc: SwiftComment.documentation(initText, indentation: "    "),
            methods: spec.endpoints.map(methodModel),
            authFactories: authFactories(),
            authSchemes: spec.authSchemes.map(authSchemesModel),
            expectsAuthentication: spec.auth != nil && spec.authSchemes == nil,
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
            text += " with the token fetched before every call."
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
            (argument.parameter?.swiftName ?? argument.swiftName).flatMap { GeneratedNames.internalName(of: $0) } ?? argument.label
        }
        var parameters = arguments.map { argument in
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
        if endpoint.response.hasOutcomes {
            text += "\n- Returns: \(outcomesReturnText(endpoint))"
        } else if endpoint.response.body != nil, let detail = endpoint.response.description.map(SwiftComment.inline) {
            // Without the spec's words, a return line would only repeat the signature's type.
            text += "\n- Returns: \(detail)"
        }
        let streamed = endpoint.response.stream.map { streamedMethod($0, endpoint: endpoint, call: call) }
        if let streamed {
            text += "\n- Returns: \(streamed.returns)"
            parameters += streamed.extraParameters
            if !streamed.extraParameters.isEmpty, let range = text.range(of: "\n- Returns:") {
                // The added parameter belongs with the others, before the return value.
                let extra = streamed.extraParameters.map { "\n  - \($0.label): \(streamed.extraDoc)" }.joined()
                text.insert(contentsOf: (arguments.isEmpty ? "\n- Parameters:" : "") + extra, at: range.lowerBound)
            }
        }
        // A throwing method's typed `throws` says what a `- Throws:` line would, on every method.
        if streamed?.isThrowing == false {
            text += "\n\nThe request is sent when the sequence is first read; reading it throws `APIError<\(failureName(endpoint))>` "
                + "for a failed request, and `TransportError` or `StreamingError` for a stream that breaks."
        }
        while text.hasSuffix("\n") { text.removeLast() }
        let returnType = streamed?.returnType
            ?? (endpoint.response.hasOutcomes ? responseTypeName(endpoint) : endpoint.response.body.map(swiftType))
        let returnClause = returnType.map { " -> " + $0 } ?? ""
        let effects = streamed?.isThrowing == false ? "" : " async throws(APIError<\(failureName(endpoint))>)"
        let line = "    \(spec.access.rawValue) func \(endpoint.swiftName.escaped)(\(parameters.inlineText))\(effects)\(returnClause) {"
        var model = MethodModel(
            doc: SwiftComment.documentation(text, indentation: "    "),
            name: endpoint.swiftName.escaped,
            parameters: parameters,
            isInline: parameters.isEmpty || Self.fitsOnOneLine(line),
            failureType: failureName(endpoint),
            returnType: returnType,
            requestType: requestName(endpoint),
            arguments: call,
            pages: pagesMethodModel(endpoint, parameters: parameters)
        )
        model.call = streamed?.call
        model.isThrowing = streamed?.isThrowing ?? true
        model.withHeaders = withHeadersMethodModel(endpoint, parameters: parameters, call: call)
        if case .bytes(let contentType) = endpoint.response.stream {
            model.download = downloadMethodModel(endpoint, parameters: parameters, call: call, accept: contentType)
        }
        return model
    }

    /// How a streamed response's method differs from `send`.
    struct StreamedMethod {
        var returnType: String
        var call: String
        var isThrowing: Bool
        var returns: String
        var extraParameters: [ParameterModel] = []
        var extraDoc = ""
    }

    func streamedMethod(_ stream: ResponseStreamSpec, endpoint: EndpointSpec, call: [ArgumentModel]) -> StreamedMethod {
        let request = "\(requestName(endpoint))(\(call.map { "\($0.label): \($0.value)" }.joined(separator: ", ")))"
        switch stream {
        case .bytes(let contentType):
            return StreamedMethod(
                returnType: "StreamingResponse",
                call: "try await self.client.stream(\(request), accept: \(SwiftLiteral.string(contentType)))",
                isThrowing: true,
                returns: "The response once its head has arrived; read `body` as it arrives (or use the method that saves it to a file).")
        case .lines(let type, let contentType):
            let item = swiftType(type)
            return StreamedMethod(
                returnType: "JSONLines<HTTPBody, \(item)>",
                call: "try await self.client.stream(\(request), accept: \(SwiftLiteral.string(contentType)))"
                    + ".body.jsonLines(of: \(item).self, coding: self.client.configuration.coding)",
                isThrowing: true,
                returns: "Each line decoded as `\(item)`, as it arrives; cancelling the reading task closes the connection.")
        case .parts(nil, let contentType):
            return StreamedMethod(
                returnType: "MultipartParts<HTTPBody>",
                call: "try await self.client.stream(\(request), accept: \(SwiftLiteral.string(contentType))).multipartParts()",
                isThrowing: true,
                returns: "Each part, with its header fields, as it arrives; cancelling the reading task closes the connection.")
        case .parts(let type?, let contentType):
            let value = swiftType(type)
            return StreamedMethod(
                returnType: "DecodedSequence<MultipartParts<HTTPBody>, \(value)>",
                call: "DecodedSequence(try await self.client.stream(\(request), accept: \(SwiftLiteral.string(contentType))).multipartParts(), "
                    + "as: \(value).self, coding: self.client.configuration.coding)",
                isThrowing: true,
                returns: "Each part, with its header fields and its body decoded as `\(value)`, as it arrives; "
                    + "cancelling the reading task closes the connection.")
        case .events(let type):
            let reconnection = ParameterModel(label: "reconnection", internalName: nil, type: "ServerSentEvent.Reconnection?", defaultValue: "nil")
            let events = "self.client.serverSentEvents(\(request), reconnection: reconnection)"
            if type.nonOptional == .primitive(.string) {
                return StreamedMethod(
                    returnType: "ServerSentEventStream<\(requestName(endpoint))>", call: events, isThrowing: false,
                    returns: "The events as they arrive; cancelling the reading task closes the connection.",
                    extraParameters: [reconnection], extraDoc: "Whether and how to reconnect, resuming after the last event ID; none by default.")
            }
            let value = swiftType(type)
            return StreamedMethod(
                returnType: "DecodedSequence<ServerSentEventStream<\(requestName(endpoint))>, \(value)>",
                call: "DecodedSequence(\(events), as: \(value).self, coding: self.client.configuration.coding)",
                isThrowing: false,
                returns: "The events as they arrive, each one's data decoded as `\(value)`; cancelling the reading task closes the connection.",
                extraParameters: [reconnection], extraDoc: "Whether and how to reconnect, resuming after the last event ID; none by default.")
        }
    }

    func downloadMethodModel(_ endpoint: EndpointSpec, parameters: [ParameterModel], call: [ArgumentModel], accept: String) -> DownloadMethodModel {
        let all = parameters + [
            ParameterModel(label: "to", internalName: "destination", type: "URL", defaultValue: nil),
            ParameterModel(label: "progress", internalName: nil, type: "(@Sendable (HTTPBody.Progress) -> Void)?", defaultValue: "nil"),
        ]
        var text = "Sends `\(endpoint.method.rawValue) \(SwiftComment.inline(endpoint.path.template))` and writes the body to a file as it "
            + "arrives, never holding it in memory; `destination` is replaced only once the body is complete."
        text += "\n\n- Parameters:"
        for parameter in parameters {
            text += "\n  - \(parameter.label.replacingOccurrences(of: "`", with: "")): As for `\(endpoint.swiftName.name)`."
        }
        text += "\n  - to: Where to save the body (a `file:` URL in an existing folder)."
        text += "\n  - progress: Called as bytes arrive, with the total when the server sent a length."
        text += "\n- Returns: Where the file is, how many bytes it holds, and the response's status and header fields."
        let line = "    \(spec.access.rawValue) func \(endpoint.swiftName.escaped)(\(all.inlineText)) async throws(APIError<\(failureName(endpoint))>) -> DownloadedFile {"
        return DownloadMethodModel(doc: SwiftComment.documentation(text, indentation: "    "), name: endpoint.swiftName.escaped,
                                   parameters: all, isInline: Self.fitsOnOneLine(line),
                                   requestArguments: call.map { "\($0.label): \($0.value)" }.joined(separator: ", "),
                                   accept: SwiftLiteral.string(accept))
    }

    func pagesMethodModel(_ endpoint: EndpointSpec, parameters: [ParameterModel]) -> PagesMethodModel? {
        guard let pagination = paginationModel(endpoint) else { return nil }
        var text = (endpoint.description.map { $0 + "\n\n" } ?? "")
            + "Every page of `\(endpoint.name)`, fetched as it is read; `.items(limit:)` gives the items one by one. "
            + "Each page is a call like `\(endpoint.swiftName.name)`, with its retries and typed errors."
        text += "\n\nThe parameters are the first page's; see `\(pagination.requestType).pagination` for how the next pages are asked for."
        text += "\n- Returns: The pages, as `\(pagination.requestType).Response`."
        let line = "    \(spec.access.rawValue) func \(pagination.method)(\(parameters.inlineText)) -> PageSequence<\(pagination.requestType), \(pagination.itemType)> {"
        return PagesMethodModel(doc: SwiftComment.documentation(text, indentation: "    "), name: pagination.method,
                                isInline: Self.fitsOnOneLine(line), itemType: pagination.itemType)
    }
}
