import CourierLocking
import HTTPTypes

/// Cuts a failing dependency off for a while instead of hammering it, then lets a few probes
/// find out whether it has recovered.
///
/// ``APIClient`` keeps one breaker per ``Scope`` and asks it before each attempt; you configure
/// breakers through ``Resilience`` and ``Configuration``, and watch them through
/// ``ClientEvent/circuitBreakerChanged(_:request:)`` events. The type is public for those nested types;
/// its instances are the client's own.
///
/// * **Closed**: every attempt passes; outcomes are counted against the ``Configuration/trip``
///   condition.
/// * **Open**: every attempt fails fast with ``CircuitBreaker/Refusal`` until the break ends. The
///   first break is short; each failed probe makes the next one longer.
/// * **Half-open**: exactly ``Configuration/halfOpenProbes`` permits are handed out, atomically;
///   everyone else fails fast. A failed probe re-opens the breaker; enough successful ones
///   close it. A cancelled probe gives its permit back.
///
/// Only server trouble counts as failure: 5xx statuses and transport failures. 4xx statuses,
/// 429 included, mean the server is up and answering, and cancellations say nothing at all.
///
/// Outcomes recorded on permits from before a state change are ignored, so calls that were
/// already in flight when the breaker opened cannot, say, close it again.
public final class CircuitBreaker: Sendable {
    /// The state of a breaker.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// Calls pass and are counted.
        case closed
        /// Calls fail fast until the break ends.
        case open
        /// A limited number of probes pass; the rest fail fast.
        case halfOpen

        /// `closed`, `open` or `half-open`, for log lines.
        public var description: String {
            switch self {
            case .closed: "closed"
            case .open: "open"
            case .halfOpen: "half-open"
            }
        }
    }

    /// A change of state, delivered to the observer given at creation.
    public struct Transition: Sendable, Hashable {
        /// The breaker that changed.
        public var key: CircuitBreaker.Key
        /// The state it left.
        public var from: State
        /// The state it entered.
        public var to: State
        /// For a transition to ``State/open``, how long the break lasts; otherwise `nil`.
        public var breakDuration: Duration?

        /// Creates a transition.
        public init(key: CircuitBreaker.Key, from: State, to: State, breakDuration: Duration? = nil) {
            self.key = key
            self.from = from
            self.to = to
            self.breakDuration = breakDuration
        }
    }

    /// What an attempt made through a permit says about the server's health.
    package enum Outcome: Sendable, Hashable {
        /// The server answered without a 5xx.
        case success
        /// The server answered with a 5xx, or the transport failed.
        case failure
        /// The attempt was cancelled or never reached the server, so it says nothing about
        /// the server's health; a probe's permit goes back to the breaker.
        case cancelled

        /// Classifies a failed attempt: 5xx statuses and transport failures are failures,
        /// transport cancellation and unbuildable requests are cancellations, and the rest
        /// (4xx statuses, 429 included, and undecodable bodies) show a working server.
        package init(_ failure: RetryPolicy.AttemptFailure) {
            switch failure {
            case .status(let status, _, _):
                self = status.kind == .serverError ? .failure : .success
            case .transport(.cancelled, _), .invalidRequest:
                self = .cancelled
            case .transport:
                self = .failure
            case .decodingFailed:
                self = .success
            }
        }
    }

    /// The right to make one attempt through a breaker.
    ///
    /// Record the attempt's outcome exactly once; later calls to ``record(_:)`` are ignored.
    /// A permit released without a recorded outcome counts as ``Outcome/cancelled``, so a
    /// probe lost to a thrown error or an early return still gives its slot back.
    package final class Permit: Sendable {
        /// Whether this permit is one of the half-open breaker's probes.
        package var isProbe: Bool { admission.isProbe }
        private let breaker: CircuitBreaker
        private let admission: Admission
        private let recorded = Locked(false)

        fileprivate init(breaker: CircuitBreaker, admission: Admission) {
            self.breaker = breaker
            self.admission = admission
        }

        /// Records how the attempt went.
        package func record(_ outcome: Outcome) {
            let first = recorded.withLock { recorded in
                defer { recorded = true }
                return !recorded
            }
            guard first else { return }
            breaker.record(outcome, for: admission)
        }

        deinit {
            if !recorded.withLock({ $0 }) {
                breaker.record(.cancelled, for: admission)
            }
        }
    }

    private struct Core {
        var state: State = .closed
        /// Bumped on every transition, so that permits from an earlier state are recognised.
        var generation: UInt64 = 0
        var window: FailureWindow
        var consecutiveFailures = 0
        /// How many breaks in a row since the breaker was last closed.
        var breaks = 0
        /// When the current break ends, on the breaker's stopwatch.
        var openUntil: Duration = .zero
        var probesInFlight = 0
        var probeSuccesses = 0
    }

    /// Which breaker this is, for errors and transitions.
    package let key: CircuitBreaker.Key
    /// The configuration this breaker was created with.
    package let configuration: Configuration
    private let stopwatch: Stopwatch
    private let jitter: Resilience.Jitter
    private let onTransition: (@Sendable (Transition) -> Void)?
    private let core: Locked<Core>

    /// Creates a closed breaker.
    ///
    /// - Parameters:
    ///   - key: Which host, and optionally which endpoint, the breaker guards.
    ///   - configuration: When it opens and for how long.
    ///   - clock: Where break lengths and the failure window are measured.
    ///   - jitter: Where break jitter is drawn from.
    ///   - onTransition: Called after every change of state, outside the breaker's lock, so it
    ///     may call back into the breaker. Transitions of different calls may be delivered
    ///     concurrently.
    package init(
        key: CircuitBreaker.Key,
        configuration: Configuration = .default,
        clock: any Clock<Duration> = ContinuousClock(),
        jitter: Resilience.Jitter = .system,
        onTransition: (@Sendable (Transition) -> Void)? = nil
    ) {
        self.key = key
        self.configuration = configuration
        self.stopwatch = Stopwatch(clock)
        self.jitter = jitter
        self.onTransition = onTransition
        let window: Duration
        if case .failureRate(_, _, let length) = configuration.trip {
            window = length
        } else {
            window = .zero
        }
        core = Locked(Core(window: FailureWindow(length: window)))
    }

    /// The current state. An open breaker whose break has ended reports, and moves to,
    /// ``State/halfOpen``, as the next call would find it.
    package var state: State {
        let (state, transitions) = core.withLock { core in
            let now = stopwatch.elapsed
            var transitions: [Transition] = []
            endBreakIfDue(&core, now: now, transitions: &transitions)
            return (core.state, transitions)
        }
        deliver(transitions)
        return state
    }

    /// Asks to make one attempt.
    ///
    /// - Returns: A permit on which to record the attempt's outcome.
    /// - Throws: ``CircuitBreaker/Refusal`` while the breaker is open, or half-open with all of its
    ///   probes taken. No attempt may be made then.
    package func acquirePermit() throws(CircuitBreaker.Refusal) -> Permit {
        Permit(breaker: self, admission: try admit())
    }

    /// A permit without the object around it, for `RetryLoop`, which records every
    /// attempt it was admitted for exactly once and so needs neither the permit's
    /// record-once guard nor its release on deinit: two allocations and a lock fewer on
    /// every call's success path.
    struct Admission: Sendable {
        let generation: UInt64
        let isProbe: Bool
    }

    /// Admits one attempt, or refuses as ``acquirePermit()`` does.
    func admit() throws(CircuitBreaker.Refusal) -> Admission {
        let (result, transitions) = core.withLock { core -> (Result<Admission, CircuitBreaker.Refusal>, [Transition]) in
            // Read under the lock so that every decision sees time moving forward.
            let now = stopwatch.elapsed
            var transitions: [Transition] = []
            endBreakIfDue(&core, now: now, transitions: &transitions)
            switch core.state {
            case .closed:
                return (.success(Admission(generation: core.generation, isProbe: false)), transitions)
            case .open:
                let wait = core.openUntil - now
                return (.failure(CircuitBreaker.Refusal(key: key, state: .open, retryAfter: wait)), transitions)
            case .halfOpen:
                guard core.probesInFlight < max(configuration.halfOpenProbes, 1) else {
                    // When the probes will answer is unknown. If they fail, no attempt passes
                    // before the next break ends, and that break is at most its nominal length;
                    // if they succeed, coming back then is merely late. Zero would have sent
                    // callers straight back into another refusal.
                    let wait = configuration.breakDuration.nominal(forBreak: core.breaks)
                    return (.failure(CircuitBreaker.Refusal(key: key, state: .halfOpen, retryAfter: wait)), transitions)
                }
                core.probesInFlight += 1
                return (.success(Admission(generation: core.generation, isProbe: true)), transitions)
            }
        }
        deliver(transitions)
        return try result.get()
    }


    /// Closes the breaker and forgets its history, as if it had just been created. Permits
    /// handed out before the reset no longer count.
    package func reset() {
        let transitions = core.withLock { core -> [Transition] in
            let from = core.state
            core.generation &+= 1
            close(&core)
            return from == .closed ? [] : [Transition(key: key, from: from, to: .closed)]
        }
        deliver(transitions)
    }

    /// Records the outcome of an attempt ``admit()`` let through.
    func record(_ outcome: Outcome, for admission: Admission) {
        let transitions = core.withLock { core -> [Transition] in
            guard core.generation == admission.generation else { return [] }
            let now = stopwatch.elapsed
            var transitions: [Transition] = []
            switch core.state {
            case .closed:
                recordWhileClosed(outcome, in: &core, now: now, transitions: &transitions)
            case .halfOpen where admission.isProbe:
                core.probesInFlight = max(core.probesInFlight - 1, 0)
                switch outcome {
                case .success:
                    core.probeSuccesses += 1
                    if core.probeSuccesses >= max(configuration.successesToClose, 1) {
                        core.generation &+= 1
                        close(&core)
                        transitions.append(Transition(key: key, from: .halfOpen, to: .closed))
                    }
                case .failure:
                    open(&core, from: .halfOpen, now: now, transitions: &transitions)
                case .cancelled:
                    break
                }
            case .halfOpen, .open:
                break
            }
            return transitions
        }
        deliver(transitions)
    }

    private func recordWhileClosed(_ outcome: Outcome, in core: inout Core, now: Duration, transitions: inout [Transition]) {
        switch outcome {
        case .cancelled:
            return
        case .success:
            core.consecutiveFailures = 0
            core.window.record(failed: false, at: now)
        case .failure:
            core.consecutiveFailures += 1
            core.window.record(failed: true, at: now)
        }
        let tripped: Bool
        switch configuration.trip {
        case .consecutiveFailures(let count):
            tripped = core.consecutiveFailures >= max(count, 1)
        case .failureRate(let threshold, let minimumCalls, _):
            // A healthy host's window holds no failures; that is known without adding it up.
            if core.window.hasFailures(at: now) {
                let (calls, failures) = core.window.totals(at: now)
                tripped = calls >= max(minimumCalls, 1) && Double(failures) >= threshold * Double(calls)
            } else {
                tripped = false
            }
        }
        if tripped {
            open(&core, from: .closed, now: now, transitions: &transitions)
        }
    }

    private func open(_ core: inout Core, from: State, now: Duration, transitions: inout [Transition]) {
        let length = configuration.breakDuration.length(forBreak: core.breaks, draw: jitter.next())
        core.state = .open
        core.generation &+= 1
        core.breaks += 1
        core.openUntil = now + length
        core.probesInFlight = 0
        core.probeSuccesses = 0
        transitions.append(Transition(key: key, from: from, to: .open, breakDuration: length))
    }

    private func close(_ core: inout Core) {
        core.state = .closed
        core.breaks = 0
        core.consecutiveFailures = 0
        core.window.removeAll()
        core.probesInFlight = 0
        core.probeSuccesses = 0
    }

    private func endBreakIfDue(_ core: inout Core, now: Duration, transitions: inout [Transition]) {
        guard core.state == .open, now >= core.openUntil else { return }
        core.state = .halfOpen
        core.generation &+= 1
        core.probesInFlight = 0
        core.probeSuccesses = 0
        transitions.append(Transition(key: key, from: .open, to: .halfOpen))
    }

    /// Hands transitions to the observer given at creation and to the one the current task
    /// has bound, which is how a client reports the changes its own calls cause.
    private func deliver(_ transitions: [Transition]) {
        guard !transitions.isEmpty else { return }
        let taskObserver = TransitionObservation.observer
        for transition in transitions {
            onTransition?(transition)
            taskObserver?.deliver(transition)
        }
    }
}
