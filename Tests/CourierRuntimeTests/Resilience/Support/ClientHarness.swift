import CourierLocking
import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes

/// A real ``APIClient`` over a ``StubTransport``, with retries, budgets and breakers on a
/// ``ManualClock`` and pinned jitter, recording its events, its log and the host's budget at
/// every step.
final class ClientHarness: Sendable {
    let clock = ManualClock()
    /// Scripted delays run on the manual clock too, so a probe can be held in flight.
    let stub: StubTransport
    let events = EventRecorder()
    let logs = LogRecorder()
    let configuration: APIClient.Configuration
    /// The retries the host's budget allowed as each attempt started, in order.
    let budgetAtAttempts = Locked<[Double]>([])
    /// How many of the calls begun with ``start(_:on:resilience:)`` have ended.
    let endedCalls = WaitableCount()

    init(
        jitter: Double = 1,
        policy: RetryPolicy = .default,
        budget: RetryBudget.Configuration? = .default,
        breakerScope: CircuitBreaker.Scope = .off,
        breaker: CircuitBreaker.Configuration = .default,
        attemptTimeout: Duration = .seconds(10),
        deadline: Duration? = nil
    ) {
        stub = StubTransport(clock: clock)
        let resilience = Resilience(
            retryPolicy: policy,
            retryBudget: budget,
            circuitBreaker: breaker,
            circuitBreakerScope: breakerScope,
            clock: clock,
            jitter: .constant(jitter)
        )
        let budgets = resilience.retryBudgets
        let hook = events.hook
        let budgetAtAttempts = budgetAtAttempts
        var configuration = APIClient.Configuration(
            logger: logs.logger(level: .debug),
            timeouts: APIClient.Timeouts(attempt: attemptTimeout, deadline: deadline),
            resilience: resilience
        )
        configuration.onEvent = { event in
            if case .attemptStarted(let summary, _) = event, let budgets {
                let host = Resilience.Host(scheme: "https", host: summary.host)
                budgetAtAttempts.withLock { $0.append(budgets.budget(for: host).availableRetries) }
            }
            hook(event)
        }
        self.configuration = configuration
    }

    /// A client of `host`; clients of one harness share its budgets and breakers.
    func client(host: String = "api.test") -> APIClient {
        APIClient(baseURL: URL(string: "https://\(host)")!, transport: stub, configuration: configuration)
    }

    /// The retries `host`'s budget allows now.
    func budgetLeft(host: String = "api.test") -> Double? {
        configuration.resilience.retryBudgets?.budget(for: Resilience.Host(scheme: "https", host: host)).availableRetries
    }

    /// The breaker of `host` (or of `endpoint` on it) with `configuration`, the client's unless given.
    func breaker(host: String = "api.test", endpoint: String? = nil, configuration breakerConfiguration: CircuitBreaker.Configuration? = nil) -> CircuitBreaker {
        configuration.resilience.circuitBreakers.breaker(
            for: CircuitBreaker.Key(host: Resilience.Host(scheme: "https", host: host), endpoint: endpoint),
            configuration: breakerConfiguration
        )
    }

    /// The delays of the retries scheduled so far.
    var retryDelays: [Duration] {
        events.events.compactMap { event in
            if case .retryScheduled(_, _, _, let delay) = event { return delay }
            return nil
        }
    }

    /// Why the calls so far stopped retrying, in order.
    var stopReasons: [RetryPolicy.StopReason] {
        events.events.compactMap { event in
            if case .retryStopped(_, let reason, _) = event { return reason }
            return nil
        }
    }

    /// The breaker transitions reported on the event stream, in order.
    var transitions: [CircuitBreaker.Transition] {
        events.events.compactMap { event in
            if case .circuitBreakerChanged(let transition, _) = event { return transition }
            return nil
        }
    }

    /// Starts `request` on a task of its own, so that the test can drive the clock.
    func start<Request: APIRequest>(_ request: Request, on client: APIClient, resilience: EndpointResilience? = nil) -> RunningCall<Request> {
        let done = WaitableCount()
        let ended = endedCalls
        let task = Task {
            let result = await client.outcome(of: request, resilience: resilience)
            done.increment()
            ended.increment()
            return result
        }
        return RunningCall(task: task, done: done)
    }

    /// Lets each of `delays` pass in turn, checking that the call is asleep for exactly that
    /// long before each advance. A zero delay is no sleep at all.
    ///
    /// - Returns: The sleeps the call was really found in, as durations from the moment it
    ///   went to sleep, for comparison with `delays`. A call that ends instead of sleeping
    ///   ends the driving early, so a wrong implementation fails the test instead of hanging it.
    func drive<Request>(_ call: RunningCall<Request>, through delays: [Duration]) async -> [Duration] {
        var observed: [Duration] = []
        for delay in delays where delay > .zero {
            guard await isAsleep(call) else { return observed }
            let now = clock.now
            observed += clock.sleeperDeadlines.map { now.duration(to: $0) }
            clock.advance(by: delay)
        }
        return observed
    }
}

extension ClientHarness {
    /// Waits until `call` is asleep on the manual clock (`true`) or has ended (`false`).
    ///
    /// It waits for whichever event comes first, the clock getting a sleeper or the call
    /// ending, instead of polling for either.
    func isAsleep<Request>(_ call: RunningCall<Request>) async -> Bool {
        let clock = clock
        let done = call.done
        await waitForEither({ await clock.waitForSleepers() }, { await done.wait(untilAtLeast: 1) })
        return !clock.sleeperDeadlines.isEmpty
    }
}

/// A call running on its own task.
struct RunningCall<Request: APIRequest> {
    let task: Task<Result<Request.Response, APIError<Request.Failure>>, Never>
    /// Reaches 1 when the call has ended.
    let done: WaitableCount

    /// Whether the call has ended.
    var isDone: Bool { done.value > 0 }

    /// Waits for the call to end; a call still asleep on the manual clock is cancelled after
    /// the driving is over, so a test whose expectations are wrong ends instead of hanging.
    var result: Result<Request.Response, APIError<Request.Failure>> {
        get async { await task.valueCancellingWithCaller }
    }
}

/// What a call ended with, comparable in a table.
enum CallEnd: Equatable, CustomStringConvertible {
    case success
    case status(Int)
    case transport(TransportError.Kind)
    case circuitOpen
    case decoding

    init<Failure>(_ result: Result<some Any, APIError<Failure>>) {
        switch result {
        case .success: self = .success
        case .failure(let error):
            switch error {
            case .endpoint(_, let response), .undocumentedStatus(let response): self = .status(response.status.code)
            case .transport(let failure): self = .transport(failure.kind)
            case .circuitOpen: self = .circuitOpen
            case .decoding: self = .decoding
            case .invalidRequest: self = .transport(.other)
            }
        }
    }

    var description: String {
        switch self {
        case .success: "success"
        case .status(let code): "status \(code)"
        case .transport(let kind): "transport \(kind)"
        case .circuitOpen: "circuit open"
        case .decoding: "decoding"
        }
    }
}

extension APIClient {
    /// Sends `request` and returns how it ended instead of throwing.
    func outcome<Request: APIRequest>(of request: Request, resilience: EndpointResilience? = nil) async -> Result<Request.Response, APIError<Request.Failure>> {
        do throws(APIError<Request.Failure>) {
            return .success(try await send(request, resilience: resilience))
        } catch {
            return .failure(error)
        }
    }
}

typealias PlainProbe = Probe<NoContent, Never>
