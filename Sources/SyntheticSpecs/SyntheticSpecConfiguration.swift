/// The sizes and seed of a synthetic spec made by ``SyntheticSpecGenerator``.
///
/// Every field is part of the output's identity: the same configuration always gives the same
/// bytes, on every platform and in every process, so that benchmark runs can be compared.
public struct SyntheticSpecConfiguration: Hashable, Sendable {
    /// The service name (`service:`), which also prefixes the generated Swift types.
    public var serviceName: String
    /// How many endpoints to declare. At least 1.
    public var endpoints: Int
    /// How many models to declare under `models:` (objects and string enums). At least 1.
    /// Inline request bodies add models of their own; ``SyntheticSpec/inlineBodyCount`` says how many.
    public var models: Int
    /// How many properties each object model has. At least 1.
    public var propertiesPerModel: Int
    /// How many error mappings each endpoint declares under its own `errors:`, on top of the
    /// service defaults every endpoint inherits. From 0 to ``SyntheticSpecConfiguration/maximumErrorMappingsPerEndpoint``.
    public var errorMappingsPerEndpoint: Int
    /// Seeds the choices of property types and parameter mixes.
    public var seed: UInt64
    /// The index of one endpoint to alter slightly (an extra query parameter and a changed
    /// description), leaving every other byte of the spec as it would be without it. Used to
    /// measure incremental regeneration.
    public var editedEndpoint: Int?

    /// The most error mappings one endpoint can declare: the number of distinct failure statuses
    /// the generator knows realistic case names for.
    public static var maximumErrorMappingsPerEndpoint: Int { SyntheticVocabulary.errorMappings.count }

    /// Creates a configuration. `models` defaults to one model per five endpoints (at least
    /// eight), the ratio of typical REST APIs where each resource has about five operations.
    public init(serviceName: String = "Synthetic", endpoints: Int, models: Int? = nil, propertiesPerModel: Int = 8,
                errorMappingsPerEndpoint: Int = 3, seed: UInt64 = 1, editedEndpoint: Int? = nil) {
        self.serviceName = serviceName
        self.endpoints = endpoints
        self.models = models ?? max(8, endpoints / 5)
        self.propertiesPerModel = propertiesPerModel
        self.errorMappingsPerEndpoint = errorMappingsPerEndpoint
        self.seed = seed
        self.editedEndpoint = editedEndpoint
    }

    /// Checks that the sizes can be generated.
    public func validate() throws(SyntheticSpecError) {
        guard SyntheticVocabulary.isPlainName(serviceName), serviceName.first?.isUppercase == true else {
            throw .invalidServiceName(serviceName)
        }
        guard endpoints >= 1 else { throw .outOfRange(option: "endpoints", value: endpoints, allowed: 1...Int.max) }
        guard models >= 1 else { throw .outOfRange(option: "models", value: models, allowed: 1...Int.max) }
        guard propertiesPerModel >= 1 else {
            throw .outOfRange(option: "properties per model", value: propertiesPerModel, allowed: 1...Int.max)
        }
        let maximum = Self.maximumErrorMappingsPerEndpoint
        guard (0...maximum).contains(errorMappingsPerEndpoint) else {
            throw .outOfRange(option: "error mappings per endpoint", value: errorMappingsPerEndpoint, allowed: 0...maximum)
        }
        if let editedEndpoint, !(0..<endpoints).contains(editedEndpoint) {
            throw .outOfRange(option: "edited endpoint", value: editedEndpoint, allowed: 0...(endpoints - 1))
        }
    }
}

/// Why a synthetic spec cannot be generated.
public enum SyntheticSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A size is outside what the generator supports.
    case outOfRange(option: String, value: Int, allowed: ClosedRange<Int>)
    /// The service name is not a plain UpperCamelCase name of letters and digits.
    case invalidServiceName(String)

    /// A message for the command line.
    public var description: String {
        switch self {
        case .outOfRange(let option, let value, let allowed):
            let range = allowed.upperBound == Int.max ? "at least \(allowed.lowerBound)"
                : "from \(allowed.lowerBound) to \(allowed.upperBound)"
            return "\(option) must be \(range), not \(value)"
        case .invalidServiceName(let name):
            return "the service name '\(name)' must start with an upper-case letter and hold only ASCII letters and digits"
        }
    }
}
