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
                checkMultipartFiles(of: body, endpoint: endpoint)
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
            case .parts(let type?, _):
                if mentionsBinary(type) || type.nonOptional == .primitive(.data) || type.isOptional {
                    error("the response of \(what) is multipart with parts of type '\(type)'; each part's body decodes as a model, "
                          + "a JSON type or String (leave out 'body' for the raw parts)", at: endpoint.response.location)
                } else {
                    checkReference(type, at: endpoint.response.location, usage: "the response of \(what)")
                }
            case .parts(nil, _):
                break
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

    /// Files and their declared part headers become arguments and stored properties beside the
    /// parameters and the body, so each needs a Swift name of its own, and a header's value must
    /// be something a header field can spell.
    mutating func checkMultipartFiles(of body: RequestBodySpec, endpoint: EndpointSpec) {
        let what = "endpoint '\(endpoint.name)'"
        // Stored properties of the request type, and argument names of the methods.
        var stored = Set(endpoint.parameters.map { GeneratedNames.storedName(ofParameter: $0.swiftName) })
        var labels = Set(endpoint.parameters.map(\.swiftName.name))
        if !body.isFilesOnly { stored.insert(GeneratedNames.bodyStorage) }
        for file in body.files {
            let isNew = stored.insert(GeneratedNames.storedName(ofParameter: file.swiftName)).inserted
            if !(labels.insert(file.swiftName.name).inserted && isNew) {
                error("file '\(file.name)' of \(what) has the Swift name of a parameter or of another file ('\(file.swiftName.name)'); rename it",
                      at: file.location)
            }
            for header in file.headers {
                let isNew = stored.insert(GeneratedNames.storedName(ofParameter: header.swiftName)).inserted
                if !(labels.insert(header.swiftName.name).inserted && isNew) {
                    error("part header '\(header.name)' of file '\(file.name)' of \(what) has the Swift name '\(header.swiftName.name)', "
                          + "which a parameter, a file or another part header already has; rename it", at: header.location)
                }
                checkPartHeaderType(header, file: file)
            }
        }
        if !body.isFilesOnly {
            let bodyLabel = GeneratedNames.bodyLabel(parameterNames: labels)
            if labels.contains(bodyLabel) {
                error("\(what) has a parameter, a file or a part header named both 'body' and '\(bodyLabel)', so its body has no argument "
                      + "name left; rename one", at: body.location)
            }
        }
        let added: [String]
        switch endpoint.response.stream {
        case .events: added = ["reconnection"]
        case .bytes: added = ["to", "progress"]
        default: added = []
        }
        for file in body.files {
            for (name, location) in [(file.swiftName.name, file.location)] + file.headers.map({ ($0.swiftName.name, $0.location) })
            where added.contains(name) {
                error("'\(name)' of file '\(file.name)' of \(what) is named like the parameter its generated method adds; rename it", at: location)
            }
        }
    }

    /// A part header's value is written as a header parameter's is: a scalar or a string enum.
    mutating func checkPartHeaderType(_ header: PartHeaderSpec, file: MultipartFileSpec) {
        let what = "part header '\(header.name)' of file '\(file.name)'"
        checkReference(header.type, at: header.location, usage: what)
        let isScalar = switch header.type.nonOptional {
        case .primitive(let primitive): primitive.isScalarParameterType
        case .named(let name): modelsByName[name]?.isEnum ?? brokenNames.contains(name) || modelsByName[name] == nil
        default: false
        }
        if !isScalar {
            error("\(what) has type '\(header.type)'; part headers take String, Int, Int64, Double, Bool, Date, URL or a string enum",
                  at: header.location)
        }
    }
}
