/// Runs one logical call as a series of attempts: each attempt passes the circuit breaker,
/// failures are classified and, where the ``RetryPolicy`` and the ``RetryBudget`` allow,
/// repeated after a backoff, all within one overall deadline.
///
/// The loop knows nothing about requests or errors beyond what it is told: the caller
/// supplies the single-attempt function, a way to classify its error, and a way to make
/// its error type for interruptions that have no real error behind them.
///
/// ```swift
/// let loop = RetryLoop(policy: .default, budget: budgets.budget(for: host),
///                      breaker: breakers.breaker(for: CircuitBreaker.Key(host: host)))
/// let response = try await loop.run(
///     RetryTraits(method: .get),
///     attemptTimeout: .seconds(10),
///     overallTimeout: .seconds(30),
///     classify: { error in error.attemptFailure },
///     interrupted: { interruption in MyError(interruption) }
/// ) { attempt in
///     try await sendOnce(timeout: attempt.timeout)
/// }
/// ```
///
/// Retry sits outside the breaker: every attempt, the first included, asks the breaker for
/// a permit, and a refusal ends the call at once rather than being retried. A refused first
/// attempt ends it with ``Interruption/circuitOpen(_:)``; a refused retry ends it with the
/// last real attempt's outcome, because that attempt did reach the server and its caller is
/// owed the answer.
package struct RetryLoop: Sendable {
    /// Which failures are repeated, how often and after what delay.
    package var policy: RetryPolicy
    /// The host's retry budget, or `nil` to retry without one.
    package var budget: RetryBudget?
    /// The breaker every attempt must pass, or `nil` for none.
    package var breaker: CircuitBreaker?
    /// Where backoff sleeps and the overall deadline are measured.
    package var clock: any Clock<Duration>
    /// Where backoff jitter is drawn from.
    package var jitter: Resilience.Jitter

    /// Creates a loop.
    package init(
        policy: RetryPolicy = .default,
        budget: RetryBudget? = nil,
        breaker: CircuitBreaker? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        jitter: Resilience.Jitter = .system
    ) {
        self.policy = policy
        self.budget = budget
        self.breaker = breaker
        self.clock = clock
        self.jitter = jitter
    }

    /// One attempt, as the loop hands it to the attempt function.
    package struct Attempt: Sendable, Hashable {
        /// The attempt's number, starting at 1.
        package var number: Int
        /// How long the attempt may take: the attempt timeout or the time left until the
        /// overall deadline, whichever is smaller. The loop never starts an attempt with no
        /// time left before the deadline.
        package var timeout: Duration
        /// Whether the attempt is a half-open circuit breaker's probe.
        package var isProbe: Bool

        /// Creates an attempt description.
        package init(number: Int, timeout: Duration, isProbe: Bool = false) {
            self.number = number
            self.timeout = timeout
            self.isProbe = isProbe
        }
    }

    /// Why the loop ended without a real error from an attempt to return; the caller turns
    /// it into its own error type.
    package enum Interruption: Sendable, Hashable {
        /// The circuit breaker refused an attempt. Only a refusal of the first attempt, when
        /// nothing was sent, ends the call with it; a refused retry ends with the last outcome.
        case circuitOpen(CircuitBreaker.Refusal)
        /// The calling task was cancelled before an attempt or during a backoff.
        case cancelled
        /// The overall deadline had passed before the first attempt could start.
        case deadlineExceeded
    }

    /// What the loop did, for logs, metrics and the lifecycle event stream.
    package enum Event: Sendable, Hashable {
        /// Attempt `attempt` failed with `failure`; the next one starts after `delay`.
        case retrying(attempt: Int, failure: RetryPolicy.AttemptFailure, delay: Duration)
        /// The call ended with an error after `attempts` attempts, for `reason`.
        case stopped(RetryPolicy.StopReason, attempts: Int)
    }

    /// Runs `attempt` until it succeeds or the call must stop, for an attempt function that
    /// throws its failures.
    ///
    /// - Parameters:
    ///   - request: The traits of the request, which decide whether repeating it is safe.
    ///     When it carries an Idempotency-Key, make the key once, before calling this, and
    ///     send the same key on every attempt.
    ///   - attemptTimeout: The longest any single attempt may take.
    ///   - overallTimeout: The longest the whole call may take, backoffs included, measured
    ///     from now; `nil` for no limit beyond the attempts' own.
    ///   - classify: Describes a failed attempt's error to the policy, budget and breaker.
    ///   - interrupted: Makes the error to throw when the loop ends with no attempt error to
    ///     return: a refusal of the first attempt by the breaker, a cancellation, or a
    ///     deadline that had passed before the first attempt.
    ///     It is also called when the breaker refuses a retry, so that the refusal can be
    ///     recorded, but its result is then dropped for the last attempt's.
    ///   - onEvent: Told about every retry and about why the call stopped.
    ///   - attempt: Makes one attempt within the given timeout.
    /// - Returns: The first successful attempt's value.
    /// - Throws: The last attempt's error when the policy, the budget, the deadline or the
    ///   breaker forbids another attempt; otherwise the error `interrupted` makes.
    package func run<Value, Failure: Error>(
        _ request: RetryTraits,
        attemptTimeout: Duration,
        overallTimeout: Duration? = nil,
        classify: (Failure) -> RetryPolicy.AttemptFailure,
        interrupted: (Interruption) -> Failure,
        onEvent: (Event) -> Void = { _ in },
        attempt: (Attempt) async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let (result, _) = await run(
            request,
            attemptTimeout: attemptTimeout,
            overallTimeout: overallTimeout,
            assess: { (result: Result<Value, Failure>) -> RetryPolicy.AttemptFailure? in
                guard case .failure(let error) = result else { return nil }
                return classify(error)
            },
            interrupted: { .failure(interrupted($0)) },
            onEvent: onEvent,
            attempt: { current in
                do throws(Failure) {
                    return .success(try await attempt(current))
                } catch {
                    return .failure(error)
                }
            }
        )
        return try result.get()
    }

    /// Runs `attempt` until its outcome is a success or the call must stop, for an attempt
    /// function that reports failures as values (a response of any status, a transport
    /// error) and leaves their interpretation to the caller.
    ///
    /// - Parameters:
    ///   - request: The traits of the request, which decide whether repeating it is safe.
    ///     When it carries an Idempotency-Key, make the key once, before calling this, and
    ///     send the same key on every attempt.
    ///   - attemptTimeout: The longest any single attempt may take.
    ///   - overallTimeout: The longest the whole call may take, backoffs included, measured
    ///     from now; `nil` for no limit beyond the attempts' own.
    ///   - assess: Returns `nil` for an outcome that ends the call successfully, and how it
    ///     failed otherwise.
    ///   - interrupted: Makes the outcome to return when the loop ends with no attempt outcome
    ///     to return: a refusal of the first attempt by the breaker, a cancellation, or a
    ///     deadline that had passed before the first attempt.
    ///     It is also called when the breaker refuses a retry, so that the refusal can be
    ///     recorded, but its result is then dropped for the last attempt's.
    ///   - onEvent: Told about every retry and about why the call stopped.
    ///   - attempt: Makes one attempt within the given timeout.
    /// - Returns: The successful outcome, or the last attempt's outcome when the policy, the
    ///   budget, the deadline or the breaker forbids another attempt, or the outcome
    ///   `interrupted` makes; with the number of attempts made.
    package func run<Outcome>(
        _ request: RetryTraits,
        attemptTimeout: Duration,
        overallTimeout: Duration? = nil,
        assess: (Outcome) -> RetryPolicy.AttemptFailure?,
        interrupted: (Interruption) -> Outcome,
        onEvent: (Event) -> Void = { _ in },
        attempt: (Attempt) async -> Outcome
    ) async -> (outcome: Outcome, attempts: Int) {
        let stopwatch = Stopwatch(clock)
        var attemptsMade = 0
        var lastOutcome: Outcome?
        // The retry taken from the budget for the attempt about to be made; refunded if that
        // attempt never goes out.
        var withdrawal: RetryBudget.Withdrawal?

        func stop(_ reason: RetryPolicy.StopReason, _ outcome: Outcome) -> (outcome: Outcome, attempts: Int) {
            if let withdrawal {
                budget?.refund(withdrawal)
            }
            onEvent(.stopped(reason, attempts: attemptsMade))
            return (outcome, attemptsMade)
        }

        while true {
            if Task.isCancelled {
                return stop(.cancelled, interrupted(.cancelled))
            }
            var timeout = attemptTimeout
            if let overallTimeout {
                let remaining = overallTimeout - stopwatch.elapsed
                guard remaining > .zero else {
                    return stop(.beyondDeadline, lastOutcome ?? interrupted(.deadlineExceeded))
                }
                timeout = min(timeout, remaining)
            }
            // Every admitted attempt is recorded below, on success and on failure: the attempt
            // function cannot throw, so no path leaves a half-open breaker's probe taken.
            let admission: CircuitBreaker.Admission?
            do {
                admission = try breaker?.admit()
            } catch {
                // Made even for a refused retry, so the caller can record the refusal; but then
                // the last real outcome is returned instead: `.circuitOpen` would tell the caller
                // nothing was sent when the server had in fact answered. The stop reason still
                // says that the breaker ended the call.
                let refusal = interrupted(.circuitOpen(error))
                return stop(.circuitOpen, lastOutcome ?? refusal)
            }

            if attemptsMade == 0 {
                // A call counts towards the retries its host may receive once it goes out,
                // whatever its outcome, as in Finagle's budget.
                budget?.recordCall()
            }
            // From here the retry paid for is made, so its withdrawal stays spent.
            withdrawal = nil
            let outcome = await attempt(Attempt(number: attemptsMade + 1, timeout: timeout, isProbe: admission?.isProbe ?? false))
            attemptsMade += 1
            guard let failure = assess(outcome) else {
                if let admission {
                    breaker?.record(.success, for: admission)
                }
                return (outcome, attemptsMade)
            }
            lastOutcome = outcome
            if let admission {
                breaker?.record(CircuitBreaker.Outcome(failure), for: admission)
            }

            let remaining = overallTimeout.map { $0 - stopwatch.elapsed }
            let delay: Duration
            switch policy.decision(after: failure, attempt: attemptsMade, of: request, remaining: remaining, jitter: jitter.next()) {
            case .retry(let after):
                delay = after
            case .stop(let reason):
                if case .transport(.cancelled, _) = failure {
                    return stop(.cancelled, outcome)
                }
                return stop(reason, outcome)
            }
            if let budget {
                guard let taken = budget.withdraw(forRetryAfter: failure) else {
                    return stop(.budgetExhausted, outcome)
                }
                withdrawal = taken
            }
            onEvent(.retrying(attempt: attemptsMade, failure: failure, delay: delay))
            if delay > .zero {
                do {
                    try await stopwatch.sleep(for: delay)
                } catch {
                    return stop(.cancelled, interrupted(.cancelled))
                }
            }
        }
    }
}
