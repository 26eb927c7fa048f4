import CourierRuntime
import HTTPTypes
import Tracing

/// One call that `ClientObservability` observes: its tracer and metrics, decided once as the
/// call starts, so that its events look up nothing process-wide.
final class ObservedCall: CallObservation {
    let call: RequestSummary
    /// Where the call's spans come from; `nil` when the call is not traced.
    let tracer: (any Tracer)?
    /// Where the call's metrics go; `nil` when the call is not measured.
    let metrics: CallMetrics?

    init(call: RequestSummary, tracer: (any Tracer)?, metrics: CallMetrics?) {
        self.call = call
        self.tracer = tracer
        self.metrics = metrics
    }

    /// Opens the call's client span, named `METHOD /template`, and runs the call in its context.
    func withCall<Output>(_ body: () async -> Output) async -> Output {
        guard let tracer else { return await body() }
        let span = tracer.startSpan(SpanNames.name(for: call), context: ServiceContext.current ?? .topLevel, ofKind: .client)
        span.attributes = SpanNames.requestAttributes(of: call)
        defer { span.end() }
        return await CallScope.$current.withValue(CallScope(call: self, span: span, parent: nil)) {
            await ServiceContext.withValue(span.context) {
                await body()
            }
        }
    }

    /// Opens the attempt's client span under the call's, and injects its trace context into
    /// the attempt's header fields with the tracer's own propagation format.
    func withAttempt<Output>(number: Int, headerFields: HTTPFields, _ body: (HTTPFields) async -> Output) async -> Output {
        guard let tracer, let scope = CallScope.current, scope.call === self else { return await body(headerFields) }
        let span = tracer.startSpan(SpanNames.name(for: call), context: ServiceContext.current ?? .topLevel, ofKind: .client)
        var attributes = SpanNames.requestAttributes(of: call)
        if number > 1 {
            attributes[SpanNames.resendCount] = number - 1
        }
        span.attributes = attributes
        let parent = scope.parent ?? scope.span
        if number > 1 {
            parent.attributes[SpanNames.retryCount] = number - 1
        }
        var fields = headerFields
        tracer.inject(span.context, into: &fields, using: HTTPFieldsInjector())
        defer { span.end() }
        return await CallScope.$current.withValue(CallScope(call: self, span: span, parent: parent)) {
            await ServiceContext.withValue(span.context) {
                await body(fields)
            }
        }
    }

    /// Puts the event on the current span (when tracing) and into the metrics (when measuring).
    func record(_ event: ClientEvent) {
        if tracer != nil, let scope = CallScope.current, scope.call === self {
            CallScope.record(event, on: scope.span, call: scope.parent ?? scope.span)
        }
        metrics?.record(event)
    }

    /// Sets the host's retry budget gauge.
    func recordRetryBudget(_ availableRetries: Double, host: Resilience.Host) {
        metrics?.recordRetryBudget(availableRetries, host: host)
    }
}

/// The span a traced call's events belong to: the attempt's while an attempt runs, else the
/// call's. Kept in a task-local of this module, so the runtime needs to know nothing about
/// spans.
final class CallScope: Sendable {
    @TaskLocal static var current: CallScope?

    /// The call the span belongs to: a call made inside another (an auth refresh) sees the
    /// outer call's scope, which is not its own.
    let call: ObservedCall
    /// The attempt's span inside an attempt, else the call's.
    let span: any Span
    /// The call's span, for an attempt's scope.
    let parent: (any Span)?

    init(call: ObservedCall, span: any Span, parent: (any Span)?) {
        self.call = call
        self.span = span
        self.parent = parent
    }

    /// Puts `event` on `span`, the current one; breaker changes go on `call`, the call's span.
    static func record(_ event: ClientEvent, on span: any Span, call: any Span) {
        switch event {
        case .attemptFinished(_, _, let result, _):
            switch result {
            case .response(let status):
                span.attributes[SpanNames.statusCode] = status.code
                if status.code >= 400 {
                    span.attributes[SpanNames.errorType] = String(status.code)
                    span.setStatus(SpanStatus(code: .error))
                }
            case .transportFailure(let kind):
                span.attributes[SpanNames.errorType] = kind.rawValue
                span.setStatus(SpanStatus(code: .error))
            case .circuitOpen:
                span.attributes[SpanNames.errorType] = "circuitOpen"
                span.attributes[SpanNames.breakerState] = "open"
                span.setStatus(SpanStatus(code: .error, message: "circuit open"))
            case .middlewareFailed:
                span.attributes[SpanNames.errorType] = "middlewareFailed"
                span.setStatus(SpanStatus(code: .error, message: "middleware failed"))
            }
        case .retryScheduled(_, let attempt, _, let delay):
            span.addEvent(SpanEvent(name: "courier.retry_scheduled", attributes: [
                "courier.attempt": .int64(Int64(attempt)),
                "courier.retry_delay_ms": .int64(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000),
            ]))
        case .circuitBreakerChanged(let transition, _):
            // A change is recorded on the call it happened during, and that call's span
            // carries the state it left the breaker in.
            let target = call
            target.attributes[SpanNames.breakerState] = transition.to.description
            target.addEvent(SpanEvent(name: "courier.circuit_breaker_changed", attributes: [
                "courier.circuit_breaker.from": .string(transition.from.description),
                SpanNames.breakerState: .string(transition.to.description),
            ]))
        case .finished(_, let result, _):
            switch result {
            case .success(let status, _):
                span.attributes[SpanNames.statusCode] = status.code
            case .failure(let failure):
                if let status = failure.status {
                    span.attributes[SpanNames.statusCode] = status.code
                }
                span.attributes[SpanNames.errorType] = failure.status.map { String($0.code) } ?? Self.errorType(of: failure.category)
                span.setStatus(SpanStatus(code: .error, message: failure.message))
            }
        case .started, .attemptStarted, .retryStopped:
            break
        }
    }

    /// The transport error's kind (`timedOut`), or the category's name (`circuitOpen`).
    static func errorType(of category: ErrorCategory) -> String {
        if case .transport(let kind) = category {
            return kind.rawValue
        }
        return String(describing: category)
    }
}

/// Span names and attribute keys: OpenTelemetry's HTTP client conventions, and Courier's own.
enum SpanNames {
    static let method = "http.request.method"
    static let urlTemplate = "url.template"
    static let serverAddress = "server.address"
    static let serverPort = "server.port"
    static let statusCode = "http.response.status_code"
    static let errorType = "error.type"
    static let resendCount = "http.request.resend_count"
    static let operation = "courier.operation"
    static let retryCount = "courier.retry_count"
    static let breakerState = "courier.circuit_breaker.state"

    /// `GET /users/{id}`: low in cardinality, as OpenTelemetry asks of HTTP span names.
    static func name(for call: RequestSummary) -> String {
        "\(call.method.rawValue) \(call.pathTemplate)"
    }

    static func requestAttributes(of call: RequestSummary) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes[method] = call.method.rawValue
        attributes[urlTemplate] = call.pathTemplate
        attributes[operation] = call.operationName
        let (host, port) = split(authority: call.host)
        attributes[serverAddress] = host
        if let port {
            attributes[serverPort] = port
        }
        return attributes
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`.
    static func split(authority: String) -> (String, Int?) {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (String(authority[..<colon]), Int(authority[authority.index(after: colon)...]))
    }
}
