import Foundation
import HTTPTypes

/// A step in a call's life, delivered to ``APIClient/Configuration/onEvent``.
///
/// Use it to show a toast when a call fails, to drive a network activity indicator, or to
/// record metrics. Handlers run on the calling task, so they should return quickly.
public enum ClientEvent: Sendable {
    /// A call began.
    case started(RequestSummary)
    /// An attempt is about to go to the transport.
    case attemptStarted(RequestSummary, attempt: Int)
    /// An attempt ended.
    case attemptFinished(RequestSummary, attempt: Int, result: AttemptResult, duration: Duration)
    /// Attempt `attempt` failed with `failure`; the next attempt starts after `delay`.
    case retryScheduled(RequestSummary, attempt: Int, failure: RetryPolicy.AttemptFailure, delay: Duration)
    /// The call makes no further attempt and ends with its last failure, for `reason`, after
    /// `attempts` attempts. Sent for every call that ends in a failure, so the reason a
    /// failure was not retried is always on record.
    case retryStopped(RequestSummary, reason: RetryPolicy.StopReason, attempts: Int)
    /// A circuit breaker changed state, during `request` or, for `nil`, through
    /// ``APIClient/resetCircuitBreakers()``.
    case circuitBreakerChanged(CircuitBreaker.Transition, request: RequestSummary?)
    /// The call ended.
    case finished(RequestSummary, result: CallResult, duration: Duration)

    /// The call this event belongs to; `nil` for a breaker reset, which belongs to none.
    public var request: RequestSummary? {
        switch self {
        case .started(let summary), .attemptStarted(let summary, _),
             .attemptFinished(let summary, _, _, _), .finished(let summary, _, _),
             .retryScheduled(let summary, _, _, _), .retryStopped(let summary, _, _):
            summary
        case .circuitBreakerChanged(_, let summary):
            summary
        }
    }

    /// Makes an event stream together with the hook that feeds it, for
    /// ``APIClient/Configuration/onEvent``.
    ///
    /// ```swift
    /// let (events, hook) = ClientEvent.makeStream()
    /// configuration.onEvent = hook
    /// for await event in events { ... }
    /// ```
    public static func makeStream(
        bufferingPolicy: AsyncStream<ClientEvent>.Continuation.BufferingPolicy = .bufferingNewest(256)
    ) -> (stream: AsyncStream<ClientEvent>, hook: @Sendable (ClientEvent) -> Void) {
        let (stream, continuation) = AsyncStream<ClientEvent>.makeStream(bufferingPolicy: bufferingPolicy)
        return (stream, { continuation.yield($0) })
    }
}

extension ClientEvent {
    /// How one attempt ended.
    public enum AttemptResult: Sendable, Hashable {
        /// A complete response arrived with this status.
        case response(HTTPResponse.Status)
        /// No complete response arrived.
        case transportFailure(TransportError.Kind)
        /// The circuit breaker did not let the attempt through.
        case circuitOpen
        /// A ``ClientMiddleware`` threw an error of its own (not a ``TransportError``).
        case middlewareFailed
    }
}

extension ClientEvent {
    /// How a call ended.
    public enum CallResult: Sendable {
        /// The call succeeded with this status.
        case success(HTTPResponse.Status, RateLimit)
        /// The call failed.
        case failure(FailureSummary)
    }
}

extension ClientEvent {
    /// An ``APIError`` reduced to what every endpoint shares.
    public struct FailureSummary: Sendable {
        /// The kind of error.
        public var category: ErrorCategory
        /// The user-facing description.
        public var message: String
        /// The detailed description.
        public var debugDescription: String
        /// The status, when a response arrived.
        public var status: HTTPResponse.Status?
        /// What the server said about rate limits, when a response arrived.
        public var rateLimit: RateLimit?
        /// Whether trying again may succeed.
        public var isRetryable: Bool

        /// Summarises an error.
        public init<Failure>(_ error: APIError<Failure>) {
            category = error.category
            message = error.errorDescription ?? "Request failed."
            debugDescription = error.debugDescription
            status = error.status
            rateLimit = error.rateLimit
            isRetryable = error.isRetryable
        }
    }
}
