import Foundation

/// What a document says beyond its schemas that Courier can use: retry hints from
/// `x-speakeasy-retries`, and error cases from an enum field of an error schema.
extension OpenAPIReader {
    // MARK: x-speakeasy-retries

    /// The retry hint of an `x-speakeasy-retries` extension (at the top level, or on an
    /// operation), as Speakeasy's SDKs read it: `strategy: backoff` with intervals in
    /// milliseconds, or `strategy: none`. `nil` without the extension.
    mutating func speakeasyRetries(in located: OpenAPIDocument.Located) -> RetryOverride? {
        guard let extensionNode = document.child(located, "x-speakeasy-retries") else { return nil }
        let strategy = document.string(extensionNode, "strategy")
        if strategy == "none" { return .disabled }
        guard strategy == "backoff" else {
            document.warning("x-speakeasy-retries has strategy '\(NodeReader.abbreviated(strategy ?? ""))', which Courier does not know; "
                             + "the client's own retry policy applies", at: extensionNode)
            return nil
        }
        let backoff = document.child(extensionNode, "backoff")
        func seconds(_ key: String) -> Double? {
            guard let text = document.string(backoff, key), let milliseconds = Double(text), milliseconds.isFinite, milliseconds >= 0
            else { return nil }
            return milliseconds / 1000
        }
        // Courier's policy doubles its delay with full jitter and retries what its status rule
        // allows; the keys that would change that are named, so that nothing is dropped quietly.
        let unused = ["maxElapsedTime", "exponent"].filter { document.child(backoff ?? extensionNode, $0) != nil }
            + ["statusCodes", "retryConnectionErrors"].filter { document.child(extensionNode, $0) != nil }
        if !unused.isEmpty {
            document.warning("x-speakeasy-retries: \(unused.map { "'\($0)'" }.joined(separator: ", ")) "
                             + "\(unused.count == 1 ? "is" : "are") not used; Courier's retry policy doubles its delay with full jitter "
                             + "and retries 408, 429, 500, 502, 503 and 504 and connection failures", at: extensionNode)
        }
        return .custom(RetryPolicySpec(maxAttempts: nil, baseDelay: seconds("initialInterval"), maxDelay: seconds("maxInterval"),
                                       retriesNonIdempotent: false))
    }

    // MARK: Error cases from an enum field

    /// With `inferErrorCases: true` in an overlay, each error mapping whose schema has a string
    /// enum field of two or more values (Stripe's `error.type`, Box's `code`), at the top level
    /// or one object down, discriminates on it: one case per value, the mapping's own case for
    /// anything else.
    ///
    /// A value named like a case another mapping of the same operation already has (Box's
    /// `conflict` code beside its 409 `conflict`, which carries another body) takes the schema's
    /// name after it (`conflictClientError`): one case name carries one body.
    mutating func inferErrorCases() {
        guard options.infersErrorCases else { return }
        var discriminators: [String: (path: FieldPath, values: [String])?] = [:]
        func caseNames(_ mappings: [ErrorMappingSpec]) -> Set<String> {
            Set(mappings.flatMap(\.allCases).map(\.swiftName.name))
        }
        func discriminate(_ mapping: ErrorMappingSpec, besides others: Set<String>) -> ErrorMappingSpec {
            guard mapping.conditions.isEmpty, case .single(let fallback) = mapping.outcome, let schema = mapping.bodySchema else {
                return mapping
            }
            if discriminators[schema] == nil { discriminators[schema] = .some(enumField(ofErrorSchema: schema)) }
            guard let found = discriminators[schema] ?? nil else { return mapping }
            var taken: Set<String> = others.union([fallback.swiftName.name])
            var cases: [DiscriminatorSpec.Case] = []
            for value in found.values {
                var name = SwiftIdentifier(memberNamed: value).name
                if taken.contains(name) { name += SwiftIdentifier(typeNamed: schema).name }
                guard !name.isEmpty, name != "_", taken.insert(name).inserted else { continue }
                cases.append(.init(value: value, errorCase: ErrorCaseSpec(name: name, bodySchema: schema, location: mapping.location)))
            }
            var result = mapping
            result.outcome = .discriminated(DiscriminatorSpec(source: .bodyField(found.path), cases: cases, fallback: fallback,
                                                              location: mapping.location))
            return result
        }
        let endpointCases = caseNames(file.endpoints.flatMap(\.errors))
        file.defaultErrors = file.defaultErrors.map { mapping in
            discriminate(mapping, besides: endpointCases.union(caseNames(file.defaultErrors.filter { $0.status != mapping.status })))
        }
        let defaultCases = caseNames(file.defaultErrors)
        for index in file.endpoints.indices {
            let own = file.endpoints[index].errors
            file.endpoints[index].errors = own.map { mapping in
                discriminate(mapping, besides: defaultCases.union(caseNames(own.filter { $0.status != mapping.status })))
            }
        }
    }

    /// The first string enum field of two or more values in an error schema, at its top level or
    /// in an object one level down, with its values.
    func enumField(ofErrorSchema name: String) -> (path: FieldPath, values: [String])? {
        guard let schema = file.errorSchemas.first(where: { $0.name == name }) else { return nil }
        let models = Dictionary(file.models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func enumValues(_ type: TypeReference) -> [String]? {
            guard case .named(let model) = type.nonOptional, case .stringEnum(let cases)? = models[model]?.kind,
                  cases.count >= 2 else { return nil }
            return cases.map(\.value)
        }
        for property in schema.properties {
            if let values = enumValues(property.type) { return (FieldPath(components: [.key(property.name)]), values) }
        }
        for property in schema.properties {
            guard case .named(let model) = property.type.nonOptional, let nested = models[model] else { continue }
            for inner in nested.properties {
                if let values = enumValues(inner.type) {
                    return (FieldPath(components: [.key(property.name), .key(inner.name)]), values)
                }
            }
        }
        return nil
    }
}
