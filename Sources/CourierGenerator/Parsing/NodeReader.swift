
/// Reads a node tree for one file, turning every shape mismatch into a diagnostic instead of
/// stopping, so that one run reports every problem.
final class NodeReader {
    /// The file's path as shown in diagnostics.
    let path: String
    /// What this file has reported so far (capped like the whole run).
    private(set) var diagnostics = DiagnosticCollector()

    init(path: String) {
        self.path = path
    }

    // MARK: Reporting

    func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return .start(of: path) }
        return SourceLocation(file: path, line: max(1, mark.line), column: max(1, mark.column))
    }

    func error(_ message: String, at location: SourceLocation, notes: [Diagnostic] = []) {
        diagnostics.report(Diagnostic.error(message, at: location, notes: notes).singleLined())
    }

    func error(_ message: String, at node: Node) {
        error(message, at: location(of: node))
    }

    func warning(_ message: String, at location: SourceLocation) {
        diagnostics.report(Diagnostic.warning(message, at: location).singleLined())
    }

    func report(_ diagnostic: Diagnostic) {
        diagnostics.report(diagnostic.singleLined())
    }

    // MARK: Shapes

    /// "a mapping", "a list", "a string", "nothing": how a node is named in messages.
    func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let scalar): return isNull(scalar) ? "nothing" : "'\(Self.abbreviated(scalar.string))'"
        }
    }

    func isNull(_ scalar: Node.Scalar) -> Bool {
        scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// Long values are cut in messages, which must stay one readable line.
    static func abbreviated(_ text: String) -> String {
        let singleLine = text.replacingOccurrences(of: "\n", with: "\\n")
        return singleLine.count > 60 ? String(singleLine.prefix(60)) + "…" : singleLine
    }

    /// Warns about explicit YAML tags (`!!binary`, `!custom`): the spec format gives every value
    /// its meaning by position, so a tag changes nothing and is probably a mistake.
    func checkTag(_ node: Node) {
        let name = node.tag.rawValue
        guard !Tag.plain.contains(name) else { return }
        warning("YAML tag '\(NodeReader.abbreviated(name))' is ignored; values are read as written", at: location(of: node))
    }

    /// The node as a mapping, or a diagnostic saying `what` must be a mapping.
    func mapping(_ node: Node, _ what: String) -> Node.Mapping? {
        checkTag(node)
        if case .mapping(let mapping) = node { return mapping }
        error("\(what) must be a mapping, found \(kind(of: node))", at: node)
        return nil
    }

    /// The node as a list, or a diagnostic.
    func sequence(_ node: Node, _ what: String) -> [Node]? {
        checkTag(node)
        if case .sequence(let sequence) = node { return Array(sequence) }
        error("\(what) must be a list, found \(kind(of: node))", at: node)
        return nil
    }

    /// The node as a non-empty string, or a diagnostic.
    func string(_ node: Node, _ what: String) -> String? {
        checkTag(node)
        if case .scalar(let scalar) = node, !isNull(scalar) { return scalar.string }
        error("\(what) must be a string, found \(kind(of: node))", at: node)
        return nil
    }

    /// The scalar's text, if the node is a non-null scalar; no diagnostic.
    func scalarText(_ node: Node) -> String? {
        checkTag(node)
        if case .scalar(let scalar) = node, !isNull(scalar) { return scalar.string }
        return nil
    }

    /// `true` or `false`, or a diagnostic.
    func bool(_ node: Node, _ what: String) -> Bool? {
        switch scalarText(node) {
        case "true": return true
        case "false": return false
        default:
            error("\(what) must be true or false, found \(kind(of: node))", at: node)
            return nil
        }
    }

    /// A whole number in `range`, or a diagnostic.
    func integer(_ node: Node, _ what: String, in range: ClosedRange<Int>) -> Int? {
        if let text = scalarText(node), let value = Int(text), range.contains(value) { return value }
        let bounds = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)…\(range.upperBound)"
        error("\(what) must be a whole number \(bounds), found \(kind(of: node))", at: node)
        return nil
    }

    /// A number of seconds greater than zero, or a diagnostic.
    func seconds(_ node: Node, _ what: String, allowingZero: Bool = false) -> Double? {
        if let text = scalarText(node), let value = Double(text), value.isFinite, allowingZero ? value >= 0 : value > 0 {
            return value
        }
        error("\(what) must be a number of seconds \(allowingZero ? "of 0 or more" : "greater than 0"), found \(kind(of: node))", at: node)
        return nil
    }

    /// A fraction greater than 0 and at most 1, or a diagnostic.
    func fraction(_ node: Node, _ what: String) -> Double? {
        if let text = scalarText(node), let value = Double(text), value.isFinite, value > 0, value <= 1 {
            return value
        }
        error("\(what) must be a fraction greater than 0 and at most 1, such as 0.5, found \(kind(of: node))", at: node)
        return nil
    }

    /// One of `choices`, or a diagnostic that lists them (with a suggestion when one is close).
    func choice<Choice: RawRepresentable>(_ node: Node, _ what: String, _ choices: [Choice]) -> Choice? where Choice.RawValue == String {
        guard let text = string(node, what) else { return nil }
        if let match = choices.first(where: { $0.rawValue == text }) { return match }
        let names = choices.map(\.rawValue)
        let hint = Suggestions.closest(to: text, among: names).map { "; did you mean '\($0)'?" } ?? ""
        error("\(what) must be one of \(names.joined(separator: ", ")), found '\(Self.abbreviated(text))'\(hint)", at: node)
        return nil
    }

    // MARK: Mappings

    /// One entry of a mapping, keyed by its string key.
    struct Entry {
        let key: String
        let keyNode: Node
        let value: Node
    }

    /// The mapping's entries in order. Keys that are not plain strings are diagnosed and skipped.
    func entries(of mapping: Node.Mapping) -> [Entry] {
        var result: [Entry] = []
        result.reserveCapacity(mapping.count)
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode, !isNull(scalar) else {
                error("keys must be strings, found \(kind(of: keyNode))", at: keyNode)
                continue
            }
            result.append(Entry(key: scalar.string, keyNode: keyNode, value: value))
        }
        return result
    }

    /// The entries of a mapping whose keys are fixed, by key. Reports unknown keys (with a
    /// suggestion) and missing required keys (at `owner`, the place that names the mapping).
    ///
    /// The keys come only from `shape`, the table the JSON Schema is written from: there is no
    /// list of keys to pass here, so a key the parser accepts is a key the schema describes.
    /// `unknownKey` may report a key that is not the shape's in its own words (returning `true`);
    /// it cannot make one accepted.
    func fields(of mapping: Node.Mapping, in what: String, shape: SpecShape,
                owner: SourceLocation, unknownKey: (Entry) -> Bool = { _ in false }) -> [String: Entry] {
        let allowed = shape.allowed
        let required = shape.required
        var fields: [String: Entry] = [:]
        // A misspelt required key (`baseUrl`) is one mistake: its did-you-mean says it, so the
        // key is not reported missing as well.
        var suggested: Set<String> = []
        for entry in entries(of: mapping) {
            if allowed.contains(entry.key) {
                fields[entry.key] = entry
            } else if !unknownKey(entry) {
                let suggestion = Suggestions.closest(to: entry.key, among: allowed)
                let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
                error("unknown key '\(Self.abbreviated(entry.key))' in \(what)\(hint)", at: entry.keyNode)
                if let suggestion { suggested.insert(suggestion) }
            }
        }
        for key in required where fields[key] == nil && !suggested.contains(key) {
            error("\(what) is missing required key '\(key)'", at: owner)
        }
        return fields
    }
}
