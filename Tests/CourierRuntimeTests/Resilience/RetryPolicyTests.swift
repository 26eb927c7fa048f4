import CourierRuntime
import HTTPTypes
import Testing

@Suite struct RetryPolicyTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var request: RetryTraits
        var attempt: Int = 1
        var outcome: RetryPolicy.AttemptFailure
        var remaining: Duration? = nil
        var jitter: Double = 1
        var policy: RetryPolicy = .default
        var expected: RetryDecision

        var testDescription: String { name }
    }

    static let get = RetryTraits(method: .get)
    static let post = RetryTraits(method: .post)
    static let postWithKey = RetryTraits(method: .post, hasIdempotencyKey: true)
    static let postOptedIn = RetryTraits(method: .post, callerOptedIn: true)
    static let patch = RetryTraits(method: .patch)

    static func status(_ code: Int, retryAfter: Duration? = nil) -> RetryPolicy.AttemptFailure {
        .status(HTTPResponse.Status(code: code), retryAfter: retryAfter)
    }

    static let rows: [Row] = [
        // Full-jitter exponential backoff, transient base 100 ms.
        Row(name: "GET 500, first retry, jitter 1", request: get, outcome: status(500), expected: .retry(after: .milliseconds(100))),
        Row(name: "GET 500, second retry, jitter 1", request: get, attempt: 2, outcome: status(500), expected: .retry(after: .milliseconds(200))),
        Row(name: "GET 500, jitter 0", request: get, outcome: status(500), jitter: 0, expected: .retry(after: .zero)),
        Row(name: "GET 500, jitter 0.5", request: get, attempt: 2, outcome: status(500), jitter: 0.5, expected: .retry(after: .milliseconds(100))),
        Row(name: "GET 500, third attempt used up", request: get, attempt: 3, outcome: status(500), expected: .stop(.attemptsExhausted)),
        Row(name: "backoff stops at the 20 s cap", request: get, attempt: 15, outcome: status(502), policy: RetryPolicy(maxAttempts: 20), expected: .retry(after: .seconds(20))),
        // Throttling base 1 s.
        Row(name: "GET 503 uses the throttling base", request: get, outcome: status(503), expected: .retry(after: .seconds(1))),
        Row(name: "GET 429, second retry", request: get, attempt: 2, outcome: status(429), expected: .retry(after: .seconds(2))),
        Row(name: "GET 429 at jitter 0", request: get, outcome: status(429), jitter: 0, expected: .retry(after: .zero)),
        // Retry-After.
        // A fractional demand comes from a service's body field (Discord's retry_after), whose
        // resolution is finer than the header's whole seconds: it is kept, not rounded up.
        Row(name: "a fractional demand of 1.2 s is waited exactly", request: get, outcome: status(429, retryAfter: .milliseconds(1200)), jitter: 0, expected: .retry(after: .milliseconds(1200))),
        Row(name: "Retry-After 3 s on a 503", request: get, outcome: status(503, retryAfter: .seconds(3)), expected: .retry(after: .seconds(3))),
        Row(name: "Retry-After 0 means at once", request: get, outcome: status(503, retryAfter: .zero), expected: .retry(after: .zero)),
        Row(name: "Retry-After exactly at the clamp", request: get, outcome: status(429, retryAfter: .seconds(60)), expected: .retry(after: .seconds(60))),
        Row(name: "Retry-After 61 s is beyond the clamp", request: get, outcome: status(429, retryAfter: .seconds(61)), expected: .stop(.retryAfterBeyondLimit(.seconds(61)))),
        Row(name: "a demand of 60.5 s is past the clamp", request: get, outcome: status(429, retryAfter: .milliseconds(60500)), expected: .stop(.retryAfterBeyondLimit(.milliseconds(60500)))),
        Row(name: "negative Retry-After is ignored", request: get, outcome: status(429, retryAfter: .seconds(-5)), expected: .retry(after: .seconds(1))),
        Row(name: "Retry-After beyond the deadline", request: get, outcome: status(429, retryAfter: .seconds(5)), remaining: .seconds(3), expected: .stop(.beyondDeadline)),
        Row(name: "Retry-After within the deadline", request: get, outcome: status(429, retryAfter: .seconds(2)), remaining: .seconds(3), expected: .retry(after: .seconds(2))),
        Row(name: "a custom clamp", request: get, outcome: status(429, retryAfter: .seconds(11)), policy: RetryPolicy(retryAfterLimit: .seconds(10)), expected: .stop(.retryAfterBeyondLimit(.seconds(11)))),
        // Deadline.
        Row(name: "backoff longer than the time left", request: get, outcome: status(500), remaining: .milliseconds(50), expected: .stop(.beyondDeadline)),
        Row(name: "backoff ending exactly at the deadline", request: get, outcome: status(500), remaining: .milliseconds(100), expected: .stop(.beyondDeadline)),
        Row(name: "backoff ending before the deadline", request: get, outcome: status(500), remaining: .milliseconds(101), expected: .retry(after: .milliseconds(100))),
        Row(name: "deadline already passed", request: get, outcome: status(500), remaining: .seconds(-1), jitter: 0, expected: .stop(.beyondDeadline)),
        // Statuses that are never retried.
        Row(name: "GET 404", request: get, outcome: status(404), expected: .stop(.notRetryable)),
        Row(name: "GET 422", request: get, outcome: status(422), expected: .stop(.notRetryable)),
        Row(name: "GET 501", request: get, outcome: status(501), expected: .stop(.notRetryable)),
        Row(name: "GET 409 without a key", request: get, outcome: status(409), expected: .stop(.notRetryable)),
        Row(name: "404 on the last attempt names the real reason", request: get, attempt: 3, outcome: status(404), expected: .stop(.notRetryable)),
        Row(name: "attempts run out before a long Retry-After is judged", request: get, attempt: 3, outcome: status(503, retryAfter: .seconds(120)), expected: .stop(.attemptsExhausted)),
        // Idempotency.
        Row(name: "POST 500 without key or opt-in", request: post, outcome: status(500), expected: .stop(.notIdempotent)),
        Row(name: "POST 500 with an Idempotency-Key", request: postWithKey, outcome: status(500), expected: .retry(after: .milliseconds(100))),
        Row(name: "POST 500 with the caller's opt-in", request: postOptedIn, outcome: status(500), expected: .retry(after: .milliseconds(100))),
        Row(name: "POST timeout without a key", request: post, outcome: .transport(.timedOut), expected: .stop(.notIdempotent)),
        Row(name: "PATCH timeout without a key", request: patch, outcome: .transport(.timedOut), expected: .stop(.notIdempotent)),
        Row(name: "POST timeout with a key", request: postWithKey, outcome: .transport(.timedOut), expected: .retry(after: .milliseconds(100))),
        Row(name: "POST refused before sending", request: post, outcome: .transport(.connectionRefused, requestMayHaveBeenSent: false), expected: .retry(after: .milliseconds(100))),
        Row(name: "POST connection lost after sending", request: post, outcome: .transport(.connectionLost), expected: .stop(.notIdempotent)),
        Row(name: "POST 409 with a key", request: postWithKey, outcome: status(409), expected: .retry(after: .milliseconds(100))),
        Row(name: "POST 409 with an opt-in but no key", request: postOptedIn, outcome: status(409), expected: .stop(.notRetryable)),
        Row(name: "POST 422 with a key", request: postWithKey, outcome: status(422), expected: .stop(.notRetryable)),
        Row(name: "PUT 502", request: RetryTraits(method: .put), outcome: status(502), expected: .retry(after: .milliseconds(100))),
        Row(name: "DELETE 504", request: RetryTraits(method: .delete), outcome: status(504), expected: .retry(after: .milliseconds(100))),
        Row(name: "HEAD 408", request: RetryTraits(method: .head), outcome: status(408), expected: .retry(after: .milliseconds(100))),
        Row(name: "OPTIONS lost connection", request: RetryTraits(method: .options), outcome: .transport(.connectionLost), expected: .retry(after: .milliseconds(100))),
        Row(name: "TRACE not connected", request: RetryTraits(method: .trace), outcome: .transport(.notConnected), expected: .retry(after: .milliseconds(100))),
        // Transport failures.
        Row(name: "GET timed out", request: get, outcome: .transport(.timedOut), expected: .retry(after: .milliseconds(100))),
        Row(name: "GET cannot resolve host", request: get, outcome: .transport(.cannotResolveHost), expected: .retry(after: .milliseconds(100))),
        Row(name: "GET connection refused", request: get, outcome: .transport(.connectionRefused), expected: .retry(after: .milliseconds(100))),
        Row(name: "GET cancelled", request: get, outcome: .transport(.cancelled), expected: .stop(.notRetryable)),
        Row(name: "GET cancelled before sending", request: get, outcome: .transport(.cancelled, requestMayHaveBeenSent: false), expected: .stop(.notRetryable)),
        Row(name: "GET TLS failure", request: get, outcome: .transport(.tls), expected: .stop(.notRetryable)),
        Row(name: "POST TLS failure before sending", request: post, outcome: .transport(.tls, requestMayHaveBeenSent: false), expected: .stop(.notRetryable)),
        Row(name: "GET other transport failure", request: get, outcome: .transport(.other), expected: .stop(.notRetryable)),
        Row(name: "GET decoding failure", request: get, outcome: .decodingFailed, expected: .stop(.notRetryable)),
        Row(name: "GET unbuildable request", request: get, outcome: .invalidRequest, expected: .stop(.notRetryable)),
        // Configuration.
        Row(name: "a policy without 500", request: get, outcome: status(500), policy: RetryPolicy(retryableStatuses: [503]), expected: .stop(.notRetryable)),
        Row(name: "a policy with POST as idempotent", request: post, outcome: status(500), policy: RetryPolicy(idempotentMethods: [.post]), expected: .retry(after: .milliseconds(100))),
        Row(name: "the never policy", request: get, outcome: status(503), policy: .never, expected: .stop(.attemptsExhausted)),
        Row(name: "zero attempts count as one", request: get, outcome: status(503), policy: RetryPolicy(maxAttempts: 0), expected: .stop(.attemptsExhausted)),
    ]

    @Test(arguments: rows)
    func decision(_ row: Row) {
        let decision = row.policy.decision(
            after: row.outcome,
            attempt: row.attempt,
            of: row.request,
            remaining: row.remaining,
            jitter: row.jitter
        )
        #expect(decision == row.expected)
    }

    @Test func isRetryableIgnoresAttemptsAndTime() {
        let policy = RetryPolicy.never
        #expect(policy.isRetryable(Self.status(503), for: Self.get))
        #expect(!policy.isRetryable(Self.status(503), for: Self.post))
        #expect(!policy.isRetryable(Self.status(404), for: Self.get))
        #expect(policy.isRetryable(.transport(.connectionRefused, requestMayHaveBeenSent: false), for: Self.post))
    }

    @Test func defaultsMatchTheDocumentation() {
        let policy = RetryPolicy.default
        #expect(policy.maxAttempts == 3)
        #expect(policy.transientBackoff == RetryPolicy.Backoff(base: .milliseconds(100), cap: .seconds(20)))
        #expect(policy.throttlingBackoff == RetryPolicy.Backoff(base: .seconds(1), cap: .seconds(20)))
        #expect(policy.retryAfterLimit == .seconds(60))
        #expect(policy.retryableStatuses.map(\.code).sorted() == [408, 429, 500, 502, 503, 504])
        #expect(policy.throttlingStatuses.map(\.code).sorted() == [429, 503])
        #expect(policy.retryableStatusesWithIdempotencyKey.map(\.code) == [409])
        #expect(policy.retryableTransportFailures == [.timedOut, .connectionLost, .connectionRefused, .cannotResolveHost, .notConnected])
        #expect(policy.idempotentMethods == [.get, .head, .options, .trace, .put, .delete])
    }
}

@Suite struct BackoffTests {
    @Test(arguments: [
        (0, Duration.milliseconds(100)), (1, .milliseconds(200)), (2, .milliseconds(400)),
        (7, .milliseconds(12800)), (8, .seconds(20)), (62, .seconds(20)), (63, .seconds(20)), (Int.max, .seconds(20)), (-3, .milliseconds(100)),
    ])
    func ceilingDoublesUpToTheCap(retry: Int, ceiling: Duration) {
        let backoff = RetryPolicy.Backoff(base: .milliseconds(100), cap: .seconds(20))
        #expect(backoff.ceiling(forRetry: retry) == ceiling)
    }

    @Test func jitterScalesTheCeiling() {
        let backoff = RetryPolicy.Backoff(base: .seconds(1), cap: .seconds(20))
        #expect(backoff.delay(forRetry: 2, jitter: 0) == .zero)
        #expect(backoff.delay(forRetry: 2, jitter: 1) == .seconds(4))
        #expect(backoff.delay(forRetry: 2, jitter: 0.25) == .seconds(1))
        #expect(backoff.delay(forRetry: 2, jitter: 7) == .seconds(4))
        #expect(backoff.delay(forRetry: 2, jitter: -1) == .zero)
        #expect(backoff.delay(forRetry: 2, jitter: .nan) == .zero)
    }

    @Test func oddConfigurationsStayFinite() {
        #expect(RetryPolicy.Backoff(base: .seconds(-1), cap: .seconds(5)).ceiling(forRetry: 3) == .zero)
        #expect(RetryPolicy.Backoff(base: .seconds(10), cap: .seconds(5)).ceiling(forRetry: 0) == .seconds(5))
        #expect(RetryPolicy.Backoff(base: .seconds(1), cap: .seconds(-5)).ceiling(forRetry: 3) == .zero)
        let huge = RetryPolicy.Backoff(base: .seconds(1), cap: .seconds(Int64.max / 2))
        #expect(huge.ceiling(forRetry: 200) == .seconds(Int64.max / 2))
    }
}

/// How an endpoint's and a call's overrides combine with the client's policy.
@Suite struct EndpointResilienceTests {
    @Test func backoffOverridesApplyOnTopOfTheClientsPolicy() {
        var client = RetryPolicy()
        client.retryableStatuses.remove(500)
        client.throttlingBackoff = RetryPolicy.Backoff(base: .seconds(2), cap: .seconds(30))
        let policy = EndpointResilience(maxAttempts: 5, backoffBase: .milliseconds(50), backoffCap: .seconds(3)).policy(over: client)
        #expect(policy.maxAttempts == 5)
        #expect(policy.transientBackoff == RetryPolicy.Backoff(base: .milliseconds(50), cap: .seconds(3)))
        // The endpoint's base is the first delay after a 429 or 503 too (issue 16): the spec's
        // `retry.baseDelay` used to leave throttling on the client's 1 s base.
        #expect(policy.throttlingBackoff == RetryPolicy.Backoff(base: .milliseconds(50), cap: .seconds(3)))
        // Everything the override does not name stays the client's.
        #expect(!policy.retryableStatuses.contains(500))
        #expect(policy.retryAfterLimit == client.retryAfterLimit)
    }

    @Test func aBaseAloneKeepsTheClientsCaps() {
        let policy = EndpointResilience(backoffBase: .milliseconds(250)).policy(over: .default)
        #expect(policy.transientBackoff == RetryPolicy.Backoff(base: .milliseconds(250), cap: .seconds(20)))
        #expect(policy.throttlingBackoff == RetryPolicy.Backoff(base: .milliseconds(250), cap: RetryPolicy.default.throttlingBackoff.cap))
        #expect(policy.maxAttempts == 3)
    }

    @Test func aCallsOverrideWinsFieldByField() {
        let endpoint = EndpointResilience(maxAttempts: 2, backoffBase: .milliseconds(100), backoffCap: .seconds(1), circuitBreaker: .off)
        let merged = endpoint.overridden(by: EndpointResilience(backoffCap: .seconds(9), isSafeToRepeat: true))
        #expect(merged == EndpointResilience(maxAttempts: 2, backoffBase: .milliseconds(100), backoffCap: .seconds(9),
                                             isSafeToRepeat: true, circuitBreaker: .off))
    }
}
