/// Error meaning: a message's body field fits the case's schema, one case has one message, and
/// one case is retryable or not.
extension SpecValidator {
    /// Checks each case's `message.field` against its error schema, and that the uses of a case
    /// that give a message give the same one (text, `field` and `key`) and are not
    /// `retryable: true` at one and `false` at another, since the generated enum has one
    /// `errorDescription` branch and one `isRetryable` per case.
    ///
    /// With `reportingInherited` false, problems between two inherited mappings are left to
    /// the check of `defaults` itself, as ``checkCaseConsistency(_:owner:reportingInherited:)`` does.
    mutating func checkCaseMeaning(_ mappings: [ErrorMappingSpec], owner: String, reportingInherited: Bool = true) {
        var first: [String: (errorCase: ErrorCaseSpec, isInherited: Bool)] = [:]
        // The first use of each case that gives a message.
        var messages: [String: (summary: MessageSummary, location: SourceLocation, isInherited: Bool)] = [:]
        for mapping in mappings {
            for errorCase in mapping.allCases {
                defer {
                    if errorCase.givesMessage, messages[errorCase.name] == nil {
                        messages[errorCase.name] = (MessageSummary(errorCase), errorCase.location, mapping.isInherited)
                    }
                }
                if !mapping.isInherited || reportingInherited, let path = errorCase.messageField,
                   let name = mapping.bodySchema, let schema = schemasByName[name],
                   let problem = problemResolving(path, in: schema) {
                    error("message field '\(path)' of error case '\(errorCase.name)' does not fit error schema '\(name)': \(problem)",
                          at: errorCase.location)
                }
                // The enum has one message per case. Like `retryable`, it may be given at one use
                // (`not_authed: invalidAuth` names a case whose message another use states) and
                // then holds for every use; a second, different message would be dropped without
                // a word, so it is an error that names both.
                if errorCase.givesMessage, let stated = messages[errorCase.name],
                   reportingInherited || !(stated.isInherited && mapping.isInherited), MessageSummary(errorCase) != stated.summary {
                    error("error case '\(errorCase.name)' of \(owner) has \(MessageSummary(errorCase)) here but \(stated.summary) "
                          + "at an earlier use; one case has one message, so give it once, or the same at each use, or use two cases",
                          at: errorCase.location, notes: [.note("'\(errorCase.name)' has its message here", at: stated.location)])
                }
                guard let earlier = first[errorCase.name] else {
                    first[errorCase.name] = (errorCase, mapping.isInherited)
                    continue
                }
                guard reportingInherited || !(earlier.isInherited && mapping.isInherited) else { continue }
                let before = earlier.errorCase
                // `retryable` may be said once, at any use, and then holds for the case.
                if let first = before.retryable, let other = errorCase.retryable, first != other {
                    error("error case '\(errorCase.name)' of \(owner) is 'retryable: \(other)' here but 'retryable: \(first)' "
                          + "where it is first used; one case is retryable or not", at: errorCase.location,
                          notes: [.note("'\(before.name)' is first used here", at: before.location)])
                }
            }
        }
    }
}

/// A case's message as its spec writes it, compared between the uses of one case and named in
/// the diagnostic when they differ.
private struct MessageSummary: Equatable, CustomStringConvertible {
    var text: String?
    var field: String?
    var key: String?

    init(_ errorCase: ErrorCaseSpec) {
        text = errorCase.message
        field = errorCase.messageField?.description
        key = errorCase.messageKey
    }

    /// `no message`, `the message "Slow down."`, or the mapping form with the keys given.
    var description: String {
        if field == nil, key == nil {
            return text.map { "the message \"\($0)\"" } ?? "no message"
        }
        var keys: [String] = []
        if let field { keys.append("field: \(field)") }
        if let text { keys.append("fallback: \"\(text)\"") }
        if let key { keys.append("key: \(key)") }
        return "the message { " + keys.joined(separator: ", ") + " }"
    }
}
