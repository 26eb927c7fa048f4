/// `Binary` (an `HTTPBody`) and streamed responses: `Binary` is an endpoint's body or response
/// body and nothing else, and an event or line type is something JSON decodes.
extension SpecValidator {
    mutating func checkBinaryUses(models: [ModelSpec], errorSchemas: [ErrorSchemaSpec], endpoints: [EndpointSpec]) {
        func mentionsBinary(_ type: TypeReference) -> Bool {
            switch type {
            case .primitive(let primitive): primitive == .binary
            case .named: false
            case .array(let inner), .map(let inner), .optional(let inner): mentionsBinary(inner)
            }
        }
        let rule = "'Binary' is a body read or sent as it streams, so it is only an endpoint's 'body' or response 'body'"
        for model in models {
            guard case .object(let properties) = model.kind else { continue }
            for property in properties where mentionsBinary(property.type) {
                error("property '\(property.name)' of model '\(model.name)' is '\(property.type)'; \(rule) (use 'Data' for bytes in JSON)",
                      at: property.typeLocation ?? property.location)
            }
        }
        for schema in errorSchemas {
            for property in schema.properties where mentionsBinary(property.type) {
                error("property '\(property.name)' of error schema '\(schema.name)' is '\(property.type)'; \(rule)",
                      at: property.typeLocation ?? property.location)
            }
        }
        for endpoint in endpoints {
            let what = "endpoint '\(endpoint.name)'"
            // Parameters: their own type check already refuses Binary, as every non-scalar.
            if let body = endpoint.body, !body.files.isEmpty {
                // Files become arguments and stored properties beside the parameters and the body.
                var taken = Set(endpoint.parameters.map { GeneratedNames.storedName(ofParameter: $0.swiftName) })
                taken.insert(GeneratedNames.bodyStorage)
                for file in body.files where !taken.insert(GeneratedNames.storedName(ofParameter: file.swiftName)).inserted {
                    error("file '\(file.name)' of \(what) has the Swift name of a parameter or of another file ('\(file.swiftName.name)'); rename it",
                          at: file.location)
                }
            }
            if let body = endpoint.body {
                for type in [body.type] + body.variants.map(\.type) where mentionsBinary(type) && type.nonOptional != .primitive(.binary) {
                    error("the body of \(what) is '\(type)'; \(rule), not inside another type", at: body.location)
                }
            }
            if let body = endpoint.response.body, mentionsBinary(body) {
                error("the response of \(what) is '\(body)'; \(rule), not inside another type", at: endpoint.response.location)
            }
            switch endpoint.response.stream {
            case .events(let type), .lines(let type, _):
                if mentionsBinary(type) || type.nonOptional == .primitive(.data) || type.isOptional {
                    error("the response of \(what) streams '\(type)'; each event or line decodes as a model, a JSON type or String",
                          at: endpoint.response.location)
                } else {
                    checkReference(type, at: endpoint.response.location, usage: "the response of \(what)")
                }
            case .bytes(let contentType):
                if !RequestBodySpec.isMediaType(contentType) {
                    error("the response of \(what) has content type '\(contentType)', which is not a media type such as 'application/zip'",
                          at: endpoint.response.location)
                }
            case nil:
                break
            }
            // The generated methods add parameters of their own.
            let added: [String]
            switch endpoint.response.stream {
            case .events: added = ["reconnection"]
            case .bytes: added = ["to", "progress"]
            default: added = []
            }
            for parameter in endpoint.parameters where added.contains(parameter.swiftName.name) {
                error("\(parameter.placement.rawValue) parameter '\(parameter.name)' of \(what) is named like the parameter "
                      + "'\(parameter.swiftName.name)' its generated method adds; rename it", at: parameter.location)
            }
            if endpoint.response.stream != nil, endpoint.pagination != nil {
                error("\(what) streams its response, so it cannot also 'paginate'", at: endpoint.pagination?.location ?? endpoint.location)
            }
        }
    }
}
