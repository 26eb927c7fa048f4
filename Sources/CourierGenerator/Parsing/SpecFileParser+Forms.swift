import Yams

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
            let contentType = itemFields["contentType"].flatMap { reader.string($0.value, "'contentType'") } ?? RequestBodySpec.json
            var caseName: String?
            if let caseEntry = itemFields["case"], let text = reader.string(caseEntry.value, "'case'") {
                checkIdentifier(text, SwiftIdentifier(memberNamed: text), "case name", at: caseEntry.value)
                caseName = text
            }
            variants.append(BodyVariantSpec(type: type, contentType: contentType, formStyle: itemFields["form"].flatMap { parseFormStyle($0.value) },
                                            caseName: caseName, location: itemLocation))
        }
        guard let first = variants.first else { return nil }
        return RequestBodySpec(type: first.type, contentType: first.contentType, description: description, variants: variants,
                               location: location)
    }
}
