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

    /// Opens the call's client span, named `METHOD /template`, and runs the call in its context.
    ///
    /// The tracer and metrics factory are looked up here, once a call: the global lookups take
    /// a lock and cast existentials, too much to repeat for every attempt and event.
    public func withCall<Output>(_ call: RequestSummary, _ body: () async -> Output) async -> Output {
        let tracer = activeTracer
        let metrics = activeMetrics
        guard tracer != nil || metrics != nil else {
            // Nothing to record: the call's events find no scope and cost one task-local read.
            // A call made inside another's (an auth refresh) must not record into the outer one.
            guard CallScope.current != nil else { return await body() }
            return await CallScope.$current.withValue(nil) { await body() }
        }
        guard let tracer else {
            return await CallScope.$current.withValue(CallScope(tracer: nil, metrics: metrics, span: nil, parent: nil)) {
                await body()
            }
        }
        let span = tracer.startSpan(SpanNames.name(for: call), context: ServiceContext.current ?? .topLevel, ofKind: .client)
        span.attributes = SpanNames.requestAttributes(of: call)
        defer { span.end() }
        return await CallScope.$current.withValue(CallScope(tracer: tracer, metrics: metrics, span: span, parent: nil)) {
            await ServiceContext.withValue(span.context) {
                await body()
            }
        }
    }

    /// Opens the attempt's client span under the call's, and injects its trace context into
    /// the attempt's header fields with the tracer's own propagation format.
    public func withAttempt<Output>(
        _ call: RequestSummary,
        number: Int,
        headerFields: HTTPFields,
        _ body: (HTTPFields) async -> Output
    ) async -> Output {
        guard let scope = CallScope.current, let tracer = scope.tracer else { return await body(headerFields) }
        let span = tracer.startSpan(SpanNames.name(for: call), context: ServiceContext.current ?? .topLevel, ofKind: .client)
        var attributes = SpanNames.requestAttributes(of: call)
        if number > 1 {
            attributes[SpanNames.resendCount] = number - 1
        }
        span.attributes = attributes
        let parent = scope.parent ?? scope.span
        if let parent, number > 1 {
            parent.attributes[SpanNames.retryCount] = number - 1
        }
        var fields = headerFields
        tracer.inject(span.context, into: &fields, using: HTTPFieldsInjector())
        defer { span.end() }
        return await CallScope.$current.withValue(CallScope(tracer: tracer, metrics: scope.metrics, span: span, parent: parent)) {
            await ServiceContext.withValue(span.context) {
                await body(fields)
            }
        }
    }

    /// Puts the event on the current span (when tracing) and into the metrics (when measuring).
    public func record(_ event: ClientEvent) {
        if let scope = CallScope.current {
            scope.record(event)
        } else if case .circuitBreakerChanged(_, request: nil) = event, let metrics = activeMetrics {
            // A reset outside any call (`resetCircuitBreakers()`): counted, with no span to go on.
            metrics.record(event)
        }
    }

    /// Sets the host's retry budget gauge.
    public func recordRetryBudget(_ availableRetries: Double, host: HostKey) {
        CallScope.current?.metrics?.recordRetryBudget(availableRetries, host: host)
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
