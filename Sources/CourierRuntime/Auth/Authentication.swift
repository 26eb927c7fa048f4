import Foundation
import HTTPTypes

/// How a client proves who it is, and what it does when the server says 401.
///
/// ```swift
/// let auth = Authentication.bearer {
///     try await session.validAccessToken()       // may refresh on its own
/// } onUnauthorized: { _ in
///     if await session.refresh() { return .replay }
///     await session.signOut()
///     return .fail
/// }
/// ```
///
/// A service with several schemes names each one and lets every endpoint choose
/// (``schemes(_:default:)`` and ``APIRequest/authentication``).
public struct Authentication: Sendable {
    /// What the client does after a 401.
    public enum UnauthorizedAction: Sendable, Hashable {
        /// Send the request once more, with freshly applied credentials. A call is replayed
        /// at most once, so a server that keeps answering 401 cannot cause a loop.
        case replay
        /// Give up and hand the 401 to the endpoint's failure mapping.
        case fail
    }

    /// What the unauthorized hook learns about the rejected call.
    public struct UnauthorizedContext: Sendable {
        /// The rejected call.
        public var request: RequestSummary
        /// The 401 response.
        public var response: RawResponse
    }

    /// Adds credentials to a request about to be sent and returns the secret texts it wrote,
    /// so that the client can scrub them from anything it prints about the call.
    let apply: @Sendable (inout HTTPRequest) async throws -> [String]
    let onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)?
    /// The canonical (lower-case) names of the fields that carry credentials, which the client
    /// never logs, whatever they are called.
    let credentialHeaderNames: Set<String>
    /// Named schemes an endpoint picks from (``schemes(_:default:)``); empty for one scheme.
    let named: [String: Authentication]
    /// The schemes, in order of preference, of endpoints that state no choice of their own.
    let defaultSchemes: [String]
    /// Whether this is ``none``, which a generated client's `auth:` defaults to.
    private(set) var isNone = false

    /// Creates an authentication from a function that adds credentials to header fields.
    ///
    /// - Parameters:
    ///   - credentialHeaders: The fields `apply` writes secrets into. The client never logs
    ///     their values; `Authorization`, `Cookie` and `X-API-Key` are never logged anyway.
    ///   - apply: Adds credentials; called before every call and again before the replay after a
    ///     401, so it sees refreshed tokens. The retries of one call reuse what it added.
    ///   - onUnauthorized: Called on a 401; `nil` hands every 401 straight to the mapping.
    public init(
        credentialHeaders: [HTTPField.Name] = [],
        apply: @escaping @Sendable (inout HTTPFields) async throws -> Void,
        onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)? = nil
    ) {
        let names = credentialHeaders
        self.init(
            credentialHeaderNames: Set(credentialHeaders.map(\.canonicalName)),
            onUnauthorized: onUnauthorized
        ) { request in
            let before = request.headerFields
            try await apply(&request.headerFields)
            // What `apply` wrote into the fields it declared is secret, whatever the scheme.
            return names.compactMap { name in
                let value = request.headerFields[name]
                return value == before[name] ? nil : value
            }
        }
    }

    init(
        credentialHeaderNames: Set<String>,
        onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)?,
        named: [String: Authentication] = [:],
        defaultSchemes: [String] = [],
        apply: @escaping @Sendable (inout HTTPRequest) async throws -> [String]
    ) {
        self.apply = apply
        self.onUnauthorized = onUnauthorized
        self.credentialHeaderNames = credentialHeaderNames
        self.named = named
        self.defaultSchemes = defaultSchemes
    }

    /// No credentials: what a generated client's `auth:` defaults to, so that an open service's
    /// client is made as `WeatherClient()`. For a service whose spec has `auth`, the client logs
    /// at debug level the first time an endpoint that needs credentials goes out without them
    /// (``APIClient/Configuration/expectsAuthentication``).
    public static let none: Authentication = {
        var none = Authentication(apply: { _ in })
        none.isNone = true
        return none
    }()

    /// `Authorization: Bearer <token>`, or another word before the token (Discord's `Bot`,
    /// `token`), or the token in the field a service names instead, fetched before every call (and
    /// again before the replay after a 401).
    ///
    /// ```swift
    /// let auth = Authentication.bearer { try await session.validAccessToken() }
    /// let bot = Authentication.bearer(word: "Bot") { botToken }
    /// let custom = Authentication.bearer(header: HTTPField.Name("X-Auth-Token")!) { token }
    /// ```
    ///
    /// - Parameters:
    ///   - header: The field that carries the token; `Authorization` by default. Its value is
    ///     never logged.
    ///   - word: The scheme word before the token, `Bearer` by default; it must be an
    ///     RFC 9110 token (letters, digits and the marks `!#$%&'*+-.^_|~` and the backtick), or every call fails with
    ///     ``InvalidRequest/Reason/invalidCredentials(_:)`` instead of sending a broken field.
    ///   - token: Returns the current token, refreshing it when needed; `nil` sends none.
    ///   - onUnauthorized: Called on a 401: refresh and return ``UnauthorizedAction/replay``,
    ///     or sign the user out and return ``UnauthorizedAction/fail``.
    public static func bearer(
        header: HTTPField.Name = .authorization,
        word: String = "Bearer",
        token: @escaping @Sendable () async throws -> String?,
        onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)? = nil
    ) -> Authentication {
        let wordIsValid = CredentialText.isToken(word)
        return Authentication(credentialHeaderNames: [header.canonicalName], onUnauthorized: onUnauthorized) { request in
            guard wordIsValid else {
                throw CredentialError("The scheme word is not an HTTP token (RFC 9110, section 5.6.2).")
            }
            guard let token = try await token() else { return [] }
            try CredentialText.checkFieldValue(token, what: "The token")
            request.headerFields[header] = "\(word) \(token)"
            return [token]
        }
    }

    /// HTTP Basic (RFC 7617): `Authorization: Basic base64(user-id:password)`, UTF-8, with the
    /// credentials fetched before every call (and again before the replay after a 401), so that a
    /// supplier may refresh them.
    ///
    /// ```swift
    /// let auth = Authentication.basic { BasicCredentials(userID: clientID, password: try await vault.secret()) }
    /// ```
    ///
    /// A user ID with a `:` cannot be sent (the server would split it there), and neither can
    /// control characters: such a call fails with ``InvalidRequest/Reason/invalidCredentials(_:)``
    /// and sends nothing.
    ///
    /// - Parameters:
    ///   - credentials: Returns the current user ID and password; `nil` sends none.
    ///   - onUnauthorized: Called on a 401: refresh and return ``UnauthorizedAction/replay``,
    ///     or give up and return ``UnauthorizedAction/fail``.
    public static func basic(
        credentials: @escaping @Sendable () async throws -> BasicCredentials?,
        onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)? = nil
    ) -> Authentication {
        Authentication(credentialHeaderNames: [HTTPField.Name.authorization.canonicalName], onUnauthorized: onUnauthorized) { request in
            guard let credentials = try await credentials() else { return [] }
            let encoded = try credentials.encoded()
            request.headerFields[.authorization] = "Basic \(encoded)"
            return [encoded, credentials.password].filter { !$0.isEmpty }
        }
    }

    /// A key in a header field, such as `X-API-Key`.
    ///
    /// - Parameters:
    ///   - name: The header field's name. Its value is never logged.
    ///   - value: Returns the key; `nil` sends none.
    public static func apiKey(
        header name: HTTPField.Name,
        value: @escaping @Sendable () async throws -> String?
    ) -> Authentication {
        Authentication(credentialHeaderNames: [name.canonicalName], onUnauthorized: nil) { request in
            guard let key = try await value() else { return [] }
            try CredentialText.checkFieldValue(key, what: "The key")
            request.headerFields[name] = key
            return [key]
        }
    }

    /// A key in the query string, such as `?api_key=…`, added to each send of a call and
    /// never kept in anything the client logs or describes: logs and events show the path
    /// template only, and a transport error that quotes the URL has the key replaced by
    /// `<redacted>`.
    ///
    /// ```swift
    /// let auth = Authentication.apiKey(query: "api_key") { settings.apiKey }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The query item's name; it is percent-encoded like any query name.
    ///   - value: Returns the key; `nil` sends none.
    public static func apiKey(
        query name: String,
        value: @escaping @Sendable () async throws -> String?
    ) -> Authentication {
        Authentication(credentialHeaderNames: [], onUnauthorized: nil) { request in
            guard let key = try await value() else { return [] }
            let encoded = ParameterText.percentEncode(key)
            let item = ParameterText.percentEncode(name) + "=" + encoded
            let path = request.path ?? "/"
            request.path = path + (path.contains("?") ? "&" : "?") + item
            return [key, encoded]
        }
    }

    /// Several named schemes, of which each call uses the first one its endpoint accepts
    /// (``APIRequest/authentication``) that is given here.
    ///
    /// ```swift
    /// let auth = Authentication.schemes(["bot": .bearer(word: "Bot") { botToken }], default: ["bot", "oauth"])
    /// ```
    ///
    /// A call whose endpoint accepts none of the given schemes is sent without credentials.
    /// A 401 goes to the hook of the scheme that signed the call.
    ///
    /// - Parameters:
    ///   - schemes: The schemes the caller has credentials for, by the names the spec gives them.
    ///   - default: The schemes, in order of preference, of endpoints that name none.
    public static func schemes(_ schemes: [String: Authentication], default: [String]) -> Authentication {
        Authentication(
            credentialHeaderNames: schemes.values.reduce(into: Set<String>()) { $0.formUnion($1.credentialHeaderNames) },
            onUnauthorized: nil,
            named: schemes,
            defaultSchemes: `default`,
            apply: { _ in [] }
        )
    }

    /// The scheme that signs a call with the given requirement; `nil` sends no credentials.
    func scheme(for requirement: AuthenticationRequirement) -> Authentication? {
        switch requirement {
        case .none:
            return nil
        case .inherited:
            return named.isEmpty ? self : scheme(for: .anyOf(defaultSchemes))
        case .anyOf(let names):
            // One unnamed scheme is the client's only way to sign; an endpoint that names
            // schemes still wants credentials from it.
            guard !named.isEmpty else { return self }
            return names.lazy.compactMap { named[$0] }.first
        }
    }
}

/// A user ID and password for HTTP Basic. Its descriptions never show the password.
public struct BasicCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The user ID; it may not contain `:` (RFC 7617, section 2).
    public var userID: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(userID: String, password: String) {
        self.userID = userID
        self.password = password
    }

    /// The user ID, with the password redacted.
    public var description: String { "BasicCredentials(userID: \(userID), password: <redacted>)" }

    /// The user ID, with the password redacted.
    public var debugDescription: String { description }

    /// `base64(user-id ":" password)` of the UTF-8 bytes (the `charset="UTF-8"` of RFC 7617).
    func encoded() throws(CredentialError) -> String {
        guard !userID.contains(":") else {
            throw CredentialError("The user ID contains ':', which HTTP Basic cannot carry (RFC 7617, section 2).")
        }
        guard !CredentialText.hasControlCharacter(userID), !CredentialText.hasControlCharacter(password) else {
            throw CredentialError("The user ID or password contains a control character, which HTTP Basic forbids (RFC 7617, section 2).")
        }
        return Data("\(userID):\(password)".utf8).base64EncodedString()
    }
}

/// Credentials the client was given but cannot send. Its message never quotes them.
struct CredentialError: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}

enum CredentialText {
    /// RFC 9110 `token`: one or more `tchar`.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }
    }

    /// HTTPField would quietly turn CR/LF into spaces; a credential that could smuggle a header
    /// must fail loudly instead.
    static func checkFieldValue(_ value: String, what: String) throws(CredentialError) {
        guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw CredentialError("\(what) contains a line break or NUL, which a header field cannot carry.")
        }
    }
}

/// Replaces credentials in text the client prints about a call.
enum CredentialRedaction {
    static func redact(_ text: String, secrets: [String]) -> String {
        // Longest first, so that a secret containing another is replaced whole.
        secrets.filter { $0.count >= 1 }.sorted { $0.count > $1.count }.reduce(text) { text, secret in
            text.replacingOccurrences(of: secret, with: "<redacted>")
        }
    }

    /// The error with every secret removed from what it prints; the same error when it quotes none.
    static func redact(_ error: TransportError, secrets: [String]) -> TransportError {
        guard let underlying = error.underlying, !secrets.isEmpty else { return error }
        let reflected = String(reflecting: underlying)
        let described = String(describing: underlying)
        let localized = (underlying as NSError).localizedDescription
        let leaks = secrets.contains { secret in
            !secret.isEmpty && (reflected.contains(secret) || described.contains(secret) || localized.contains(secret))
        }
        guard leaks else { return error }
        var redacted = error
        redacted.underlying = RedactedError(
            description: redact(described, secrets: secrets),
            debugDescription: redact(reflected, secrets: secrets)
        )
        return redacted
    }
}

/// An underlying transport error that quoted a credential, kept as its text with the
/// credential replaced by `<redacted>`.
struct RedactedError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible, LocalizedError {
    /// The original error's description, redacted.
    public var description: String
    /// The original error's debug description, redacted.
    public var debugDescription: String
    /// The redacted description.
    public var errorDescription: String? { description }
}
