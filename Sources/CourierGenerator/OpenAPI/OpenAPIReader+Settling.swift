import Foundation

/// What a document says that is unusual rather than unusable, settled once everything is read:
/// each place the validator would reject (rules a Courier spec must follow, which a real document
/// breaks without being wrong about its API) becomes the nearest faithful fallback, with a warning
/// at its location. The rules mirror the validator's, so that a document never fails for them.
extension OpenAPIReader {
    /// Runs every settling pass over what was read.
    mutating func settle() {
        settleDiscriminators()
        settleCredentialParameters()
    }

    // MARK: Discriminators

    /// A discriminator Courier cannot read (a variant that is not an object, variants that declare
    /// the property as different types or as something other than a string or an integer, an
    /// integer mapping with a value that is not one) is dropped, and the union is read by trying
    /// each variant in order, as an undiscriminated union is.
    mutating func settleDiscriminators() {
        let modelsByName = Dictionary(file.models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for index in file.models.indices {
            guard case .union(var union) = file.models[index].kind, let discriminator = union.discriminator,
                  let problem = discriminatorProblem(discriminator, variants: union.variants, modelsByName: modelsByName) else { continue }
            document.reporter.warning("the discriminator '\(discriminator.property)' of '\(file.models[index].name)' cannot be read: "
                                      + "\(problem); Courier reads this union by trying each variant in order",
                                      at: discriminator.location)
            union.discriminator = nil
            file.models[index].kind = .union(union)
        }
    }

    /// Why a discriminator cannot be read, in a few words; `nil` when it can.
    private func discriminatorProblem(_ discriminator: UnionDiscriminatorSpec, variants: [UnionVariantSpec],
                                      modelsByName: [String: ModelSpec]) -> String? {
        var declared: [(type: TypeReference, model: String)] = []
        for variant in variants {
            guard case .named(let name) = variant.type, let model = modelsByName[name] else {
                return "its variant '\(variant.type)' is not an object"
            }
            switch model.kind {
            case .object(let properties):
                if let property = properties.first(where: { $0.jsonKey == discriminator.property }) {
                    declared.append((property.type.nonOptional, name))
                }
            case .composition:
                continue
            case .stringEnum, .numberEnum, .union:
                return "its variant '\(name)' is not an object"
            }
        }
        var isInteger = false
        if let first = declared.first {
            if let other = declared.first(where: { $0.type != first.type }) {
                return "it is '\(first.type)' in '\(first.model)' but '\(other.type)' in '\(other.model)'"
            }
            switch first.type {
            case .primitive(.string):
                break
            case .primitive(.int), .primitive(.int64):
                isInteger = true
            case .named(let name) where modelsByName[name]?.isStringEnum == true:
                break
            case .named(let name) where modelsByName[name]?.isIntegerEnum == true:
                isInteger = true
            default:
                return "it is '\(first.type)' in '\(first.model)', not a string or an integer"
            }
        }
        if isInteger {
            if let entry = discriminator.mapping.first(where: { Int64($0.value) == nil }) {
                return "its value '\(NodeReader.abbreviated(entry.value))' is not an integer"
            }
            let mapped = Set(discriminator.mapping.map(\.variant))
            if let variant = variants.first(where: { !mapped.contains($0.type.description) }) {
                return "its variant '\(variant.type)' has no integer value in the mapping"
            }
        }
        return nil
    }

    // MARK: Credentials

    /// A header or query parameter that carries what a security scheme sends (Petstore's
    /// `api_key` header beside its `api_key` scheme) is sent by the client from its credentials:
    /// declared again, it would go out twice. It is left out, with a warning.
    mutating func settleCredentialParameters() {
        let headers = Set(file.allAuthSchemes.compactMap { $0.keyPlacement == .query ? nil : $0.headerName?.lowercased() })
        for index in file.endpoints.indices {
            let endpoint = file.endpoints[index]
            let queryKeys = Set(credentialQueryKeys(of: endpoint))
            file.endpoints[index].parameters.removeAll { parameter in
                let isCredential = switch parameter.placement {
                case .header: headers.contains(parameter.name.lowercased())
                case .query: queryKeys.contains(parameter.name)
                case .path: false
                }
                if isCredential {
                    document.reporter.warning("\(parameter.placement.rawValue) parameter '\(parameter.name)' carries the credential a "
                                              + "security scheme sends, which the client adds itself; it is left out",
                                              at: parameter.location)
                }
                return isCredential
            }
        }
    }

    /// The query items that carry an API key on `endpoint`, as the validator works them out.
    private func credentialQueryKeys(of endpoint: EndpointSpec) -> [String] {
        switch endpoint.auth?.choice {
        case .none?:
            return []
        case .anyOf(let names)?:
            return names.compactMap { file.authSchemes?.scheme(named: $0)?.auth.queryName }
        case nil:
            if let auth = file.auth { return auth.queryName.map { [$0] } ?? [] }
            guard let named = file.authSchemes else { return [] }
            return named.defaultSchemes.compactMap { named.scheme(named: $0)?.auth.queryName }
        }
    }
}
