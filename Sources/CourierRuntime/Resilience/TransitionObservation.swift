/// The breaker-transition observer of the current task.
///
/// Breakers are shared by every call to a host and created before any client looks at them,
/// so they cannot know whose event stream and log a change belongs to. A client binds its own
/// observer around each call; a breaker delivers transitions on the task that caused them.
enum TransitionObservation {
    /// Wrapped in a struct because Swift 6.3.1 in release builds crashes pushing a task-local
    /// whose value is an optional closure (`swift_task_localValuePush`, bad pointer); a struct
    /// holding the closure is safe. The reduced program is in git, in docs/BENCHMARKS.md at
    /// commit 4095a78 (`git show 4095a78:docs/BENCHMARKS.md`).
    @TaskLocal static var observer: TransitionObserver?
}

/// A breaker-transition callback, boxed for ``TransitionObservation``.
struct TransitionObserver: Sendable {
    let deliver: @Sendable (CircuitBreaker.Transition) -> Void
}
