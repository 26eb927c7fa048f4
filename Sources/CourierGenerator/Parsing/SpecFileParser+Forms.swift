
/// Form and text bodies, several content types, and query parameter styles.
extension SpecFileParser {
    func parseParameterStyle(_ fields: [String: NodeReader.Entry], what: String) -> ParameterStyleSpec? {
        let styleEntry = fields["style"]
        let explodeEntry = fields["explode"]
        guard let first = [styleEntry, explodeEntry].compactMap({ $0 }).min(by: { reader.location(of: $0.keyNode) < reader.location(of: $1.keyNode) })
        else { return nil }
        var style: ParameterStyleSpec.Style?
        if let styleEntry, let text = reader.string(styleEntry.value, "the 'style' of \(what)") {
            style = ParameterStyleSpec.Style(rawValue: text)
            if style == nil {
                let names = ParameterStyleSpec.Style.allCases.map(\.rawValue)
                let hint = Suggestions.closest(to: text, among: names).map { "; did you mean '\($0)'?" } ?? ""
                reader.error("unknown 'style' '\(NodeReader.abbreviated(text))' of \(what); expected one of \(names.joined(separator: ", "))\(hint)",
                             at: styleEntry.value)
            }
        }
        let explode = explodeEntry.flatMap { reader.bool($0.value, "'explode' of \(what)") }
        return ParameterStyleSpec(style: style, explode: explode, location: reader.location(of: first.keyNode))
    }

    func parseFormStyle(_ node: Node) -> FormStyleSpec? {
        guard let mapping = reader.mapping(node, "'form'") else { return nil }
        let fields = reader.fields(of: mapping, in: "'form'", shape: .formStyle, owner: reader.location(of: node))
        var style = FormStyleSpec()
        func read<Option: RawRepresentable & CaseIterable>(_ key: String, _ type: Option.Type) -> Option? where Option.RawValue == String {
            guard let entry = fields[key], let text = reader.string(entry.value, "'\(key)' of 'form'") else { return nil }
            if let option = Option(rawValue: text) { return option }
            let names = Option.allCases.map(\.rawValue)
            reader.error("'\(key)' of 'form' is '\(NodeReader.abbreviated(text))'; expected one of \(names.joined(separator: ", "))", at: entry.value)
            return nil
        }
        if let objects = read("objects", FormStyleSpec.Objects.self) { style.objects = objects }
        if let arrays = read("arrays", FormStyleSpec.Arrays.self) { style.arrays = arrays }
        return style
    }

    /// `contentType:`: a media type (`text/csv`), or `{ type: application/x-amz-json-1.0, coding: json }`
    /// for a media type whose name does not say that the body is JSON. `nil` when the value is
    /// neither, which is reported here; whether the media type is well formed is checked where
    /// the string form's is, so both forms get one message.
    func parseContentType(_ entry: NodeReader.Entry) -> (type: String, coding: MediaCoding?)? {
        guard case .mapping(let mapping) = entry.value else {
            return reader.string(entry.value, "'contentType' (a media type, or a mapping with 'type' and 'coding')").map { ($0, nil) }
        }
        let fields = reader.fields(of: mapping, in: "'contentType'", shape: .mediaType, owner: reader.location(of: entry.keyNode))
        guard let typeEntry = fields["type"], let type = reader.string(typeEntry.value, "the 'type' of 'contentType'") else { return nil }
        guard let codingEntry = fields["coding"], let text = reader.string(codingEntry.value, "the 'coding' of 'contentType'") else { return nil }
        guard let coding = MediaCoding(rawValue: text) else {
            let names = MediaCoding.allCases.map(\.rawValue)
            let hint = Suggestions.closest(to: text, among: names).map { "; did you mean '\($0)'?" } ?? ""
            let expected = names.map { "'\($0)'" }.joined(separator: ", ")
            reader.error("unknown 'coding' '\(NodeReader.abbreviated(text))' of content type '\(NodeReader.abbreviated(type))'; expected "
                         + "\(expected) (a body Courier does not code is 'Data', sent and read as it is)\(hint)", at: codingEntry.value)
            return nil
        }
        return (type, coding)
    }

    /// `contentTypes:` — a list of `{ type, contentType?, form?, case? }`.
    func parseBodyVariants(_ entry: NodeReader.Entry, fields: [String: NodeReader.Entry], description: String?,
                           location: SourceLocation) -> RequestBodySpec? {
        for key in ["type", "properties", "contentType", "form"] {
            if let other = fields[key] {
                reader.error("'body' has both 'contentTypes' and '\(key)'; with 'contentTypes' each entry gives its own type and content type",
                             at: other.keyNode)
            }
        }
        guard let items = reader.sequence(entry.value, "'contentTypes'") else { return nil }
        if items.isEmpty {
            reader.error("'contentTypes' is empty; list at least one { type: …, contentType: … }", at: entry.value)
            return nil
        }
        var variants: [BodyVariantSpec] = []
        for item in items {
            guard let mapping = reader.mapping(item, "an entry of 'contentTypes'") else { continue }
            let itemLocation = reader.location(of: item)
            let itemFields = reader.fields(of: mapping, in: "an entry of 'contentTypes'", shape: .bodyVariant, owner: itemLocation)
            guard let typeEntry = itemFields["type"], let type = parseType(typeEntry.value, "the type of a 'contentTypes' entry") else { continue }
            let mediaType = itemFields["contentType"].flatMap { parseContentType($0) }
            var caseName: String?
            if let caseEntry = itemFields["case"], let text = reader.string(caseEntry.value, "'case'") {
                checkIdentifier(text, SwiftIdentifier(memberNamed: text), "case name", at: caseEntry.value)
                caseName = text
            }
            var variant = BodyVariantSpec(type: type, contentType: mediaType?.type ?? RequestBodySpec.json,
                                          formStyle: itemFields["form"].flatMap { parseFormStyle($0.value) }, caseName: caseName,
                                          location: itemLocation)
            variant.mediaCoding = mediaType?.coding
            variants.append(variant)
        }
        guard let first = variants.first else { return nil }
        return RequestBodySpec(type: first.type, contentType: first.contentType, description: description, variants: variants,
                               location: location)
    }
}
