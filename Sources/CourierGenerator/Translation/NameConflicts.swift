/// Type names a spec may not give its models, because the generated code needs them for
/// something else. Validation cannot know these: they depend on what the generator emits.
extension SpecTranslator {
    /// Names the generated files use unqualified: types of CourierRuntime, HTTPTypes, Foundation
    /// and the standard library that appear in the emitted code, and the generated `Indirect` box.
    static let reservedTypeNames: Set<String> = [
        "APIClient", "APIError", "APIRequest", "APIResponse", "Authentication", "EndpointFailure", "ErrorBody",
        "HTTPTransport", "JSONCoding", "NoContent", "Parameters", "ParameterConvertible", "RawResponse",
        "RequestBody", "RequestPath", "URLSessionTransport", "HTTPRequest", "HTTPField", "Indirect", "Duration",
        "Set", "Codable", "Decodable", "Encodable", "Hashable", "Sendable", "CodingKey", "RawRepresentable",
        "LocalizedError", "Decoder", "Encoder", "Optional", "Array", "Dictionary",
    ]

    /// One error per model, error schema, endpoint or service whose Swift type name the generated
    /// code needs for something else: a runtime type, or a type generated for an endpoint, the
    /// client or the service's shared failures.
    public func nameConflicts() -> [Diagnostic] {
        var generated: [String: String] = [clientName: "the client type of service '\(spec.name)'"]
        for endpoint in spec.endpoints {
            generated[requestName(endpoint)] = "the request type of endpoint '\(endpoint.name)'"
            generated[failureName(endpoint)] = "the failure type of endpoint '\(endpoint.name)'"
        }
        for schema in spec.errorSchemas {
            if case .object = schema.shape { continue }
            generated[envelopeName(schema)] = "the envelope of error schema '\(schema.name)'"
        }
        let declared = spec.models.map { ("model", $0.name, $0.swiftName.name, $0.location) }
            + spec.errorSchemas.map { ("error schema", $0.name, $0.swiftName.name, $0.location) }
        var diagnostics: [Diagnostic] = []
        if spec.endpoints.contains(where: usesOnlyDefaults) {
            let owner = "the failure type service '\(spec.name)' shares for endpoints that document only its defaults"
            if Self.reservedTypeNames.contains(sharedFailureName) {
                diagnostics.append(.error(
                    "service '\(spec.name)' needs the Swift type '\(sharedFailureName)' for \(owner), but generated "
                        + "code uses that name for a type of its own; rename the service", at: spec.location))
            }
            for endpoint in spec.endpoints where failureName(endpoint) == sharedFailureName {
                diagnostics.append(.error(
                    "endpoint '\(endpoint.name)' has the failure type '\(sharedFailureName)', the name of \(owner); "
                        + "rename the endpoint", at: endpoint.location))
            }
            generated[sharedFailureName] = owner
        }
        for endpoint in spec.endpoints {
            for name in [requestName(endpoint), failureName(endpoint)] where Self.reservedTypeNames.contains(name) {
                diagnostics.append(.error(
                    "endpoint '\(endpoint.name)' needs the Swift type '\(name)', which generated code uses for a "
                        + "type of its own; rename the endpoint", at: endpoint.location))
            }
        }
        for (kind, name, swiftName, location) in declared {
            if Self.reservedTypeNames.contains(swiftName) {
                diagnostics.append(.error(
                    "\(kind) '\(name)' becomes the Swift type '\(swiftName)', which generated code uses for "
                        + "a type of its own; rename it", at: location))
            } else if let owner = generated[swiftName] {
                diagnostics.append(.error(
                    "\(kind) '\(name)' becomes the Swift type '\(swiftName)', the name of \(owner); rename one",
                    at: location))
            }
        }
        return diagnostics
    }
}
