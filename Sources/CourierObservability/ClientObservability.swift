import CoreMetrics
import CourierRuntime
import HTTPTypes
import Tracing

/// Traces and measures every call of a client: a span per call and per attempt through
/// swift-distributed-tracing, and request durations, retries, retry budgets and circuit
/// breaker changes through swift-metrics.
///
/// ```swift
/// var configuration = APIClient.Configuration()
/// configuration.instrument = ClientObservability()
/// ```
///
/// By default it uses the process's bootstrapped tracer (`InstrumentationSystem.tracer`) and
/// metrics factory (`MetricsSystem.factory`), looked up once at the start of each call; until the app
/// bootstraps them, both are the libraries' no-ops and a call does no tracing work. Tests and
/// apps that keep several backends pass their own.
///
/// Span names, attributes and metric names are listed in CourierRuntime's DocC article *Observability*; attribute
/// names follow OpenTelemetry's HTTP client conventions, with Courier's own under `courier.`.
public struct ClientObservability: ClientInstrument {
    /// The tracer for spans; `nil` means the bootstrapped `InstrumentationSystem.tracer`.
    public var tracer: (any Tracer)?
    /// Where metrics go; `nil` means the bootstrapped `MetricsSystem.factory`.
    public var metricsFactory: (any MetricsFactory)?
    /// Whether calls are traced.
    public var isTracing: Bool
    /// Whether calls are measured.
    public var isMeasuring: Bool

    /// Creates an instrument.
    ///
    /// - Parameters:
    ///   - tracer: Spans go here; by default the bootstrapped tracer.
    ///   - metricsFactory: Metrics go here; by default the bootstrapped factory. Pass one to
    ///     keep metrics apart from the global system, as tests do.
    ///   - tracing: `false` makes no spans at all.
    ///   - metrics: `false` records no metrics at all.
    public init(
        tracer: (any Tracer)? = nil,
        metricsFactory: (any MetricsFactory)? = nil,
        tracing: Bool = true,
        metrics: Bool = true
    ) {
        self.tracer = tracer
        self.metricsFactory = metricsFactory
        self.isTracing = tracing
        self.isMeasuring = metrics
    }

    /// The tracer for a call, or `nil` when there is nothing to trace into.
    private var activeTracer: (any Tracer)? {
        guard isTracing else { return nil }
        if let tracer = self.tracer {
            return tracer is NoOpTracer ? nil : tracer
        }
        // Until the app bootstraps, the system's instrument is the no-op one: a cast to one
        // concrete type says so, where `InstrumentationSystem.tracer` would search it for a
        // tracer through casts to existentials, a good part of this instrument's cost per call.
        let instrument = InstrumentationSystem.instrument
        if instrument is NoOpInstrument || instrument is NoOpTracer {
            return nil
        }
        // The no-op tracer would still cost a span object and two task-local bindings per attempt.
        let tracer = InstrumentationSystem.tracer
        return tracer is NoOpTracer ? nil : tracer
    }

    /// The metrics for a call, or `nil` when they would go nowhere: swift-metrics' own no-op
    /// handler still costs a metric object and its dimensions per event.
    private var activeMetrics: CallMetrics? {
        guard isMeasuring else { return nil }
        let factory = metricsFactory ?? MetricsSystem.factory
        return factory is NOOPMetricsHandler ? nil : CallMetrics(factory: factory)
    }

    /// Observes the call when there is a tracer or metrics backend to record it into; leaves
    /// it alone otherwise, so that with nothing bootstrapped a call costs one lookup of each.
    ///
    /// The tracer and metrics factory are looked up here, once a call: the global lookups take
    /// a lock and cast existentials, too much to repeat for every attempt and event.
    public func observe(_ call: RequestSummary) -> (any CallObservation)? {
        let tracer = activeTracer
        let metrics = activeMetrics
        guard tracer != nil || metrics != nil else { return nil }
        return ObservedCall(call: call, tracer: tracer, metrics: metrics)
    }

    /// Counts a breaker change that belongs to no call (a reset); there is no span to put it on.
    public func record(_ event: ClientEvent) {
        activeMetrics?.record(event)
    }
}

/// Writes trace context into request header fields; field names the tracer asks for that
/// are not valid HTTP names are skipped rather than trusted.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}
