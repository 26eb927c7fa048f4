/// The Swift names generated code declares for itself or needs unqualified.
///
/// One place decides them, so that validation rejects a spec whose own names would collide with
/// them and translation spells them exactly as validation checked them: a spec `courier validate`
/// accepts is one `courier generate` can write.
enum GeneratedNames {
    /// Type names the generated files use unqualified: types of CourierRuntime, HTTPTypes,
    /// Foundation and the standard library that appear in the emitted code, and the generated
    /// `Indirect` box. A model or error schema of one of these names would shadow it.
    static let reservedTypes: Set<String> = [
        "APIClient", "APIError", "APIRequest", "APIResponse", "Authentication", "AuthenticationRequirement", "BasicCredentials", "EndpointFailure", "ErrorBody",
        "HTTPTransport", "JSONCoding", "NoContent", "Parameters", "ParameterConvertible", "RawResponse",
        "RequestBody", "RequestPath", "URLSessionTransport", "HTTPRequest", "HTTPField", "Indirect", "Duration",
        "Set", "Codable", "Decodable", "Encodable", "Equatable", "Hashable", "Sendable", "CodingKey", "RawRepresentable",
        "LocalizedError", "Decoder", "Encoder", "Optional", "Array", "Dictionary", "Nullable", "DateField",
        "FormEncoder", "ParameterValue", "Pagination", "PageSequence",
        "HTTPBody", "MultipartForm", "StreamingResponse", "DownloadedFile", "ServerSentEvent",
        "ServerSentEventStream", "DecodedSequence", "JSONLines",
        "MultipartParts", "MultipartPart",
        "ResponseDecodable", "ResponseWithHeaders", "DecodingFailure",
        "FakeResult", "FakeCalls", "EndpointResilience", "StatusCodes", "FailureMessage", "RequestEncoding",
        "UnionCoding", "UnionShape",
    ]

    /// Names a request type's stored properties may not take, because `APIRequest` uses them; a
    /// parameter of one of these names is stored as `<name>Value`.
    static let requestRequirements: Set<String> = [
        "method", "path", "query", "headers", "body", "successStatuses", "isIdempotent", "idempotencyKeyHeader",
        "timeout", "resilience", "secretHeaderNames", "operationName", "payload", "pagination", "authentication",
    ]

    /// The name a request type stores a parameter under: `<name>Value` when `APIRequest` needs
    /// the name (``requestRequirements``), `selfValue` for `self`, else the parameter's own name,
    /// escaped. Validation checks that no two parameters of an endpoint end up with one name.
    static func storedName(ofParameter name: SwiftIdentifier) -> String {
        if requestRequirements.contains(name.name) { return name.name + "Value" }
        return internalName(of: name) ?? name.escaped
    }

    /// The name a parameter uses inside its function when its label would shadow `self`:
    /// `selfValue`; `nil` when the label serves as the name.
    static func internalName(of name: SwiftIdentifier) -> String? {
        name.name == "self" ? "selfValue" : nil
    }

    /// The argument label of an endpoint's body: `body`, or `requestBody` when a parameter
    /// already takes `body`.
    static func bodyLabel(parameterNames: Set<String>) -> String {
        parameterNames.contains("body") ? "requestBody" : "body"
    }

    /// The name a request type stores its body under; `payload` is in ``requestRequirements``,
    /// so a parameter of that name is stored as `payloadValue`.
    static let bodyStorage = "payload"

    /// `service` followed by `suffix`, less the words the service name already ends with: a
    /// service named `TrainTravelAPI` (from `info.title: Train Travel API`) has the protocol
    /// `TrainTravelAPIProtocol`, not `TrainTravelAPIAPIProtocol`, and `StripeClient` has the
    /// client `StripeClient`. Words are compared as ``NameWords`` splits them, so `Rapid` does
    /// not end with `API`.
    static func joined(service: SwiftIdentifier, suffix: String) -> String {
        joined(service.name, suffix, keepingAWord: false)
    }

    /// `name` followed by `suffix`, less the words `name` already ends with and `suffix` starts
    /// with. With `keepingAWord`, at least one word of `suffix` stays, so that the result is
    /// never `name` itself: the property `account_type` of `BankAccount` is `BankAccountType`,
    /// and the property `user` of `User` stays `UserUser`.
    static func joined(_ name: String, _ suffix: String, keepingAWord: Bool) -> String {
        let nameWords = NameWords.split(name)
        let suffixWords = NameWords.split(suffix)
        let longest = min(nameWords.count, suffixWords.count - (keepingAWord ? 1 : 0))
        for overlap in stride(from: longest, through: 1, by: -1)
        where Array(nameWords.suffix(overlap)) == Array(suffixWords.prefix(overlap)) {
            // The suffix's own spelling of the rest (`APIProtocol` splits as `API`, `Protocol`).
            return name + suffixWords.dropFirst(overlap).joined()
        }
        return name + suffix
    }

    /// `<Service>Client`, the client facade, such as `GitHubClient`; `StripeClient` for a service
    /// named so (``joined(service:suffix:)``).
    static func client(ofService service: SwiftIdentifier) -> String {
        joined(service: service, suffix: "Client")
    }

    /// `<Service>Failure`, the failure enum shared by the endpoints that document only the
    /// service's default failures, such as `GitHubFailure`.
    static func sharedFailure(ofService service: SwiftIdentifier) -> String {
        joined(service: service, suffix: "Failure")
    }

    /// The protocol every request type of a service adopts, such as `GitHubAPIRequest`
    /// (`TrainTravelAPIRequest` for `TrainTravelAPI`); its extension supplies what the service's
    /// requests share.
    static func requestProtocol(ofService service: SwiftIdentifier) -> String {
        joined(service: service, suffix: "APIRequest")
    }

    /// `<Service>APIProtocol`, the protocol the client and the fake adopt, such as
    /// `GitHubAPIProtocol`. Not `<Service>API`: that is the usual name of the module the client
    /// lives in (the repository's own targets, the build plugin's `StoreAPI`), and a type named
    /// as its module turns every `GitHubAPI.Repository` into a member lookup on the protocol.
    static func apiProtocol(ofService service: SwiftIdentifier) -> String {
        joined(service: service, suffix: "APIProtocol")
    }

    /// `<Service>Fake`, the test double of the client, such as `GitHubFake`.
    static func fake(ofService service: SwiftIdentifier) -> String {
        joined(service: service, suffix: "Fake")
    }

    /// `<Endpoint>Request`, the `APIRequest` type of the endpoint named `endpoint` in the spec.
    static func request(ofEndpoint endpoint: String) -> String {
        SwiftIdentifier(typeNamed: endpoint).name + "Request"
    }

    /// `<Endpoint>Failure`, the failure enum (or alias of the shared one) of the endpoint named
    /// `endpoint` in the spec.
    static func failure(ofEndpoint endpoint: String) -> String {
        SwiftIdentifier(typeNamed: endpoint).name + "Failure"
    }

    /// The client method that walks a paginated endpoint's pages: `listIssues` → `listIssuesPages`.
    static func pages(ofEndpoint endpoint: SwiftIdentifier) -> String {
        endpoint.name + "Pages"
    }

    /// `<Endpoint>Content`, the enum of the content types an endpoint's body may take
    /// (`contentTypes:`), one case per content type.
    static func content(ofEndpoint endpoint: String) -> String {
        SwiftIdentifier(typeNamed: endpoint).name + "Content"
    }

    /// `<Endpoint>Outcome`, the enum of an endpoint's documented success statuses.
    static func outcome(ofEndpoint endpoint: String) -> String {
        SwiftIdentifier(typeNamed: endpoint).name + "Outcome"
    }

    /// `<Endpoint>ResponseHeaders`, the struct of the header fields an endpoint's response declares.
    static func responseHeaders(ofEndpoint endpoint: String) -> String {
        SwiftIdentifier(typeNamed: endpoint).name + "ResponseHeaders"
    }

    /// The client method that returns the body with the declared header fields:
    /// `getRepository` → `getRepositoryWithHeaders`.
    static func withHeaders(ofEndpoint endpoint: SwiftIdentifier) -> String {
        endpoint.name + "WithHeaders"
    }

    /// `<Schema>Envelope`, the body that holds a wrapped or arrayed error schema's objects.
    static func envelope(ofErrorSchema schema: SwiftIdentifier) -> String {
        schema.name + "Envelope"
    }

    /// `<service>Defaults`, the `EndpointResilience` constant of the service's `defaults:` hints,
    /// such as `bookshelfDefaults`.
    static func resilienceDefaults(ofService service: SwiftIdentifier) -> String {
        service.name.prefix(1).lowercased() + service.name.dropFirst() + "Defaults"
    }
}

extension GeneratedNames {
    /// Whether a spec name becomes a Swift name its author would not guess from it: more than
    /// joining its words in lower camel case (`created_at` → `createdAt` is expected), such as an
    /// acronym's casing (`itemId` → `itemID`), a number or a name kept clear of a reserved one.
    /// Those renames are what a doc comment and `courier validate --verbose` point out, so that
    /// nobody meets them first as a compiler's label error.
    static func isSurprising(_ swiftName: SwiftIdentifier, for specName: String) -> Bool {
        swiftName.name != plainLowerCamel(specName)
    }

    /// `text` followed by the name on the wire of what it documents, when the Swift name is
    /// surprising: `Spec name: …` for a parameter, whose spec name is its wire name, and
    /// `JSON key: …` for a property, whose spec name may be one `courier import` chose (`plus1`
    /// for the key `+1`), so that a document and its import document the property alike.
    static func noting(wireName: String, of swiftName: SwiftIdentifier, isProperty: Bool, in text: String) -> String {
        guard isSurprising(swiftName, for: wireName) else { return text }
        let separator = text.isEmpty ? "" : (text.hasSuffix(".") ? " " : ". ")
        return text + separator + (isProperty ? "JSON key" : "Spec name") + ": `\(SwiftComment.inline(wireName))`."
    }

    /// The words of `name` joined in lower camel case, each kept as written except the first
    /// letter: what a reader expects `item_id` or `item-id` to become.
    static func plainLowerCamel(_ name: String) -> String {
        let words = name.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard let first = words.first else { return name }
        let head = first.allSatisfy(\.isUppercase) ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
        return head + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
