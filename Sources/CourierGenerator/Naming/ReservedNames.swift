/// The names generated code reserves, scope by scope: the one table validation checks every
/// converted spec name against, so that a name `courier validate` accepts compiles without
/// warnings and behaves as written.
///
/// Each entry is here because a template or the translation code declares or uses that name in
/// that scope, or because the compiler was shown to reject or misread it there
/// (`KeywordCompileTests` generates every Swift keyword, every entry below and common
/// standard-library type names in every position and compiles the result with warnings as
/// errors). Names that are merely keywords are not reserved: they are written in backticks.
///
/// Two rules apply per scope:
/// - a converted name that is in the scope's table is an error at the spec name's
///   `file:line:col`, saying what generated code uses the name for;
/// - two spec names whose generated Swift names are the same in one scope (after conversion and
///   after the generator's own renames, such as a `self` parameter's `selfValue`) are an error
///   at the second, with a note at the first.
///
/// The exception is ``optionalCaseNames``: those cases are kept and written qualified
/// (`Self.none`, `Status.none`) wherever an optional is expected, so they need no rename.
enum ReservedNames {
    /// Module scope: Swift type names that a model or error schema may not take. The generated
    /// files use them unqualified (``GeneratedNames/reservedTypes``), or a model of that name
    /// would shadow a standard type in the user's module (`Error`, `Result`), or it cannot be
    /// declared and used as a type (`Self`),
    /// or every generated struct declares a nested type of that name (`CodingKeys`), which would
    /// hide the model inside them, and `Response` and `Failure`, which every request type
    /// declares for the same reason. The spec's primitive type names (`String`, `Int`, `Date`,
    /// `URL`, `Data`, `JSON`...) are rejected as built-in types before this table is consulted;
    /// `JSON` stays in the shadowing list too, for the runtime type it names.
    static let types: [String: String] = {
        var table: [String: String] = [:]
        // A model `string` or `url` becomes the Swift type `String` or `URL`.
        for primitive in PrimitiveType.allCases {
            table[primitive.swiftSpelling] = "a built-in type"
        }
        for name in GeneratedNames.reservedTypes {
            table[name] = "a type the generated code uses"
        }
        for name in ["JSON", "Decimal", "Result", "Error", "Never", "Any", "AnyObject"] {
            table[name] = "a Swift, Foundation or CourierRuntime type a model of that name would shadow"
        }
        table["Self"] = "the type of the declaration it appears in"
        // Every request type declares these; inside it, a model of that name would be the
        // alias instead (`typealias Response = Response` does not even compile).
        table["Response"] = "the response type every generated request declares"
        table["Failure"] = "the failure type every generated request declares"
        table["CodingKeys"] = "the coding keys every generated struct declares inside itself"
        // A client with named auth schemes declares this type inside itself, where it would hide
        // a model of that name from the client's methods.
        table["AuthSchemes"] = "the type of a client's named auth schemes, declared inside the client"
        return table
    }()

    /// Member scope of a generated struct (a model or error schema): property names.
    /// `hashValue` is `Hashable`'s deprecated requirement, which an `Int` property of that name
    /// would implement (a deprecation warning, and a hash that is the property's value).
    static let properties: [String: String] = [
        "hashValue": "Hashable's requirement every generated struct synthesizes",
    ]

    /// Case scope of a generated string enum: `rawValue` is the enum's own property. (`init` is
    /// not reserved: written `` .`init` `` it is the case, and it compiles.) The `unknown` case
    /// the generator adds is not reserved either: it is renamed `unknown2`, `unknown3`... when a
    /// value takes `unknown`.
    static let enumValues: [String: String] = [
        "rawValue": "the raw value property of every generated enum",
    ]

    /// Case names of generated enums that are also cases of `Optional`: where an optional is
    /// expected (a failure enum's `map` returns `Self?`, an optional parameter's default), a bare
    /// `.none` means `Optional.none`, so generated code writes these cases qualified.
    /// Case scope of a generated union (`oneOf`): nothing beyond Swift's own rules, which
    /// escaping handles. The fallback case `unknown` is renamed `unknown2`, `unknown3`... when a
    /// variant takes `unknown`, exactly as in string enums.
    static let unionCases: [String: String] = [:]

    /// Case scope of an endpoint's outcome enum (several success statuses): nothing beyond
    /// Swift's own rules, which escaping handles; `none` is kept, since no generated code expects
    /// an optional outcome.
    static let outcomeCases: [String: String] = [:]

    static let optionalCaseNames: Set<String> = ["none", "some"]

    /// Member scope of the client type: endpoint (method) names. The client stores its
    /// `APIClient` as `client`, and a method `client()` without parameters is a redeclaration
    /// of it. (`defaultBaseURL` is static, so an instance method of that name compiles.)
    /// The fake names its record of calls `calls`, and a property of that name per endpoint would
    /// redeclare it.
    static let endpoints: [String: String] = [
        "client": "the client's stored APIClient",
        "calls": "the fake's record of its calls and results",
    ]

    /// Named auth schemes (`auth: { schemes: … }`): each is a static factory of the client and a
    /// property and initialiser parameter of the client's `AuthSchemes`; `none` is the word an
    /// endpoint's `auth:` uses for no credentials.
    static let authSchemes: [String: String] = [
        "client": "the client's stored APIClient",
        "defaultBaseURL": "the client's static base URL",
        "authentication": "the property of AuthSchemes that builds the client's Authentication",
        "none": "an endpoint's 'auth: none' (no credentials)",
        "self": "the instance inside AuthSchemes's initialiser",
        "init": "the initialisers of the client and of AuthSchemes",
    ]

    /// Parameter scope of the client's initialiser: service `headers:` without a value become
    /// its arguments, next to its own parameters and the local it builds the fields in.
    static let headerArguments: [String: String] = [
        "client": "the client's stored APIClient, which the initialiser assigns",
        "baseURL": "a parameter of the client's initialiser",
        "transport": "a parameter of the client's initialiser",
        "auth": "a parameter of the client's initialiser",
        "configuration": "a parameter of the client's initialiser",
        "fields": "a local of the client's initialiser",
    ]
}
