import Foundation

/// What an error case means beyond its name: the user message (a fixed text, the server's
/// words at a body field, a localization key) and whether the failure is worth repeating.
struct CaseMeaning: Hashable {
    /// The spec's text: the whole of `message: "…"`, or its `fallback`.
    var message: String?
    /// `message: { field: … }`.
    var field: FieldPath?
    /// `message: { key: … }`.
    var key: String?
    /// `retryable: true|false`.
    var retryable: Bool?

    /// This meaning with each part the case sets itself taking the place of the inherited one.
    func overridden(by own: CaseMeaning) -> CaseMeaning {
        // A case's own message replaces the mapping's whole message, not part of it: mixing a
        // case's fallback with the mapping's field would be a message nobody wrote.
        let ownMessage = own.message != nil || own.field != nil || own.key != nil
        return CaseMeaning(message: ownMessage ? own.message : message, field: ownMessage ? own.field : field,
                           key: ownMessage ? own.key : key, retryable: own.retryable ?? retryable)
    }
}

extension SpecFileParser {
    /// Reads `message` and `retryable` among the fields of a mapping, condition or case.
    ///
    /// - Parameter body: The error schema the case carries; a `message.field` needs one.
    func parseMeaning(_ fields: [String: NodeReader.Entry], body: String?) -> CaseMeaning {
        var meaning = fields["message"].map { parseMessage($0.value, body: body) } ?? CaseMeaning()
        meaning.retryable = fields["retryable"].flatMap { reader.bool($0.value, "'retryable'") }
        return meaning
    }

    /// `message: "text"` or `message: { field: error.message, fallback: text, key: errors.x }`.
    func parseMessage(_ node: Node, body: String?) -> CaseMeaning {
        guard case .mapping(let mapping) = node else {
            return CaseMeaning(message: reader.string(node, "'message'"))
        }
        let location = reader.location(of: node)
        let fields = reader.fields(of: mapping, in: "'message'", shape: .message, owner: location)
        var meaning = CaseMeaning()
        meaning.message = fields["fallback"].flatMap { reader.string($0.value, "'fallback'") }
        if let entry = fields["field"], let text = reader.string(entry.value, "'field'") {
            switch TypeExpression.parseFieldPath(text) {
            case .success(let path): meaning.field = path
            case .failure(let problem): reader.error(problem.message, at: entry.value)
            }
            if body == nil && !errorBodiesMayBeInherited {
                reader.error("'message' reads the body field '\(NodeReader.abbreviated(text))', so the mapping needs 'body' "
                             + "to name the error schema", at: entry.keyNode)
            }
        }
        if let entry = fields["key"], let key = reader.string(entry.value, "'key'") {
            if key.trimmingCharacters(in: .whitespaces).isEmpty {
                reader.error("'key' of 'message' is empty; name the localization key, such as errors.notFound", at: entry.value)
            } else if meaning.message == nil {
                // Linux and any app without the key show the spec's text, so a key needs one.
                reader.error("'message' has a localization 'key' but no 'fallback' text to show where the key is not "
                             + "localized", at: entry.keyNode)
            } else {
                meaning.key = key
            }
        }
        // Unknown keys are reported already; only an empty mapping needs saying what it lacks.
        if mapping.count == 0 {
            reader.error("'message' needs 'field' (a body field path), 'fallback' (text) or both", at: location)
        }
        return meaning
    }
}

extension ErrorCaseSpec {
    /// The case with `meaning`'s message and retryability.
    func with(_ meaning: CaseMeaning) -> ErrorCaseSpec {
        var copy = self
        copy.message = meaning.message
        copy.messageField = meaning.field
        copy.messageKey = meaning.key
        copy.retryable = meaning.retryable
        return copy
    }
}
