import Foundation

/// Turns a validated ``ServiceSpec`` into the view models of the four generated files.
///
/// This is the only place that decides how a spec is spelled in Swift: type spellings, names
/// (escaped where they are keywords), literals (through ``SwiftLiteral``) and doc comments
/// (through ``SwiftComment``). Templates receive those pieces, already escaped, and own the
/// syntax around them (declarations, accessors, assignments, argument lists), so that a user's
/// template override can restyle any line but cannot get escaping wrong.
struct SpecTranslator: Sendable {
    /// The spec being translated.
    let spec: ServiceSpec
    /// The header's generator version and spec path.
    let version: String
    let specPath: String
    /// Declarations by spec name; dictionaries because large specs look types up constantly.
    let models: [String: ModelSpec]
    let errorSchemas: [String: ErrorSchemaSpec]

    /// A translator for `spec`, whose files name `specPath` and `version` in their header.
    init(spec: ServiceSpec, specPath: String, version: String = GeneratorVersion.current) {
        self.spec = spec
        models = Dictionary(spec.models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        errorSchemas = Dictionary(spec.errorSchemas.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let header = FileHeader(specPath: specPath, version: version)
        self.version = header.version
        self.specPath = header.specPath
    }

    // MARK: - Names

    /// The client type's name, such as `GitHubClient`.
    var clientName: String { GeneratedNames.client(ofService: spec.swiftName) }

    /// The enum of the service's default failures, such as `GitHubFailure`, which endpoints that
    /// document nothing of their own share.
    var sharedFailureName: String { GeneratedNames.sharedFailure(ofService: spec.swiftName) }

    func requestName(_ endpoint: EndpointSpec) -> String {
        GeneratedNames.request(ofEndpoint: endpoint.name)
    }

    func failureName(_ endpoint: EndpointSpec) -> String {
        GeneratedNames.failure(ofEndpoint: endpoint.name)
    }

    func envelopeName(_ schema: ErrorSchemaSpec) -> String {
        GeneratedNames.envelope(ofErrorSchema: schema.swiftName)
    }

    /// The Swift spelling of a type from the spec, using each declaration's own Swift name.
    func swiftType(_ type: TypeReference) -> String {
        switch type {
        case .primitive(let primitive): primitive.swiftSpelling
        case .named(let name): typeName(name)
        case .array(let element): "[\(swiftType(element))]"
        case .map(let value): "[String: \(swiftType(value))]"
        case .optional(let wrapped): "\(swiftType(wrapped))?"
        }
    }

    func typeName(_ specName: String) -> String {
        if let model = models[specName] { return model.swiftName.escaped }
        if let schema = errorSchemas[specName] { return schema.swiftName.escaped }
        return SwiftIdentifier(typeNamed: specName).escaped
    }

    static func doc(_ text: String?, indentation: String = "") -> String? {
        guard let text else { return nil }
        let comment = SwiftComment.documentation(text, indentation: indentation)
        return comment.isEmpty ? nil : comment
    }

    /// The name a parameter uses inside its function when its label would shadow `self`.
    static func internalName(_ identifier: SwiftIdentifier) -> String? {
        GeneratedNames.internalName(of: identifier)
    }

    /// An argument label as written at a call site: backticks only where the grammar needs them.
    static func callLabel(_ identifier: String) -> String {
        let bare = identifier.replacingOccurrences(of: "`", with: "")
        // Swift 6 reads `let` and `var` as labels at a call site and warns when they are escaped;
        // only `inout` still needs backticks there.
        return bare == "inout" ? "`\(bare)`" : bare
    }

    /// Whether a declaration stays short enough to read on one line: 120 columns, the width
    /// SwiftLint and much of Apple's server-side Swift use. A method's typed `throws` alone takes
    /// about 40, so at 100 most methods of one or two parameters were cut into one line each.
    static func fitsOnOneLine(_ line: String) -> Bool {
        line.count <= 120
    }
}
