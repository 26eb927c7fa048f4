import Foundation
import HTTPTypes

extension RateLimit {
    /// The names a service gives its rate-limit header fields and its body's retry delay, for the
    /// services that do not use the common ones.
    ///
    /// ``RateLimit`` always reads `Retry-After`, `X-RateLimit-*` and the IETF `RateLimit-*`
    /// fields; a service's own names are read after them and win. A generated client sets them
    /// from the spec's top-level `rateLimit:` on ``APIClient/Configuration/rateLimitFields``:
    ///
    /// ```swift
    /// // Qiita: Rate-Limit, Rate-Remaining, Rate-Reset (epoch seconds)
    /// RateLimit.Fields(limit: "Rate-Limit", remaining: "Rate-Remaining", reset: "Rate-Reset")
    /// // Discord: X-RateLimit-Reset-After (fractional seconds), a 429 body's retry_after
    /// RateLimit.Fields(resetAfter: "X-RateLimit-Reset-After", retryAfterField: "retry_after")
    /// ```
    public struct Fields: Sendable, Hashable {
        /// The header field with the request quota of the current window.
        public var limit: String?
        /// The header field with the requests left in the current window.
        public var remaining: String?
        /// The header field with the window's end: epoch seconds, or seconds from now for
        /// values too small to be a date (as `X-RateLimit-Reset` is read).
        public var reset: String?
        /// The header field with the seconds, possibly fractional, until the window ends.
        public var resetAfter: String?
        /// The body field (a path such as `retry_after` or `error.retry_after`) with the seconds,
        /// possibly fractional, to wait before trying again; read only when the response has no
        /// valid `Retry-After` header.
        public var retryAfterField: String?

        /// Creates the names; each `nil` leaves that value to the common fields.
        public init(limit: String? = nil, remaining: String? = nil, reset: String? = nil, resetAfter: String? = nil,
                    retryAfterField: String? = nil) {
            self.limit = limit
            self.remaining = remaining
            self.reset = reset
            self.resetAfter = resetAfter
            self.retryAfterField = retryAfterField
        }

        /// Only the common fields.
        public static let standard = RateLimit.Fields()

        /// The delay the body asks for at ``retryAfterField``: a non-negative number of seconds,
        /// fractions kept; `nil` when there is no such field, or it holds anything else.
        ///
        /// The body is read in one pass that builds nothing for the values it passes, so a large
        /// or hostile body costs time linear in its length, as discriminators do.
        public func bodyRetryDelay(in body: Data) -> Duration? {
            guard let retryAfterField, !body.isEmpty, let steps = FieldPath.parse(retryAfterField),
                  let text = DiscriminatorScanner.scalarText(at: steps, in: body),
                  let seconds = Double(text), seconds.isFinite, seconds >= 0
            else { return nil }
            // Beyond any policy's limit anyway; capping keeps the conversion from overflowing.
            return .seconds(min(seconds, Self.longestDelaySeconds))
        }

        /// About 31 years: longer than any `RetryPolicy.retryAfterLimit`, short enough for `Duration`.
        static let longestDelaySeconds = 1e9
    }
}
