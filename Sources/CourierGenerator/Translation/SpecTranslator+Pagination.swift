/// `paginate:`: the request type's `pagination` and the client's `<endpoint>Pages` method.
extension SpecTranslator {
    /// The pieces of a paginated endpoint; `nil` when it does not page (or, on an invalid spec,
    /// when its items cannot be found).
    func paginationModel(_ endpoint: EndpointSpec) -> PaginationModel? {
        guard let pagination = endpoint.pagination, let body = endpoint.response.body,
              case .success(let items) = pagination.resolveItems(in: body, model: { spec.model(named: $0) })
        else { return nil }
        let request = requestName(endpoint)
        let itemType = swiftType(items.item)
        let itemsClosure = Self.itemsClosure(items)
        func stored(_ name: String) -> (name: String, isOptional: Bool) {
            let parameter = endpoint.queryParameters.first { $0.name == name }
            let isOptional = parameter.map { $0.type.isOptional && $0.defaultValue == nil } ?? true
            return (parameter.map { GeneratedNames.storedName(ofParameter: $0.swiftName) } ?? name, isOptional)
        }
        var walk = PaginationWalkModel(items: itemsClosure)
        let style: String
        switch pagination.style {
        case .link:
            style = "it follows each page's `Link` header to the page marked `rel=\"next\"`"
            walk.isLink = true
        case .cursor(let parameter, let source, let hasMore):
            let target = stored(parameter)
            var cursor: String
            switch source {
            case .field(let path):
                cursor = "page.raw.discriminator(at: \(SwiftLiteral.string(path.description)))"
                style = "it sends `\(SwiftComment.inline(path.description))` of each page back as `\(SwiftComment.inline(parameter))`"
            case .lastItem(let member):
                let property = Self.member(member, of: items.item, in: spec)
                let access = property.map { "$0.\($0.swiftName.escaped)" } ?? "$0"
                let text = property.map { $0.type.nonOptional == .primitive(.string) ? access : "String(\(access))" } ?? access
                let last = Self.itemsAccess(items, of: "page.value") + ".last"
                cursor = property?.type.isOptional == true
                    ? "\(last).flatMap { \(access).map { String($0) } }"
                    : "\(last).map { \(text) }"
                style = "it sends the last item's `\(SwiftComment.inline(member))` back as `\(SwiftComment.inline(parameter))`"
            }
            if let hasMore {
                // Stop unless the page says there is more.
                cursor = "page.raw.discriminator(at: \(SwiftLiteral.string(hasMore.description))) == \"true\" ? \(cursor) : nil"
            }
            walk.cursor = cursor
            walk.target = target.name
        case .page(let parameter, let total), .offset(let parameter, let total):
            let target = stored(parameter)
            let isPage: Bool
            if case .page = pagination.style { isPage = true } else { isPage = false }
            let current = target.isOptional ? "request.\(target.name) ?? \(isPage ? 1 : 0)" : "request.\(target.name)"
            let totalClosure = total.map { source -> String in
                switch source {
                case .field(let path): "{ $0.raw.discriminator(at: \(SwiftLiteral.string(path.description))).flatMap { Int($0) } }"
                case .header(let name): "{ $0.raw.header(\(SwiftLiteral.string(name))).flatMap { Int($0) } }"
                }
            }
            style = isPage
                ? "it asks for the next page number in `\(SwiftComment.inline(parameter))` until a page is empty\(total == nil ? "" : " or the total is reached")"
                : "it sends the number of items seen as `\(SwiftComment.inline(parameter))` until a page is empty\(total == nil ? "" : " or the total is reached")"
            walk.numbered = NumberedWalkModel(total: totalClosure, seen: isPage ? "_" : "seen",
                                              nextValue: isPage ? "\(target.isOptional ? "(\(current))" : current) + 1" : "seen",
                                              current: current)
            walk.target = target.name
        }
        let method = GeneratedNames.pages(ofEndpoint: endpoint.swiftName)
        let doc = "How `\(clientName).\(method)` walks the pages of `\(endpoint.name)`: \(style)."
        return PaginationModel(doc: SwiftComment.documentation(doc, indentation: "    "), requestType: request, itemType: itemType,
                               walk: walk, method: method)
    }

    /// `{ $0 }`, `{ $0.data }` or `{ $0.result?.items ?? [] }`.
    static func itemsClosure(_ items: PaginationSpec.ResolvedItems) -> String {
        "{ \(itemsAccess(items, of: "$0")) }"
    }

    /// The items of `value`: `value.data`, or `(value.result?.items ?? [])` when a step is optional.
    static func itemsAccess(_ items: PaginationSpec.ResolvedItems, of value: String) -> String {
        var access = value
        var optionalSoFar = false
        for (index, name) in items.swiftNames.enumerated() {
            access += (optionalSoFar ? "?." : ".") + name
            optionalSoFar = optionalSoFar || items.optionalSteps[index]
        }
        guard optionalSoFar else { return access }
        return value == "$0" ? "\(access) ?? []" : "(\(access) ?? [])"
    }

    /// The member of an item model with JSON key `key`.
    static func member(_ key: String, of item: TypeReference, in spec: ServiceSpec) -> PropertySpec? {
        guard case .named(let name) = item.nonOptional, let model = spec.model(named: name), case .object(let properties) = model.kind else {
            return nil
        }
        return properties.first { $0.jsonKey == key }
    }
}

/// A paginated endpoint's `pagination` on its request type, and its client method.
struct PaginationModel: TemplateModel {
    /// The doc comment of `pagination`, indented for a member.
    var doc: String
    /// The request type.
    var requestType: String
    /// The item type.
    var itemType: String
    /// How the walk goes from page to page.
    var walk: PaginationWalkModel
    /// The client method's name.
    var method: String

    /// The fields the templates read.
    static let templateFields: TemplateFields<Self> = [
        "doc": \.doc, "requestType": \.requestType, "itemType": \.itemType, "walk": \.walk, "method": \.method,
    ]
}

/// The facts of a `Pagination` value, which the `requests` template writes as `.link(…)`,
/// `.cursor(…)` or `.numbered(…)`: exactly one of ``isLink``, ``cursor`` and ``numbered`` is set.
struct PaginationWalkModel: TemplateModel {
    /// The closure that takes a page's items, such as `{ $0.data }`.
    var items: String
    /// Whether the walk follows `Link` headers.
    var isLink = false
    /// For a cursor walk: the expression over `page` of the next cursor, `nil` at the end.
    var cursor: String? = nil
    /// For a numbered walk: how the next page's request is numbered.
    var numbered: NumberedWalkModel? = nil
    /// The request's stored property that the cursor or number is written to.
    var target: String? = nil

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "items": \.items, "isLink": \.isLink, "cursor": \.cursor, "numbered": \.numbered, "target": \.target,
    ]
}

/// How a numbered (page or offset) walk numbers its next request.
struct NumberedWalkModel: TemplateModel {
    /// The closure that reads the total from a page, when the spec names one.
    var total: String?
    /// The name of the closure's items-seen argument: `seen` for an offset, `_` for a page number.
    var seen: String
    /// The target's next value, such as `request.page + 1` or `seen`.
    var nextValue: String
    /// The target's current value, which keys the page for loop detection.
    var current: String

    /// The fields the `requests` template reads.
    static let templateFields: TemplateFields<Self> = [
        "total": \.total, "seen": \.seen, "nextValue": \.nextValue, "current": \.current,
    ]
}
