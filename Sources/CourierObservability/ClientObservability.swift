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
/// metrics factory (`MetricsSystem.factory`), looked up at each call; until the app
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

    /// The tracer for this call, or `nil` when there is nothing to trace into.
    private var activeTracer: (any Tracer)? {
        guard isTracing else { return nil }
        let tracer = self.tracer ?? InstrumentationSystem.tracer
        // The no-op tracer would still cost a span object and two task-local bindings per attempt.
        return tracer is NoOpTracer ? nil : tracer
    }

    /// The metrics factory for this event, or `nil` when metrics would go nowhere: swift-metrics'
    /// own no-op handler still costs a metric object and its dimensions per event.
    private var activeMetricsFactory: (any MetricsFactory)? {
        guard isMeasuring else { return nil }
        let factory = metricsFactory ?? MetricsSystem.factory
        return factory is NOOPMetricsHandler ? nil : factory
    }

    /// Opens the call's client span, named `METHOD /template`, and runs the call in its context.
    public func withCall<Output>(_ call: RequestSummary, _ body: () async -> Output) async -> Output {
        guard let tracer = activeTracer else { return await body() }
        let span = tracer.startSpan(SpanNames.name(for: call), context: ServiceContext.current ?? .topLevel, ofKind: .client)
        span.attributes = SpanNames.requestAttributes(of: call)
        let scope = SpanScope(span: span, parent: nil)
        defer { span.end() }
        return await SpanScope.$current.withValue(scope) {
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
        guard let tracer = activeTracer else { return await body(headerFields) }
        let parent = SpanScope.current
        let span = tracer.startSpan(SpanNames.name(for: call), context: ServiceContext.current ?? .topLevel, ofKind: .client)
        var attributes = SpanNames.requestAttributes(of: call)
        if number > 1 {
            attributes[SpanNames.resendCount] = number - 1
        }
        span.attributes = attributes
        if let parent = parent?.span, number > 1 {
            parent.attributes[SpanNames.retryCount] = number - 1
        }
        var fields = headerFields
        tracer.inject(span.context, into: &fields, using: HTTPFieldsInjector())
        defer { span.end() }
        return await SpanScope.$current.withValue(SpanScope(span: span, parent: parent?.span)) {
            await ServiceContext.withValue(span.context) {
                await body(fields)
            }
        }
    }

    /// Puts the event on the current span (when tracing) and into the metrics (when measuring).
    public func record(_ event: ClientEvent) {
        if isTracing, let scope = SpanScope.current {
            scope.record(event)
        }
        if let factory = activeMetricsFactory {
            CallMetrics(factory: factory).record(event)
        }
    }

    /// Sets the host's retry budget gauge.
    public func recordRetryBudget(_ availableRetries: Double, host: HostKey) {
        guard let factory = activeMetricsFactory else { return }
        CallMetrics(factory: factory).recordRetryBudget(availableRetries, host: host)
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
