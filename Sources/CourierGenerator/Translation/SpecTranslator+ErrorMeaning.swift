import Foundation

/// What each failure case means: its `errorDescription` and its `isRetryable`.
extension SpecTranslator {
    /// One `errorDescription` branch per case, exhaustive: the server's text at the case's
    /// message field, else the spec's text (localized when it has a key), else a sentence
    /// naming the status. The work is in `FailureMessage`, so each branch is one call.
    ///
    /// - Parameter statuses: The statuses each case (by spec name) is mapped from, for cases
    ///   that carry no body and so no response status.
    func descriptionModels(_ errorCases: [ErrorCaseSpec], statuses: [String: [StatusMatcher]]) -> [DescriptionModel] {
        errorCases.map { item in
            let fallback = specText(item)
            // Without a field to read, the spec's text needs no body, and a case without a body
            // has no status but the ones it is mapped from.
            guard item.bodySchema != nil, fallback == nil || item.messageField != nil else {
                return DescriptionModel(pattern: "." + item.swiftName.escaped,
                                        expression: fallback ?? Self.statusSentence(statuses[item.name] ?? []))
            }
            var arguments = ["for: body"]
            if let field = item.messageField { arguments.append("field: \(SwiftLiteral.string(field.description))") }
            if let fallback { arguments.append("fallback: \(fallback)") }
            return DescriptionModel(pattern: ".\(item.swiftName.escaped)(let body)",
                                    expression: "FailureMessage.text(\(arguments.joined(separator: ", ")))")
        }
    }

    /// The spec's own text as a Swift expression, if it gives one.
    func specText(_ item: ErrorCaseSpec) -> String? {
        guard let text = item.message else { return nil }
        guard let key = item.messageKey else { return SwiftLiteral.string(text) }
        return "FailureMessage.localized(\(SwiftLiteral.string(key)), fallback: \(SwiftLiteral.string(text)))"
    }

    /// The sentence for a case without a body: one status or one class of statuses is named,
    /// several are not.
    static func statusSentence(_ matchers: [StatusMatcher]) -> String {
        switch Set(matchers).count == 1 ? matchers.first : nil {
        case .exact(let status)?: "FailureMessage.statusSentence(\(status))"
        case .range(let hundreds)?: "FailureMessage.statusSentence(in: \(hundreds * 100)...\(hundreds * 100 + 99))"
        case .default?, nil: "FailureMessage.genericSentence"
        }
    }

    /// The `isRetryable` branches of the cases whose spec says `retryable` at any of their uses
    /// in `mappings` (validation keeps the uses from disagreeing); empty when none does, and
    /// then the enum keeps the protocol's `nil`.
    func retryableModels(_ errorCases: [ErrorCaseSpec], mappings: [ErrorMappingSpec]) -> [RetryableModel] {
        var said: [String: Bool] = [:]
        for item in mappings.flatMap(\.allCases) where said[item.name] == nil {
            said[item.name] = item.retryable
        }
        return errorCases.compactMap { item in
            said[item.name].map { RetryableModel(name: item.swiftName.escaped, value: $0 ? "true" : "false") }
        }
    }
}

/// One branch of a failure's `errorDescription`.
struct DescriptionModel: TemplateModel, Hashable {
    /// The case pattern, such as `.notFound(let body)` or `.serverError`.
    var pattern: String
    /// The message expression.
    var expression: String

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = ["pattern": \.pattern, "expression": \.expression]
}

/// One branch of a failure's `isRetryable`.
struct RetryableModel: TemplateModel, Hashable {
    /// The case name, escaped, such as `lockTimeout`.
    var name: String
    /// `true` or `false`.
    var value: String

    /// The fields the `errors` template reads.
    static let templateFields: TemplateFields<Self> = ["name": \.name, "value": \.value]
}

extension SpecTranslator {
    /// `.init(limit: "Rate-Limit", …)` for the spec's `rateLimit:`, naming only what it sets. The
    /// property it is assigned to names the type, so no model of the spec can shadow it.
    func rateLimitFieldsExpression(_ rateLimit: RateLimitSpec) -> String {
        let parts: [(String, String?)] = [
            ("limit", rateLimit.limit), ("remaining", rateLimit.remaining), ("reset", rateLimit.reset),
            ("resetAfter", rateLimit.resetAfter), ("retryAfterField", rateLimit.retryAfterField?.description),
        ]
        let arguments = parts.compactMap { label, value in value.map { "\(label): \(SwiftLiteral.string($0))" } }
        return ".init(\(arguments.joined(separator: ", ")))"
    }
}
