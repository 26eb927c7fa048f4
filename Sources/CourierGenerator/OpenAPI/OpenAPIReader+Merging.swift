import Foundation

/// Where a model made from an inline schema came from: what finding alike inline schemas and
/// naming them once needs.
struct InlineOrigin {
    /// The schema's location, as the key ``OpenAPIReader/inlineModelNames`` and the naming plan use.
    var key: String
    /// The name its place gave it (`GetTripsResponseLinks`), before a title or a number.
    var pathName: String
    /// Its `title`, if it has one.
    var title: String?
    /// Where it is, for the report of a merge.
    var location: SourceLocation
}

/// Inline schemas that come out alike are one model.
///
/// Documents repeat small inline shapes: train-travel's `links` object (an `allOf` of two
/// components) is written out in three list responses, and its create and get operations answer
/// the same inline `allOf`. Read one path at a time, each is a model of its own
/// (`GetStationsResponseLinks`, `GetTripsResponseLinks`…), identical but for the name, and a
/// person would keep one. After a first reading, ``mergePlan()`` groups the inline models that
/// are alike, field for field, once the models they refer to are grouped too; then the document
/// is read again with one name per group, so that every use, nested models included, gets it.
/// Components are never merged: the document named them.
extension OpenAPIReader {
    /// What the first reading found: a name for each inline schema of a merged group, by its
    /// location, and the groups for the report.
    struct MergePlan {
        /// The name of each merged schema's group, by the schema's location key.
        var names: [String: String] = [:]
        /// Each group with every place it was written, for `courier import` to report.
        var groups: [MergedModelSpec] = []
    }

    /// Groups the inline models of the first reading that are alike and names each group: its
    /// members' shared title, else the words their path names end with alike when those say
    /// something (`CreateBookingResponse` and `GetBookingResponse` → `BookingResponse`), else the
    /// shortest path name. A name another type has is never taken.
    func mergePlan() -> MergePlan {
        let inline = file.models.filter { inlineOrigins[$0.name] != nil }
        guard inline.count > 1 else { return MergePlan() }
        // Group until nothing changes: two parents are alike only once their children are one.
        var representative: [String: String] = [:]
        var groups: [[String]] = []
        // Each round merges one more level of nesting; documents nest a few levels, and a group
        // found in any round is sound, since a round merges only models alike under the last.
        for _ in 0..<32 {
            var byShape: [String: [String]] = [:]
            var order: [String] = []
            for model in inline {
                let shape = Self.shape(of: model, representative: representative)
                if byShape[shape] == nil { order.append(shape) }
                byShape[shape, default: []].append(model.name)
            }
            groups = order.compactMap { byShape[$0] }.filter { $0.count > 1 }
            var next: [String: String] = [:]
            for group in groups {
                for member in group { next[member] = group[0] }
            }
            if next == representative { break }
            representative = next
        }
        // A nested model of a merged parent goes with it; only groups whose members survive a
        // merge of their parents need a name, and those are the ones the second reading meets.
        var plan = MergePlan()
        var taken = takenTypeNames
        for group in groups {
            for member in group { taken.remove(member) }
        }
        for group in groups {
            let origins = group.compactMap { inlineOrigins[$0] }
            let name = groupName(origins, members: group, taken: taken)
            taken.insert(name)
            for origin in origins { plan.names[origin.key] = name }
            plan.groups.append(MergedModelSpec(name: name, locations: origins.map(\.location)))
        }
        return plan
    }

    /// The name of a group of alike inline models (see ``mergePlan()``).
    private func groupName(_ origins: [InlineOrigin], members: [String], taken: Set<String>) -> String {
        var candidates: [String] = []
        let titles = Set(origins.map { $0.title.map { SwiftIdentifier(typeNamed: $0).name } })
        if titles.count == 1, let title = titles.first ?? nil { candidates.append(title) }
        let words = origins.map { NameWords.split($0.pathName) }
        var common: [String] = words.first ?? []
        for other in words.dropFirst() {
            var count = 0
            while count < min(common.count, other.count), common[common.count - 1 - count] == other[other.count - 1 - count] {
                count += 1
            }
            common = Array(common.suffix(count))
        }
        // The words of how a place is named say nothing of what it is (`Item`, `Value`,
        // `Variant2`), so a leading one goes (`ResponseLinks` is `Links`), and one alone is no name.
        let placeWords: Set<String> = ["Item", "Value", "Body", "Response", "Content", "Request"]
        while common.count > 1, placeWords.contains(common[0]) { common.removeFirst() }
        if common.count > 1 || (common.count == 1 && !placeWords.contains(common[0]) && !common[0].hasPrefix("Variant")) {
            candidates.append(SwiftIdentifier(typeNamed: common.joined(separator: " ")).name)
        }
        // The shortest path, as the first reading named it (a numbered name stays numbered).
        let shortest = zip(origins, members).min { $0.0.pathName.count < $1.0.pathName.count }
        if let shortest { candidates.append(SwiftIdentifier(typeNamed: shortest.0.pathName).name) }
        for candidate in candidates
        where candidate.first?.isLetter == true && !taken.contains(candidate) && !componentTypeNames.contains(candidate) {
            // A keyword (`Type`, from three `type` enums) would be written in backticks at every
            // use, and says nothing of what it is: the shortest path says more.
            if SwiftIdentifier(verbatim: candidate).needsEscaping { continue }
            return candidate
        }
        return shortest?.1 ?? members[0]
    }

    /// A model as text that two alike models share: its kind, properties, cases and variants
    /// with every model it names replaced by its group's first member, and without locations or
    /// its own name and description (the first member's description is kept).
    static func shape(of model: ModelSpec, representative: [String: String]) -> String {
        func type(_ reference: TypeReference) -> String {
            switch reference {
            case .primitive(let primitive): primitive.rawValue
            case .named(let name): "@" + (representative[name] ?? name)
            case .array(let element): "[" + type(element) + "]"
            case .map(let value): "[:" + type(value) + "]"
            case .optional(let wrapped): type(wrapped) + "?"
            }
        }
        func text(_ value: String?) -> String { value.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" } ?? "-" }
        var parts: [String] = []
        switch model.kind {
        case .object(let properties):
            parts.append("object")
            for property in properties {
                parts.append([property.name, property.jsonKey, property.swiftName.name, type(property.type), text(property.description),
                              property.dates?.rawValue ?? "-", String(property.isNullable), property.defaultValue.map { "\($0)" } ?? "-",
                              String(property.isReadOnly)].joined(separator: "|"))
            }
        case .stringEnum(let cases):
            parts.append("enum")
            parts += cases.map { [$0.value, $0.swiftName.name, text($0.description)].joined(separator: "|") }
        case .numberEnum(let raw, let cases):
            parts.append("enum " + raw.rawValue)
            parts += cases.map { [$0.value, $0.swiftName.name, text($0.description)].joined(separator: "|") }
        case .union(let union):
            parts.append("union")
            parts += union.variants.map { [type($0.type), text($0.description)].joined(separator: "|") }
            if let discriminator = union.discriminator {
                parts.append("discriminator " + discriminator.property)
                parts += discriminator.mapping.map { "\($0.value)|\($0.isPlainInteger)|@\(representative[$0.variant] ?? $0.variant)" }
            }
        case .composition:
            // The reader flattens `allOf` into objects; a composition is never alike another.
            parts.append("composition " + model.name)
        }
        return parts.joined(separator: "\n")
    }
}
