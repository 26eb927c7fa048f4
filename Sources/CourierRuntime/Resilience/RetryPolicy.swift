import HTTPTypes

/// When a failed call is repeated, and how long to wait before each repeat.
///
/// The defaults follow what the most careful HTTP clients agree on: three attempts in all,
/// full-jitter exponential backoff, `Retry-After` honoured up to a limit, and only requests
/// that are safe to repeat are repeated.
///
/// ```swift
/// var policy = RetryPolicy()          // the defaults below
/// policy.maxAttempts = 5
/// policy.retryableStatuses.remove(500)
/// let none = RetryPolicy.never        // a single attempt
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included. Values below 1 count as 1. Default 3.
    public var maxAttempts: Int
    /// Backoff after transient failures: 100 ms base, 20 s cap.
    public var transientBackoff: RetryPolicy.Backoff
    /// Backoff after throttling (see ``throttlingStatuses``): 1 s base, 20 s cap.
    public var throttlingBackoff: RetryPolicy.Backoff
    /// The longest `Retry-After` the call will wait for; a longer demand ends the call with
    /// the server's error and its hint instead. Default 60 s.
    public var retryAfterLimit: Duration
    /// Statuses worth repeating: 408, 429, 500, 502, 503 and 504.
    public var retryableStatuses: Set<HTTPResponse.Status>
    /// Statuses that mean "slow down" and use ``throttlingBackoff``: 429 and 503.
    public var throttlingStatuses: Set<HTTPResponse.Status>
    /// Statuses worth repeating only for a request with an Idempotency-Key: 409, which
    /// servers send while the first request with the same key is still in progress.
    public var retryableStatusesWithIdempotencyKey: Set<HTTPResponse.Status>
    /// Transport failures worth repeating: timeouts, lost and refused connections, DNS
    /// failures and no network. Never cancellation or TLS failures.
    public var retryableTransportFailures: Set<TransportError.Kind>
    /// Methods that may be repeated without an Idempotency-Key: GET, HEAD, OPTIONS, TRACE,
    /// PUT and DELETE.
    public var idempotentMethods: Set<HTTPRequest.Method>

    /// Creates a policy; every argument defaults to the documented default.
    public init(
        maxAttempts: Int = 3,
        transientBackoff: RetryPolicy.Backoff = RetryPolicy.Backoff(base: .milliseconds(100), cap: .seconds(20)),
        throttlingBackoff: RetryPolicy.Backoff = RetryPolicy.Backoff(base: .seconds(1), cap: .seconds(20)),
        retryAfterLimit: Duration = .seconds(60),
        retryableStatuses: Set<HTTPResponse.Status> = [408, 429, 500, 502, 503, 504],
        throttlingStatuses: Set<HTTPResponse.Status> = [429, 503],
        retryableStatusesWithIdempotencyKey: Set<HTTPResponse.Status> = [409],
        retryableTransportFailures: Set<TransportError.Kind> = [
            .timedOut, .connectionLost, .connectionRefused, .cannotResolveHost, .notConnected,
        ],
        idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace, .put, .delete]
    ) {
        self.maxAttempts = maxAttempts
        self.transientBackoff = transientBackoff
        self.throttlingBackoff = throttlingBackoff
        self.retryAfterLimit = retryAfterLimit
        self.retryableStatuses = retryableStatuses
        self.throttlingStatuses = throttlingStatuses
        self.retryableStatusesWithIdempotencyKey = retryableStatusesWithIdempotencyKey
        self.retryableTransportFailures = retryableTransportFailures
        self.idempotentMethods = idempotentMethods
    }

    /// The defaults.
    public static let `default` = RetryPolicy()

    /// One attempt, never repeated.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// Whether `failure` is worth repeating for `request`, ignoring attempts, time and budget.
    package func isRetryable(_ failure: RetryPolicy.AttemptFailure, for request: RetryTraits) -> Bool {
        classify(failure, for: request) == nil
    }

    /// Decides whether to follow a failed attempt with another, and after what delay.
    ///
    /// This is a pure function: everything it depends on is an argument, so the whole retry
    /// behaviour can be checked from a table. The checks run in this order, and the first
    /// that fails names the reason to stop: the failure is retryable; the request is safe to
    /// repeat; attempts remain; a `Retry-After` is within ``retryAfterLimit``; the delay ends
    /// before the deadline. The retry budget is consulted afterwards, by the caller, so that
    /// no token is spent on a retry that was never going to happen.
    ///
    /// The delay is the server's demand when it made one (negative values count as absent): a
    /// `Retry-After` header, in whole seconds as the header counts, or a service's body field
    /// (``RateLimit/Fields/retryAfterField``, such as Discord's `retry_after: 0.512`), fractions
    /// kept; otherwise full-jitter backoff,
    /// `jitter × min(cap, base × 2^(attempt − 1))`, with the throttling base for 429 and 503.
    ///
    /// - Parameters:
    ///   - failure: How the attempt failed.
    ///   - attempt: The number of the attempt that failed, starting at 1.
    ///   - request: The traits of the request that failed.
    ///   - remaining: Time left until the call's overall deadline; `nil` when it has none.
    ///   - jitter: A draw from `0...1` (see ``Resilience/Jitter``); values outside are clamped.
    package func decision(
        after failure: RetryPolicy.AttemptFailure,
        attempt: Int,
        of request: RetryTraits,
        remaining: Duration?,
        jitter: Double
    ) -> RetryDecision {
        if let refusal = classify(failure, for: request) {
            return .stop(refusal)
        }
        guard attempt < max(maxAttempts, 1) else {
            return .stop(.attemptsExhausted)
        }
        let delay: Duration
        if let demand = Self.serverDemand(in: failure) {
            guard demand <= retryAfterLimit else {
                return .stop(.retryAfterBeyondLimit(demand))
            }
            delay = demand
        } else {
            let backoff = isThrottling(failure) ? throttlingBackoff : transientBackoff
            delay = backoff.delay(forRetry: attempt - 1, jitter: jitter)
        }
        if let remaining, delay >= remaining {
            return .stop(.beyondDeadline)
        }
        return .retry(after: delay)
    }

    /// Returns why `failure` must not be repeated for `request`, or `nil` when it may be.
    private func classify(_ failure: RetryPolicy.AttemptFailure, for request: RetryTraits) -> RetryPolicy.StopReason? {
        switch failure {
        case .status(let status, _, let retryable):
            // The endpoint's word on this failure replaces the status rule, not the check
            // that the request is safe to repeat.
            if let retryable {
                guard retryable else { return .notRetryable }
                return isSafeToRepeat(request) ? nil : .notIdempotent
            }
            if retryableStatuses.contains(status) {
                return isSafeToRepeat(request) ? nil : .notIdempotent
            }
            if retryableStatusesWithIdempotencyKey.contains(status), request.hasIdempotencyKey {
                return nil
            }
            return .notRetryable
        case .transport(let kind, let mayHaveBeenSent):
            guard kind != .cancelled, retryableTransportFailures.contains(kind) else {
                return .notRetryable
            }
            return !mayHaveBeenSent || isSafeToRepeat(request) ? nil : .notIdempotent
        case .decodingFailed, .invalidRequest:
            return .notRetryable
        }
    }

    private func isSafeToRepeat(_ request: RetryTraits) -> Bool {
        idempotentMethods.contains(request.method) || request.hasIdempotencyKey || request.callerOptedIn
    }

    private func isThrottling(_ failure: RetryPolicy.AttemptFailure) -> Bool {
        if case .status(let status, _, _) = failure {
            return throttlingStatuses.contains(status)
        }
        return false
    }

    /// The server's demand, or `nil` if it made none or a negative one.
    ///
    /// Not rounded: a header's demand is whole seconds already (``RateLimit/RetryAfter/delay(from:)``
    /// rounds an HTTP-date up), and a body's fractional seconds are as precise as the server
    /// meant them; waiting a whole second for Discord's `0.2` would slow every burst.
    static func serverDemand(in failure: RetryPolicy.AttemptFailure) -> Duration? {
        guard case .status(_, let retryAfter?, _) = failure, retryAfter >= .zero else { return nil }
        return retryAfter
    }
}

extension RetryPolicy {
    /// Exponential backoff with full jitter: the delay before retry `n` (counting from 0) is
    /// drawn uniformly from `0...min(cap, base × 2^n)`.
    ///
    /// Full jitter spreads the retries of many failing clients evenly over the window instead of
    /// sending them back in waves.
    public struct Backoff: Sendable, Hashable {
        /// The ceiling of the first retry's delay.
        public var base: Duration
        /// The largest ceiling, however many retries came before.
        public var cap: Duration

        /// Creates a backoff. Negative durations count as zero.
        public init(base: Duration, cap: Duration) {
            self.base = base
            self.cap = cap
        }

        /// The ceiling of retry `n`'s delay: `min(cap, base × 2^n)`, without overflow for any `n`.
        public func ceiling(forRetry n: Int) -> Duration {
            let cap = max(cap, .zero)
            var ceiling = min(max(base, .zero), cap)
            var doublings = max(n, 0)
            while doublings > 0, ceiling > .zero, ceiling < cap {
                ceiling = ceiling > cap / 2 ? cap : ceiling * 2
                doublings -= 1
            }
            return ceiling
        }

        /// The delay before retry `n`: `jitter × ceiling(forRetry: n)`.
        ///
        /// `jitter` is clamped to `0...1`; at exactly 0 the delay is zero and at exactly 1 it is
        /// the ceiling, with no rounding in between.
        public func delay(forRetry n: Int, jitter: Double) -> Duration {
            let ceiling = ceiling(forRetry: n)
            guard jitter.isFinite, jitter > 0 else { return .zero }
            guard jitter < 1 else { return ceiling }
            return ceiling * jitter
        }
    }
}
