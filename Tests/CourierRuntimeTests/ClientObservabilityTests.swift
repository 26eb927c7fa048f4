import CourierObservability
import CourierRuntime
import CourierTestServer
import CourierTestSupport
import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// Spans and metrics of real calls, through a real transport to the loopback server, recorded
/// by swift-distributed-tracing's InMemoryTracer and swift-metrics' TestMetrics, both injected
/// so that nothing process-wide is bootstrapped.
@Suite struct ClientObservabilityTests {
    static let quickRetries = RetryPolicy(transientBackoff: RetryPolicy.Backoff(base: .milliseconds(5), cap: .milliseconds(20)))

    func observedClient(
        _ server: TestServer,
        _ kind: TransportKind,
        tracer: InMemoryTracer,
        metrics: TestMetrics,
        _ configure: (inout APIClient.Configuration) -> Void = { _ in }
    ) -> APIClient {
        client(for: server, kind) {
            $0.resilience = Resilience(retryPolicy: Self.quickRetries, sharing: .isolated)
            $0.instrument = ClientObservability(tracer: tracer, metricsFactory: metrics)
            configure(&$0)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRetriedCallIsOneSpanWithAChildPerAttemptEachInjectedIntoItsRequest(kind: TransportKind) async throws {
        try await withServer { server in
            server.route("GET", "/users/7", failingFirst: 2, with: .respond(.status(503)), then: .respond(.json(#"{"id":7,"name":"Grace"}"#)))
            let tracer = InMemoryTracer()
            let metrics = TestMetrics()
            let client = observedClient(server, kind, tracer: tracer, metrics: metrics)
            // The app's own span: the call's span must be its child.
            let outer = tracer.startSpan("handle request")
            let user = try await ServiceContext.withValue(outer.context) {
                try await client.send(GetUser(id: "7"))
            }
            outer.end()
            #expect(user == User(id: 7, name: "Grace"))

            let spans = tracer.finishedSpans
            let call = try #require(spans.first { $0.parentSpanID == outer.spanID })
            let attempts = spans.filter { $0.parentSpanID == call.spanID }
            #expect(spans.count == 5)
            #expect(call.operationName == "GET /users/{id}")
            #expect(call.kind == .client)
            #expect(call.traceID == outer.traceID)
            #expect(call.attributes.get("http.request.method") == "GET")
            #expect(call.attributes.get("url.template") == "/users/{id}")
            #expect(call.attributes.get("courier.operation") == "getUser")
            #expect(call.attributes.get("server.address") == "127.0.0.1")
            #expect(call.attributes.get("server.port") == .int64(Int64(server.port)))
            #expect(call.attributes.get("http.response.status_code") == 200)
            #expect(call.attributes.get("courier.retry_count") == 2)
            #expect(call.status == nil)

            #expect(attempts.count == 3)
            #expect(attempts.map { $0.attributes.get("http.response.status_code") } == [503, 503, 200])
            #expect(attempts.map { $0.attributes.get("http.request.resend_count") } == [nil, 1, 2])
            #expect(attempts.map { $0.attributes.get("error.type") } == ["503", "503", nil])
            #expect(attempts.map { $0.status?.code } == [.error, .error, nil])
            #expect(attempts.allSatisfy { $0.traceID == outer.traceID && $0.kind == .client })

            // Each attempt carried its own span's context to the server.
            #expect(server.headerValues(InMemoryTracer.spanIDKey, "GET", "/users/7") == attempts.map(\.spanID))
            #expect(server.headerValues(InMemoryTracer.traceIDKey, "GET", "/users/7") == Array(repeating: outer.traceID, count: 3))

            #expect(metrics.counterTotal(label: "courier_client_retries_total", dimensions: [("operation", "getUser")]) == 2)
            let duration = try metrics.expectTimer("courier_client_request_duration", [("operation", "getUser"), ("method", "GET"), ("status_class", "2xx")])
            #expect(duration.values.count == 1)
            let budget = try metrics.expectGauge("courier_client_retry_budget_available", [("host", try #require(Resilience.Host(server.baseURL)).description)])
            #expect(budget.lastValue != nil)
        }
    }

    @Test func aFailedCallMarksItsSpanAnErrorAndCountsUnderItsStatusClass() async throws {
        try await withServer { server in
            server.route("GET", "/users/9", .respond(.json(#"{"code":"missing","message":"gone"}"#, status: 404)))
            let tracer = InMemoryTracer()
            let metrics = TestMetrics()
            let client = observedClient(server, .asyncHTTPClient, tracer: tracer, metrics: metrics)
            await #expect(throws: APIError<UserFailure>.self) { try await client.send(GetUser(id: "9")) }
            let spans = tracer.finishedSpans
            let call = try #require(spans.first { $0.parentSpanID == nil })
            #expect(spans.count == 2)
            #expect(call.status?.code == .error)
            #expect(call.attributes.get("error.type") == "404")
            #expect(call.attributes.get("http.response.status_code") == 404)
            #expect(metrics.timers(label: "courier_client_request_duration", dimensions: [("operation", "getUser"), ("method", "GET"), ("status_class", "4xx")]).count == 1)
            #expect(metrics.counterTotal(label: "courier_client_retries_total") == 0)
        }
    }

    @Test func anOpenBreakerIsCountedAndNamedOnTheRefusedCallsSpan() async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.status(503)))
            let tracer = InMemoryTracer()
            let metrics = TestMetrics()
            let client = observedClient(server, .asyncHTTPClient, tracer: tracer, metrics: metrics) {
                $0.resilience = Resilience(
                    retryPolicy: .never,
                    circuitBreaker: .consecutiveFailures(1, successesToClose: 1, openDuration: .seconds(60)),
                    circuitBreakerScope: .host,
                    sharing: .isolated
                )
            }
            await #expect(throws: APIError<UserFailure>.self) { try await client.send(GetUser(id: "1")) }
            await #expect(throws: APIError<UserFailure>.self) { try await client.send(GetUser(id: "1")) }
            #expect(server.requestCount("GET", "/users/1") == 1)

            #expect(metrics.counterTotal(label: "courier_client_circuit_breaker_transitions_total") == 1)
            #expect(metrics.counters(label: "courier_client_circuit_breaker_transitions_total").first?.dimensions.last?.1 == "open")
            #expect(metrics.counterTotal(label: "courier_client_circuit_open_rejections_total", dimensions: [("operation", "getUser")]) == 1)
            #expect(metrics.timers(label: "courier_client_request_duration", dimensions: [("operation", "getUser"), ("method", "GET"), ("status_class", "circuit_open")]).count == 1)

            let calls = tracer.finishedSpans.filter { $0.parentSpanID == nil }
            #expect(calls.count == 2)
            #expect(calls.first?.attributes.get("courier.circuit_breaker.state") == "open")
            #expect(calls.last?.attributes.get("error.type") == "circuitOpen")
            #expect(calls.last?.attributes.get("courier.circuit_breaker.state") == "open")
            #expect(calls.last?.status?.code == .error)
            // The refused call never reached the transport: no attempt span under it.
            let refused = try #require(calls.last)
            #expect(tracer.finishedSpans.filter { $0.parentSpanID == refused.spanID }.isEmpty)

            // A reset belongs to no call: it is still counted.
            client.resetCircuitBreakers()
            #expect(metrics.counterTotal(label: "courier_client_circuit_breaker_transitions_total") == 2)
            #expect(metrics.counters(label: "courier_client_circuit_breaker_transitions_total").contains { $0.dimensions.last?.1 == "closed" })
        }
    }

    @Test func aStreamedCallIsTracedLikeAnyOther() async throws {
        try await withServer { server in
            server.route("GET", "/users/5", .respond(.json(#"{"id":5,"name":"Ada"}"#)))
            let tracer = InMemoryTracer()
            let client = observedClient(server, .asyncHTTPClient, tracer: tracer, metrics: TestMetrics())
            let response = try await client.stream(GetUser(id: "5"))
            _ = try await response.body.collect(upTo: 1024)
            let spans = tracer.finishedSpans
            let call = try #require(spans.first { $0.parentSpanID == nil })
            #expect(spans.count == 2)
            #expect(spans.first { $0.parentSpanID == call.spanID }?.attributes.get("http.response.status_code") == 200)
            #expect(server.headerValues(InMemoryTracer.spanIDKey, "GET", "/users/5") == [spans.first { $0.parentSpanID == call.spanID }?.spanID])
        }
    }

    @Test func aCallMadeInsideAnotherRecordsNothingIntoTheOuterCall() async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"id":1,"name":"Ada"}"#)))
            server.route("GET", "/users/2", .respond(.json(#"{"id":2,"name":"Bo"}"#)))
            let tracer = InMemoryTracer()
            let metrics = TestMetrics()
            // The inner client's instrument has nothing to record into, as with nothing
            // bootstrapped: its call runs inside the outer call's attempt, as a token refresh
            // made by the transport or the auth would.
            let inner = client(for: server, .asyncHTTPClient) {
                $0.instrument = ClientObservability(tracing: false, metrics: false)
            }
            let outer = APIClient(
                baseURL: server.baseURL,
                transport: CallingFirst(inner: inner, base: TransportKind.asyncHTTPClient.make()),
                configuration: APIClient.Configuration(
                    resilience: Resilience(sharing: .isolated),
                    instrument: ClientObservability(tracer: tracer, metricsFactory: metrics)
                )
            )
            #expect(try await outer.send(GetUser(id: "1")) == User(id: 1, name: "Ada"))
            #expect(server.requestCount("GET", "/users/2") == 1)

            let duration = try metrics.expectTimer("courier_client_request_duration", [("operation", "getUser"), ("method", "GET"), ("status_class", "2xx")])
            #expect(duration.values.count == 1)
            #expect(tracer.finishedSpans.count == 2)
        }
    }

    @Test func anInstrumentHearsOnlyTheCallsItObservesAndResetsOutsideAnyCall() async throws {
        try await withServer { server in
            server.route("GET", "/users/1", .respond(.json(#"{"id":1,"name":"Ada"}"#)))
            server.route("GET", "/ping", .respond(.json(#"{"id":0,"name":"pong"}"#)))
            server.route("GET", "/down", .respond(.status(503)))
            let instrument = Watching(operation: "getUser")
            let client = client(for: server, .asyncHTTPClient) {
                $0.instrument = instrument
                $0.resilience = Resilience(retryPolicy: .never,
                                           circuitBreaker: .consecutiveFailures(1, successesToClose: 1, openDuration: .seconds(60)),
                                           circuitBreakerScope: .host, sharing: .isolated)
            }
            _ = try await client.send(UserProbe(path: "/ping", operationName: "ping"))
            _ = try await client.send(GetUser(id: "1"))
            // An unobserved call opens the breaker; the reset that closes it belongs to no call.
            _ = try? await client.send(UserProbe(path: "/down", operationName: "ping"))
            client.resetCircuitBreakers()

            // Every call was offered; those left alone were neither wrapped nor told of.
            #expect(instrument.asked.all == ["ping", "getUser", "ping"])
            #expect(instrument.log.all == ["call", "started", "attempt 1", "attemptStarted", "attemptFinished", "finished", "outside a call"])
        }
    }

    /// Observes the calls of one operation, logging what it is asked to do.
    struct Watching: ClientInstrument {
        let operation: String
        let log = LockedValues<String>()
        let asked = LockedValues<String>()

        struct Observation: CallObservation {
            let log: LockedValues<String>

            func withCall<Output>(_ body: () async -> Output) async -> Output {
                log.append("call")
                return await body()
            }

            func withAttempt<Output>(number: Int, headerFields: HTTPFields, _ body: (HTTPFields) async -> Output) async -> Output {
                log.append("attempt \(number)")
                return await body(headerFields)
            }

            func record(_ event: ClientEvent) {
                switch event {
                case .started: log.append("started")
                case .attemptStarted: log.append("attemptStarted")
                case .attemptFinished: log.append("attemptFinished")
                case .retryScheduled: log.append("retryScheduled")
                case .retryStopped: log.append("retryStopped")
                case .circuitBreakerChanged: log.append("circuitBreakerChanged")
                case .finished: log.append("finished")
                }
            }
        }

        func observe(_ call: RequestSummary) -> (any CallObservation)? {
            asked.append(call.operationName)
            return call.operationName == operation ? Observation(log: log) : nil
        }

        func record(_ event: ClientEvent) {
            log.append("outside a call")
        }
    }

    /// Makes a call through `inner` before each request it sends.
    struct CallingFirst: HTTPTransport {
        let inner: APIClient
        let base: any HTTPTransport

        func send(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse {
            _ = try? await inner.send(GetUser(id: "2"))
            return try await base.send(request, body: body, timeout: timeout)
        }
    }

    @Test func withTracingOffNoSpanIsMadeAndNothingIsInjected() async throws {
        try await withServer { server in
            server.route("GET", "/users/3", .respond(.json(#"{"id":3,"name":"Lin"}"#)))
            let tracer = InMemoryTracer()
            let client = client(for: server, .asyncHTTPClient) {
                $0.instrument = ClientObservability(tracer: tracer, metricsFactory: TestMetrics(), tracing: false)
            }
            _ = try await client.send(GetUser(id: "3"))
            #expect(tracer.finishedSpans.isEmpty)
            #expect(server.headerValues(InMemoryTracer.spanIDKey, "GET", "/users/3") == [nil])
        }
    }
}
