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

    /// Creates an authentication from a function that adds credentials to header fields.
    ///
    /// - Parameters:
    ///   - apply: Adds credentials; called before every attempt, so it sees refreshed tokens.
    ///   - onUnauthorized: Called on a 401; `nil` hands every 401 straight to the mapping.
    public init(
        apply: @escaping @Sendable (inout HTTPFields) async throws -> Void,
        onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)? = nil
    ) {
        self.apply = apply
        self.onUnauthorized = onUnauthorized
    }

    /// No credentials.
    public static let none = Authentication(apply: { _ in })

    /// `Authorization: Bearer <token>`, with the token fetched before every attempt.
    ///
    /// - Parameters:
    ///   - token: Returns the current token, refreshing it when needed; `nil` sends none.
    ///   - onUnauthorized: Called on a 401: refresh and return ``UnauthorizedAction/replay``,
    ///     or sign the user out and return ``UnauthorizedAction/fail``.
    public static func bearer(
        token: @escaping @Sendable () async throws -> String?,
        onUnauthorized: (@Sendable (UnauthorizedContext) async -> UnauthorizedAction)? = nil
    ) -> Authentication {
        Authentication(apply: { fields in
            if let token = try await token() {
                fields[.authorization] = "Bearer \(token)"
            }
        }, onUnauthorized: onUnauthorized)
    }

    /// A key in a header field, such as `X-API-Key`.
    ///
    /// - Parameters:
    ///   - name: The header field's name.
    ///   - value: Returns the key; `nil` sends none.
    public static func apiKey(
        header name: HTTPField.Name,
        value: @escaping @Sendable () async throws -> String?
    ) -> Authentication {
        Authentication(apply: { fields in
            if let key = try await value() {
                fields[name] = key
            }
        })
    }
}
