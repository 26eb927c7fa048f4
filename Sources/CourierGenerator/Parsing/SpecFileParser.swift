import Foundation

/// Turns one file's node tree into a ``ParsedSpecFile``: the first, structural half of parsing.
/// Cross-references (types, error schemas, includes) are checked later, once every file is
/// parsed: includes by the loader, the rest by validation.
struct SpecFileParser {
    /// Keys only a service has: a file with any of them is checked as a service.
    static let serviceOnlyKeys = SpecShape.service.allowed.filter { !SpecShape.sharedFile.allowed.contains($0) }

    let reader: NodeReader
    var file: ParsedSpecFile
    /// Whether an error mapping may leave out `body` where it reads the body (a field
    /// discriminator, a `message.field`): an overlay's mapping takes the body the document gave
    /// its status, and is checked once it is applied (``OpenAPIReader/apply(_:)``).
    var errorBodiesMayBeInherited = false

    init(path: String) {
        reader = NodeReader(path: path)
        file = ParsedSpecFile(path: path)
    }

    /// Parses the document root. `nil` means the file held no YAML document.
    mutating func parse(root: Node?) -> ParsedSpecFile {
        guard let root else {
            reader.error("the file is empty; a spec needs at least 'service', 'baseURL' and 'endpoints'", at: .start(of: file.path))
            return file
        }
        guard case .mapping(let mapping) = root else {
            reader.error("the top level must be a mapping with keys such as 'service' and 'endpoints', found \(reader.kind(of: root))", at: root)
            return file
        }
        let keys = reader.entries(of: mapping).map(\.key)
        file.isService = keys.contains { Self.serviceOnlyKeys.contains($0) } || !keys.contains { SpecShape.sharedFile.allowed.contains($0) }
        let fields = reader.fields(
            of: mapping, in: file.isService ? "the service" : "the shared file",
            shape: file.isService ? .service : .sharedFile, owner: .start(of: file.path))

        if let entry = fields["service"], let name = reader.string(entry.value, "'service'") {
            file.serviceName = name
            file.serviceLocation = reader.location(of: entry.value)
            checkIdentifier(name, SwiftIdentifier(typeNamed: name), "service name", at: entry.value)
        }
        file.description = fields["description"].flatMap { reader.string($0.value, "'description'") }
        if let entry = fields["baseURL"] { file.baseURL = parseBaseURL(entry.value) }
        if let entry = fields["access"] { file.access = reader.choice(entry.value, "'access'", AccessLevel.allCases) }
        if let entry = fields["fake"] { file.generatesFake = reader.bool(entry.value, "'fake'") }
        if let entry = fields["equality"] { file.equality = reader.choice(entry.value, "'equality'", ModelEquality.allCases) }
        if let entry = fields["include"] { parseIncludes(entry.value) }
        if let entry = fields["headers"] { file.headers = parseHeaders(entry.value) }
        if let entry = fields["auth"] { parseServiceAuth(entry.value) }
        if let entry = fields["coding"] { file.coding = parseCoding(entry.value) }
        if let entry = fields["rateLimit"] { file.rateLimit = parseRateLimit(entry.value) }
        if let entry = fields["defaults"] { parseDefaults(entry.value) }
        if let entry = fields["errorSchemas"] { parseErrorSchemas(entry.value) }
        if let entry = fields["models"] { parseModels(entry.value) }
        if let entry = fields["endpoints"] { parseEndpoints(entry.value) }
        return file
    }

    // MARK: Service settings

    func parseBaseURL(_ node: Node) -> URL? {
        guard let text = reader.string(node, "'baseURL'") else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else {
            reader.error("'baseURL' must be an absolute http or https URL, found '\(NodeReader.abbreviated(text))'", at: node)
            return nil
        }
        if url.query != nil || url.fragment != nil {
            reader.error("'baseURL' must not have a query or fragment", at: node)
            return nil
        }
        return url
    }

    mutating func parseIncludes(_ node: Node) {
        let items: [Node]
        if case .sequence = node {
            items = reader.sequence(node, "'include'") ?? []
        } else {
            items = [node]
        }
        for item in items {
            guard let path = reader.string(item, "an 'include' entry") else { continue }
            file.includes.append((path, reader.location(of: item)))
        }
    }

    func parseHeaders(_ node: Node) -> [HeaderSpec] {
        guard let mapping = reader.mapping(node, "'headers'") else { return [] }
        var headers: [HeaderSpec] = []
        for entry in reader.entries(of: mapping) {
            let location = reader.location(of: entry.keyNode)
            guard checkHeaderName(entry.key, at: entry.keyNode) else { continue }
            if case .mapping(let fieldsMapping) = entry.value {
                let fields = reader.fields(of: fieldsMapping, in: "header '\(entry.key)'",
                                           shape: .headerValue, owner: location)
                headers.append(HeaderSpec(
                    name: entry.key,
                    value: fields["value"].flatMap { field in
                        reader.string(field.value, "'value'").flatMap { checkHeaderValue($0, of: entry.key, at: field.value) }
                    },
                    isSecret: fields["secret"].flatMap { reader.bool($0.value, "'secret'") } ?? false,
                    description: fields["description"].flatMap { reader.string($0.value, "'description'") },
                    location: location))
            } else if let text = reader.string(entry.value, "the value of header '\(entry.key)'"),
                      let value = checkHeaderValue(text, of: entry.key, at: entry.value) {
                headers.append(HeaderSpec(name: entry.key, value: value, location: location))
            }
        }
        return headers
    }

    func parseCoding(_ node: Node) -> CodingSpec {
        var coding = CodingSpec()
        guard let mapping = reader.mapping(node, "'coding'") else { return coding }
        let fields = reader.fields(of: mapping, in: "'coding'", shape: .coding, owner: reader.location(of: node))
        if let entry = fields["keys"], let keys = reader.choice(entry.value, "'keys'", CodingSpec.KeyStrategy.allCases) {
            coding.keys = keys
        }
        if let entry = fields["dates"], let dates = reader.choice(entry.value, "'dates'", CodingSpec.DateStrategy.allCases) {
            coding.dates = dates
        }
        return coding
    }

    mutating func parseDefaults(_ node: Node) {
        guard let mapping = reader.mapping(node, "'defaults'") else { return }
        let fields = reader.fields(of: mapping, in: "'defaults'", shape: .defaults,
                                   owner: reader.location(of: node))
        if let entry = fields["errors"] {
            file.defaultErrors = parseErrorMappings(entry.value, owner: "'defaults'").map {
                var mapping = $0
                mapping.isInherited = true
                return mapping
            }
        }
        file.defaultResilience = parseResilience(fields)
    }

    // MARK: Shared checks

    func parseType(_ node: Node, _ what: String) -> TypeReference? {
        // `response: [Item]` unquoted is a YAML list holding `Item`, not the type `[Item]`: the
        // pitfall SpecFormat.md warns of, so the message gives the spelling that works.
        if case .sequence(let items) = node, items.count == 1, let element = items.first.flatMap(reader.scalarText) {
            reader.error("\(what) must be a string, found a list; write \"[\(NodeReader.abbreviated(element))]\" in quotes, "
                         + "since YAML reads [\(NodeReader.abbreviated(element))] unquoted as a list", at: node)
            return nil
        }
        guard let text = reader.string(node, what) else { return nil }
        switch TypeExpression.parse(text) {
        case .success(let type): return type
        case .failure(let problem):
            reader.error("invalid type '\(NodeReader.abbreviated(text))' for \(what.replacingOccurrences(of: "the type of ", with: "")): \(problem.message)", at: node)
            return nil
        }
    }

    /// Reports names that cannot become Swift identifiers (no letters or digits at all).
    func checkIdentifier(_ name: String, _ identifier: SwiftIdentifier, _ what: String, at node: Node) {
        if identifier.isPlaceholder {
            reader.error("\(what) '\(NodeReader.abbreviated(name))' has no letters or digits to form a Swift identifier", at: node)
        }
    }

    /// Header names are RFC 9110 tokens.
    @discardableResult
    /// `value` when it can go on the wire as written. HTTPTypes would quietly turn a line break
    /// into a space, so a value with one would be sent changed; a YAML block scalar (`|`) ends in
    /// a line break without the author seeing it, which makes this easy to write by accident.
    func checkHeaderValue(_ value: String, of name: String, at node: Node) -> String? {
        // RFC 9110 field values: visible characters, spaces and tabs; no other control character.
        guard let bad = value.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
            return value
        }
        let what = bad == "\n" || bad == "\r" ? "a line break" : "the control character U+\(String(format: "%04X", bad.value))"
        reader.error("the value of header '\(name)' contains \(what), which cannot be sent in a header field; "
                     + "write the value on one line (a block scalar '|' adds a line break at its end)", at: node)
        return nil
    }

    func checkHeaderName(_ name: String, at node: Node) -> Bool {
        let allowed = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        if !name.isEmpty && name.allSatisfy({ allowed.contains($0) }) { return true }
        reader.error("'\(NodeReader.abbreviated(name))' is not a valid HTTP header name", at: node)
        return false
    }
}
