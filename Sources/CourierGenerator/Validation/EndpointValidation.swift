/// Endpoints: parameters, bodies and responses.
extension SpecValidator {
    mutating func validateEndpoint(_ endpoint: EndpointSpec, defaults: [ErrorMappingSpec]) -> EndpointSpec {
        var endpoint = endpoint
        let what = "endpoint '\(endpoint.name)'"
        checkCollisions(endpoint.parameters.map { ($0.placement == .header ? $0.name.lowercased() : $0.name, $0.swiftName, $0.location) },
                        what: "parameter", scopes: endpoint.parameters.map(\.placement.rawValue))
        for parameter in endpoint.parameters {
            checkParameter(parameter)
            checkParameterStyle(parameter)
        }
        if let body = endpoint.body {
            if body.variants.isEmpty {
                checkReference(body.type, at: body.location, usage: "the body of \(what)")
            }
            if !endpoint.method.allowsBody {
                error("\(what) uses \(endpoint.method.rawValue), which sends no body; remove 'body' or use another method", at: body.location)
            }
            if body.variants.isEmpty {
                checkBodyEncoding(body, what: what)
            } else {
                checkVariants(of: body, what: what)
            }
        }
        checkResponse(of: endpoint)
        let own = checkErrorMappings(endpoint.errors, owner: what)
        checkSuccessMappings(own, succeedingWith: endpoint.response.successStatuses, what: what)
        endpoint.errors = own
        let overridden = Set(own.map(\.status))
        endpoint.effectiveErrors = (own + defaults.filter { !overridden.contains($0.status) }).sorted { $0.status < $1.status }
        checkCaseConsistency(endpoint.effectiveErrors, owner: what, reportingInherited: false)
        checkCaseMeaning(endpoint.effectiveErrors, owner: what, reportingInherited: false)
        endpoint.resilience = endpoint.resilience.merged(withDefaults: root.defaultResilience)
        if endpoint.resilience.idempotencyKey != nil && endpoint.method.isIdempotent {
            warning("\(what) uses \(endpoint.method.rawValue), which is already idempotent; 'idempotencyKey' is not needed",
                    at: endpoint.location)
        }
        checkReservedHeaders(of: endpoint)
        checkPagination(of: endpoint)
        return endpoint
    }

    /// Headers Courier sets itself (credentials, idempotency keys) cannot also be parameters.
    mutating func checkReservedHeaders(of endpoint: EndpointSpec) {
        var reserved: [String: String] = [:]
        for auth in root.allAuthSchemes {
            if let header = auth.headerName { reserved[header.lowercased()] = "the auth header" }
        }
        if let key = endpoint.resilience.idempotencyKey { reserved[key.headerName.lowercased()] = "the idempotency key" }
        if let body = endpoint.body {
            let types = body.variants.isEmpty ? [body.contentType] : body.variants.map(\.contentType)
            reserved["content-type"] = "the body's content type ('\(types.joined(separator: "' or '"))')"
        }
        if let accept = endpoint.response.acceptedContentTypes {
            reserved["accept"] = "the response's content type ('\(accept)')"
        }
        for parameter in endpoint.headerParameters {
            if let use = reserved[parameter.name.lowercased()] {
                error("header parameter '\(parameter.name)' of endpoint '\(endpoint.name)' is already sent as \(use)", at: parameter.location)
            }
        }
    }

    mutating func checkParameter(_ parameter: ParameterSpec) {
        let what = "\(parameter.placement.rawValue) parameter '\(parameter.name)'"
        checkReference(parameter.type, at: parameter.location, usage: what)
        var type = parameter.type.nonOptional
        if case .array(let element) = type, parameter.placement == .query {
            type = element
        }
        let isScalar: Bool
        switch type {
        case .primitive(let primitive): isScalar = primitive.isScalarParameterType
        case .named(let name): isScalar = modelsByName[name]?.isEnum ?? brokenNames.contains(name) || modelsByName[name] == nil
        default: isScalar = false
        }
        if !isScalar && parameter.style?.style != .deepObject {
            let allowed = parameter.placement == .query ? "String, Int, Int64, Double, Bool, Date, URL, a string enum, or a list of these" :
                "String, Int, Int64, Double, Bool, Date, URL or a string enum"
            error("\(what) has type '\(parameter.type)'; \(parameter.placement.rawValue) parameters take \(allowed)", at: parameter.location)
        }
        if case .string(let value)? = parameter.defaultValue, case .named(let name) = type, let model = modelsByName[name],
           model.isEnum, model.enumCase(matching: value) == nil {
            let hint = Suggestions.closest(to: value, among: model.enumCases.map(\.value)).map { "; did you mean '\($0)'?" } ?? ""
            error("the default of \(what) is '\(value)', which is not a value of enum '\(name)'\(hint)", at: parameter.location)
        }
    }
}
