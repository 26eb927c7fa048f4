import Foundation

/// What one YAML file contributes, before includes are merged and the whole is validated.
struct ParsedSpecFile {
    /// The file's path as shown in diagnostics.
    var path: String
    /// Whether the file describes a service (it has `service`, `baseURL`, `endpoints` or other
    /// service-only keys) rather than being a shared file of error schemas and models.
    var isService = false
    var serviceName: String?
    var serviceLocation: SourceLocation
    var description: String?
    var baseURL: URL?
    var headers: [HeaderSpec] = []
    var auth: AuthSpec?
    var authSchemes: AuthSchemesSpec?
    var coding = CodingSpec()
    var access: AccessLevel?
    /// `fake:`; `nil` when the file does not say.
    var generatesFake: Bool?
    /// `equality:`; `nil` when the file does not say.
    var equality: ModelEquality?
    var rateLimit: RateLimitSpec?
    var defaultErrors: [ErrorMappingSpec] = []
    var defaultResilience = ResilienceHints()
    var models: [ModelSpec] = []
    /// Types the app declares (`models: { User: external }`): used by name, not generated.
    var externalTypes: [(name: String, location: SourceLocation)] = []
    var errorSchemas: [ErrorSchemaSpec] = []
    var endpoints: [EndpointSpec] = []
    /// `include:` entries: the path as written and where.
    var includes: [(path: String, location: SourceLocation)] = []
    /// Names declared in the file whose declarations did not parse. References to them are not
    /// reported again as undefined.
    var brokenNames: Set<String> = []
    /// Properties whose JSON key was given explicitly with `json:`, by location; the key strategy
    /// leaves them alone.
    var explicitJSONKeys: Set<SourceLocation> = []
    /// Inline schemas of an OpenAPI document read as one model because they are alike.
    var mergedModels: [MergedModelSpec] = []

    init(path: String) {
        self.path = path
        self.serviceLocation = .start(of: path)
    }
}
