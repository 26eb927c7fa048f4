import CoreMetrics
import CourierRuntime

/// Turns a call's events into swift-metrics metrics, made from an injected factory so that
/// tests need not bootstrap the process-wide system.
struct CallMetrics: Sendable {
    let factory: any MetricsFactory

    /// Metric labels; see the DocC article *Observability* in CourierRuntime.
    enum Label {
        static let duration = "courier_client_request_duration"
        static let retries = "courier_client_retries_total"
        static let retryBudget = "courier_client_retry_budget_available"
        static let breakerTransitions = "courier_client_circuit_breaker_transitions_total"
        static let openCircuitRejections = "courier_client_circuit_open_rejections_total"
    }

    func record(_ event: ClientEvent) {
        switch event {
        case .finished(let call, let result, let duration):
            Timer(label: Label.duration, dimensions: [
                ("operation", call.operationName),
                ("method", call.method.rawValue),
                ("status_class", Self.statusClass(of: result)),
            ], factory: factory).recordNanoseconds(Self.nanoseconds(duration))
        case .retryScheduled(let call, _, _, _):
            Counter(label: Label.retries, dimensions: [("operation", call.operationName)], factory: factory).increment()
        case .attemptFinished(let call, _, .circuitOpen, _):
            Counter(label: Label.openCircuitRejections, dimensions: [("operation", call.operationName)], factory: factory).increment()
        case .circuitBreakerChanged(let transition, _):
            Counter(label: Label.breakerTransitions, dimensions: [
                ("breaker", transition.key.description),
                ("to", transition.to.description),
            ], factory: factory).increment()
        case .started, .attemptStarted, .attemptFinished, .retryStopped:
            break
        }
    }

    func recordRetryBudget(_ availableRetries: Double, host: Resilience.Host) {
        Gauge(label: Label.retryBudget, dimensions: [("host", host.description)], factory: factory).record(availableRetries)
    }

    /// `2xx`, `4xx`, `5xx` (any status by its hundreds), `circuit_open` or `transport_error`.
    static func statusClass(of result: ClientEvent.CallResult) -> String {
        switch result {
        case .success(let status, _):
            return "\(status.code / 100)xx"
        case .failure(let failure):
            if let status = failure.status {
                return "\(status.code / 100)xx"
            }
            return failure.category == .circuitOpen ? "circuit_open" : "transport_error"
        }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
