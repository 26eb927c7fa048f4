import CourierAsyncHTTPClient
import CourierLocking
import CourierRuntime
import CourierTestServer
import Foundation
import ReferenceFaultSuite
import Testing

// Shared by the fault suite: the generated FaultSuite client over either real transport, the
// loopback server that counts what arrives, an event log to wait on, and the figures line.

/// The two real transports every fault test runs through.
enum FaultTransport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession
    case asyncHTTPClient

    /// A new transport. The AsyncHTTPClient one shares one `HTTPClient` made by
    /// `makeHTTPClient()`, which fails fast against a refused port, unlike `HTTPClient.shared`.
    func make() -> any HTTPTransport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .asyncHTTPClient: FaultSuiteHTTPClient.transport
        }
    }

    var testDescription: String { rawValue }
}

enum FaultSuiteHTTPClient {
    /// One client for the test process; a static is never deinitialised, so it never trips
    /// AsyncHTTPClient's check that a client is shut down.
    static let transport = AsyncHTTPClientTransport(client: AsyncHTTPClientTransport.makeHTTPClient())
}

/// Waits for its turn as a case of `kind` (see ``FaultSchedule``), starts a loopback server,
/// runs `body`, and stops the server even when `body` throws.
func withFaultServer<T>(_ kind: FaultSchedule.Kind, _ body: (TestServer) async throws -> T) async throws -> T {
    try await FaultSchedule.shared.run(kind) {
        let server = try await TestServer.start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// A port on 127.0.0.1 where nothing listens, held so that no other test's server gets it.
func portWithNothingListening() async throws -> Int {
    try TestServer.portWithNothingListening()
}

/// The generated client against `url` through `transport`, with `configure` applied to a
/// default configuration that records events in `events`.
func faultClient(
    _ url: URL,
    _ transport: FaultTransport,
    events: EventLog,
    _ configure: (inout APIClient.Configuration) -> Void = { _ in }
) -> FaultSuiteClient {
    faultClient(url, through: transport.make(), events: events, configure)
}

/// The generated client against `url` through a given transport.
func faultClient(
    _ url: URL,
    through transport: any HTTPTransport,
    events: EventLog,
    _ configure: (inout APIClient.Configuration) -> Void = { _ in }
) -> FaultSuiteClient {
    var configuration = APIClient.Configuration()
    // The default policy, budget and breaker configuration, in a store of the client's own:
    // budgets are kept per host and port, and a port the system hands out again must not bring
    // another case's drained budget with it. Sharing across clients has its own regression
    // test (SharedResilienceTests).
    configuration.resilience = Resilience(sharing: .isolated)
    configuration.onEvent = events.hook
    configure(&configuration)
    return FaultSuiteClient(baseURL: url, transport: transport, configuration: configuration)
}

/// Prints one measured figure line, `fault-figure: <scenario> <transport> key=value …`, so that
/// `swift test --filter FaultSuite 2>&1 | grep fault-figure` reproduces the docs' tables.
func figure(_ scenario: String, _ transport: FaultTransport, _ fields: KeyValuePairs<String, String>) {
    let text = fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    print("fault-figure: \(scenario) \(transport.rawValue) \(text)")
}

extension Duration {
    /// Milliseconds with one decimal, for figures.
    var milliseconds: String {
        let (seconds, attoseconds) = components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.1fms", value)
    }
}

/// Runs a generated client's call and returns its result, typed error included.
func outcome<Value, Failure>(
    _ call: () async throws(APIError<Failure>) -> Value
) async -> Result<Value, APIError<Failure>> {
    do throws(APIError<Failure>) {
        return .success(try await call())
    } catch {
        return .failure(error)
    }
}

extension ErrorCategory {
    /// A short name for figures: `transport.timedOut`, `undocumentedStatus`.
    var figureName: String {
        switch self {
        case .transport(let kind): "transport.\(kind)"
        case .endpoint: "endpoint"
        case .undocumentedStatus: "undocumentedStatus"
        case .decoding: "decoding"
        case .invalidRequest: "invalidRequest"
        case .circuitOpen: "circuitOpen"
        }
    }
}

extension Result {
    /// The error category of a failure; `nil` for a success.
    func category<F>() -> ErrorCategory? where Failure == APIError<F> {
        if case .failure(let error) = self { return error.category }
        return nil
    }
}

extension Result {
    /// The status code of a failure's response; `nil` for a success or a failure without one.
    func failureStatus<F>() -> Int? where Failure == APIError<F> {
        if case .failure(let error) = self { return error.status?.code }
        return nil
    }
}

/// What the retry budget allows, from its configuration and its documented bound (see
/// ``RetryBudget``), never from the policy's attempts per call.
enum BudgetAllowance {
    /// The most retries, each counted at its cost, that `calls` calls may make over `elapsed`
    /// on a budget that saw no traffic before them.
    ///
    /// Within any period of one window the budget grants at most its floor plus its share of the
    /// calls of that period and the window before: ``RetryBudget/Configuration/retryAllowance(forCalls:)``
    /// of all `calls`. A run longer than a window is covered by that many windows, each bounded alike.
    static func retries(_ configuration: RetryBudget.Configuration, calls: Int, over elapsed: Duration) -> Int {
        let windows = configuration.window > .zero ? max(1, Int((elapsed / configuration.window).rounded(.up))) : 1
        return windows * configuration.retryAllowance(forCalls: calls)
    }

    /// Whether `budget` is drained: it cannot pay for even the cheapest retry.
    static func isDrained(_ budget: RetryBudget) -> Bool {
        budget.availableRetries < 1
    }
}

/// Every ``ClientEvent`` a client sent, with waits for the one a test needs next.
final class EventLog: Sendable {
    private struct Waiter {
        var predicate: @Sendable ([ClientEvent]) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var events: [ClientEvent] = []
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    /// The hook for ``APIClient/Configuration/onEvent``.
    var hook: @Sendable (ClientEvent) -> Void {
        { [self] event in record(event) }
    }

    var events: [ClientEvent] { state.withLock { $0.events } }

    /// How many attempts were handed to the transport: the count when the server cannot count.
    var attemptsStarted: Int {
        events.filter { if case .attemptStarted = $0 { true } else { false } }.count
    }

    /// The delays of every scheduled retry.
    var scheduledDelays: [Duration] {
        events.compactMap { if case .retryScheduled(_, _, _, let delay) = $0 { delay } else { nil } }
    }

    /// Why each failed call stopped retrying.
    var stopReasons: [RetryPolicy.StopReason] {
        events.compactMap { if case .retryStopped(_, let reason, _) = $0 { reason } else { nil } }
    }

    private func record(_ event: ClientEvent) {
        let ready: [Waiter] = state.withLock { state in
            state.events.append(event)
            let events = state.events
            let ready = state.waiters.filter { $0.predicate(events) }
            state.waiters.removeAll { $0.predicate(events) }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once the events so far satisfy `predicate`.
    func wait(until predicate: @escaping @Sendable ([ClientEvent]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let satisfied = state.withLock { state in
                if predicate(state.events) { return true }
                state.waiters.append(Waiter(predicate: predicate, continuation: continuation))
                return false
            }
            if satisfied { continuation.resume() }
        }
    }

    /// Returns once `count` retries have been scheduled.
    func waitForScheduledRetries(_ count: Int = 1) async {
        await wait { events in
            events.filter { if case .retryScheduled = $0 { true } else { false } }.count >= count
        }
    }
}

/// A one-shot latch: ``wait()`` returns once ``open()`` has been called.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Whether ``open()`` has been called.
    var isOpen: Bool { state.withLock { $0.open } }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }
}

/// Counts up to a target and opens a gate when it gets there.
final class Countdown: Sendable {
    private let remaining: Locked<Int>
    let reached = Gate()

    init(_ count: Int) {
        remaining = Locked(count)
        if count <= 0 { reached.open() }
    }

    func tick() {
        let done = remaining.withLock { remaining in
            remaining -= 1
            return remaining == 0
        }
        if done { reached.open() }
    }
}

/// Where ``HeldTransport`` holds the sends made while it is armed.
struct Hold: Sendable {
    /// Ticked once by every send that arrives to be held.
    let arrivals: Countdown?
    /// Opened by the test to let the held request go to the server.
    let beforeSend = Gate()
    /// Opened by the test to hand the server's answer back to the client.
    let afterSend = Gate()
    /// Opened by the transport once a send is being held.
    let entered = Gate()
}

/// A real transport that, while armed with a ``Hold``, keeps each send waiting before it goes
/// out and again before its answer comes back. The half-open tests use it to keep the one probe
/// the breaker admitted in flight, as the breaker sees it, until every other caller has been
/// refused: an event, where a slow server would be a race. The bytes still go through the real
/// transport to the real server, which counts them.
struct HeldTransport: HTTPTransport {
    let base: any HTTPTransport
    private let hold = Locked<Hold?>(nil)

    init(base: any HTTPTransport) {
        self.base = base
    }

    /// Holds every send from now on at the gates of a new ``Hold``, which it returns; each
    /// send that arrives ticks `arrivals`.
    func arm(countingInto arrivals: Countdown? = nil) -> Hold {
        let plan = Hold(arrivals: arrivals)
        hold.withLock { $0 = plan }
        return plan
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, timeout: Duration) async throws(TransportError) -> TransportResponse {
        guard let plan = hold.withLock({ $0 }) else {
            return try await base.send(request, body: body, timeout: timeout)
        }
        plan.entered.open()
        plan.arrivals?.tick()
        await plan.beforeSend.wait()
        let result: Result<TransportResponse, TransportError>
        do throws(TransportError) {
            result = .success(try await base.send(request, body: body, timeout: timeout))
        } catch {
            result = .failure(error)
        }
        await plan.afterSend.wait()
        return try result.get()
    }
}

/// Keeps the suite's two kinds of case apart in time: the outage cases, which put hundreds of
/// calls on a 2-core machine at once, never run while a case that measures time does. Cases of
/// one kind run together, as Swift Testing schedules them; a case of the other kind waits,
/// suspended, in arrival order. Without it, a 100-call wave in one case stretches another
/// case's 300 ms timeout by as much as a second.
final class FaultSchedule: Sendable {
    enum Kind: Sendable, Equatable {
        /// Many concurrent calls; nothing timed.
        case heavy
        /// Few calls; wall times or timeouts measured.
        case timed
    }

    private struct State {
        var running: Kind?
        var active = 0
        var queue: [(kind: Kind, continuation: CheckedContinuation<Void, Never>)] = []
    }

    static let shared = FaultSchedule()
    private let state = Locked(State())

    /// Runs `body` once no case of the other kind is running.
    func run<T>(_ kind: Kind, _ body: () async throws -> T) async rethrows -> T {
        await acquire(kind)
        defer { release() }
        return try await body()
    }

    private func acquire(_ kind: Kind) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                if state.running == nil || (state.running == kind && state.queue.isEmpty) {
                    state.running = kind
                    state.active += 1
                    return true
                }
                state.queue.append((kind, continuation))
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private func release() {
        let woken: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.active -= 1
            guard state.active == 0 else { return [] }
            state.running = nil
            guard let next = state.queue.first?.kind else { return [] }
            // Everything waiting at the front of the queue of the next kind goes together.
            let run = state.queue.prefix { $0.kind == next }
            state.queue.removeFirst(run.count)
            state.running = next
            state.active = run.count
            return run.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }
}

/// What ``timed(expecting:control:through:_:)`` measured.
struct Timed<Value> {
    /// What the body returned.
    var value: Value
    /// The body's wall time.
    var wall: Duration
    /// How much longer than `expected` the control call beside the body took: the delay the
    /// machine imposed at that moment on the same path through the same transport.
    var lateness: Duration
}

/// Runs `body` while a control call goes the same way beside it: a `getItem` through a new
/// client on the same transport to the same server, which answers it after `expected`.
///
/// When the whole test suite runs in one process on a loaded 2-core machine, every wake-up and
/// every hop between a transport's threads and the concurrency pool can be late by a second or
/// more. A timing bound adds the lateness the control call suffered at the same moment, so that
/// it measures the client's own overshoot rather than the machine's: a client that waited out a
/// backoff past its deadline, or never timed out, overshoots by far more than the control.
func timed<Value>(
    expecting expected: Duration,
    control server: TestServer,
    through transport: FaultTransport,
    _ body: () async throws -> Value
) async rethrows -> Timed<Value> {
    let id = "control-\(UUID().uuidString)"
    let answer = TestServer.Behavior.respond(.json(#"{"id":"control"}"#))
    server.route("GET", "/items/\(id)", expected > .zero ? .delayed(expected, answer) : answer)
    let control = faultClient(server.baseURL, transport, events: EventLog())
    let start = ContinuousClock.now
    let probe = Task {
        _ = await outcome { () async throws(APIError<GetItemFailure>) in try await control.getItem(id: id) }
        return max(ContinuousClock.now - start - expected, .zero)
    }
    let value = try await body()
    let wall = ContinuousClock.now - start
    return Timed(value: value, wall: wall, lateness: await probe.value)
}
