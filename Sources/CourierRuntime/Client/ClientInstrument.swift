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
/// The runtime depends on nothing for this: the protocol speaks only Courier's own types.
/// With no instrument set, a call pays one `nil` check per step.
public protocol ClientInstrument: Sendable {
    /// Runs one logical call (every attempt, backoff and auth replay of it) inside the
    /// instrument's scope for the call. The call's own events arrive through
    /// ``record(_:)`` from inside `body`.
    func withCall<Output>(_ call: RequestSummary, _ body: () async -> Output) async -> Output

    /// Runs one attempt of the call whose scope is current. `body` sends `headerFields` as
    /// the instrument hands them on, with its own fields (such as `traceparent`) added.
    func withAttempt<Output>(
        _ call: RequestSummary,
        number: Int,
        headerFields: HTTPFields,
        _ body: (HTTPFields) async -> Output
    ) async -> Output

    /// Records an event from inside the scope it belongs to: the call's (started, finished,
    /// retries, breaker changes) or the attempt's (attempt started and finished).
    func record(_ event: ClientEvent)

    /// How many retries the host's ``RetryBudget`` allows now, after a call that used it.
    func recordRetryBudget(_ availableRetries: Double, host: HostKey)
}

extension ClientInstrument {
    /// Does nothing: an instrument that has no use for the budget need not implement it.
    public func recordRetryBudget(_ availableRetries: Double, host: HostKey) {}
}
