import Foundation
import HTTPTypes

/// The documented failures of one endpoint, usually a generated enum.
///
/// The client hands every non-success response to ``map(_:)``. Returning `nil` says the
/// response is undocumented, and the caller gets ``APIError/undocumentedStatus(_:)``.
///
/// ```swift
/// enum GetUserFailure: EndpointFailure {
///     case notFound(ErrorBody<Problem>)
///     case rateLimited(ErrorBody<Problem>)
///
///     static func map(_ response: RawResponse) -> Self? {
///         switch response.status.code {
///         case 404: .notFound(response.errorBody())
///         case 429: .rateLimited(response.errorBody())
///         default: nil
///         }
///     }
/// }
/// ```
public protocol EndpointFailure: Error, Sendable {
    /// The documented failure this response stands for, or `nil` when it is undocumented.
    static func map(_ response: RawResponse) -> Self?

    /// Whether this failure is worth repeating, when the endpoint says so; `nil` (the
    /// default) leaves it to the status rule of ``RetryPolicy`` and ``APIError/isRetryable``.
    ///
    /// Optional, unlike ``APIError/isRetryable``, on purpose: this is the endpoint's opinion,
    /// which may be "no opinion", while the error's `Bool` is the verdict once this opinion and
    /// the status rule are combined.
    ///
    /// A spec's `retryable: true|false` on a case becomes this: a 409 `lock_timeout` is worth
    /// repeating although 409 is not, a 503 `maintenance` with a long window is not although
    /// 503 is. It decides *whether* the failure may be repeated; the policy still decides
    /// whether the request is safe to repeat (its method or Idempotency-Key), how often and
    /// after what delay.
    ///
    /// ```swift
    /// var isRetryable: Bool? {
    ///     switch self {
    ///     case .lockTimeout: true
    ///     case .maintenance: false
    ///     default: nil
    ///     }
    /// }
    /// ```
    var isRetryable: Bool? { get }

    /// The documented failure a *success* response stands for, or `nil` (the default) when it is
    /// the success it says.
    ///
    /// Some APIs answer a failure with a success status: Slack sends `200` and
    /// `{"ok": false, "error": "channel_not_found"}`. A spec maps those with a `2xx` key and
    /// `when:`; the client asks this on every success status before decoding the body, and
    /// throws ``APIError/endpoint(_:_:)`` when it returns a case. The default reads nothing, so
    /// an endpoint without such mappings pays nothing for the question.
    ///
    /// Such a failure arrived as a success: the retry loop does not repeat it (success statuses
    /// are never retried, whatever ``isRetryable`` says) and the circuit breaker counts the
    /// attempt as a success, because the server answered and is healthy; the attempt's events
    /// and log lines show the success status, and the call's `finished` event the failure.
    static func mapSuccess(_ response: RawResponse) -> Self?
}

extension EndpointFailure {
    /// `nil`: every success response is a success.
    public static func mapSuccess(_ response: RawResponse) -> Self? { nil }

    /// `nil`: the status rule decides.
    public var isRetryable: Bool? { nil }
}

/// The failure type of an endpoint that documents none, and the default of
/// ``APIRequest/Failure``: as in `Result<Success, Never>`, no value of it exists, so every
/// non-success response is ``APIError/undocumentedStatus(_:)``.
extension Never: EndpointFailure {
    /// Always `nil`.
    public static func map(_ response: RawResponse) -> Never? { nil }
}

/// A request that could not be turned into bytes on the wire. Nothing was sent, except possibly
/// for ``Reason/middlewareFailed(_:)``.
public struct InvalidRequest: Error, Sendable, Hashable {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The client's base URL has no scheme or host.
        case invalidBaseURL(String)
        /// The path template has a placeholder with no value.
        case missingPathValue(String)
        /// A header name is not a valid HTTP token.
        case invalidHeaderName(String)
        /// A header value contains CR, LF or NUL, which could smuggle extra header fields.
        case headerValueContainsLineBreak(name: String)
        /// The body could not be encoded.
        case bodyEncodingFailed(String)
        /// A model-typed (`deepObject`) query parameter could not be encoded.
        case queryEncodingFailed(name: String, reason: String)
        /// The auth provider could not supply credentials.
        case authorizationFailed(String)
        /// The credentials cannot be sent as the scheme requires, such as an HTTP Basic user ID
        /// with a `:` or a scheme word that is not an HTTP token. The text never quotes them.
        case invalidCredentials(String)
        /// A generated `<Service>Fake` was called for a method whose result was never set: a
        /// mistake in the test or preview that uses the fake, never a network failure. Its
        /// message names the fake and the property to set.
        case fakeResultNotSet(fake: String)
        /// A ``ClientMiddleware`` threw an error other than a ``TransportError``; its
        /// description. Unlike the other reasons, the request may have been sent, when the
        /// middleware threw after passing it on. The call is not retried.
        case middlewareFailed(String)
    }

    /// What was wrong.
    public var reason: Reason
    /// The operation, for messages and logs.
    public var operationName: String

    /// Creates the error.
    public init(_ reason: Reason, operationName: String) {
        self.reason = reason
        self.operationName = operationName
    }
}
