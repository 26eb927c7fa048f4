import Foundation

/// `<Prefix>Errors.swift`: each endpoint's failure enum, or its alias of the one it shares.
extension SpecTranslator {
    /// The view model of `<Prefix>Errors.swift`.
    ///
    /// Endpoints whose enums would be equal but for their names share one, so that the errors a
    /// service repeats cost one enum, not one per endpoint: those that document only the
    /// service's defaults share `<Service>Failure`, and each other set of equal enums is the
    /// first endpoint's, which the rest name by their own `<Endpoint>Failure` aliases. The enums
    /// come first, then the aliases.
    ///
    /// Each endpoint's enum is hashed once, as it is made, and kept only when it is the first of
    /// its kind; the equal ones after it are dropped at once, so that a service whose endpoints
    /// repeat their errors never holds more than its distinct enums.
    func errorsFile() -> ErrorsFileModel {
        // The distinct enums, in order of first use, and each endpoint's, by index into them.
        var distinct: [FailureModel] = []
        var indices: [FailureModel: Int] = [:]
        var sharerCounts: [Int] = []
        /// The index of `model`, adding it when it is new; one hash per call.
        func index(of model: FailureModel) -> Int {
            let next = distinct.count
            let found = Self.value(&indices[model, default: next])
            if found == next {
                distinct.append(model)
                sharerCounts.append(0)
            }
            return found
        }
        var sharedIndex: Int?
        if let sharing = spec.endpoints.first(where: spec.usesOnlyDefaultErrors) {
            // An endpoint that restates the defaults as its own mappings gets the same enum.
            sharedIndex = index(of: failureModel(mappings: sharing.effectiveErrors, cases: sharing.errorCases, doc: "", name: ""))
        }
        let own: [Int?] = spec.endpoints.map { endpoint in
            guard !spec.usesOnlyDefaultErrors(endpoint) else { return nil }
            let found = index(of: failureModel(mappings: endpoint.effectiveErrors, cases: endpoint.errorCases, doc: "", name: ""))
            sharerCounts[found] += 1
            return found
        }
        indices = [:]

        var failures: [FailureModel] = []
        // Each distinct enum's name, and what an alias of it says it shares, once it is written.
        var owners = [(name: String, what: String)?](repeating: nil, count: distinct.count)
        if let sharedIndex {
            let what = spec.defaultErrors.isEmpty
                ? "No documented failures: the service maps no status by default. Shared"
                : "The failures the service's defaults document, shared"
            let doc = what + " by every `\(clientName)` method whose endpoint documents none of its own; "
                + "each of those endpoints names it by its own `<Endpoint>Failure` alias."
            var shared = distinct[sharedIndex]
            owners[sharedIndex] = (sharedFailureName, "the service's defaults")
            shared.doc = SwiftComment.documentation(doc)
            shared.name = sharedFailureName
            failures.append(shared)
        }
        // The aliases follow the enums, as one block in endpoint order.
        var aliases: [FailureModel] = []
        for (endpoint, found) in zip(spec.endpoints, own) {
            let reference = endpointReference(endpoint)
            guard let found else {
                let what = spec.defaultErrors.isEmpty ? "none, so it shares the empty" : "the service's defaults only, shared as"
                aliases.append(.alias(failureName(endpoint), of: sharedFailureName,
                                       doc: "The documented failures of \(reference): \(what) `\(sharedFailureName)`."))
                continue
            }
            if let owner = owners[found] {
                let doc = "The documented failures of \(reference): the same as \(owner.what), shared as `\(owner.name)`."
                aliases.append(.alias(failureName(endpoint), of: owner.name, doc: doc))
                continue
            }
            owners[found] = (failureName(endpoint), "`\(endpoint.swiftName.name)`'s")
            var doc = "The documented failures of \(reference)."
            let others = sharerCounts[found] - 1
            if others > 0 {
                doc += " \(others == 1 ? "One other endpoint documents" : "\(others) other endpoints document") the same "
                    + "failures and \(others == 1 ? "names" : "name") this enum by \(others == 1 ? "its" : "their") own `<Endpoint>Failure` alias."
            }
            var model = distinct[found]
            model.doc = SwiftComment.documentation(doc)
            model.name = failureName(endpoint)
            failures.append(model)
        }
        distinct = []
        for index in aliases.indices.dropFirst() {
            aliases[index].continuesAliases = true
        }
        failures += aliases
        return ErrorsFileModel(version: version, specPath: specPath, access: spec.access.rawValue, failures: failures,
                               needsUnwrap: failures.contains(where: \.usesUnwrap))
    }

    /// Reads a value through `inout`, so that `dictionary[key, default: value]` inserts the
    /// default when the key is new and returns what is stored, hashing the key once.
    private static func value(_ slot: inout Int) -> Int { slot }

    func payloadType(_ schemaName: String) -> String {
        guard let schema = errorSchemas[schemaName] else { return "ErrorBody<\(typeName(schemaName))>" }
        switch schema.shape {
        case .object, .wrapped: return "ErrorBody<\(schema.swiftName.escaped)>"
        case .array: return "ErrorBody<[\(schema.swiftName.escaped)]>"
        }
    }

    /// The expression that builds `item` from `response`.
    func caseValue(_ item: ErrorCaseSpec) -> String {
        // `map` returns `Self?`, where a bare `.none` would be `Optional.none`.
        let name = (ReservedNames.optionalCaseNames.contains(item.swiftName.name) ? "Self." : ".") + item.swiftName.escaped
        guard let schemaName = item.bodySchema else { return name }
        guard let schema = errorSchemas[schemaName] else { return name + "(response.errorBody())" }
        switch schema.shape {
        case .object: return name + "(response.errorBody())"
        case .wrapped, .array: return name + "(response.errorBody(\(envelopeName(schema)).self).unwrapped(\\.value))"
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
        var statuses: [String: [StatusMatcher]] = [:]
        var branches: [StatusBranchModel] = []
        for mapping in mappings where !mapping.isSuccessMapping {
            var branch = StatusBranchModel(status: nil, lowerBound: nil, upperBound: nil, isDefault: false,
                                           single: nil, subject: nil, values: [], fallback: nil)
            switch mapping.status {
            case .exact(let status): branch.status = String(status)
            case .range(let hundreds): (branch.lowerBound, branch.upperBound) = (String(hundreds * 100), String(hundreds * 100 + 99))
            case .default: branch.isDefault = true
            }
            let status = Self.statusText(mapping.status)
            for item in mapping.allCases { statuses[item.name, default: []].append(mapping.status) }
            if Self.needsStatements(mapping) {
                branch.matching = matchingModel(mapping, uses: &uses)
                branches.append(branch)
                continue
            }
            switch mapping.outcome {
            case .single(let item):
                uses[item.name, default: []].append(status)
                branch.single = caseValue(item)
                branches.append(branch)
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
                branch.subject = subject
                branch.values = values
                branch.fallback = caseValue(discriminator.fallback)
                branches.append(branch)
            }
        }
        let success = successBranches(mappings, uses: &uses)
        let cases = errorCases.map { item in
            var text = item.description.map { $0 + "\n\n" } ?? ""
            let list = uses[item.name] ?? []
            text += "The server answered with " + list.joined(separator: ", or ") + "."
            return FailureCaseModel(doc: SwiftComment.documentation(text, indentation: "    "), name: item.swiftName.escaped,
                                    payloadType: item.bodySchema.map(payloadType))
        }
        let retryables = retryableModels(errorCases, mappings: mappings)
        var model = FailureModel(
            doc: SwiftComment.documentation(doc),
            name: name,
            cases: cases,
            branches: branches,
            needsNilDefault: !mappings.contains { $0.status == .default },
            descriptions: descriptionModels(errorCases, statuses: statuses),
            retryables: retryables,
            needsRetryableDefault: retryables.count < cases.count,
            usesUnwrap: errorCases.contains { item in
                // Wrapped and array schemas decode through an envelope and are unwrapped.
                guard let name = item.bodySchema, let schema = errorSchemas[name] else { return false }
                if case .object = schema.shape { return false }
                return true
            }
        )
        model.successBranches = success
        return model
    }
}
