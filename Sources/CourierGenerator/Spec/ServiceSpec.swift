import Foundation

/// A validated spec: one service, with everything its included files contribute.
package struct ServiceSpec: Hashable, Sendable, SourceLocated {
    /// The service name as written (`service:`).
    package var name: String
    /// The Swift type-name prefix for the service (`GitHub` gives `GitHubClient`).
    var swiftName: SwiftIdentifier
    /// The documentation, if any.
    var description: String?
    /// The base URL every endpoint path is appended to.
    var baseURL: URL
    /// Headers sent with every request.
    var headers: [HeaderSpec]
    /// How requests authenticate, if they do with one scheme.
    var auth: AuthSpec?
    /// The named schemes of `auth: { schemes: … }`, of which each endpoint picks; `nil` otherwise.
    var authSchemes: AuthSchemesSpec? = nil
    /// The access level of every generated declaration.
    var access: AccessLevel = .public
    /// Whether the client file also declares `<Service>Fake`, the test double (`fake:`).
    var generatesFake = true
    /// What models compare by (`equality:`).
    var equality: ModelEquality = .equatable
    /// Types the app declares (`models: { User: external }`), used by name and not generated.
    var externalTypes: [String] = []
    /// How JSON keys and dates are encoded.
    var coding: CodingSpec
    /// The service's own rate-limit names (`rateLimit:`), if it has any.
    var rateLimit: RateLimitSpec?
    /// Models declared in the spec and its included files, then models synthesized from inline
    /// request bodies. Sorted in declaration order, included files first.
    var models: [ModelSpec]
    /// Error schemas declared in the spec and its included files, included files first.
    var errorSchemas: [ErrorSchemaSpec]
    /// Error mappings every endpoint inherits (`defaults.errors`), each marked `isInherited`.
    var defaultErrors: [ErrorMappingSpec]
    /// Resilience hints every endpoint inherits (`defaults:`); already merged into each endpoint.
    var defaultResilience: ResilienceHints
    /// The endpoints, in declaration order, with defaults merged in.
    var endpoints: [EndpointSpec]
    /// The files this spec included, directly or through other includes, in load order.
    var includedFiles: [String]
    /// Where `service:` is written.
    var location: SourceLocation
    /// Inline schemas of an OpenAPI document read as one model because they are alike; empty
    /// for a Courier spec. Only `courier import` reports them; the generated code is the same.
    var mergedModels: [MergedModelSpec] = []

    /// Creates a spec. Prefer ``SpecLoader``, which validates what it builds.
    init(name: String, swiftName: SwiftIdentifier? = nil, description: String? = nil, baseURL: URL,
                headers: [HeaderSpec] = [], auth: AuthSpec? = nil, coding: CodingSpec = CodingSpec(),
                models: [ModelSpec] = [], errorSchemas: [ErrorSchemaSpec] = [], defaultErrors: [ErrorMappingSpec] = [],
                defaultResilience: ResilienceHints = ResilienceHints(), endpoints: [EndpointSpec] = [],
                includedFiles: [String] = [], location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(typeNamed: name)
        self.description = description
        self.baseURL = baseURL
        self.headers = headers
        self.auth = auth
        self.coding = coding
        self.models = models
        self.errorSchemas = errorSchemas
        self.defaultErrors = defaultErrors
        self.defaultResilience = defaultResilience
        self.endpoints = endpoints
        self.includedFiles = includedFiles
        self.location = location
    }

    /// The model with spec name `name`, if there is one.
    func model(named name: String) -> ModelSpec? {
        models.first { $0.name == name }
    }

    /// The error schema with spec name `name`, if there is one.
    func errorSchema(named name: String) -> ErrorSchemaSpec? {
        errorSchemas.first { $0.name == name }
    }

    /// The endpoint with spec name `name`, if there is one.
    func endpoint(named name: String) -> EndpointSpec? {
        endpoints.first { $0.name == name }
    }

    /// Whether `endpoint` maps exactly the service's defaults: no mapping of its own, none
    /// overridden. Such endpoints share one failure enum, `<Service>Failure`.
    func usesOnlyDefaultErrors(_ endpoint: EndpointSpec) -> Bool {
        endpoint.effectiveErrors.count == defaultErrors.count && endpoint.effectiveErrors.allSatisfy(\.isInherited)
    }
}

/// A header sent with every request of a service.
struct HeaderSpec: Hashable, Sendable, SourceLocated {
    /// The header field name.
    var name: String
    /// The Swift name (lowerCamelCase), for when the client takes the value as an argument.
    var swiftName: SwiftIdentifier
    /// The fixed value, or `nil` when the client must be given one at construction.
    var value: String?
    /// Whether the value must never be logged.
    var isSecret: Bool
    /// The documentation, if any.
    var description: String?
    /// Where the header's name is written.
    var location: SourceLocation

    /// Creates a header.
    init(name: String, swiftName: SwiftIdentifier? = nil, value: String?, isSecret: Bool = false,
                description: String? = nil, location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: name)
        self.value = value
        self.isSecret = isSecret
        self.description = description
        self.location = location
    }
}

/// How JSON is encoded and decoded.
struct CodingSpec: Hashable, Sendable {
    /// How property names map to JSON keys.
    enum KeyStrategy: String, Hashable, Sendable, CaseIterable {
        /// JSON keys are the property names as written (or their `json:` override).
        case asIs
        /// JSON keys are the property names converted to snake_case (`createdAt` is `created_at`);
        /// names already in snake_case stay as they are.
        case snakeCase = "snake_case"
    }

    /// How dates are written in JSON.
    enum DateStrategy: String, Hashable, Sendable, CaseIterable {
        /// ISO 8601 without fractional seconds: `2024-05-01T12:00:00Z`.
        case iso8601
        /// ISO 8601 with fractional seconds: `2024-05-01T12:00:00.123Z`.
        case iso8601WithFractionalSeconds
        /// Seconds since 1970 as a number: `1714564800`.
        case epochSeconds
    }

    /// The key strategy; `asIs` by default.
    var keys: KeyStrategy
    /// The date strategy; `iso8601` by default.
    var dates: DateStrategy

    /// Creates coding settings.
    init(keys: KeyStrategy = .asIs, dates: DateStrategy = .iso8601) {
        self.keys = keys
        self.dates = dates
    }
}

/// What generated models, unions and response types conform to for comparing values (`equality:`).
///
/// `Hashable` on every model is what most generators write, and it costs compile time (Stripe's
/// client: 98–107 s of compiler CPU against 86–90 s with `Equatable`); most apps compare values
/// (tests, SwiftUI's change checks) but rarely put whole API models in sets. String and number enums are `Hashable` under
/// every choice: they hash through their raw value, which costs the compiler next to nothing,
/// and they are what apps use as dictionary keys.
enum ModelEquality: String, CaseIterable, Hashable, Sendable {
    /// `Equatable`, the default.
    case equatable
    /// `Hashable` (and so `Equatable`), for models kept in sets or used as keys.
    case hashable
    /// Neither: the smallest and fastest to compile.
    case none

    /// The protocol generated declarations adopt; `nil` for none.
    var conformance: String? {
        switch self {
        case .equatable: "Equatable"
        case .hashable: "Hashable"
        case .none: nil
        }
    }
}

/// The access level generated declarations are written with: `public` for a client in a
/// library of its own (the default), `package` or `internal` for one used inside a module.
enum AccessLevel: String, CaseIterable, Hashable, Sendable {
    /// `public`.
    case `public`
    /// `package`.
    case package
    /// `internal`.
    case `internal`
}
