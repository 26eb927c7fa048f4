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
        if let response = endpoint.response.body {
            let detail = endpoint.response.description.map(SwiftComment.inline) ?? "The decoded `\(swiftType(response))`."
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
        if streamed?.isThrowing ?? true {
            text += "\n- Throws: `APIError<\(failureName(endpoint))>`; its `.endpoint` case carries the documented failure."
        } else {
            text += "\n\nThe request is sent when the sequence is first read; reading it throws `APIError<\(failureName(endpoint))>` "
                + "for a failed request, and `TransportError` or `StreamingError` for a stream that breaks."
        }
        let returnType = streamed?.returnType ?? endpoint.response.body.map(swiftType)
        let returnClause = returnType.map { " -> " + $0 } ?? ""
        let effects = streamed?.isThrowing == false ? "" : " async throws(APIError<\(failureName(endpoint))>)"
        let line = "    public func \(endpoint.swiftName.escaped)(\(parameters.inlineText))\(effects)\(returnClause) {"
        var model = MethodModel(
            doc: SwiftComment.documentation(text, indentation: "    "),
            name: endpoint.swiftName.escaped,
            parameters: parameters,
            isInline: Self.fitsOnOneLine(line),
            failureType: failureName(endpoint),
            returnType: returnType,
            requestType: requestName(endpoint),
            arguments: call,
            pages: pagesMethodModel(endpoint, parameters: parameters)
        )
        model.call = streamed?.call
        model.isThrowing = streamed?.isThrowing ?? true
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
        case .events(let type):
            let reconnection = ParameterModel(label: "reconnection", internalName: nil, type: "EventReconnection?", defaultValue: "nil")
            let events = "self.client.serverSentEvents(\(request), reconnection: reconnection)"
            if type.nonOptional == .primitive(.string) {
                return StreamedMethod(
                    returnType: "ServerSentEventStream<\(requestName(endpoint))>", call: events, isThrowing: false,
                    returns: "The events as they arrive; cancelling the reading task closes the connection.",
                    extraParameters: [reconnection], extraDoc: "Whether and how to reconnect, resuming after the last event ID; none by default.")
            }
            let value = swiftType(type)
            return StreamedMethod(
                returnType: "TypedServerSentEvents<ServerSentEventStream<\(requestName(endpoint))>, \(value)>",
                call: "TypedServerSentEvents(\(events), as: \(value).self, coding: self.client.configuration.coding)",
                isThrowing: false,
                returns: "The events as they arrive, each one's data decoded as `\(value)`; cancelling the reading task closes the connection.",
                extraParameters: [reconnection], extraDoc: "Whether and how to reconnect, resuming after the last event ID; none by default.")
        }
    }

    func downloadMethodModel(_ endpoint: EndpointSpec, parameters: [ParameterModel], call: [ArgumentModel], accept: String) -> DownloadMethodModel {
        let all = parameters + [
            ParameterModel(label: "to", internalName: "destination", type: "URL", defaultValue: nil),
            ParameterModel(label: "progress", internalName: nil, type: "(@Sendable (TransferProgress) -> Void)?", defaultValue: "nil"),
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
        text += "\n- Throws: `APIError<\(failureName(endpoint))>`; its `.endpoint` case carries the documented failure."
        let line = "    public func \(endpoint.swiftName.escaped)(\(all.inlineText)) async throws(APIError<\(failureName(endpoint))>) -> DownloadedFile {"
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
        let line = "    public func \(pagination.method)(\(parameters.inlineText)) -> PageSequence<\(pagination.requestType), \(pagination.itemType)> {"
        return PagesMethodModel(doc: SwiftComment.documentation(text, indentation: "    "), name: pagination.method,
                                isInline: Self.fitsOnOneLine(line), itemType: pagination.itemType)
    }
}
