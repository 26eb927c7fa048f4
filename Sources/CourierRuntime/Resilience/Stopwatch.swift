/// Reads elapsed time from, and sleeps on, an injected `any Clock<Duration>`.
///
/// The clock's `Instant` type is hidden behind the existential, so it is opened once here and
/// everything above works in plain `Duration`s measured from the moment the stopwatch started.
struct Stopwatch: Sendable {
    private let elapsedSinceStart: @Sendable () -> Duration
    private let sleepFor: @Sendable (Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        (elapsedSinceStart, sleepFor) = Self.open(clock)
    }

    private static func open<C: Clock<Duration>>(
        _ clock: C
    ) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void) {
        let start = clock.now
        return (
            { start.duration(to: clock.now) },
            { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
        )
    }

    /// Time since the stopwatch was created.
    var elapsed: Duration { elapsedSinceStart() }

    /// Sleeps for `duration`; throws `CancellationError` if the task is cancelled meanwhile.
    func sleep(for duration: Duration) async throws {
        try await sleepFor(duration)
    }
}
