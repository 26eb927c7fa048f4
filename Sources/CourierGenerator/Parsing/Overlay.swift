import Foundation

/// A Courier overlay: a small Courier-syntax file that names an OpenAPI document and adds what
/// OpenAPI cannot say (error cases, discriminators, messages, resilience hints, pagination) and
/// the options a big document needs (which operations, names, access), without editing the
/// document, so that its owner can fetch it again and regenerate.
///
/// It is recognised by its top-level `overlay` key. Everything in it is checked against the
/// document: an entry for an operation the document does not have is an error at the entry.
struct OverlaySpec {
    /// The document's path as written, relative to the overlay.
    var documentPath: String
    /// Where `overlay:` is written.
    var documentLocation: SourceLocation
    var serviceName: String?
    var serviceLocation: SourceLocation?
    var description: String?
    var baseURL: URL?
    var headers: [HeaderSpec] = []
    var access: AccessLevel?
    /// `fake:`; `nil` when the overlay does not say.
    var generatesFake: Bool?
    /// `equality:`; `nil` when the overlay does not say.
    var equality: ModelEquality?
    /// What the reader does differently: which operations, which names, inferred error cases.
    var reading = OpenAPIReadOptions()
    var defaultErrors: [ErrorMappingSpec] = []
    var defaultResilience = ResilienceHints()
    var operations: [OperationOverlay] = []
    /// The overlay's own `errorSchemas`, `models` and `include`s, in a file of their own.
    var file: ParsedSpecFile
}

/// What an overlay adds to one operation, named by its `operationId` (or, for an operation
/// without one, the method name Courier gave it).
struct OperationOverlay {
    var key: String
    var location: SourceLocation
    var description: String?
    var errors: [ErrorMappingSpec] = []
    var resilience = ResilienceHints()
    var pagination: PaginationSpec?
}

/// The options that change how an OpenAPI document is read.
struct OpenAPIReadOptions {
    /// Operations kept: those any of these match; every operation when `nil`.
    var include: OperationFilter?
    /// Operations left out, after ``include``.
    var exclude: OperationFilter?
    /// Method names by `operationId`.
    var operationNames: [String: Named] = [:]
    /// Type names by component schema name (`simple-user` → `User`).
    var schemaNames: [String: Named] = [:]
    /// Types the app declares, by the component schema they stand for: the schema is not read,
    /// and every reference to it is the app's type.
    var typeOverrides: [String: Named] = [:]
    /// Whether an error schema's enum field (Stripe's `error.type`) makes discriminated cases.
    var infersErrorCases = false

    /// A name given in the overlay, with where.
    struct Named {
        var name: String
        var location: SourceLocation
    }

    /// Whether an operation is generated.
    func keeps(operationID: String?, tags: [String], path: String) -> Bool {
        if let include, !include.matches(operationID: operationID, tags: tags, path: path) { return false }
        if let exclude, exclude.matches(operationID: operationID, tags: tags, path: path) { return false }
        return true
    }
}

/// Operations chosen by `operationId`, tag or path pattern; one that any of them names matches.
struct OperationFilter {
    var operations: [OpenAPIReadOptions.Named] = []
    var tags: [OpenAPIReadOptions.Named] = []
    var paths: [OpenAPIReadOptions.Named] = []

    func matches(operationID: String?, tags operationTags: [String], path: String) -> Bool {
        if let operationID, operations.contains(where: { $0.name == operationID }) { return true }
        if tags.contains(where: { operationTags.contains($0.name) }) { return true }
        return paths.contains { Self.path(path, matches: $0.name) }
    }

    /// Whether `path` matches `pattern`, in which `*` stands for any run of characters
    /// (`/repos/*` matches every path under `/repos/`). Two pointers with one backtrack point,
    /// so the work is at most the product of the lengths, never exponential.
    static func path(_ path: String, matches pattern: String) -> Bool {
        let text = Array(path.utf8), glob = Array(pattern.utf8)
        var textIndex = 0, globIndex = 0
        var star: Int?, resume = 0
        while textIndex < text.count {
            if globIndex < glob.count && glob[globIndex] == UInt8(ascii: "*") {
                star = globIndex
                resume = textIndex
                globIndex += 1
            } else if globIndex < glob.count && glob[globIndex] == text[textIndex] {
                textIndex += 1
                globIndex += 1
            } else if let star {
                globIndex = star + 1
                resume += 1
                textIndex = resume
            } else {
                return false
            }
        }
        while globIndex < glob.count && glob[globIndex] == UInt8(ascii: "*") { globIndex += 1 }
        return globIndex == glob.count
    }
}
