import Foundation

/// An endpoint's `paginate:`.
extension SpecFileParser {
    /// The keys of `paginate:` that name a style; the others (`items`) apply to every style.
    static let paginationStyles = SpecShape.pagination.allowed.filter { $0 != "items" }

    /// `paginate: link`, or a mapping with one style (`link`, `cursor`, `page`, `offset`) and
    /// `items`, the path to the array of items when the body is not the array itself.
    func parsePagination(_ entry: NodeReader.Entry, endpoint: String) -> PaginationSpec? {
        let location = reader.location(of: entry.keyNode)
        let what = "'paginate' of \(endpoint)"
        if let text = reader.scalarText(entry.value) {
            guard text == "link" else {
                reader.error("\(what) must be 'link' or a mapping with one of \(Self.paginationStyles.map { "'\($0)'" }.joined(separator: ", "))",
                             at: entry.value)
                return nil
            }
            return PaginationSpec(style: .link, location: location)
        }
        guard let mapping = reader.mapping(entry.value, what) else { return nil }
        let fields = reader.fields(of: mapping, in: what, shape: .pagination, owner: location)
        let styles = Self.paginationStyles.compactMap { name in fields[name].map { (name, $0) } }
        guard styles.count == 1, let (name, styleEntry) = styles.first else {
            reader.error("\(what) needs exactly one of \(Self.paginationStyles.map { "'\($0)'" }.joined(separator: ", "))",
                         at: styles.dropFirst().first?.1.keyNode ?? entry.keyNode)
            return nil
        }
        var items: [String] = []
        if let itemsEntry = fields["items"], let text = reader.string(itemsEntry.value, "'items' of \(what)") {
            guard let path = fieldPath(text, at: itemsEntry.value) else { return nil }
            for component in path.components {
                guard case .key(let key) = component else {
                    reader.error("'items' of \(what) names object members only, such as 'data' or 'result.items'", at: itemsEntry.value)
                    return nil
                }
                items.append(key)
            }
        }
        let style: PaginationSpec.Style
        switch name {
        case "link":
            guard let flag = reader.bool(styleEntry.value, "'link' of \(what)") else { return nil }
            guard flag else {
                reader.error("'link' of \(what) is written 'link: true'", at: styleEntry.value)
                return nil
            }
            style = .link
        case "cursor":
            guard let cursor = reader.mapping(styleEntry.value, "'cursor' of \(what)") else { return nil }
            let cursorFields = reader.fields(of: cursor, in: "'cursor' of \(what)", shape: .cursor, owner: reader.location(of: styleEntry.keyNode))
            guard let parameter = cursorFields["param"].flatMap({ reader.string($0.value, "'param'") }),
                  let fromEntry = cursorFields["from"], let from = reader.string(fromEntry.value, "'from'")
            else { return nil }
            let source: PaginationSpec.CursorSource
            if from.hasPrefix("lastItem.") {
                let member = String(from.dropFirst("lastItem.".count))
                guard !member.isEmpty, !member.contains(".") else {
                    reader.error("'from: \(from)' names one member of the last item, such as 'lastItem.id'", at: fromEntry.value)
                    return nil
                }
                source = .lastItem(member)
            } else {
                guard let path = fieldPath(from, at: fromEntry.value) else { return nil }
                source = .field(path)
            }
            var hasMore: FieldPath?
            if let entry = cursorFields["hasMore"], let text = reader.string(entry.value, "'hasMore'") {
                guard let path = fieldPath(text, at: entry.value) else { return nil }
                hasMore = path
            }
            style = .cursor(parameter: parameter, source: source, hasMore: hasMore)
        default:
            guard let numbered = reader.mapping(styleEntry.value, "'\(name)' of \(what)") else { return nil }
            let numberedFields = reader.fields(of: numbered, in: "'\(name)' of \(what)", shape: .numberedPages, owner: reader.location(of: styleEntry.keyNode))
            guard let parameter = numberedFields["param"].flatMap({ reader.string($0.value, "'param'") }) else { return nil }
            var total: PaginationSpec.TotalSource?
            if let entry = numberedFields["total"] {
                if let text = reader.scalarText(entry.value) {
                    guard let path = fieldPath(text, at: entry.value) else { return nil }
                    total = .field(path)
                } else if let header = reader.mapping(entry.value, "'total'") {
                    let headerFields = reader.fields(of: header, in: "'total'", shape: .totalHeader,
                                                     owner: reader.location(of: entry.keyNode))
                    guard let headerEntry = headerFields["header"], let name = reader.string(headerEntry.value, "'header'"),
                          checkHeaderName(name, at: headerEntry.value) else { return nil }
                    total = .header(name)
                }
            }
            style = name == "page" ? .page(parameter: parameter, total: total) : .offset(parameter: parameter, total: total)
        }
        return PaginationSpec(style: style, items: items, location: location)
    }

    private func fieldPath(_ text: String, at node: Node) -> FieldPath? {
        switch TypeExpression.parseFieldPath(text) {
        case .success(let path): return path
        case .failure(let problem):
            reader.error(problem.message, at: node)
            return nil
        }
    }
}
