import CourierLocking
import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes

/// The error a fake attempt throws: what a real executor's error would carry, reduced to what
/// the retry loop classifies.
enum ScriptedFailure: Error, Hashable {
    case status(Int, retryAfter: Duration? = nil)
    case transport(TransportError.Kind, sent: Bool = true)
    case decoding
    case interrupted(RetryLoop.Interruption)

    var outcome: RetryPolicy.AttemptFailure {
        switch self {
        case .status(let code, let retryAfter):
            .status(HTTPResponse.Status(code: code), retryAfter: retryAfter)
        case .transport(let kind, let sent):
            .transport(kind, requestMayHaveBeenSent: sent)
        case .decoding:
            .decodingFailed
        case .interrupted:
            // The loop makes these itself and never hands them back for classification.
            .invalidRequest
        }
    }
}

/// One scripted answer of a fake attempt.
enum ScriptStep: Sendable {
    case succeed
    case fail(ScriptedFailure)
    /// Lets `duration` pass on the clock before failing, as a slow server would.
    case failAfter(Duration, ScriptedFailure)
}

/// A scripted single-attempt function: plays `steps` in order and records every call.
final class ScriptedAttempts: Sendable {
    private let steps: Locked<[ScriptStep]>
    private let calls = Locked<[RetryLoop.Attempt]>([])
    private let clock: ManualClock?

    init(_ steps: [ScriptStep], clock: ManualClock? = nil) {
        self.steps = Locked(steps)
        self.clock = clock
    }

    /// The attempts made so far, in order.
    var attempts: [RetryLoop.Attempt] {
        calls.value
    }

    func callAsFunction(_ attempt: RetryLoop.Attempt) async throws(ScriptedFailure) -> String {
        calls.withLock { $0.append(attempt) }
        let step = steps.withLock { steps -> ScriptStep? in steps.isEmpty ? nil : steps.removeFirst() }
        switch step {
        case .succeed:
            return "ok #\(attempt.number)"
        case .fail(let failure):
            throw failure
        case .failAfter(let duration, let failure):
            clock?.advance(by: duration)
            throw failure
        case nil:
            // A script that runs out is a test bug; fail loudly with something no test expects.
            throw ScriptedFailure.status(599)
        }
    }
}

extension RetryLoop {
    /// Runs the loop over scripted attempts, collecting its events.
    func run(
        _ request: RetryTraits,
        attemptTimeout: Duration = .seconds(10),
        overallTimeout: Duration? = nil,
        events: Locked<[Event]>? = nil,
        attempts: ScriptedAttempts
    ) async -> Result<String, ScriptedFailure> {
        do throws(ScriptedFailure) {
            let value = try await run(
                request,
                attemptTimeout: attemptTimeout,
                overallTimeout: overallTimeout,
                classify: { (failure: ScriptedFailure) in failure.outcome },
                interrupted: { ScriptedFailure.interrupted($0) },
                onEvent: { event in events?.withLock { $0.append(event) } },
                attempt: { attempt throws(ScriptedFailure) in try await attempts(attempt) }
            )
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

extension Resilience.Host {
    static let hostA = Resilience.Host(scheme: "http", host: "127.0.0.1", port: 8081)
    static let hostB = Resilience.Host(scheme: "http", host: "127.0.0.1", port: 8082)
}
