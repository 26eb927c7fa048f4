import Foundation

/// `<Prefix>Requests.swift`: one `APIRequest` type per endpoint, its arguments and their values.
extension SpecTranslator {
    /// One argument of an endpoint: a parameter or the body, in call-site order.
    struct Argument {
        var label: String
        var storedName: String
        var type: String
        var defaultValue: String?
        var description: String?
        var parameter: ParameterSpec?
        /// The Swift name of a file or part header argument, whose label may need another
        /// name inside a method (`self`).
        var swiftName: SwiftIdentifier? = nil
    }

    /// The arguments of an endpoint: path parameters, the body, then query and header parameters
    /// (required ones before those with a default or `nil`).
    func arguments(of endpoint: EndpointSpec) -> [Argument] {
        var result: [Argument] = []
        let names = Set(endpoint.parameters.map(\.swiftName.name))
        func add(_ parameter: ParameterSpec) {
            let label = parameter.swiftName.escaped
            let stored = GeneratedNames.storedName(ofParameter: parameter.swiftName)
            result.append(Argument(label: label, storedName: stored, type: swiftType(parameter.type),
                                   defaultValue: defaultValue(for: parameter),
                                   description: parameter.description.map {
                                       GeneratedNames.noting(wireName: parameter.name, of: parameter.swiftName, isProperty: false, in: $0)
                                   },
                                   parameter: parameter))
        }
        endpoint.pathParameters.forEach(add)
        if let body = endpoint.body {
            // The body's label must differ from every file and part header argument too.
            let fileNames = body.files.flatMap { [$0.swiftName.name] + $0.headers.map(\.swiftName.name) }
            if !body.isFilesOnly {
                let label = GeneratedNames.bodyLabel(parameterNames: names.union(fileNames))
                let type = body.variants.isEmpty ? swiftType(body.type) : GeneratedNames.content(ofEndpoint: endpoint.name)
                result.append(Argument(label: label, storedName: GeneratedNames.bodyStorage, type: type, defaultValue: nil,
                                       description: body.description ?? "What the request sends.", parameter: nil))
            }
            for file in body.files {
                var description = file.description ?? "The `\(SwiftComment.inline(file.name))` file of the form."
                if let contentType = file.contentType {
                    description += " Usually `\(SwiftComment.inline(contentType))`."
                }
                result.append(Argument(label: file.swiftName.escaped, storedName: GeneratedNames.storedName(ofParameter: file.swiftName),
                                       type: file.isOptional ? "MultipartForm.File?" : "MultipartForm.File", defaultValue: file.isOptional ? "nil" : nil,
                                       description: description, parameter: nil, swiftName: file.swiftName))
                // Required fields first; a field of a file the caller may leave out is optional too.
                let headers = file.headers.filter { !$0.type.isOptional && !file.isOptional } + file.headers.filter { $0.type.isOptional || file.isOptional }
                for header in headers {
                    let isOptional = header.type.isOptional || file.isOptional
                    let type = swiftType(header.type.nonOptional) + (isOptional ? "?" : "")
                    let fallback = "The `\(SwiftComment.inline(header.name))` header field of the `\(SwiftComment.inline(file.name))` part"
                        + (isOptional ? "; `nil` leaves it out." : ".")
                    result.append(Argument(label: header.swiftName.escaped, storedName: GeneratedNames.storedName(ofParameter: header.swiftName),
                                           type: type, defaultValue: isOptional ? "nil" : nil, description: header.description ?? fallback,
                                           parameter: nil, swiftName: header.swiftName))
                }
            }
        }
        // Required query and header values first, so that a call reads as what it must say
        // followed by what it may; declaration order within each group.
        let rest = endpoint.queryParameters + endpoint.headerParameters
        rest.filter(\.isRequired).forEach(add)
        rest.filter { !$0.isRequired }.forEach(add)
        return result
    }

    /// The parameter's default as a Swift expression: the spec's default, else `nil` when optional.
    func defaultValue(for parameter: ParameterSpec) -> String? {
        if let value = parameter.defaultValue, let literal = literal(value, type: parameter.type.nonOptional) {
            return literal
        }
        return parameter.type.isOptional ? "nil" : nil
    }

    func literal(_ value: LiteralValue, type: TypeReference) -> String? {
        if case .named(let name) = type, let model = models[name], model.isEnum {
            guard let item = model.enumCase(matching: value.description) else {
                let raw = model.isStringEnum ? SwiftLiteral.string(value.description) : value.description
                return "\(model.swiftName.escaped)(rawValue: \(raw))"
            }
            // An optional parameter's default `.none` would be `Optional.none`, so name the type.
            let qualifier = ReservedNames.optionalCaseNames.contains(item.swiftName.name) ? model.swiftName.escaped : ""
            return qualifier + "." + item.swiftName.escaped
        }
        switch value {
        case .string(let text): return SwiftLiteral.string(text)
        case .integer(let number): return String(number)
        case .number(let number): return number.isFinite ? "\(number)" : nil
        case .boolean(let flag): return flag ? "true" : "false"
        }
    }

    /// The value of a parameter as `ParameterConvertible`: URLs travel as their text.
    static func parameterValue(_ name: String, type: TypeReference) -> String {
        switch type {
        case .primitive(.url): "\(name).absoluteString"
        case .optional(.primitive(.url)): "\(name)?.absoluteString"
        case .array(.primitive(.url)): "\(name).map(\\.absoluteString)"
        case .optional(.array(.primitive(.url))): "\(name)?.map(\\.absoluteString)"
        default: name
        }
    }

    /// The parts of `<Prefix>Requests.swift` as `split` cuts them, counting request types, each
    /// built only when it is called. The request protocol and the shared resilience declaration,
    /// one per module, go in the first part.
    func requestsFileParts(_ split: FileSplit) -> [@Sendable () -> RequestsFileModel] {
        split.runs(of: spec.endpoints.count).enumerated().map { index, run in
            { [self] in
                let shared = requestProtocolModel()
                var file = RequestsFileModel(version: version, specPath: specPath, access: spec.access.rawValue,
                                             requests: spec.endpoints[run].map { requestModel($0, sharing: shared) },
                                             defaultResilience: index == 0 ? defaultResilienceModel() : nil)
                file.requestProtocol = index == 0 ? shared : nil
                file.equality = spec.equality.conformance
                return file
            }
        }
    }

    /// The service's request protocol and what its extension supplies: the `defaults:` timeout,
    /// retry and breaker hints, and the secret headers of the service and its auth.
    func requestProtocolModel() -> RequestProtocolModel {
        let name = GeneratedNames.requestProtocol(ofService: spec.swiftName)
        var model = RequestProtocolModel(doc: "", name: name,
                                         timeout: spec.defaultResilience.timeout.map(Self.duration),
                                         resilience: defaultResilienceName,
                                         secretHeaderNames: Self.setLiteral(serviceSecretHeaderNames))
        // The comment names what the extension really holds: a service without `defaults:`
        // or secret headers gets no extension, and a comment promising one would mislead.
        var shared: [String] = []
        switch (model.timeout != nil, model.resilience != nil) {
        case (true, true): shared.append("the `defaults:` timeout, retry and circuit-breaker hints")
        case (true, false): shared.append("the `defaults:` timeout")
        case (false, true): shared.append("the `defaults:` retry and circuit-breaker hints")
        case (false, false): break
        }
        if model.secretHeaderNames != nil { shared.append("the secret header fields of the service and its auth") }
        var text = "A request of \(SwiftComment.inline(spec.name)): every request type `\(clientName)` sends adopts it. "
        if !shared.isEmpty {
            text += "Its extension supplies what they share (\(Self.listed(shared))), and a request states only where it differs. "
        }
        text += "Extend it to give every request of the service something of your own."
        model.doc = SwiftComment.documentation(text)
        return model
    }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The header fields of the service and its auth schemes whose values must never be logged.
    var serviceSecretHeaderNames: Set<String> {
        var secrets = Set(spec.headers.filter(\.isSecret).map(\.name))
        for auth in spec.allAuthSchemes {
            // `Authorization` is never logged anyway; another auth field must be named, so that
            // it stays out of logs whichever `Authentication` the caller passes.
            if let header = auth.headerName, header.lowercased() != "authorization" {
                secrets.insert(header)
            }
        }
        return secrets
    }

    static func setLiteral(_ names: Set<String>) -> String? {
        names.isEmpty ? nil : "[" + names.sorted().map(SwiftLiteral.string).joined(separator: ", ") + "]"
    }

    func requestModel(_ endpoint: EndpointSpec, sharing shared: RequestProtocolModel) -> RequestModel {
        let arguments = arguments(of: endpoint)
        let properties = arguments.map { argument in
            let fallback = argument.parameter.map { "The `\(SwiftComment.inline($0.name))` \($0.placement.rawValue) parameter." }
                ?? "What the request sends."
            return RequestPropertyModel(doc: Self.doc(argument.description ?? fallback, indentation: "    "),
                                        name: argument.storedName, type: argument.type)
        }
        let parameters = arguments.map { argument in
            ParameterModel(label: argument.label, internalName: argument.storedName == argument.label ? nil : argument.storedName,
                           type: argument.type, defaultValue: argument.defaultValue)
        }
        func stored(_ parameter: ParameterSpec) -> String {
            arguments.first { $0.parameter == parameter }?.storedName ?? parameter.swiftName.escaped
        }
        func items(_ parameters: [ParameterSpec]) -> [ParameterItemModel] {
            parameters.map { parameter in
                ParameterItemModel(key: SwiftLiteral.string(parameter.name),
                                   value: Self.styledParameterValue(stored(parameter), parameter: parameter))
            }
        }
        var headerItems = items(endpoint.headerParameters)
        if let accept = endpoint.response.acceptedContentTypes {
            // The client's default `Accept` is JSON; a text or binary response asks for its own type.
            headerItems.append(ParameterItemModel(key: SwiftLiteral.string("Accept"), value: SwiftLiteral.string(accept)))
        }
        if let body = endpoint.body, body.variants.isEmpty, body.isJSON, body.contentType != RequestBodySpec.json {
            // The runtime sends JSON as `application/json` unless the request names the type.
            headerItems.append(ParameterItemModel(key: SwiftLiteral.string("Content-Type"),
                                                  value: SwiftLiteral.string(body.contentType)))
        }
        let secrets = Self.setLiteral(serviceSecretHeaderNames.union(endpoint.headerParameters.filter(\.isSecret).map(\.name)))
        let timeout = endpoint.resilience.timeout.map(Self.duration)
        var resilience = resilienceModel(endpoint)
        if resilience == nil, shared.resilience != nil {
            // The protocol's default would apply where the spec says nothing of this endpoint.
            resilience = ResilienceModel(sharedName: "inherited", arguments: [], isInline: true)
        } else if let name = resilience?.sharedName, name == shared.resilience {
            resilience = nil
        }
        var text = endpoint.description.map { $0 + "\n\n" } ?? ""
        text += "`\(endpoint.method.rawValue) \(SwiftComment.inline(endpoint.path.template))`, sent by `\(clientName).\(endpoint.swiftName.name)`."
        let inline = Self.fitsOnOneLine("    \(spec.access.rawValue) init(\(parameters.inlineText)) {")
        let query = items(endpoint.queryParameters)
        return RequestModel(
            doc: SwiftComment.documentation(text),
            name: requestName(endpoint),
            conformance: shared.name,
            responseType: responseTypeName(endpoint),
            failureType: failureName(endpoint),
            properties: properties,
            parameters: parameters,
            isInline: inline,
            method: "." + endpoint.method.specKey,
            pathTemplate: SwiftLiteral.string(endpoint.path.template),
            pathValues: items(endpoint.pathParameters),
            query: query,
            headers: headerItems,
            body: endpoint.body.map { $0.variants.isEmpty ? Self.bodyExpression($0) : "\(GeneratedNames.bodyStorage).requestBody" },
            contentEnum: endpoint.body.flatMap { contentEnumModel(endpoint, body: $0) },
            idempotencyKeyHeader: endpoint.resilience.idempotencyKey.map { Self.fieldName($0.headerName) },
            // A value equal to the protocol's is left to it; `nil` where it has one must be said.
            timeout: timeout == shared.timeout ? nil : timeout ?? "nil",
            resilience: resilience,
            secretHeaderNames: secrets == shared.secretHeaderNames ? nil : secrets ?? "[]",
            operationName: SwiftLiteral.string(endpoint.name),
            pagination: paginationModel(endpoint),
            authentication: endpoint.auth.map(authenticationModel),
            outcome: outcomeEnumModel(endpoint),
            successStatuses: successStatusesLiteral(endpoint),
            responseHeaders: responseHeadersModel(endpoint),
            queryLine: Self.dictionaryLine(query, property: "query", access: spec.access.rawValue),
            headersLine: Self.dictionaryLine(headerItems, property: "headers", access: spec.access.rawValue)
        )
    }

    /// `[key: value, …]` when `    <access> var <property>: Parameters { […] }` fits on one line.
    static func dictionaryLine(_ items: [ParameterItemModel], property: String, access: String) -> String? {
        let literal = "[" + items.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
        return fitsOnOneLine("    \(access) var \(property): Parameters { \(literal) }") ? literal : nil
    }

    /// The endpoint's own `auth:` as the request's `authentication`.
    func authenticationModel(_ auth: EndpointAuthSpec) -> AuthenticationModel {
        switch auth.choice {
        case .none:
            return AuthenticationModel(doc: "    /// A public endpoint: no credentials, whatever the client holds.", value: ".none")
        case .anyOf(let names):
            let list = names.map(SwiftLiteral.string).joined(separator: ", ")
            let text = names.count == 1
                ? "Signed with the `\(SwiftComment.inline(names[0]))` scheme when the client has it."
                : "Signed with the first of these schemes the client has, in this order."
            return AuthenticationModel(doc: SwiftComment.documentation(text, indentation: "    "), value: ".anyOf([\(list)])")
        }
    }

    /// The `body` expression: JSON, a form from a model, text, or a `Data` body's bytes as they
    /// are under its content type.
    static func bodyExpression(_ body: RequestBodySpec, value storage: String = GeneratedNames.bodyStorage) -> String {
        let value = body.type.isOptional ? "$0" : storage
        let expression: String
        if body.isMultipart {
            let files = body.files.map { "(\(SwiftLiteral.string($0.name)), \(fileExpression($0)))" }
            let fields = body.isFilesOnly ? "nil" : value
            expression = ".multipartFields(\(fields), files: [\(files.joined(separator: ", "))], style: \(formStyleExpression(body.formStyle)))"
        } else if body.isStreamed {
            expression = ".stream(\(value), contentType: \(SwiftLiteral.string(body.contentType)))"
        } else if body.isRaw {
            expression = ".data(\(value), contentType: \(SwiftLiteral.string(body.contentType)))"
        } else if body.isFormFields {
            expression = ".formFields(\(value), style: \(formStyleExpression(body.formStyle)))"
        } else if body.isText {
            expression = ".text(\(value), contentType: \(SwiftLiteral.string(body.contentType)))"
        } else {
            return ".json(\(storage))"
        }
        return body.type.isOptional ? "\(storage).map { \(expression) }" : expression
    }

    /// A file argument with its declared part header fields added: `file.withPartHeaders([…])`.
    static func fileExpression(_ file: MultipartFileSpec) -> String {
        let name = GeneratedNames.storedName(ofParameter: file.swiftName)
        guard !file.headers.isEmpty else { return name }
        let items = file.headers.map { header in
            let value = parameterValue(GeneratedNames.storedName(ofParameter: header.swiftName),
                                       type: file.isOptional ? .optional(header.type.nonOptional) : header.type)
            return "\(SwiftLiteral.string(header.name)): \(value)"
        }
        return "\(name)\(file.isOptional ? "?" : "").withPartHeaders([\(items.joined(separator: ", "))])"
    }

    /// A `FormEncoder.Style` expression: `.brackets` for the defaults.
    static func formStyleExpression(_ style: FormStyleSpec?) -> String {
        let style = style ?? FormStyleSpec()
        var arguments: [String] = []
        if style.objects != .brackets { arguments.append("objects: .\(style.objects.rawValue)") }
        if style.arrays != .brackets { arguments.append("arrays: .\(style.arrays.rawValue)") }
        return arguments.isEmpty ? ".brackets" : "FormEncoder.Style(\(arguments.joined(separator: ", ")))"
    }

    /// A query value with its `style:`: a joined list or a `deepObject` model, else as
    /// ``parameterValue(_:type:)`` writes it.
    static func styledParameterValue(_ name: String, parameter: ParameterSpec) -> String {
        guard let style = parameter.style, parameter.placement == .query else { return parameterValue(name, type: parameter.type) }
        let isOptional = parameter.type.isOptional
        let value = isOptional ? "$0" : name
        let expression: String
        if style.style == .deepObject {
            expression = "ParameterValue.deepObject(\(value))"
        } else if style.joinsElements {
            let separator = switch style.style {
            case .spaceDelimited?: "space"
            case .pipeDelimited?: "pipe"
            default: "comma"
            }
            let elements = parameterValue(value, type: parameter.type.nonOptional)
            expression = "ParameterValue.joining(\(elements), by: .\(separator))"
        } else {
            return parameterValue(name, type: parameter.type)
        }
        return isOptional ? "\(name).map { \(expression) }" : expression
    }

    /// The enum of an endpoint's `contentTypes:`, one case per content type.
    func contentEnumModel(_ endpoint: EndpointSpec, body: RequestBodySpec) -> ContentEnumModel? {
        guard !body.variants.isEmpty else { return nil }
        let cases = body.variants.map { variant in
            let variantBody = variant.asBody
            let expression = Self.bodyExpression(variantBody, value: "value")
            return ContentCaseModel(doc: "    /// `\(SwiftComment.inline(variant.contentType))`.",
                                    name: SwiftIdentifier(memberNamed: variant.effectiveCaseName ?? "json").escaped,
                                    type: swiftType(variant.type), expression: expression)
        }
        return ContentEnumModel(
            doc: SwiftComment.documentation("What `\(clientName).\(endpoint.swiftName.name)` sends: one of the content types it accepts."),
            name: GeneratedNames.content(ofEndpoint: endpoint.name), cases: cases)
    }

    /// An `HTTPField.Name?` expression for a header name the validator checked: the runtime's
    /// constant for the standard names, else the failable initialiser.
    static func fieldName(_ name: String) -> String {
        switch name.lowercased() {
        case "idempotency-key": ".idempotencyKey"
        case "authorization": ".authorization"
        default: "HTTPField.Name(\(SwiftLiteral.string(name)))"
        }
    }
}
