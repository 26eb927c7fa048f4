/// Names checked against ``ReservedNames`` scope by scope, after conversion to Swift and after
/// the generator's own renames, so that every accepted name compiles and means what it says.
extension SpecValidator {
    /// One name in one scope: what the spec calls it, the Swift name generated code gives it
    /// there, and where it is written.
    struct ScopedName {
        var origin: String
        var swiftName: String
        var location: SourceLocation
        /// The converted name before the generator's renames; two names equal here were already
        /// reported by the checks of `NameValidation.swift`, so this scope check skips the second.
        var convertedName: String

        init(origin: String, swiftName: String, location: SourceLocation, convertedName: String? = nil) {
            self.origin = origin
            self.swiftName = swiftName
            self.location = location
            self.convertedName = convertedName ?? swiftName
        }
    }

    /// Reports each name that takes a name reserved in its scope, and each two names that end up
    /// as the same Swift name in one scope, at the second with a note at the first.
    mutating func checkScope(_ names: [ScopedName], reserved: [String: String] = [:], scope: String) {
        var seen: [String: ScopedName] = [:]
        var converted: Set<String> = []
        for name in names where converted.insert(name.convertedName).inserted {
            if let reason = reserved[name.swiftName] {
                error("\(name.origin) becomes the Swift name '\(name.swiftName)' \(scope), which generated code reserves for "
                          + "\(reason); rename it", at: name.location)
                continue
            }
            if let first = seen[name.swiftName] {
                error("\(name.origin) and \(first.origin) both become the Swift name '\(name.swiftName)' \(scope); rename one",
                      at: name.location, notes: [.note("\(first.origin) is declared here", at: first.location)])
                continue
            }
            seen[name.swiftName] = name
        }
    }

    /// Checks every scope but the module's, which ``checkGeneratedNames(of:)`` checks.
    mutating func checkReservedNames(of spec: ServiceSpec) {
        let owners = spec.models.compactMap { model -> (String, [PropertySpec])? in
            guard case .object(let properties) = model.kind else { return nil }
            return ("model '\(model.name)'", properties)
        } + spec.errorSchemas.map { ("error schema '\($0.name)'", $0.properties) }
        for (owner, properties) in owners {
            checkScope(properties.map { ScopedName(origin: "property '\($0.name)'", swiftName: $0.swiftName.name, location: $0.location) },
                       reserved: ReservedNames.properties, scope: "in \(owner)")
            // The memberwise initialiser's parameter names: `self` is taken as `selfValue`.
            let arguments = properties.map { property in
                ScopedName(origin: "property '\(property.name)'",
                           swiftName: GeneratedNames.internalName(of: property.swiftName) ?? property.swiftName.name,
                           location: property.location, convertedName: property.swiftName.name)
            }
            checkScope(arguments, scope: "as a parameter of the initialiser of \(owner)")
        }
        for model in spec.models {
            guard model.isEnum else { continue }
            let cases = model.enumCases
            checkScope(cases.map { ScopedName(origin: "enum value '\($0.value)'", swiftName: $0.swiftName.name, location: $0.location) },
                       reserved: ReservedNames.enumValues, scope: "in enum '\(model.name)'")
        }
        for model in spec.models {
            guard let union = model.union else { continue }
            // `unknown` is not reserved: the fallback case is renamed instead, as in string enums.
            checkScope(union.variants.map { ScopedName(origin: "variant '\($0.type)'", swiftName: $0.swiftName.name, location: $0.location) },
                       reserved: ReservedNames.unionCases, scope: "in union '\(model.name)'")
        }
        checkScope(spec.endpoints.map { ScopedName(origin: "endpoint '\($0.name)'", swiftName: $0.swiftName.name, location: $0.location) },
                   reserved: ReservedNames.endpoints, scope: "as a method of the client")
        checkScope(spec.headers.filter { $0.value == nil }.map {
            ScopedName(origin: "header '\($0.name)'", swiftName: $0.swiftName.name, location: $0.location)
        }, reserved: ReservedNames.headerArguments, scope: "as a parameter of the client's initialiser")
        for endpoint in spec.endpoints {
            checkParameterNames(of: endpoint)
        }
    }

    /// The names an endpoint's parameters and body take in its request type (stored properties)
    /// and in its client method (parameter names), computed as translation computes them.
    mutating func checkParameterNames(of endpoint: EndpointSpec) {
        let parameters = endpoint.pathParameters + endpoint.queryParameters + endpoint.headerParameters
        func origin(_ parameter: ParameterSpec) -> String { "\(parameter.placement.rawValue) parameter '\(parameter.name)'" }
        var stored = parameters.map {
            ScopedName(origin: origin($0), swiftName: GeneratedNames.storedName(ofParameter: $0.swiftName)
                .replacingOccurrences(of: "`", with: ""), location: $0.location, convertedName: $0.swiftName.name)
        }
        var inner = parameters.map {
            ScopedName(origin: origin($0), swiftName: GeneratedNames.internalName(of: $0.swiftName) ?? $0.swiftName.name,
                       location: $0.location, convertedName: $0.swiftName.name)
        }
        if let body = endpoint.body {
            // The body is no parameter: no converted name of one can equal this placeholder.
            stored.insert(ScopedName(origin: "the body", swiftName: GeneratedNames.bodyStorage, location: body.location,
                                     convertedName: " body"), at: 0)
            let label = GeneratedNames.bodyLabel(parameterNames: Set(parameters.map(\.swiftName.name)))
            inner.insert(ScopedName(origin: "the body", swiftName: label, location: body.location, convertedName: " body"), at: 0)
        }
        let reported = diagnostics.count
        checkScope(stored, scope: "as a property of the request type of endpoint '\(endpoint.name)'")
        // A clash of stored names (`self` and `selfValue`) is usually one of parameter names
        // too; one diagnostic says enough.
        if diagnostics.count == reported {
            checkScope(inner, scope: "as a parameter of the method of endpoint '\(endpoint.name)'")
        }
    }
}
