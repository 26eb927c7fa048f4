/// Responses: several success statuses (an enum of outcomes), typed header fields, and bodies
/// read as text or bytes under a declared content type.
extension SpecValidator {
    mutating func checkResponse(of endpoint: EndpointSpec) {
        let what = "endpoint '\(endpoint.name)'"
        let response = endpoint.response
        if response.hasOutcomes {
            for outcome in response.outcomes {
                if let body = outcome.body {
                    checkReference(body, at: outcome.location, usage: "status \(outcome.status) of \(what)")
                    checkBufferedBody(body, contentType: outcome.contentType, coding: outcome.mediaCoding, at: outcome.location,
                                      what: "the \(outcome.status) response of \(what)")
                }
            }
            // Each status is its own name here: two statuses are never "the same name declared twice".
            checkScope(response.outcomes.map {
                ScopedName(origin: "status \($0.status)", swiftName: $0.caseName.name, location: $0.location, convertedName: String($0.status))
            }, reserved: ReservedNames.outcomeCases, scope: "as a case of the outcome enum of \(what)")
            if endpoint.pagination != nil {
                error("\(what) has several success statuses, so it cannot also 'paginate': a page is one status with a list",
                      at: endpoint.pagination?.location ?? endpoint.location)
            }
        } else if let body = response.body {
            checkReference(body, at: response.location, usage: "the response of \(what)")
            checkBufferedBody(body, contentType: response.contentType, coding: response.mediaCoding, at: response.location,
                              what: "the response of \(what)")
        }
        checkHeaders(of: endpoint)
    }

    /// A buffered body under a content type that is not JSON is read as text (`String`) or as bytes
    /// (`Data`); a model can only come from JSON, which `coding: json` says a vendor type is.
    mutating func checkBufferedBody(_ body: TypeReference, contentType: String?, coding: MediaCoding?, at location: SourceLocation,
                                    what: String) {
        guard let contentType, !Self.isJSONMediaType(contentType) else { return }
        let type = body.nonOptional
        if coding == .json {
            // The runtime reads a `String` as text unless the response's own Content-Type is JSON,
            // which a vendor type is not to it: a JSON string would keep its quotes and escapes.
            if type == .primitive(.string) {
                error("\(what) is 'String' under '\(contentType)' with 'coding: json'; a String under a media type that is not "
                      + "'application/json' or '…+json' is read as text, so read the JSON as a model, 'JSON' (free-form) or 'Data'",
                      at: location)
            }
            return
        }
        guard type != .primitive(.string) && type != .primitive(.data) else { return }
        if MediaCoding.mentionsJSON(contentType) {
            error("\(what) is '\(body)' under content type '\(contentType)'; Courier does not take '\(contentType)' for JSON "
                  + "by its name: if it is JSON, write contentType: { type: \(contentType), coding: json } (or read 'Data', as it is)", at: location)
            return
        }
        error("\(what) is '\(body)' under content type '\(contentType)', which is not JSON; "
              + "read it as 'String' (text) or 'Data' (bytes), or name a JSON content type", at: location)
    }

    /// `application/json` or a structured `+json` type, parameters aside.
    static func isJSONMediaType(_ contentType: String) -> Bool {
        let essence = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .filter { !$0.isWhitespace }.lowercased()
        return essence == RequestBodySpec.json || (essence.hasPrefix("application/") && essence.hasSuffix("+json"))
    }

    /// Header fields: each a scalar the runtime reads from a field value, each name once.
    mutating func checkHeaders(of endpoint: EndpointSpec) {
        let headers = endpoint.response.headers
        guard !headers.isEmpty else { return }
        let what = "endpoint '\(endpoint.name)'"
        if endpoint.response.stream != nil {
            error("the response of \(what) is streamed; its header fields are in the `StreamingResponse` it returns, "
                  + "so it declares no 'headers'", at: headers[0].location)
            return
        }
        var seen: [String: ResponseHeaderSpec] = [:]
        var distinct: [ResponseHeaderSpec] = []
        for header in headers {
            // Field names are case-insensitive (RFC 9110, section 5.1).
            if let first = seen[header.name.lowercased()] {
                error("response header '\(header.name)' of \(what) is '\(first.name)' again (field names are case-insensitive)",
                      at: header.location, notes: [.note("first declared here", at: first.location)])
            } else {
                seen[header.name.lowercased()] = header
                distinct.append(header)
            }
        }
        for header in headers {
            checkReference(header.type, at: header.location, usage: "response header '\(header.name)'")
            let type = header.type.nonOptional
            let isScalar: Bool
            switch type {
            case .primitive(let primitive):
                isScalar = [.string, .int, .int64, .double, .bool, .date, .url].contains(primitive)
            case .named(let name):
                isScalar = modelsByName[name]?.isStringEnum ?? (brokenNames.contains(name) || modelsByName[name] == nil)
            default:
                isScalar = false
            }
            if !isScalar {
                error("response header '\(header.name)' of \(what) has type '\(header.type)'; a header field is read as "
                      + "String, Int, Int64, Double, Bool, Date, URL or a string enum", at: header.location)
            }
        }
        checkScope(distinct.map { ScopedName(origin: "response header '\($0.name)'", swiftName: $0.swiftName.name, location: $0.location,
                                             convertedName: $0.name.lowercased()) },
                   reserved: ReservedNames.properties, scope: "in the response headers of \(what)")
    }

    /// The client's `<endpoint>WithHeaders` methods must not take another method's name.
    mutating func checkHeaderMethodNames(_ endpoints: [EndpointSpec]) {
        var methods = Dictionary(endpoints.map { ($0.swiftName.name, "the method of endpoint '\($0.name)'") },
                                 uniquingKeysWith: { first, _ in first })
        for endpoint in endpoints where endpoint.pagination != nil {
            methods[GeneratedNames.pages(ofEndpoint: endpoint.swiftName)] = "the pages method of endpoint '\(endpoint.name)'"
        }
        for endpoint in endpoints where !endpoint.response.headers.isEmpty && endpoint.response.stream == nil {
            let name = GeneratedNames.withHeaders(ofEndpoint: endpoint.swiftName)
            let location = endpoint.response.headers[0].location
            if let other = methods[name] {
                error("endpoint '\(endpoint.name)' declares response headers, so the client gets a method '\(name)', which is also "
                      + "\(other); rename one of them", at: location)
            } else if let use = ReservedNames.endpoints[name] {
                error("endpoint '\(endpoint.name)' declares response headers, so the client gets a method '\(name)', a name generated "
                      + "code uses for \(use); rename the endpoint", at: location)
            }
        }
    }
}
