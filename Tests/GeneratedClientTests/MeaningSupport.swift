import CourierAsyncHTTPClient
import CourierLocking
import CourierRuntime
import CourierTestServer
import CourierTesting
import Foundation

/// The two real transports the error-meaning suites run each check through.
enum MeaningTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    case asyncHTTPClient

    /// One session for all the suites: each `URLSessionTransport` owns a URLSession, and
    /// sessions are not free to create on Linux.
    static let sharedURLSession = URLSessionTransport()

    func make() -> any HTTPTransport {
        switch self {
        case .urlSession: Self.sharedURLSession
        case .asyncHTTPClient: AsyncHTTPClientTransport()
        }
    }

    var description: String { rawValue }
}

/// A configuration whose retry delays run on `clock` (attempt timeouts stay on the real
/// clock), with no retry budget and every backoff at its ceiling, recording each scheduled
/// delay in `delays`.
func meaningConfiguration(clock: ManualClock, delays: RecordedDelays) -> APIClient.Configuration {
    APIClient.Configuration(
        onEvent: { delays.record($0) },
        resilience: Resilience(retryBudget: nil, clock: clock, jitter: .constant(1), sharing: .isolated)
    )
}

/// Retry delays as the client scheduled them.
final class RecordedDelays: @unchecked Sendable {
    // Events arrive on the client's tasks.
    private let recorded = Locked<[Duration]>([])

    var all: [Duration] { recorded.value }

    func record(_ event: ClientEvent) {
        if case .retryScheduled(_, _, _, let delay) = event {
            recorded.withLock { $0.append(delay) }
        }
    }
}

/// Runs `call` on its own task, moving `clock` to each retry delay's end as soon as the call
/// sleeps on it, until the call has finished: no wall-clock waiting.
func drivingRetries<Value: Sendable>(on clock: ManualClock, _ call: @escaping @Sendable () async -> Value) async -> Value {
    let task = Task { await call() }
    let driver = Task {
        while !Task.isCancelled {
            await clock.waitForSleepers(1)
            if Task.isCancelled { return }
            if let next = clock.sleeperDeadlines.first { clock.advance(to: next) }
        }
    }
    // Cancelled with the test (at its time limit), the call ends instead of sleeping forever.
    let value = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    driver.cancel()
    return value
}

