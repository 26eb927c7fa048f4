extension CircuitBreaker {
    /// A circuit breaker refused the attempt: nothing was sent.
    ///
    /// A call whose first attempt the breaker refused ends with ``APIError/circuitOpen(_:)`` carrying
    /// it. A call refused only on a retry ends with its last real attempt's error instead, since that
    /// attempt reached the server. A refusal is never retried: the breaker has just said the
    /// dependency is failing.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The breaker that refused: its host, and its endpoint when it guards only one.
        public var key: CircuitBreaker.Key
        /// ``CircuitBreaker/State/open``, or ``CircuitBreaker/State/halfOpen`` when its probes
        /// are all taken.
        public var state: CircuitBreaker.State
        /// How long to wait before trying again. While open: until the break ends and the
        /// breaker lets a probe through. While half-open with its probes in flight: the length of
        /// the break a failed probe would start, the longest the wait can then be; a successful
        /// probe closes the breaker sooner.
        public var retryAfter: Duration

        /// Creates the error.
        public init(key: CircuitBreaker.Key, state: CircuitBreaker.State, retryAfter: Duration) {
            self.key = key
            self.state = state
            self.retryAfter = retryAfter
        }

        /// A one-line summary for logs.
        public var description: String {
            switch state {
            case .halfOpen:
                "circuit breaker for \(key) is half-open with a probe in flight; try again in \(retryAfter)"
            case .open, .closed:
                "circuit breaker for \(key) is \(state); next probe in \(retryAfter)"
            }
        }
    }
}
