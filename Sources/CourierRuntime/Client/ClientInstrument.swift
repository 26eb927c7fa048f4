import HTTPTypes

/// Something that watches calls from inside them: a tracer that opens a span around a call
/// and each of its attempts, or a metrics recorder. Set one on
/// ``APIClient/Configuration/instrument``; `CourierObservability` provides one for
/// swift-distributed-tracing and swift-metrics.
///
/// Unlike ``APIClient/Configuration/onEvent``, an instrument wraps the call's work, so
/// whatever it puts in task-local storage (a tracing span's `ServiceContext`) is current
/// while the call runs, and it can add header fields (trace context) to every attempt.
///
/// The instrument is asked once, as each call starts, whether it observes the call. A call it
/// leaves alone (nothing bootstrapped to trace or measure into) runs as with no instrument:
/// no wrapping and no events built for it. The runtime depends on nothing for this: the
/// protocols speak only Courier's own types.
public protocol ClientInstrument: Sendable {
    /// How to observe the call that starts now, or `nil` to leave it alone.
    func observe(_ call: RequestSummary) -> (any CallObservation)?

    /// Records an event that belongs to no call: a breaker change made by
    /// ``APIClient/resetCircuitBreakers()``.
    func record(_ event: ClientEvent)
}

extension ClientInstrument {
    /// Ignores the event: an instrument with no use for breaker resets need not implement it.
    public func record(_ event: ClientEvent) {}
}

/// One call, observed: what a ``ClientInstrument`` hands back from
/// ``ClientInstrument/observe(_:)`` for a call it watches.
public protocol CallObservation: Sendable {
    /// Runs the call (every attempt, backoff and auth replay of it) inside the observation's
    /// scope. The call's own events arrive through ``record(_:)`` from inside `body`.
    func withCall<Output>(_ body: () async -> Output) async -> Output

    /// Runs one attempt of the call. `body` sends `headerFields` as the observation hands
    /// them on, with its own fields (such as `traceparent`) added.
    func withAttempt<Output>(number: Int, headerFields: HTTPFields, _ body: (HTTPFields) async -> Output) async -> Output

    /// Records an event of the call: the call's (started, finished, retries, breaker changes)
    /// or an attempt's (attempt started and finished), from inside the scope it belongs to.
    func record(_ event: ClientEvent)

    /// How many retries the host's ``RetryBudget`` allows now, after the call used it.
    func recordRetryBudget(_ availableRetries: Double, host: Resilience.Host)
}

extension CallObservation {
    /// Does nothing: an observation with no use for the budget need not implement it.
    public func recordRetryBudget(_ availableRetries: Double, host: Resilience.Host) {}
}
