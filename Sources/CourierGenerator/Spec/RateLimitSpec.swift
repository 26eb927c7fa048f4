/// The service's own names for its rate-limit header fields and its body's retry delay
/// (top-level `rateLimit:`), for services that do not use `X-RateLimit-*` or `RateLimit-*`.
struct RateLimitSpec: Hashable, Sendable, SourceLocated {
    /// The header field with the window's quota, such as Qiita's `Rate-Limit`.
    var limit: String?
    /// The header field with the requests left, such as Qiita's `Rate-Remaining`.
    var remaining: String?
    /// The header field with the window's end in epoch seconds, such as Qiita's `Rate-Reset`.
    var reset: String?
    /// The header field with the seconds until the window ends, such as Discord's `X-RateLimit-Reset-After`.
    var resetAfter: String?
    /// The body field with the seconds to wait, such as Discord's `retry_after`.
    var retryAfterField: FieldPath?
    /// Where `rateLimit:` is written.
    var location: SourceLocation

    /// Creates the names.
    init(limit: String? = nil, remaining: String? = nil, reset: String? = nil, resetAfter: String? = nil,
                retryAfterField: FieldPath? = nil, location: SourceLocation) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
        self.resetAfter = resetAfter
        self.retryAfterField = retryAfterField
        self.location = location
    }
}
