import Foundation

/// Writes large, realistic, valid specs of any size, for benchmarks and scale tests.
///
/// The output looks like a typical REST API: resources with list, get, create, update and delete
/// endpoints, some nested under a parent resource; path, query, header and body parameters
/// (named models and inline bodies); nested models, arrays, maps, recursion, string enums;
/// service defaults for headers, auth, coding, resilience and errors; three error schemas
/// (top-level, wrapped and array shapes); exact statuses, a range, and body and header
/// discriminators.
///
/// ```swift
/// let spec = try SyntheticSpecGenerator(SyntheticSpecConfiguration(endpoints: 1_000)).generate()
/// try spec.yaml.write(toFile: "Synthetic.yaml", atomically: true, encoding: .utf8)
/// ```
///
/// The same configuration always gives byte-identical output, and every spec it writes
/// validates without errors or warnings.
public struct SyntheticSpecGenerator: Sendable {
    /// The sizes and seed to generate.
    public var configuration: SyntheticSpecConfiguration

    /// Creates a generator for `configuration`.
    public init(_ configuration: SyntheticSpecConfiguration) {
        self.configuration = configuration
    }

    /// Writes the spec, as a Courier spec or as its OpenAPI twin.
    public func generate(_ format: SyntheticSpecFormat = .courier) throws(SyntheticSpecError) -> SyntheticSpec {
        try configuration.validate()
        var writer = SyntheticSpecWriter(configuration: configuration)
        return writer.write(format)
    }
}

/// The format a synthetic API is written in.
public enum SyntheticSpecFormat: Hashable, Sendable {
    /// A Courier spec.
    case courier
    /// An OpenAPI 3.1 document of the same API: the same operations, parameters, models, bodies
    /// and error statuses, less what OpenAPI cannot say (resilience hints, idempotency keys, error
    /// discriminators and messages). Every operation documents its own errors, as OpenAPI
    /// documents do, so other generators can be measured on the same API.
    case openAPI
}

/// A synthetic spec and what it contains.
public struct SyntheticSpec: Hashable, Sendable {
    /// The configuration it was made from.
    public var configuration: SyntheticSpecConfiguration
    /// The spec's YAML text (a Courier spec or an OpenAPI document), ending with a newline.
    public var yaml: String
    /// How many of the declared models are objects.
    public var objectModelCount: Int
    /// How many of the declared models are string enums.
    public var enumModelCount: Int
    /// How many endpoints have an inline request body, each of which adds a synthesized model
    /// (`<Endpoint>Body`) to the validated spec.
    public var inlineBodyCount: Int
    /// The number of lines of `yaml`.
    public var lineCount: Int
}

/// Lays out one synthetic spec. Names come from ``SyntheticVocabulary`` and indexes; only type
/// choices and optional parts are random.
struct SyntheticSpecWriter {
    enum Stream: UInt64 {
        case model = 1, endpoint = 2
    }

    struct ObjectModel {
        let name: String
        let plural: String
        /// The path parameter that names one of it, such as `invoiceId`.
        let idParameter: String
        let idType: String
    }

    let configuration: SyntheticSpecConfiguration
    var text = ""
    var objects: [ObjectModel] = []
    /// Enum names and their first raw value, for typed query parameters with defaults.
    var enums: [(name: String, firstValue: String)] = []
    /// For each declared model in order: its object or enum ordinal.
    var layout: [(isEnum: Bool, ordinal: Int)] = []
    var inlineBodies = 0

    init(configuration: SyntheticSpecConfiguration) {
        self.configuration = configuration
    }

    mutating func write(_ format: SyntheticSpecFormat) -> SyntheticSpec {
        planModels()
        switch format {
        case .courier: writeCourier()
        case .openAPI: writeOpenAPI()
        }
        let lines = text.utf8.reduce(into: 0) { count, byte in if byte == UInt8(ascii: "\n") { count += 1 } }
        return SyntheticSpec(configuration: configuration, yaml: text, objectModelCount: objects.count,
                             enumModelCount: enums.count, inlineBodyCount: inlineBodies, lineCount: lines)
    }

    private mutating func writeCourier() {
        text.reserveCapacity(configuration.endpoints * 700 + configuration.models * configuration.propertiesPerModel * 40)
        writeHeader()
        writeModels()
        writeEndpoints()
    }

    // MARK: Names

    /// Every sixth model is an enum once there are enough models to need a variety.
    mutating func planModels() {
        let count = configuration.models
        for index in 0..<count {
            let isEnum = count >= 4 && index % 6 == 5
            if isEnum {
                let ordinal = enums.count
                let values = Self.enumValues(ordinal: ordinal)
                enums.append((Self.numbered(SyntheticVocabulary.enumNames, ordinal), values[0]))
                layout.append((true, ordinal))
            } else {
                let ordinal = objects.count
                let nouns = SyntheticVocabulary.resources
                let noun = nouns[ordinal % nouns.count]
                let suffix = Self.suffix(ordinal, of: nouns.count)
                let name = noun.singular + suffix
                objects.append(ObjectModel(
                    name: name, plural: noun.plural + suffix,
                    idParameter: SyntheticVocabulary.lowerFirst(noun.singular) + suffix + "Id",
                    idType: ordinal % 3 == 2 ? "String" : "Int64"))
                layout.append((false, ordinal))
            }
        }
    }

    /// `""` for the first round through a word list, then `2`, `3`, ...
    static func suffix(_ ordinal: Int, of count: Int) -> String {
        ordinal < count ? "" : String(ordinal / count + 1)
    }

    static func numbered(_ words: [String], _ ordinal: Int) -> String {
        words[ordinal % words.count] + suffix(ordinal, of: words.count)
    }

    static func enumValues(ordinal: Int) -> [String] {
        let values = SyntheticVocabulary.enumValues
        let start = (ordinal * 5) % values.count
        return (0..<(3 + ordinal % 4)).map { values[(start + $0) % values.count] }
    }

    // MARK: Output helpers

    mutating func line(_ indent: Int, _ content: String) {
        text.append(String(repeating: " ", count: indent * 2))
        text.append(content)
        text.append("\n")
    }

    /// A scalar as YAML: plain when that is unambiguous, otherwise double-quoted.
    static func scalar(_ value: String) -> String {
        let isPlain = value.first.map { $0.isLetter } == true && value.last != " "
            && value.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || " _.;'?-".unicodeScalars.contains(scalar)
            }
        if isPlain { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    // MARK: Service

    /// The `courier synthesize` options that write this spec again.
    var optionsText: String {
        "--endpoints \(configuration.endpoints) --models \(configuration.models) "
            + "--properties \(configuration.propertiesPerModel) --errors \(configuration.errorMappingsPerEndpoint) "
            + "--seed \(configuration.seed)"
            + (configuration.editedEndpoint.map { " --edit-endpoint \($0)" } ?? "")
    }

    mutating func writeHeader() {
        line(0, "# A synthetic spec: courier synthesize \(optionsText)")
        line(0, "# The same options always give the same bytes.")
        line(0, "service: \(configuration.serviceName)")
        line(0, "description: >-")
        line(1, "A synthetic service with \(configuration.endpoints) endpoints and \(configuration.models) models,")
        line(1, "written to measure the generator on specs of realistic shape and any size.")
        line(0, "baseURL: https://api.synthetic.example.com/v1")
        line(0, "headers:")
        line(1, "Accept: application/json")
        line(1, "X-Api-Version: { value: \"2024-06-01\", description: Pins the response shapes. }")
        line(1, "X-Partner-Key: { secret: true, description: The partner key given at sign-up. }")
        line(0, "auth: bearer")
        line(0, "coding: { keys: snake_case, dates: iso8601 }")
        line(0, "")
        line(0, "defaults:")
        line(1, "timeout: 20")
        line(1, "retry: { maxAttempts: 3, baseDelay: 0.2, maxDelay: 5 }")
        line(1, "breaker: { failureThreshold: 5, resetAfter: 30 }")
        line(1, "errors:")
        line(2, "401: unauthorized")
        line(2, "429: { case: rateLimited, body: Problem, message: Too many requests; try again shortly. }")
        line(2, "5XX: { case: serverError, body: Problem, description: The service failed. }")
        line(2, "default: unexpected")
        line(0, "")
        line(0, "errorSchemas:")
        line(1, "Problem:")
        line(2, "description: An RFC 9457-style problem object.")
        line(2, "properties:")
        line(3, "code: String")
        line(3, "message: String")
        line(3, "details: \"[String]?\"")
        line(3, "traceId: { type: String?, description: Quote it when reporting a problem. }")
        line(1, "ServiceError:")
        line(2, "wrappedIn: error")
        line(2, "properties: { type: String, code: String, message: String?, param: String? }")
        line(1, "ErrorList:")
        line(2, "arrayIn: errors")
        line(2, "properties: { status: String, code: String, title: String?, detail: String? }")
    }

    // MARK: Models

    mutating func writeModels() {
        line(0, "")
        line(0, "models:")
        for entry in layout {
            if entry.isEnum {
                writeEnum(ordinal: entry.ordinal)
            } else {
                writeObject(ordinal: entry.ordinal)
            }
        }
    }

    mutating func writeEnum(ordinal: Int) {
        line(1, "\(enums[ordinal].name):")
        if ordinal % 3 == 0 { line(2, "description: Where the item stands.") }
        line(2, "enum:")
        for value in Self.enumValues(ordinal: ordinal) { line(3, "- \(value)") }
        if ordinal % 4 == 1 {
            line(3, "- { value: -created_at, case: newestFirst, description: Newest first. }")
        }
    }

    /// One property of a synthetic object model.
    struct Property {
        var name: String
        /// A Courier type expression.
        var type: String
        var description: String?
        /// The JSON key, where it is not the name in `snake_case`.
        var jsonKey: String?
    }

    mutating func writeObject(ordinal: Int) {
        let model = objects[ordinal]
        line(1, "\(model.name):")
        if let description = objectDescription(ordinal) { line(2, "description: \(description)") }
        line(2, "properties:")
        for property in planObject(ordinal: ordinal) {
            if let description = property.description {
                line(3, "\(property.name): { type: \(Self.scalar(property.type)), description: \(description) }")
            } else if let jsonKey = property.jsonKey {
                line(3, "\(property.name): { type: \(Self.scalar(property.type)), json: \(jsonKey) }")
            } else {
                line(3, "\(property.name): \(Self.scalar(property.type))")
            }
        }
    }

    func objectDescription(_ ordinal: Int) -> String? {
        ordinal % 3 == 0 ? "One \(SyntheticVocabulary.lowerFirst(objects[ordinal].name)) and its details." : nil
    }

    /// The properties of object `ordinal`, `id` first.
    func planObject(ordinal: Int) -> [Property] {
        var random = SyntheticRandom(seed: configuration.seed, stream: Stream.model.rawValue, index: ordinal)
        let model = objects[ordinal]
        var properties = [Property(name: "id", type: "Int64")]
        let count = configuration.propertiesPerModel
        guard count > 1 else { return properties }
        var used: Set<String> = ["id"]
        for index in 1..<count {
            let isRecursiveLink = ordinal % 10 == 9 && count >= 3 && index == count - 1
            if isRecursiveLink {
                properties.append(Property(name: "parent", type: "\(model.name)?", description: "The item this one belongs to."))
                continue
            }
            let words = SyntheticVocabulary.properties
            let word = words[(index * 7 + ordinal) % words.count]
            let fallback = word.name + Self.suffix(index, of: words.count)
            var (name, type) = property(word: (fallback, word.type), of: ordinal, random: &random)
            if used.contains(name) { name = fallback + name.prefix(1).uppercased() + name.dropFirst() }
            while used.contains(name) { name += "Extra" }
            used.insert(name)
            switch index % 13 {
            case 5:
                properties.append(Property(name: name, type: type, description: "The \(name) as the server reports it."))
            case 11:
                properties.append(Property(name: name, type: type, jsonKey: "legacy" + name.prefix(1).uppercased() + name.dropFirst()))
            default:
                properties.append(Property(name: name, type: type))
            }
        }
        return properties
    }

    /// A property of object `ordinal`: a scalar named from the word list, or a reference to an
    /// enum or object named after what it holds. Required references point only at earlier
    /// objects, so that required properties never form a cycle (which has no finite JSON value);
    /// optional and collection references may point anywhere, including back.
    func property(word: (name: String, type: String), of ordinal: Int,
                          random: inout SyntheticRandom) -> (name: String, type: String) {
        let roll = random.below(100)
        let target = objects[random.below(objects.count)]
        let enumName = enums.isEmpty ? nil : enums[random.below(enums.count)].name
        let optional = random.chance(33) ? "?" : ""
        let scalar = word.type.hasPrefix("[") ? "String" : word.type
        switch roll {
        case ..<30:
            return (word.name, word.type)
        case ..<45:
            return (word.name, word.type + "?")
        case ..<58:
            guard let enumName else { return (word.name, word.type) }
            return (SyntheticVocabulary.lowerFirst(enumName), enumName + (roll < 53 ? "" : "?"))
        case ..<66:
            guard ordinal > 0 else { return (SyntheticVocabulary.lowerFirst(target.name), target.name + "?") }
            let earlier = objects[random.below(ordinal)].name
            return (SyntheticVocabulary.lowerFirst(earlier), earlier)
        case ..<74:
            return (SyntheticVocabulary.lowerFirst(target.name), target.name + "?")
        case ..<80:
            return (word.name + "Values", "[\(scalar)]" + optional)
        case ..<86:
            return (SyntheticVocabulary.lowerFirst(target.plural), "[\(target.name)]" + optional)
        case ..<92:
            return (word.name + "ByLocale", "[String: \(scalar)]" + optional)
        case ..<96:
            return (SyntheticVocabulary.lowerFirst(target.plural) + "ByKey", "[String: \(target.name)]" + optional)
        default:
            return (word.name + "History", "[String: [\(scalar)]]?")
        }
    }
}
