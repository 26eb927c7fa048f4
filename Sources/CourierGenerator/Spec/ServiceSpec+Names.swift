extension ServiceSpec {
    /// The properties and parameters whose Swift name is not what their spec name suggests
    /// (``GeneratedNames/isSurprising(_:for:)``), one line each with where each is declared:
    /// `courier validate --verbose`.
    package var renameLines: [String] {
        var lines: [String] = []
        for endpoint in endpoints {
            for parameter in endpoint.parameters where GeneratedNames.isSurprising(parameter.swiftName, for: parameter.name) {
                lines.append("\(parameter.placement.rawValue) parameter '\(parameter.name)' of endpoint \(endpoint.name) → "
                             + "\(parameter.swiftName.name)  (\(parameter.location))")
            }
        }
        for model in models {
            for property in model.properties where GeneratedNames.isSurprising(property.swiftName, for: property.name) {
                lines.append("property '\(property.name)' of model \(model.name) → \(property.swiftName.name)  (\(property.location))")
            }
        }
        return lines
    }

    /// What a client of a service with `auth` does when it is made without credentials, for
    /// `courier validate --verbose`; `nil` for an open service.
    package var authenticationNote: String? {
        let client = GeneratedNames.client(ofService: swiftName)
        if authSchemes != nil {
            return "\(client)(auth:) takes AuthSchemes; a scheme left out sends no credentials on the endpoints that need it"
        }
        guard auth != nil else { return nil }
        return "\(client)(auth:) defaults to Authentication.none: a client made without it sends no credentials, and logs so at debug level on its first call that needs them"
    }
}

extension ServiceSpec {
    /// Every name the generated client gives what the spec declares, one line each, with where it
    /// is declared: `courier validate --names`, so that an overlay author looks a type up
    /// instead of guessing it (an OpenAPI component renamed to stay clear of a reserved name,
    /// an inline schema named from its place).
    package var generatedNameLines: [String] {
        var lines = ["service \(name) → \(GeneratedNames.client(ofService: swiftName)), \(GeneratedNames.apiProtocol(ofService: swiftName))"]
        for endpoint in endpoints {
            lines.append("endpoint \(endpoint.name) → func \(endpoint.swiftName.name), \(GeneratedNames.request(ofEndpoint: endpoint.name)), "
                         + "\(GeneratedNames.failure(ofEndpoint: endpoint.name))  (\(endpoint.location))")
        }
        for model in models {
            lines.append("model \(model.name) → \(model.swiftName.name)  (\(model.location))")
        }
        for schema in errorSchemas {
            lines.append("error schema \(schema.name) → \(schema.swiftName.name)  (\(schema.location))")
        }
        return lines
    }
}
