/// References between models, and recursion among them.
extension SpecValidator {
    /// Reports named types that are not models. Error schemas describe error bodies only, so
    /// they cannot be used as property or body types.
    mutating func checkReference(_ type: TypeReference, at location: SourceLocation, usage: String) {
        for name in type.referencedNames where modelsByName[name] == nil && !brokenNames.contains(name) && !externalTypeNames.contains(name) {
            if schemasByName[name] != nil {
                error("'\(name)' is an error schema, which only error mappings can use; declare a model for \(usage)", at: location)
            } else {
                // A typo of a built-in type reads as a model that is missing; the suggestion, drawn
                // from both, tells which was meant.
                let candidates = PrimitiveType.allCases.map(\.rawValue) + Self.typeNamesElsewhere.keys.sorted() + modelsByName.keys.sorted()
                let hint = Suggestions.closest(to: name, among: candidates)
                    .map { "; did you mean '\(Self.typeNamesElsewhere[$0]?.rawValue ?? $0)'?" } ?? ""
                error("type '\(name)' used by \(usage) is not defined\(hint)", at: location)
            }
        }
    }

    /// What other languages and JSON Schema call the built-in types, so that `Integer` (or its
    /// typo `Integr`) is pointed at `Int`.
    static let typeNamesElsewhere: [String: PrimitiveType] = [
        "Integer": .int, "Long": .int64, "Number": .double, "Float": .double, "Boolean": .bool,
        "Object": .json, "Any": .json, "Bytes": .data, "Uri": .url, "DateTime": .date,
    ]

    // MARK: Recursion

    /// Marks models that reach themselves, and reports cycles through required, non-collection
    /// properties, which no finite JSON value can satisfy.
    mutating func markRecursion() {
        var allEdges: [String: [String]] = [:]
        var requiredEdges: [String: [String]] = [:]
        // The property a required edge goes through, for the message.
        var requiredVia: [String: [String: String]] = [:]
        for model in models {
            // A union reaches what its variants reach; it never holds a required edge, since a
            // union with a variant that does not lead back to it has finite values.
            for variant in model.union?.variants ?? [] {
                for name in variant.type.referencedNames where modelsByName[name] != nil {
                    allEdges[model.name, default: []].append(name)
                }
            }
            for property in model.properties {
                for name in property.type.referencedNames where modelsByName[name] != nil {
                    allEdges[model.name, default: []].append(name)
                }
                if case .named(let name) = property.type, modelsByName[name] != nil {
                    requiredEdges[model.name, default: []].append(name)
                    requiredVia[model.name, default: [:]][name] = requiredVia[model.name]?[name] ?? property.name
                }
            }
        }
        let names = models.map(\.name)
        let recursive = ReferenceGraph(nodes: names, edges: allEdges).nodesOnCycles()
        let requiredGraph = ReferenceGraph(nodes: names, edges: requiredEdges)
        let impossible = requiredGraph.nodesOnCycles()
        var reported = Set<String>()
        for model in models where impossible.contains(model.name) && !reported.contains(model.name) {
            guard let cycle = requiredGraph.cycle(through: model.name, within: impossible) else { continue }
            reported.formUnion(cycle)
            let steps = cycle.enumerated().map { offset, name in
                let next = offset + 1 < cycle.count ? cycle[offset + 1] : model.name
                return "\(name).\(requiredVia[name]?[next] ?? "?")"
            }
            error("model '\(model.name)' contains itself through required properties (\(steps.joined(separator: " → "))); make one of them optional or an array",
                  at: model.location)
        }
        models = models.map { model in
            var model = model
            model.isRecursive = recursive.contains(model.name)
            return model
        }
        modelsByName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
