/// A circuit breaker refused the attempt: nothing was sent.
///
/// ``CircuitBreaker/acquirePermit()`` throws it, and a call whose first attempt the breaker
/// refused ends with ``APIError/circuitOpen(_:)`` carrying it. A call refused only on a retry
/// ends with its last real attempt's error instead, since that attempt reached the server. The
/// retry loop never retries a refusal: the breaker has just said the dependency is failing.
public struct CircuitOpen: Error, Sendable, Hashable, CustomStringConvertible {
    /// The breaker that refused: its host, and its endpoint when it guards only one.
    public var key: CircuitBreakerKey
    /// ``CircuitBreaker/State/open``, or ``CircuitBreaker/State/halfOpen`` when its probes
    /// are all taken.
    public var state: CircuitBreaker.State
    /// How long until the breaker lets a probe through; zero when it is half-open and a
    /// probe is already under way.
    public var retryAfter: Duration

    /// Creates the error.
    public init(key: CircuitBreakerKey, state: CircuitBreaker.State, retryAfter: Duration) {
        self.key = key
        self.state = state
        self.retryAfter = retryAfter
    }

    /// A one-line summary for logs.
    public var description: String {
        "circuit breaker for \(key) is \(state); next probe in \(retryAfter)"
    }
}
