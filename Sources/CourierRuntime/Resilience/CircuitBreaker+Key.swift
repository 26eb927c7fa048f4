extension CircuitBreaker {
    /// Identifies one circuit breaker: a host, and optionally one endpoint on it.
    ///
    /// By default a client keeps one breaker per host. An endpoint that fails independently of
    /// the rest of its host (a slow report, a flaky upstream behind one path) can get its own
    /// breaker by naming it, so that its failures do not cut off the host's healthy endpoints.
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        /// The server the breaker guards.
        public var host: Resilience.Host
        /// The endpoint, when the breaker guards one endpoint rather than the whole host.
        public var endpoint: String?

        /// Creates a key for a whole host, or for one endpoint on it.
        public init(host: Resilience.Host, endpoint: String? = nil) {
            self.host = host
            self.endpoint = endpoint
        }

        /// `host` or `host endpoint`, for log lines.
        public var description: String {
            endpoint.map { "\(host) \($0)" } ?? host.description
        }
    }
}
