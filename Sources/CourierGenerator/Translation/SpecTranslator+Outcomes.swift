/// Responses: the outcome enum of an endpoint with several success statuses, the struct of its
/// declared header fields, and the client method that returns them beside the body.
extension SpecTranslator {
    /// The request's `Response` type: the outcome enum, the body's type, or `NoContent`.
    func responseTypeName(_ endpoint: EndpointSpec) -> String {
        if endpoint.response.hasOutcomes { return GeneratedNames.outcome(ofEndpoint: endpoint.name) }
        return endpoint.response.body.map(swiftType) ?? "NoContent"
    }

    /// `<Endpoint>Outcome`, for an endpoint with several success statuses.
    func outcomeEnumModel(_ endpoint: EndpointSpec) -> OutcomeEnumModel? {
        let response = endpoint.response
        guard response.hasOutcomes else { return nil }
        let cases = response.outcomes.map { outcome in
            let phrase = "`\(outcome.status)`"
            let text = outcome.description.map { "\(phrase): \($0)" } ?? "The \(phrase) response."
            return OutcomeCaseModel(doc: SwiftComment.documentation(text, indentation: "    "), name: outcome.caseName.escaped,
                                    status: String(outcome.status), type: outcome.body.map(swiftType))
        }
        let statuses = response.outcomes.map { String($0.status) }
        let text = "What `\(endpoint.name)` answers: one case per documented success status "
            + "(\(statuses.joined(separator: ", "))). Any other status is a failure."
        return OutcomeEnumModel(doc: SwiftComment.documentation(text, indentation: ""), name: GeneratedNames.outcome(ofEndpoint: endpoint.name),
                                cases: cases, statusList: statuses.joined(separator: ", "))
    }

    /// The `successStatuses` literal of an endpoint with several outcomes: exactly those statuses,
    /// so that a documented 304 is a success to retries and breakers and an undocumented 2xx is not.
    func successStatusesLiteral(_ endpoint: EndpointSpec) -> String? {
        guard endpoint.response.hasOutcomes else { return nil }
        return "[" + endpoint.response.outcomes.map { String($0.status) }.joined(separator: ", ") + "]"
    }

    /// `<Endpoint>ResponseHeaders`, for an endpoint whose response declares header fields.
    func responseHeadersModel(_ endpoint: EndpointSpec) -> ResponseHeadersModel? {
        let headers = endpoint.response.headers
        guard !headers.isEmpty, endpoint.response.stream == nil else { return nil }
        let properties = headers.map { header in
            let type = swiftType(header.type)
            let base = swiftType(header.type.nonOptional)
            let read = header.type.isOptional
                ? "try response.headerField(\(SwiftLiteral.string(header.name)), as: \(base).self)"
                : "try response.requiredHeaderField(\(SwiftLiteral.string(header.name)), as: \(base).self)"
            let presence = header.type.isOptional ? "; `nil` when the response has none." : "."
            let text = header.description.map { "\($0)\n\n" } ?? ""
            return ResponseHeaderPropertyModel(doc: SwiftComment.documentation(text + "The `\(SwiftComment.inline(header.name))` field\(presence)", indentation: "    "),
                                               name: header.swiftName.escaped, type: type, read: read)
        }
        let text = "The header fields the response of `\(endpoint.name)` declares, read by "
            + "`\(GeneratedNames.withHeaders(ofEndpoint: endpoint.swiftName))`."
        return ResponseHeadersModel(doc: SwiftComment.documentation(text, indentation: ""), name: GeneratedNames.responseHeaders(ofEndpoint: endpoint.name),
                                    properties: properties)
    }

    /// The client's `<endpoint>WithHeaders` method: the same call, returning the body beside the
    /// declared header fields.
    func withHeadersMethodModel(_ endpoint: EndpointSpec, parameters: [ParameterModel], call: [ArgumentModel]) -> WithHeadersMethodModel? {
        guard let headers = responseHeadersModel(endpoint) else { return nil }
        let name = GeneratedNames.withHeaders(ofEndpoint: endpoint.swiftName)
        let returnType = "ResponseWithHeaders<\(responseTypeName(endpoint)), \(headers.name)>"
        // The plain method's doc comment already describes the endpoint.
        var text = "As `\(endpoint.swiftName.name)`, with the header fields the spec declares beside the body."
        if !parameters.isEmpty {
            text += "\n\n- Parameters:"
            for parameter in parameters {
                text += "\n  - \(parameter.label.replacingOccurrences(of: "`", with: "")): As for `\(endpoint.swiftName.name)`."
            }
        }
        text += parameters.isEmpty ? "\n" : ""
        text += "\n- Returns: The body, the `\(headers.name)` and the raw response."
        text += "\n- Throws: `APIError<\(failureName(endpoint))>`; `.decoding` when a required field is missing or a field is not of its type."
        let effects = " async throws(APIError<\(failureName(endpoint))>) -> \(returnType)"
        let line = "    \(spec.access.rawValue) func \(name)(\(parameters.inlineText))\(effects) {"
        let arguments = call.map { "\($0.label): \($0.value)" }.joined(separator: ", ")
        return WithHeadersMethodModel(doc: SwiftComment.documentation(text, indentation: "    "), name: name, parameters: parameters,
                                      isInline: parameters.isEmpty || Self.fitsOnOneLine(line), returnType: returnType,
                                      call: "try await self.client.response(for: \(requestName(endpoint))(\(arguments)), headers: \(headers.name).init(decoding:))")
    }

    /// The `- Returns:` text of an endpoint with several outcomes.
    func outcomesReturnText(_ endpoint: EndpointSpec) -> String {
        let cases = endpoint.response.outcomes.map { outcome in
            "`.\(outcome.caseName.name)`" + (outcome.body.map { " with the decoded `\(swiftType($0))`" } ?? "") + " for \(outcome.status)"
        }
        return "The outcome: " + cases.joined(separator: ", ") + "."
    }
}
