import CourierLocking

extension Resilience {
    /// A source of jitter: numbers in `0...1` that spread retries and breaker breaks over time.
    ///
    /// Backoff and circuit breakers draw from a `Resilience.Jitter` instead of calling `random()` directly,
    /// so that tests can pin the draw to either end of the range and replay a seeded sequence.
    ///
    /// ```swift
    /// let production = Resilience.Jitter.system
    /// let reproducible = Resilience.Jitter.seeded(42)
    /// let shortest = Resilience.Jitter.constant(0)   // every full-jitter delay becomes zero
    /// let longest = Resilience.Jitter.constant(1)    // every full-jitter delay hits its ceiling
    /// ```
    public struct Jitter: Sendable {
        private let draw: @Sendable () -> Double

        /// Creates a jitter source from a closure.
        ///
        /// - Parameter draw: Returns the next value. Values outside `0...1` are clamped and NaN
        ///   counts as `0`, so a careless closure cannot produce a negative or endless delay.
        public init(_ draw: @escaping @Sendable () -> Double) {
            self.draw = draw
        }

        /// The next value, always within `0...1`.
        public func next() -> Double {
            let value = draw()
            guard value.isFinite else { return value == .infinity ? 1 : 0 }
            return min(max(value, 0), 1)
        }

        /// Draws from the system's random number generator; the default outside tests.
        public static var system: Resilience.Jitter {
            Resilience.Jitter {
                var generator = SystemRandomNumberGenerator()
                return unitInterval(generator.next())
            }
        }

        /// Draws a reproducible sequence from a `SplitMix64` generator seeded with `seed`.
        ///
        /// The sequence is shared by every copy of the returned value, so concurrent callers
        /// each get the next number rather than the same one.
        public static func seeded(_ seed: UInt64) -> Resilience.Jitter {
            let generator = Locked(SplitMix64(seed: seed))
            return Resilience.Jitter {
                unitInterval(generator.withLock { $0.next() })
            }
        }

        /// Always returns `value`, clamped to `0...1`; `constant(0)` and `constant(1)` pin every
        /// draw to the ends of its range.
        public static func constant(_ value: Double) -> Resilience.Jitter {
            Resilience.Jitter { value }
        }

        /// Maps 64 random bits onto `0...1` with both ends reachable, using the top 53 bits so
        /// that every result is an exact `Double`.
        static func unitInterval(_ bits: UInt64) -> Double {
            Double(bits >> 11) / Double((UInt64(1) << 53) - 1)
        }
    }
}

/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64).
///
/// It is not cryptographically secure; it exists so that jitter can be replayed from a seed
/// in tests and reproduced from a log line.
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
