/// One way a service's requests authenticate: `auth:` itself, or one entry of `auth.schemes`.
struct AuthSpec: Hashable, Sendable, SourceLocated {
    /// The authentication schemes the format supports.
    enum Scheme: String, Hashable, Sendable, CaseIterable {
        /// `Authorization: <word> <token>` (`Bearer` unless the spec names another word, such as
        /// Discord's `Bot`), with the token supplied by the client at run time.
        case bearer
        /// HTTP Basic (RFC 7617): `Authorization: Basic base64(user-id:password)`.
        case basic
        /// A key in a header field or a query item.
        case apiKey
    }

    /// Where an API key goes.
    enum KeyPlacement: String, Hashable, Sendable, CaseIterable {
        /// A header field named `name`.
        case header
        /// A query item named `name`, added to each send and never logged.
        case query
    }

    /// The scheme.
    var scheme: Scheme
    /// The header that carries the credential: `Authorization` for bearer (unless the spec says
    /// otherwise) and basic, the key's field for an API key in a header, `nil` for a query key.
    /// Always treated as secret.
    var headerName: String?
    /// The word before a bearer token; `Bearer` unless the spec says otherwise. An RFC 9110 token.
    var word: String
    /// Where an API key goes; `nil` for the other schemes.
    var keyPlacement: KeyPlacement?
    /// The query item that carries an API key in the query; `nil` otherwise.
    var queryName: String?
    /// The documentation, if any.
    var description: String?
    /// Where the scheme is written.
    var location: SourceLocation

    /// Creates an auth scheme.
    init(scheme: Scheme, headerName: String? = "Authorization", word: String = "Bearer",
                keyPlacement: KeyPlacement? = nil, queryName: String? = nil, description: String? = nil,
                location: SourceLocation) {
        self.scheme = scheme
        self.headerName = headerName
        self.word = word
        self.keyPlacement = keyPlacement
        self.queryName = queryName
        self.description = description
        self.location = location
    }
}

/// `auth: { schemes: …, default: … }`: several named schemes, of which each endpoint accepts
/// some (its own `auth:`, or `default`).
struct AuthSchemesSpec: Hashable, Sendable, SourceLocated {
    /// The schemes, in declaration order.
    var schemes: [NamedAuthScheme]
    /// The schemes, in order of preference, of endpoints that name none.
    var defaultSchemes: [String]
    /// Where `auth:` is written.
    var location: SourceLocation

    /// Creates the set of schemes.
    init(schemes: [NamedAuthScheme], defaultSchemes: [String], location: SourceLocation) {
        self.schemes = schemes
        self.defaultSchemes = defaultSchemes
        self.location = location
    }

    /// The scheme named `name`, if there is one.
    func scheme(named name: String) -> NamedAuthScheme? {
        schemes.first { $0.name == name }
    }
}

/// One entry of `auth.schemes`.
struct NamedAuthScheme: Hashable, Sendable, SourceLocated {
    /// The name as written, which endpoints and the runtime use.
    var name: String
    /// The Swift name of the client's factory and of the scheme's property.
    var swiftName: SwiftIdentifier
    /// The scheme.
    var auth: AuthSpec
    /// Where the name is written.
    var location: SourceLocation

    /// Creates a named scheme.
    init(name: String, swiftName: SwiftIdentifier? = nil, auth: AuthSpec, location: SourceLocation) {
        self.name = name
        self.swiftName = swiftName ?? SwiftIdentifier(memberNamed: name)
        self.auth = auth
        self.location = location
    }
}

/// An endpoint's own `auth:`: no credentials, or the named schemes it accepts.
struct EndpointAuthSpec: Hashable, Sendable, SourceLocated {
    /// What the endpoint accepts.
    enum Choice: Hashable, Sendable {
        /// `auth: none`: a public endpoint, which sends no credentials.
        case none
        /// These schemes, the first one the caller configured.
        case anyOf([String])
    }

    /// What the endpoint accepts.
    var choice: Choice
    /// Where the endpoint's `auth:` is written.
    var location: SourceLocation

    /// Creates an endpoint's auth choice.
    init(choice: Choice, location: SourceLocation) {
        self.choice = choice
        self.location = location
    }
}

extension ServiceSpec {
    /// Every scheme the service declares, single or named.
    var allAuthSchemes: [AuthSpec] {
        (auth.map { [$0] } ?? []) + (authSchemes?.schemes.map(\.auth) ?? [])
    }
}
