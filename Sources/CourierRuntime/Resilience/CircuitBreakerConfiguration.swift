extension CircuitBreaker {
    /// When a breaker opens, how long it stays open, and how it closes again.
    ///
    /// The default opens when, within a sliding 30 s window, at least 20 calls were made and at
    /// least half of them failed. ``consecutiveFailures(_:successesToClose:openDuration:)``
    /// gives the classic breaker instead.
    public struct Configuration: Sendable, Hashable {
        /// What makes a closed breaker open.
        public enum TripCondition: Sendable, Hashable {
            /// Open when, within the last `window`, at least `minimumCalls` calls were
            /// recorded and at least `threshold` (a fraction in `0...1`) of them failed.
            ///
            /// The window slides in steps of a thirtieth of its length, so a call drops out
            /// of it between `window − window/30` and `window` after it was recorded.
            case failureRate(threshold: Double, minimumCalls: Int, window: Duration)
            /// Open after `count` failures in a row; any success starts the count again.
            case consecutiveFailures(Int)
        }

        /// How long an open breaker stays open before it lets a probe through.
        public struct BreakDuration: Sendable, Hashable {
            /// The length of the first break after the breaker was closed.
            public var initial: Duration
            /// Each further break, after a failed probe, is this many times the last.
            public var multiplier: Double
            /// The longest break.
            public var maximum: Duration
            /// How much of each break is randomised, as a fraction in `0...1`: a break of
            /// nominal length `d` lasts between `d × (1 − jitter)` and `d`. Breakers opened
            /// together by one outage thus probe at different moments, and no break exceeds
            /// ``maximum``.
            public var jitter: Double

            /// Creates a break schedule. Negative durations count as zero and a multiplier
            /// below 1 as 1.
            public init(initial: Duration, multiplier: Double = 2, maximum: Duration, jitter: Double = 0.2) {
                self.initial = initial
                self.multiplier = multiplier
                self.maximum = maximum
                self.jitter = jitter
            }

            /// The nominal length of break `index` (0 for the first): `initial × multiplier^index`,
            /// at most ``maximum``.
            public func nominal(forBreak index: Int) -> Duration {
                let maximum = max(maximum, .zero)
                var length = min(max(initial, .zero), maximum)
                let factor = multiplier.isFinite ? max(multiplier, 1) : 1
                var remaining = max(index, 0)
                while remaining > 0, length > .zero, length < maximum, factor > 1 {
                    length = length > maximum / factor ? maximum : length * factor
                    remaining -= 1
                }
                return length
            }

            /// The length of break `index` after applying the jitter draw `draw` (in `0...1`):
            /// `nominal × (1 − jitter × draw)`.
            public func length(forBreak index: Int, draw: Double) -> Duration {
                let nominal = nominal(forBreak: index)
                let spread = jitter.isFinite ? min(max(jitter, 0), 1) : 0
                let draw = draw.isFinite ? min(max(draw, 0), 1) : 0
                let shortening = spread * draw
                guard shortening > 0 else { return nominal }
                return nominal * (1 - shortening)
            }
        }

        /// What makes the breaker open. Default: 50 % of at least 20 calls within 30 s.
        public var trip: TripCondition
        /// How long each break lasts. Default: 5 s, doubling up to 60 s, 20 % jitter.
        public var breakDuration: BreakDuration
        /// How many probes a half-open breaker lets through at once. Default 1.
        public var halfOpenProbes: Int
        /// How many probes must succeed before a half-open breaker closes. Default 1.
        public var successesToClose: Int

        /// Creates a configuration; every argument defaults to the documented default.
        /// Counts below 1 count as 1.
        public init(
            trip: TripCondition = .failureRate(threshold: 0.5, minimumCalls: 20, window: .seconds(30)),
            breakDuration: BreakDuration = BreakDuration(initial: .seconds(5), maximum: .seconds(60)),
            halfOpenProbes: Int = 1,
            successesToClose: Int = 1
        ) {
            self.trip = trip
            self.breakDuration = breakDuration
            self.halfOpenProbes = halfOpenProbes
            self.successesToClose = successesToClose
        }

        /// The defaults.
        public static let `default` = Configuration()

        /// The default model, with its settings named: opens when, within the last `window`,
        /// at least `minimumCalls` calls were made and at least `threshold` of them failed.
        /// The first break lasts `breakDuration`; each failed probe doubles it, up to 60 s (or
        /// `breakDuration`, if longer), with 20 % jitter. `.failureRate()` is ``default``.
        ///
        /// A spec's `breaker:` with `failureRate`, `minimumCalls` or `window`, or with only
        /// `resetAfter` and `successesToClose`, generates this.
        public static func failureRate(
            _ threshold: Double = 0.5,
            minimumCalls: Int = 20,
            window: Duration = .seconds(30),
            successesToClose: Int = 1,
            breakDuration: Duration = .seconds(5)
        ) -> Configuration {
            Configuration(
                trip: .failureRate(threshold: threshold, minimumCalls: minimumCalls, window: window),
                breakDuration: BreakDuration(initial: breakDuration, maximum: max(breakDuration, .seconds(60))),
                halfOpenProbes: 1,
                successesToClose: successesToClose
            )
        }

        /// The classic breaker: opens after `count` failures in a row, stays open for a fixed
        /// `openDuration` with no growth and no jitter, and closes after `successesToClose`
        /// probes in a row succeed. Defaults: 5 failures, 2 successes, 60 s.
        ///
        /// A spec's `breaker:` with `failureThreshold` generates this; it is a different model
        /// from the client's ``default`` (failure rate), chosen by naming a threshold.
        public static func consecutiveFailures(
            _ count: Int = 5,
            successesToClose: Int = 2,
            openDuration: Duration = .seconds(60)
        ) -> Configuration {
            Configuration(
                trip: .consecutiveFailures(count),
                breakDuration: BreakDuration(initial: openDuration, multiplier: 1, maximum: openDuration, jitter: 0),
                halfOpenProbes: 1,
                successesToClose: successesToClose
            )
        }
    }
}
