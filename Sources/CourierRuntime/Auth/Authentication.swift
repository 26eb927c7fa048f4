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

    let apply: @Sendable (inout HTTPFields) async throws -> Void
    let onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)?
    /// The canonical (lower-case) names of the fields that carry credentials, which the client
    /// never logs, whatever they are called.
    let credentialHeaderNames: Set<String>

    /// Creates an authentication from a function that adds credentials to header fields.
    ///
    /// - Parameters:
    ///   - credentialHeaders: The fields `apply` writes secrets into. The client never logs
    ///     their values; `Authorization`, `Cookie` and `X-API-Key` are never logged anyway.
    ///   - apply: Adds credentials; called before every attempt, so it sees refreshed tokens.
    ///   - onUnauthorized: Called on a 401; `nil` hands every 401 straight to the mapping.
    public init(
        credentialHeaders: [HTTPField.Name] = [],
        apply: @escaping @Sendable (inout HTTPFields) async throws -> Void,
        onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)? = nil
    ) {
        self.apply = apply
        self.onUnauthorized = onUnauthorized
        self.credentialHeaderNames = Set(credentialHeaders.map(\.canonicalName))
    }

    /// No credentials.
    public static let none = Authentication(apply: { _ in })

    /// `Authorization: Bearer <token>`, or `Bearer <token>` in the field a service names
    /// instead, with the token fetched before every attempt.
    ///
    /// ```swift
    /// let auth = Authentication.bearer { try await session.validAccessToken() }
    /// let custom = Authentication.bearer(header: HTTPField.Name("X-Auth-Token")!) { token }
    /// ```
    ///
    /// - Parameters:
    ///   - header: The field that carries the token; `Authorization` by default. Its value is
    ///     never logged.
    ///   - token: Returns the current token, refreshing it when needed; `nil` sends none.
    ///   - onUnauthorized: Called on a 401: refresh and return ``UnauthorizedAction/replay``,
    ///     or sign the user out and return ``UnauthorizedAction/fail``.
    public static func bearer(
        header: HTTPField.Name = .authorization,
        token: @escaping @Sendable () async throws -> String?,
        onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)? = nil
    ) -> Authentication {
        Authentication(credentialHeaders: [header], apply: { fields in
            if let token = try await token() {
                fields[header] = "Bearer \(token)"
            }
        }, onUnauthorized: onUnauthorized)
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
        Authentication(credentialHeaders: [name], apply: { fields in
            if let key = try await value() {
                fields[name] = key
            }
        })
    }
}
