/// Names the generated code needs for itself: no model, error schema, endpoint or service may
/// take one (``GeneratedNames``).
extension SpecValidator {
    /// Reports every model, error schema, endpoint or service whose Swift type name the generated
    /// code needs for something else: a runtime type, or a type generated for an endpoint, the
    /// client or the service's shared failures.
    mutating func checkGeneratedNames(of spec: ServiceSpec) {
        let clientName = GeneratedNames.client(ofService: spec.swiftName)
        var generated: [String: String] = [clientName: "the client type of service '\(spec.name)'"]
        // A service named so that its client is a runtime type (`APIClient` for a service `API`,
        // once a name's own `Client` is not doubled) would shadow that type.
        if GeneratedNames.reservedTypes.contains(clientName) || ReservedNames.types[clientName] != nil {
            error("service '\(spec.name)' needs the Swift type '\(clientName)' for its client, but generated "
                      + "code uses that name for a type of its own; rename the service", at: spec.location)
        }
        for endpoint in spec.endpoints {
            generated[GeneratedNames.request(ofEndpoint: endpoint.name)] = "the request type of endpoint '\(endpoint.name)'"
            generated[GeneratedNames.failure(ofEndpoint: endpoint.name)] = "the failure type of endpoint '\(endpoint.name)'"
            if endpoint.body?.variants.isEmpty == false {
                generated[GeneratedNames.content(ofEndpoint: endpoint.name)] = "the content-type enum of endpoint '\(endpoint.name)'"
            }
            if endpoint.response.hasOutcomes {
                generated[GeneratedNames.outcome(ofEndpoint: endpoint.name)] = "the outcome enum of endpoint '\(endpoint.name)'"
            }
            if !endpoint.response.headers.isEmpty {
                generated[GeneratedNames.responseHeaders(ofEndpoint: endpoint.name)] = "the response headers of endpoint '\(endpoint.name)'"
            }
        }
        for schema in spec.errorSchemas {
            if case .object = schema.shape { continue }
            generated[GeneratedNames.envelope(ofErrorSchema: schema.swiftName)] = "the envelope of error schema '\(schema.name)'"
        }
        if spec.endpoints.contains(where: spec.usesOnlyDefaultErrors) {
            let sharedName = GeneratedNames.sharedFailure(ofService: spec.swiftName)
            let owner = "the failure type service '\(spec.name)' shares for endpoints that document only its defaults"
            if GeneratedNames.reservedTypes.contains(sharedName) || ReservedNames.types[sharedName] != nil {
                error("service '\(spec.name)' needs the Swift type '\(sharedName)' for \(owner), but generated "
                          + "code uses that name for a type of its own; rename the service", at: spec.location)
            }
            for endpoint in spec.endpoints where GeneratedNames.failure(ofEndpoint: endpoint.name) == sharedName {
                error("endpoint '\(endpoint.name)' has the failure type '\(sharedName)', the name of \(owner); "
                          + "rename the endpoint", at: endpoint.location)
            }
            generated[sharedName] = owner
        }
        let serviceTypes = [
            (GeneratedNames.requestProtocol(ofService: spec.swiftName), "the protocol every request type of service '\(spec.name)' adopts"),
            (GeneratedNames.apiProtocol(ofService: spec.swiftName), "the protocol the client and the fake of service '\(spec.name)' adopt"),
            (GeneratedNames.fake(ofService: spec.swiftName), "the fake of service '\(spec.name)'"),
        ]
        for (name, owner) in serviceTypes {
            if GeneratedNames.reservedTypes.contains(name) || ReservedNames.types[name] != nil {
                error("service '\(spec.name)' needs the Swift type '\(name)' for \(owner), but generated "
                          + "code uses that name for a type of its own; rename the service", at: spec.location)
            }
            if let endpoint = spec.endpoints.first(where: { Self.typeNames(of: $0).contains(name) }) {
                error("endpoint '\(endpoint.name)' has a Swift type named '\(name)', the name of \(owner); "
                          + "rename the endpoint", at: endpoint.location)
            } else if let other = generated[name] {
                error("\(other) is '\(name)', the name of \(owner); rename the service", at: spec.location)
            }
            generated[name] = owner
        }
        for endpoint in spec.endpoints {
            for name in Self.typeNames(of: endpoint) where ReservedNames.types[name] != nil {
                error("endpoint '\(endpoint.name)' needs the Swift type '\(name)', which generated code uses for a "
                          + "type of its own; rename the endpoint", at: endpoint.location)
            }
        }
        let declared = spec.models.map { ("model", $0.name, $0.swiftName.name, $0.location) }
            + spec.errorSchemas.map { ("error schema", $0.name, $0.swiftName.name, $0.location) }
        // `checkTypeNames` already reported the spec names of built-in types.
        for (kind, name, swiftName, location) in declared where PrimitiveType(rawValue: name) == nil {
            if GeneratedNames.reservedTypes.contains(swiftName) {
                error("\(kind) '\(name)' becomes the Swift type '\(swiftName)', which generated code uses for "
                          + "a type of its own; rename it", at: location)
            } else if let reason = ReservedNames.types[swiftName] {
                error("\(kind) '\(name)' becomes the Swift type '\(swiftName)', which is reserved as \(reason); rename it",
                      at: location)
            } else if let owner = generated[swiftName] {
                error("\(kind) '\(name)' becomes the Swift type '\(swiftName)', the name of \(owner); rename one",
                      at: location)
            }
        }
    }

    /// The Swift types generated for `endpoint`.
    static func typeNames(of endpoint: EndpointSpec) -> [String] {
        var names = [GeneratedNames.request(ofEndpoint: endpoint.name), GeneratedNames.failure(ofEndpoint: endpoint.name)]
        if endpoint.body?.variants.isEmpty == false { names.append(GeneratedNames.content(ofEndpoint: endpoint.name)) }
        if endpoint.response.hasOutcomes { names.append(GeneratedNames.outcome(ofEndpoint: endpoint.name)) }
        if !endpoint.response.headers.isEmpty { names.append(GeneratedNames.responseHeaders(ofEndpoint: endpoint.name)) }
        return names
    }
}
