/// Error meaning: a message's body field fits the case's schema, and one case is retryable or not.
extension SpecValidator {
    /// Checks each case's `message.field` against its error schema, and that a case used by
    /// several mappings is not `retryable: true` at one and `false` at another, since the
    /// generated enum has one `isRetryable` per case.
    ///
    /// With `reportingInherited` false, problems between two inherited mappings are left to
    /// the check of `defaults` itself, as ``checkCaseConsistency(_:owner:reportingInherited:)`` does.
    mutating func checkCaseMeaning(_ mappings: [ErrorMappingSpec], owner: String, reportingInherited: Bool = true) {
        var first: [String: (errorCase: ErrorCaseSpec, isInherited: Bool)] = [:]
        for mapping in mappings {
            for errorCase in mapping.allCases {
                if !mapping.isInherited || reportingInherited, let path = errorCase.messageField,
                   let name = mapping.bodySchema, let schema = schemasByName[name],
                   let problem = problemResolving(path, in: schema) {
                    error("message field '\(path)' of error case '\(errorCase.name)' does not fit error schema '\(name)': \(problem)",
                          at: errorCase.location)
                }
                guard let earlier = first[errorCase.name] else {
                    first[errorCase.name] = (errorCase, mapping.isInherited)
                    continue
                }
                guard reportingInherited || !(earlier.isInherited && mapping.isInherited) else { continue }
                let before = earlier.errorCase
                // Messages keep version 1's rule, the first use's message wins, so that v1 specs
                // such as GitHub's (one `rateLimited` with a text per status) stay valid.
                // `retryable` is new: one case cannot be both, but may say it once.
                if let first = before.retryable, let other = errorCase.retryable, first != other {
                    error("error case '\(errorCase.name)' of \(owner) is 'retryable: \(other)' here but 'retryable: \(first)' "
                          + "where it is first used; one case is retryable or not", at: errorCase.location,
                          notes: [.note("'\(before.name)' is first used here", at: before.location)])
                }
            }
        }
    }
}
