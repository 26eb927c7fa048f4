import Foundation

/// The top-level `rateLimit:` mapping.
extension SpecFileParser {
    /// `rateLimit: { limit:, remaining:, reset:, resetAfter:, retryAfterField: }`.
    func parseRateLimit(_ node: Node) -> RateLimitSpec? {
        guard let mapping = reader.mapping(node, "'rateLimit'") else { return nil }
        let location = reader.location(of: node)
        let headerKeys = SpecShape.rateLimit.allowed.filter { $0 != "retryAfterField" }
        let fields = reader.fields(of: mapping, in: "'rateLimit'", shape: .rateLimit, owner: location)
        var headers: [String: String] = [:]
        for key in headerKeys {
            guard let entry = fields[key], let name = reader.string(entry.value, "'\(key)' of 'rateLimit'"),
                  checkHeaderName(name, at: entry.value) else { continue }
            headers[key] = name
        }
        var spec = RateLimitSpec(limit: headers["limit"], remaining: headers["remaining"], reset: headers["reset"],
                                 resetAfter: headers["resetAfter"], location: location)
        if let entry = fields["retryAfterField"], let text = reader.string(entry.value, "'retryAfterField' of 'rateLimit'") {
            switch TypeExpression.parseFieldPath(text) {
            case .success(let path): spec.retryAfterField = path
            case .failure(let problem): reader.error(problem.message, at: entry.value)
            }
        }
        if fields.isEmpty {
            reader.error("'rateLimit' names none of 'limit', 'remaining', 'reset', 'resetAfter' or 'retryAfterField'", at: location)
        }
        return spec
    }
}
