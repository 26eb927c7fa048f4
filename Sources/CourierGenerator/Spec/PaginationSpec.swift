/// How a list endpoint pages (`paginate:`), so that the client can walk every page.
struct PaginationSpec: Hashable, Sendable, SourceLocated {
    /// Where the next page comes from.
    enum Style: Hashable, Sendable {
        /// RFC 8288 `Link` header with `rel="next"` (GitHub).
        case link
        /// A cursor sent back as query parameter `parameter`, taken from `source`; `hasMore`
        /// names a boolean body field that says whether there are more pages (Stripe's `has_more`).
        case cursor(parameter: String, source: CursorSource, hasMore: FieldPath?)
        /// Numbered pages in query parameter `parameter`, from 1.
        case page(parameter: String, total: TotalSource?)
        /// An offset in query parameter `parameter`: the number of items already seen.
        case offset(parameter: String, total: TotalSource?)
    }

    /// Where a cursor is read.
    enum CursorSource: Hashable, Sendable {
        /// A body field (`response_metadata.next_cursor`); empty or absent means the last page.
        case field(FieldPath)
        /// A member of the page's last item (`lastItem.id`, Stripe's `starting_after`).
        case lastItem(String)
    }

    /// Where the total number of items is read.
    enum TotalSource: Hashable, Sendable {
        /// A body field.
        case field(FieldPath)
        /// A header field (`X-Total-Count`).
        case header(String)
    }

    /// The style.
    var style: Style
    /// The JSON keys from the body to the array of items; empty when the body is the array.
    var items: [String]
    /// Where `paginate:` is written.
    var location: SourceLocation

    /// Creates a pagination.
    init(style: Style, items: [String] = [], location: SourceLocation) {
        self.style = style
        self.items = items
        self.location = location
    }

    /// The query parameter the style sets, if any.
    var parameter: String? {
        switch style {
        case .link: nil
        case .cursor(let parameter, _, _), .page(let parameter, _), .offset(let parameter, _): parameter
        }
    }
}

extension PaginationSpec {
    /// What `items` leads to: the item type, and each step's Swift member name and whether it is
    /// optional.
    struct ResolvedItems: Hashable, Sendable {
        /// The type of one item.
        var item: TypeReference
        /// The Swift member names from the body to the array, escaped.
        var swiftNames: [String]
        /// Whether each step's member is optional.
        var optionalSteps: [Bool]
    }

    /// Why `items` does not lead to an array.
    struct ItemsProblem: Error, Hashable, Sendable {
        /// A sentence saying what is wrong.
        var message: String
    }

    /// Follows ``items`` (JSON keys) from the response body to an array of items.
    ///
    /// - Parameters:
    ///   - body: The response body's type.
    ///   - model: Looks a model up by its spec name.
    func resolveItems(in body: TypeReference, model: (String) -> ModelSpec?) -> Result<ResolvedItems, ItemsProblem> {
        var type = body
        var swiftNames: [String] = []
        var optionalSteps: [Bool] = []
        for key in items {
            guard case .named(let modelName) = type.nonOptional, let found = model(modelName), case .object(let properties) = found.kind else {
                return .failure(ItemsProblem(message: "'items' goes through '\(key)', but '\(type)' is not an object model with members"))
            }
            guard let property = properties.first(where: { $0.jsonKey == key }) else {
                return .failure(ItemsProblem(message: "'\(modelName)' has no member '\(key)' (members are named as in JSON)"))
            }
            swiftNames.append(property.swiftName.escaped)
            optionalSteps.append(property.type.isOptional)
            type = property.type
        }
        guard case .array(let element) = type.nonOptional else {
            return .failure(ItemsProblem(message: items.isEmpty
                ? "the response is '\(type)', not an array; say where the items are with 'items', such as 'items: data'"
                : "'items' leads to '\(type)', not an array"))
        }
        return .success(ResolvedItems(item: element, swiftNames: swiftNames, optionalSteps: optionalSteps))
    }
}
