/// `paginate:`: a GET whose response holds the items where `items` says, and a query parameter
/// of the right type for the cursor, page or offset.
extension SpecValidator {
    mutating func checkPagination(of endpoint: EndpointSpec) {
        // A streamed response is reported as such, by the streaming checks.
        guard let pagination = endpoint.pagination, endpoint.response.stream == nil else { return }
        let what = "'paginate' of endpoint '\(endpoint.name)'"
        guard endpoint.method == .get else {
            error("\(what): only GET endpoints page; this one uses \(endpoint.method.rawValue)", at: pagination.location)
            return
        }
        guard let body = endpoint.response.body else {
            error("\(what): the endpoint's response has no body to read items from", at: pagination.location)
            return
        }
        let items: PaginationSpec.ResolvedItems
        switch pagination.resolveItems(in: body, model: { modelsByName[$0] }) {
        case .success(let resolved): items = resolved
        case .failure(let problem):
            error("\(what): \(problem.message)", at: pagination.location)
            return
        }
        if let name = pagination.parameter {
            guard let parameter = endpoint.queryParameters.first(where: { $0.name == name }) else {
                error("\(what): the query parameter '\(name)' it sets is not declared under 'query'", at: pagination.location)
                return
            }
            let expected: PrimitiveType
            switch pagination.style {
            case .cursor: expected = .string
            default: expected = .int
            }
            if parameter.type.nonOptional != .primitive(expected) {
                error("\(what): query parameter '\(name)' is '\(parameter.type)'; a \(expected == .string ? "cursor" : "page or offset") "
                      + "parameter is '\(expected.rawValue)' or '\(expected.rawValue)?'", at: parameter.location)
            }
        }
        if case .cursor(_, .lastItem(let member), _) = pagination.style {
            guard case .named(let modelName) = items.item.nonOptional, let model = modelsByName[modelName],
                  case .object(let properties) = model.kind else {
                error("\(what): 'from: lastItem.\(member)' needs items that are objects; they are '\(items.item)'", at: pagination.location)
                return
            }
            guard let property = properties.first(where: { $0.jsonKey == member }) else {
                error("\(what): the items ('\(modelName)') have no member '\(member)' to take the cursor from", at: pagination.location)
                return
            }
            let scalar = property.type.nonOptional
            if ![TypeReference.primitive(.string), .primitive(.int), .primitive(.int64)].contains(scalar) {
                error("\(what): member '\(member)' of '\(modelName)' is '\(property.type)'; a cursor is a String, Int or Int64",
                      at: pagination.location)
            }
        }
    }

    /// The client's `<endpoint>Pages` methods must not take another method's name.
    mutating func checkPageMethodNames(_ endpoints: [EndpointSpec]) {
        let methods = Dictionary(endpoints.map { ($0.swiftName.name, $0.name) }, uniquingKeysWith: { first, _ in first })
        for endpoint in endpoints where endpoint.pagination != nil {
            let name = GeneratedNames.pages(ofEndpoint: endpoint.swiftName)
            if let other = methods[name] {
                error("endpoint '\(endpoint.name)' pages, so the client gets a method '\(name)', which is also the method of endpoint '\(other)'; "
                      + "rename one of them", at: endpoint.pagination?.location ?? endpoint.location)
            } else if let use = ReservedNames.endpoints[name] {
                error("endpoint '\(endpoint.name)' pages, so the client gets a method '\(name)', a name generated code uses for \(use); "
                      + "rename the endpoint", at: endpoint.pagination?.location ?? endpoint.location)
            }
        }
    }
}
