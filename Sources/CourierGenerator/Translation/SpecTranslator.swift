import Foundation

/// Turns a validated ``ServiceSpec`` into the view models of the four generated files.
///
/// This is the only place that decides how a spec is spelled in Swift: type spellings, names
/// (escaped where they are keywords), literals (through ``SwiftLiteral``) and doc comments
/// (through ``SwiftComment``). Templates receive finished text and only arrange it, so a
/// user's template override cannot get escaping wrong.
public struct SpecTranslator: Sendable {
    /// The spec being translated.
    public let spec: ServiceSpec
    /// The header's generator version and spec path.
    let version: String
    let specPath: String
    /// Declarations by spec name; dictionaries because large specs look types up constantly.
    let models: [String: ModelSpec]
    let errorSchemas: [String: ErrorSchemaSpec]

    /// A translator for `spec`, whose files name `specPath` and `version` in their header.
    public init(spec: ServiceSpec, specPath: String, version: String = GeneratorVersion.current) {
        self.spec = spec
        models = Dictionary(spec.models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        errorSchemas = Dictionary(spec.errorSchemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let header = FileHeader(specPath: specPath, version: version)
        self.version = header.version
        self.specPath = header.specPath
    }

    // MARK: - Names

    /// The client type's name, such as `GitHubClient`.
    public var clientName: String { spec.swiftName.name + "Client" }

    func requestName(_ endpoint: EndpointSpec) -> String {
        SwiftIdentifier(typeNamed: endpoint.name).name + "Request"
    }

    func failureName(_ endpoint: EndpointSpec) -> String {
        SwiftIdentifier(typeNamed: endpoint.name).name + "Failure"
    }

    /// The Swift spelling of a type from the spec, using each declaration's own Swift name.
    func swiftType(_ type: TypeReference) -> String {
        switch type {
        case .primitive(let primitive): primitive.swiftSpelling
        case .named(let name): typeName(name)
        case .array(let element): "[\(swiftType(element))]"
        case .map(let value): "[String: \(swiftType(value))]"
        case .optional(let wrapped): "\(swiftType(wrapped))?"
        }
    }

    func typeName(_ specName: String) -> String {
        if let model = models[specName] { return model.swiftName.escaped }
        if let schema = errorSchemas[specName] { return schema.swiftName.escaped }
        return SwiftIdentifier(typeNamed: specName).escaped
    }

    static func doc(_ text: String?, indentation: String = "") -> String? {
        guard let text else { return nil }
        let comment = SwiftComment.documentation(text, indentation: indentation)
        return comment.isEmpty ? nil : comment
    }

    /// The name a parameter uses inside its function when its label would shadow `self`.
    static func internalName(_ identifier: SwiftIdentifier) -> String? {
        identifier.name == "self" ? "selfValue" : nil
    }

    /// An argument label as written at a call site: backticks only where the grammar needs them.
    static func callLabel(_ identifier: String) -> String {
        let bare = identifier.replacingOccurrences(of: "`", with: "")
        return ["inout", "var", "let"].contains(bare) ? "`\(bare)`" : bare
    }

    /// Whether a declaration stays short enough to read on one line.
    static func fitsOnOneLine(_ line: String) -> Bool {
        line.count <= 100
    }

    static func separators(_ count: Int) -> [String] {
        (0..<count).map { $0 == count - 1 ? "" : "," }
    }

    // MARK: - Models

    /// The view model of `<Prefix>Models.swift`.
    public func modelsFile() -> ModelsFileModel {
        var structs: [StructModel] = []
        var enums: [StringEnumModel] = []
        var needsIndirect = false
        for model in spec.models {
            switch model.kind {
            case .object(let properties):
                let made = structModel(name: model.swiftName.escaped, description: model.description,
                                       properties: properties, isRecursive: model.isRecursive)
                needsIndirect = needsIndirect || made.properties.contains { $0.boxed != nil }
                structs.append(made)
            case .stringEnum(let cases):
                enums.append(enumModel(model, cases: cases))
            }
        }
        var envelopes: [EnvelopeModel] = []
        for schema in spec.errorSchemas {
            structs.append(structModel(name: schema.swiftName.escaped, description: schema.description,
                                       properties: schema.properties, isRecursive: false))
            switch schema.shape {
            case .object:
                break
            case .wrapped(let key):
                envelopes.append(EnvelopeModel(name: envelopeName(schema), valueType: schema.swiftName.escaped,
                                               keyLiteral: SwiftLiteral.string(key), schemaName: schema.swiftName.name))
            case .array(let key):
                envelopes.append(EnvelopeModel(name: envelopeName(schema), valueType: "[\(schema.swiftName.escaped)]",
                                               keyLiteral: SwiftLiteral.string(key), schemaName: schema.swiftName.name))
            }
        }
        return ModelsFileModel(version: version, specPath: specPath, structs: structs, enums: enums,
                               envelopes: envelopes, needsIndirect: needsIndirect)
    }

    func envelopeName(_ schema: ErrorSchemaSpec) -> String {
        schema.swiftName.name + "Envelope"
    }

    /// Whether a property of a recursive model must be stored out of line: its type (not through
    /// an array or map, which already store elements out of line) is a recursive object model.
    func needsBox(_ type: TypeReference) -> Bool {
        guard case .named(let name) = type.nonOptional, let target = models[name] else { return false }
        return target.isRecursive && !target.isStringEnum
    }

    func structModel(name: String, description: String?, properties: [PropertySpec], isRecursive: Bool) -> StructModel {
        let separators = Self.separators(properties.count)
        var models: [PropertyModel] = []
        var keys: [CodingKeyModel] = []
        for (index, property) in properties.enumerated() {
            let propertyName = property.swiftName.escaped
            let type = swiftType(property.type)
            let argument = Self.internalName(property.swiftName) ?? propertyName
            var boxed: BoxedStorage?
            var assignment = "self.\(propertyName) = \(argument)"
            var keyName = propertyName
            if isRecursive && needsBox(property.type) {
                let storage = "_" + property.swiftName.name
                let inner = swiftType(property.type.nonOptional)
                if property.type.isOptional {
                    boxed = BoxedStorage(storageName: storage, storageType: "Indirect<\(inner)>?",
                                         getter: "\(storage)?.value", setter: "\(storage) = newValue.map(Indirect.init)")
                    assignment = "self.\(storage) = \(argument).map(Indirect.init)"
                } else {
                    boxed = BoxedStorage(storageName: storage, storageType: "Indirect<\(inner)>",
                                         getter: "\(storage).value", setter: "\(storage) = Indirect(newValue)")
                    assignment = "self.\(storage) = Indirect(\(argument))"
                }
                keyName = storage
            }
            let plainKey = boxed == nil ? property.swiftName.name : keyName
            let declaration = property.jsonKey == plainKey
                ? "case \(keyName)"
                : "case \(keyName) = \(SwiftLiteral.string(property.jsonKey))"
            keys.append(CodingKeyModel(declaration: declaration))
            let doc = Self.doc(property.description, indentation: "    ")
                ?? SwiftComment.documentation("The `\(property.jsonKey)` field.", indentation: "    ")
            let parameter = (argument == propertyName ? propertyName : "\(propertyName) \(argument)")
                + ": \(type)" + (property.type.isOptional ? " = nil" : "")
            models.append(PropertyModel(doc: doc, name: propertyName, type: type, parameter: parameter,
                                        boxed: boxed, assignment: assignment, separator: separators[index]))
        }
        var initText = "Creates a value from its properties."
        let described = properties.filter { $0.description != nil }
        if !described.isEmpty {
            initText += "\n\n- Parameters:"
            for property in properties {
                let text = property.description.map(SwiftComment.inline) ?? "The `\(property.jsonKey)` value."
                initText += "\n  - \(property.swiftName.name): \(text.isEmpty ? "The value." : text)"
            }
        }
        let plainName = name.replacingOccurrences(of: "`", with: "")
        let doc = Self.doc(description) ?? SwiftComment.documentation("The `\(plainName)` model of \(SwiftComment.inline(spec.name)).")
        var made = StructModel(doc: doc, name: name, properties: models, codingKeys: keys,
                               initDoc: SwiftComment.documentation(initText, indentation: "    "), isInline: false)
        made.isInline = Self.fitsOnOneLine("    public init(\(made.inlineParameters)) {")
        return made
    }

    func enumModel(_ model: ModelSpec, cases: [EnumCaseSpec]) -> StringEnumModel {
        let taken = Set(cases.map(\.swiftName.name))
        var fallback = "unknown"
        var counter = 1
        while taken.contains(fallback) {
            counter += 1
            fallback = "unknown\(counter)"
        }
        let values = cases.map { item in
            EnumValueModel(doc: Self.doc(item.description, indentation: "    ")
                               ?? SwiftComment.documentation("The value \(SwiftComment.inline(item.value)).", indentation: "    "),
                           name: item.swiftName.escaped, literal: SwiftLiteral.string(item.value))
        }
        return StringEnumModel(doc: Self.doc(model.description) ?? SwiftComment.documentation("One of the values of `\(model.swiftName.name)`."),
                               name: model.swiftName.escaped, cases: values, fallback: fallback)
    }

    // MARK: - Requests

    /// Names a request type's stored properties may not take, because `APIRequest` uses them.
    static let requirementNames: Set<String> = [
        "method", "path", "query", "headers", "body", "successStatuses", "isIdempotent", "idempotencyKeyHeader",
        "timeout", "resilience", "secretHeaderNames", "operationName", "payload",
    ]

    /// One argument of an endpoint: a parameter or the body, in call-site order.
    struct Argument {
        var label: String
        var storedName: String
        var type: String
        var defaultClause: String
        var description: String?
        var parameter: ParameterSpec?
    }

    /// The arguments of an endpoint: path parameters, the body, then query and header parameters
    /// (required ones before those with a default or `nil`).
    func arguments(of endpoint: EndpointSpec) -> [Argument] {
        var result: [Argument] = []
        let names = Set(endpoint.parameters.map(\.swiftName.name))
        func add(_ parameter: ParameterSpec) {
            let label = parameter.swiftName.escaped
            let stored = Self.requirementNames.contains(parameter.swiftName.name)
                ? parameter.swiftName.name + "Value" : Self.internalName(parameter.swiftName) ?? label
            result.append(Argument(label: label, storedName: stored, type: swiftType(parameter.type),
                                   defaultClause: defaultClause(for: parameter), description: parameter.description,
                                   parameter: parameter))
        }
        endpoint.pathParameters.forEach(add)
        if let body = endpoint.body {
            let label = names.contains("body") ? "requestBody" : "body"
            result.append(Argument(label: label, storedName: "payload", type: swiftType(body.type), defaultClause: "",
                                   description: body.description ?? "What the request sends.", parameter: nil))
        }
        // Required query and header values first, so that a call reads as what it must say
        // followed by what it may; declaration order within each group.
        let rest = endpoint.queryParameters + endpoint.headerParameters
        rest.filter(\.isRequired).forEach(add)
        rest.filter { !$0.isRequired }.forEach(add)
        return result
    }

    func defaultClause(for parameter: ParameterSpec) -> String {
        if let value = parameter.defaultValue, let literal = literal(value, type: parameter.type.nonOptional) {
            return " = " + literal
        }
        return parameter.type.isOptional ? " = nil" : ""
    }

    func literal(_ value: LiteralValue, type: TypeReference) -> String? {
        if case .named(let name) = type, let model = models[name], model.isStringEnum {
            guard let item = model.enumCases.first(where: { $0.value == value.description }) else {
                return "\(model.swiftName.escaped)(rawValue: \(SwiftLiteral.string(value.description)))"
            }
            return "." + item.swiftName.escaped
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

    /// The view model of `<Prefix>Requests.swift`.
    public func requestsFile() -> RequestsFileModel {
        RequestsFileModel(version: version, specPath: specPath, requests: spec.endpoints.map(requestModel),
                          defaultResilience: defaultResilienceDeclaration(),
                          defaultResilienceDoc: SwiftComment.documentation(
                              "The `defaults:` retry and circuit-breaker hints of \(SwiftComment.inline(spec.name)), "
                              + "carried by every request that inherits them.", indentation: "    "))
    }

    func requestModel(_ endpoint: EndpointSpec) -> RequestModel {
        let arguments = arguments(of: endpoint)
        let separators = Self.separators(arguments.count)
        let properties = arguments.enumerated().map { index, argument in
            let fallback = argument.parameter.map { "The `\(SwiftComment.inline($0.name))` \($0.placement.rawValue) parameter." }
                ?? "What the request sends."
            return RequestPropertyModel(doc: Self.doc(argument.description ?? fallback, indentation: "    "), name: argument.storedName,
                                 label: argument.label, type: argument.type, defaultClause: argument.defaultClause,
                                 separator: separators[index])
        }
        func stored(_ parameter: ParameterSpec) -> String {
            arguments.first { $0.parameter == parameter }?.storedName ?? parameter.swiftName.escaped
        }
        func items(_ parameters: [ParameterSpec]) -> [ParameterItemModel] {
            let separators = Self.separators(parameters.count)
            return parameters.enumerated().map { index, parameter in
                ParameterItemModel(key: SwiftLiteral.string(parameter.name),
                                   value: Self.parameterValue(stored(parameter), type: parameter.type),
                                   separator: separators[index])
            }
        }
        var headerItems = items(endpoint.headerParameters)
        if let body = endpoint.body, body.isJSON, body.contentType != RequestBodySpec.json {
            // The runtime sends JSON as `application/json` unless the request names the type.
            if !headerItems.isEmpty { headerItems[headerItems.count - 1].separator = "," }
            headerItems.append(ParameterItemModel(key: SwiftLiteral.string("Content-Type"),
                                                  value: SwiftLiteral.string(body.contentType), separator: ""))
        }
        let pathValues = endpoint.pathParameters.map { parameter in
            "\(SwiftLiteral.string(parameter.name)): \(Self.parameterValue(stored(parameter), type: parameter.type))"
        }
        let path = pathValues.isEmpty
            ? "RequestPath(\(SwiftLiteral.string(endpoint.path.template)))"
            : "RequestPath(\(SwiftLiteral.string(endpoint.path.template)), [\(pathValues.joined(separator: ", "))])"
        var secrets = Set(endpoint.headerParameters.filter(\.isSecret).map(\.name))
        secrets.formUnion(spec.headers.filter(\.isSecret).map(\.name))
        if let auth = spec.auth, auth.headerName.lowercased() != "authorization" {
            // `Authorization` is never logged anyway; another auth field must be named, so that
            // it stays out of logs whichever `Authentication` the caller passes.
            secrets.insert(auth.headerName)
        }
        let secretLiteral = secrets.isEmpty ? nil : "[" + secrets.sorted().map(SwiftLiteral.string).joined(separator: ", ") + "]"
        var text = endpoint.description.map { $0 + "\n\n" } ?? ""
        text += "`\(endpoint.method.rawValue) \(SwiftComment.inline(endpoint.path.template))`, sent by `\(clientName).\(endpoint.swiftName.name)`."
        let inline = Self.fitsOnOneLine("    public init(\(properties.map(\.parameterDeclaration).joined(separator: ", "))) {")
        return RequestModel(
            doc: SwiftComment.documentation(text),
            name: requestName(endpoint),
            responseType: endpoint.response.body.map(swiftType) ?? "NoContent",
            failureType: failureName(endpoint),
            properties: properties,
            isInline: inline,
            method: "." + endpoint.method.specKey,
            path: path,
            query: items(endpoint.queryParameters),
            headers: headerItems,
            body: endpoint.body.map(Self.bodyExpression),
            idempotencyKeyHeader: endpoint.resilience.idempotencyKey.map { Self.fieldName($0.headerName) },
            timeout: endpoint.resilience.timeout.map(Self.duration),
            resilience: resilienceExpression(endpoint),
            secretHeaderNames: secretLiteral,
            operationName: SwiftLiteral.string(endpoint.name)
        )
    }

    /// The `body` expression: JSON, or a `Data` body's bytes as they are under its content type.
    static func bodyExpression(_ body: RequestBodySpec) -> String {
        guard body.isRaw else { return ".json(payload)" }
        let contentType = SwiftLiteral.string(body.contentType)
        return body.type.isOptional
            ? "payload.map { .data($0, contentType: \(contentType)) }"
            : ".data(payload, contentType: \(contentType))"
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

    /// The name of the `EndpointResilience` constant that holds the spec's `defaults:` retry and
    /// breaker hints, such as `bookshelfDefaults`, or `nil` when the defaults say nothing of them.
    var defaultResilienceName: String? {
        resilienceArguments(retry: spec.defaultResilience.retry, breaker: spec.defaultResilience.breaker, breakerKey: nil).isEmpty
            ? nil : spec.swiftName.name.prefix(1).lowercased() + spec.swiftName.name.dropFirst() + "Defaults"
    }

    /// The `EndpointResilience` the spec's retry and breaker hints (already merged with
    /// `defaults`) become, or `nil` when they say nothing, so the client's setup applies as is.
    /// An endpoint that inherits both from `defaults` names the shared constant instead.
    ///
    /// A breaker written on the endpoint is the endpoint's own (keyed by its spec name); a
    /// breaker inherited from `defaults` is the host's, shared by every endpoint that inherits it.
    func resilienceExpression(_ endpoint: EndpointSpec) -> String? {
        let hints = endpoint.resilience
        let defaults = spec.defaultResilience
        if let shared = defaultResilienceName, hints.retry == defaults.retry, hints.breaker == defaults.breaker {
            return "." + shared
        }
        let inherited = hints.breaker == defaults.breaker
        let arguments = resilienceArguments(retry: hints.retry, breaker: hints.breaker,
                                            breakerKey: inherited ? nil : endpoint.name)
        return arguments.isEmpty ? nil : Self.resilienceInitializer(arguments, indentation: "        ")
    }

    /// The declaration of the `defaults:` constant, or `nil` when there is none.
    func defaultResilienceDeclaration() -> String? {
        guard let name = defaultResilienceName else { return nil }
        let arguments = resilienceArguments(retry: spec.defaultResilience.retry, breaker: spec.defaultResilience.breaker, breakerKey: nil)
        return "static let \(name) = " + Self.resilienceInitializer(arguments, indentation: "    ", prefixLength: name.count + 16)
    }

    /// The arguments of `EndpointResilience(...)` for these hints; `breakerKey` names the
    /// endpoint's own breaker, `nil` means the host's.
    func resilienceArguments(retry: RetryOverride?, breaker: BreakerOverride?, breakerKey: String?) -> [String] {
        var arguments: [String] = []
        switch retry {
        case nil:
            break
        case .disabled:
            arguments.append("maxAttempts: 1")
        case .custom(let retry):
            if let attempts = retry.maxAttempts { arguments.append("maxAttempts: \(attempts)") }
            if let base = retry.baseDelay { arguments.append("backoffBase: \(Self.duration(base))") }
            if let cap = retry.maxDelay { arguments.append("backoffCap: \(Self.duration(cap))") }
            if retry.retriesNonIdempotent { arguments.append("isSafeToRepeat: true") }
        }
        switch breaker {
        case nil:
            break
        case .disabled:
            arguments.append("circuitBreaker: .off")
        case .custom(let breaker):
            arguments.append(breakerKey.map { "circuitBreaker: .endpoint(\(SwiftLiteral.string($0)))" } ?? "circuitBreaker: .host")
            var settings: [String] = []
            if let threshold = breaker.failureThreshold { settings.append(String(threshold)) }
            if let reset = breaker.resetAfter { settings.append("openDuration: \(Self.duration(reset))") }
            if !settings.isEmpty {
                arguments.append("circuitBreakerConfiguration: .consecutiveFailures(\(settings.joined(separator: ", ")))")
            }
        }
        return arguments
    }

    /// `EndpointResilience(...)` on one line when it fits after `indentation` (and
    /// `prefixLength` more characters), else one argument per line.
    static func resilienceInitializer(_ arguments: [String], indentation: String, prefixLength: Int = 0) -> String {
        let line = "EndpointResilience(\(arguments.joined(separator: ", ")))"
        if fitsOnOneLine(indentation + String(repeating: " ", count: prefixLength) + line) { return line }
        return "EndpointResilience(\n" + arguments.map { indentation + "    " + $0 }.joined(separator: ",\n") + "\n" + indentation + ")"
    }

    static func duration(_ seconds: Double) -> String {
        if seconds == seconds.rounded(), seconds < 1e9 {
            return ".seconds(\(Int(seconds)))"
        }
        return ".milliseconds(\(Int((seconds * 1000).rounded())))"
    }

    // MARK: - Errors

    /// The enum of the service's default failures, such as `GitHubFailure`, which endpoints that
    /// document nothing of their own share.
    public var sharedFailureName: String { spec.swiftName.name + "Failure" }

    /// Whether `endpoint` maps exactly the service's defaults: no mapping of its own, none overridden.
    func usesOnlyDefaults(_ endpoint: EndpointSpec) -> Bool {
        endpoint.effectiveErrors.count == spec.defaultErrors.count && endpoint.effectiveErrors.allSatisfy(\.isInherited)
    }

    /// The view model of `<Prefix>Errors.swift`.
    public func errorsFile() -> ErrorsFileModel {
        // Identical enums that differ only in name would repeat the defaults once per endpoint, so
        // those endpoints name one shared enum instead.
        var failures: [FailureModel] = []
        if let sharing = spec.endpoints.first(where: usesOnlyDefaults) {
            let what = spec.defaultErrors.isEmpty
                ? "No documented failures: the service maps no status by default. Shared"
                : "The failures the service's defaults document, shared"
            let doc = what + " by every `\(clientName)` method whose endpoint documents none of its own; "
                + "each of those endpoints names it by its own `<Endpoint>Failure` alias."
            failures.append(failureModel(mappings: sharing.effectiveErrors, cases: sharing.errorCases,
                                         doc: doc, name: sharedFailureName))
        }
        for endpoint in spec.endpoints {
            if usesOnlyDefaults(endpoint) {
                let what = spec.defaultErrors.isEmpty ? "none, so it shares the empty" : "the service's defaults only, shared as"
                let doc = "The documented failures of \(endpointReference(endpoint)): \(what) `\(sharedFailureName)`."
                failures.append(FailureModel(doc: SwiftComment.documentation(doc), name: failureName(endpoint),
                                             cases: [], branches: [], needsNilDefault: false, messages: [],
                                             needsMessageDefault: false, aliasOf: sharedFailureName))
            } else {
                let doc = "The documented failures of \(endpointReference(endpoint))."
                failures.append(failureModel(mappings: endpoint.effectiveErrors, cases: endpoint.errorCases,
                                             doc: doc, name: failureName(endpoint)))
            }
        }
        return ErrorsFileModel(version: version, specPath: specPath, failures: failures,
                               needsUnwrap: failures.contains(where: \.usesUnwrap))
    }

    func payloadType(_ schemaName: String) -> String {
        guard let schema = errorSchemas[schemaName] else { return "ErrorBody<\(typeName(schemaName))>" }
        switch schema.shape {
        case .object, .wrapped: return "ErrorBody<\(schema.swiftName.escaped)>"
        case .array: return "ErrorBody<[\(schema.swiftName.escaped)]>"
        }
    }

    /// The expression that builds `item` from `response`.
    func caseValue(_ item: ErrorCaseSpec) -> String {
        let name = "." + item.swiftName.escaped
        guard let schemaName = item.bodySchema else { return name }
        guard let schema = errorSchemas[schemaName] else { return name + "(response.decode())" }
        switch schema.shape {
        case .object: return name + "(response.decode())"
        case .wrapped, .array: return name + "(response.decode(\(envelopeName(schema)).self).unwrapped(\\.value))"
        }
    }

    static func statusText(_ matcher: StatusMatcher) -> String {
        switch matcher {
        case .exact(let status): "status \(status)"
        case .range(let hundreds): "any \(hundreds)XX status"
        case .default: "any other failed status"
        }
    }

    /// `` `GitHubClient.getUser` (`GET /users/{username}`) `` for doc comments.
    func endpointReference(_ endpoint: EndpointSpec) -> String {
        "`\(clientName).\(endpoint.swiftName.name)` (`\(endpoint.method.rawValue) \(SwiftComment.inline(endpoint.path.template))`)"
    }

    /// The enum that maps `mappings` (sorted as ``EndpointSpec/effectiveErrors``) into `cases`.
    func failureModel(mappings: [ErrorMappingSpec], cases errorCases: [ErrorCaseSpec], doc: String,
                      name: String) -> FailureModel {
        // Where each case is used, for its doc comment.
        var uses: [String: [String]] = [:]
        var branches: [StatusBranchModel] = []
        for mapping in mappings {
            let label: String
            switch mapping.status {
            case .exact(let status): label = "case \(status)"
            case .range(let hundreds): label = "case \(hundreds * 100)...\(hundreds * 100 + 99)"
            case .default: label = "default"
            }
            let status = Self.statusText(mapping.status)
            switch mapping.outcome {
            case .single(let item):
                uses[item.name, default: []].append(status)
                branches.append(StatusBranchModel(label: label, single: caseValue(item), subject: nil, values: [], fallback: nil))
            case .discriminated(let discriminator):
                let subject: String
                let source: String
                switch discriminator.source {
                case .bodyField(let path):
                    subject = "response.discriminator(at: \(SwiftLiteral.string(path.description)))"
                    source = "`\(SwiftComment.inline(path.description))`"
                case .header(let name):
                    subject = "response.header(\(SwiftLiteral.string(name)))"
                    source = "header `\(SwiftComment.inline(name))`"
                }
                var seenValues = Set<String>()
                var values: [DiscriminatorValueModel] = []
                for entry in discriminator.cases where seenValues.insert(entry.value).inserted {
                    uses[entry.errorCase.name, default: []].append("\(status) whose \(source) is `\(SwiftComment.inline(entry.value))`")
                    values.append(DiscriminatorValueModel(literal: SwiftLiteral.string(entry.value), value: caseValue(entry.errorCase)))
                }
                uses[discriminator.fallback.name, default: []].append("\(status) whose \(source) is anything else or missing")
                branches.append(StatusBranchModel(label: label, single: nil, subject: subject, values: values,
                                                  fallback: caseValue(discriminator.fallback)))
            }
        }
        let cases = errorCases.map { item in
            var text = item.description.map { $0 + "\n\n" } ?? ""
            let list = uses[item.name] ?? []
            text += "The server answered with " + list.joined(separator: ", or ") + "."
            let declaration = item.swiftName.escaped + (item.bodySchema.map { "(\(payloadType($0)))" } ?? "")
            return FailureCaseModel(doc: SwiftComment.documentation(text, indentation: "    "), declaration: declaration)
        }
        let messages = errorCases.compactMap { item in
            item.message.map { MessageModel(pattern: "." + item.swiftName.escaped, literal: SwiftLiteral.string($0)) }
        }
        return FailureModel(
            doc: SwiftComment.documentation(doc),
            name: name,
            cases: cases,
            branches: branches,
            needsNilDefault: !mappings.contains { $0.status == .default },
            messages: messages,
            needsMessageDefault: messages.count < cases.count,
            usesUnwrap: errorCases.contains { item in
                // Wrapped and array schemas decode through an envelope and are unwrapped.
                guard let name = item.bodySchema, let schema = errorSchemas[name] else { return false }
                if case .object = schema.shape { return false }
                return true
            }
        )
    }

    // MARK: - Client

    /// The view model of `<Prefix>Client.swift`.
    public func clientFile() -> ClientFileModel {
        let fixed = spec.headers.filter { $0.value != nil }
        let taken = spec.headers.filter { $0.value == nil }
        var headerValues: [(String, String)] = fixed.map { (SwiftLiteral.string($0.name), SwiftLiteral.string($0.value ?? "")) }
        headerValues += taken.map { (SwiftLiteral.string($0.name), $0.swiftName.escaped) }
        let separators = Self.separators(headerValues.count)
        let headerModels = headerValues.enumerated().map { index, pair in
            HeaderValueModel(name: pair.0, value: pair.1, separator: separators[index])
        }
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
        var text = spec.description ?? "A client for \(spec.name)."
        text += "\n\nEach method sends one request and throws the endpoint's documented failures as typed errors."
        return ClientFileModel(
            version: version, specPath: specPath,
            doc: SwiftComment.documentation(text),
            name: clientName,
            baseURL: SwiftLiteral.string(spec.baseURL.absoluteString),
            coding: "JSONCoding(keyStyle: .asIs, dateFormat: \(dates))",
            fixedHeaders: headerModels,
            headerArguments: arguments,
            initDoc: SwiftComment.documentation(initText, indentation: "    "),
            methods: spec.endpoints.map(methodModel),
            auth: spec.auth.map(authModel)
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
        let separators = Self.separators(arguments.count)
        // Inside a method only `self` needs another internal name; `payload` and the `Value`
        // suffixes exist for the request type's stored properties.
        func inner(_ argument: Argument) -> String { argument.label == "`self`" ? "selfValue" : argument.label }
        let parameters = arguments.enumerated().map { index, argument in
            MethodParameterModel(declaration: (inner(argument) == argument.label ? argument.label : "\(argument.label) \(inner(argument))")
                                     + ": \(argument.type)\(argument.defaultClause)",
                                 separator: separators[index])
        }
        let call = arguments.map { "\(Self.callLabel($0.label)): \(inner($0))" }.joined(separator: ", ")
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
        let line = "    public func \(endpoint.swiftName.escaped)(\(parameters.map(\.declaration).joined(separator: ", ")))"
            + " async throws(APIError<\(failureName(endpoint))>)\(returnClause) {"
        return MethodModel(
            doc: SwiftComment.documentation(text, indentation: "    "),
            name: endpoint.swiftName.escaped,
            parameters: parameters,
            isInline: Self.fitsOnOneLine(line),
            failureType: failureName(endpoint),
            returnClause: returnClause,
            resultPrefix: endpoint.response.body == nil ? "_ = " : "",
            request: "\(requestName(endpoint))(\(call))"
        )
    }
}
