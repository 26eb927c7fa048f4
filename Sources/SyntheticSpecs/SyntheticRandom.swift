/// A small seeded pseudo-random generator (SplitMix64) for synthetic specs.
///
/// The standard library's generator is seeded per process, and its algorithm may change between
/// releases; synthetic specs must be byte-identical everywhere, so they use this fixed algorithm.
/// Each model and endpoint gets its own stream, derived from the seed and its index, so that
/// changing one size (or editing one endpoint) leaves the rest of the spec as it was.
struct SyntheticRandom {
    private var state: UInt64

    /// A stream for item `index` of kind `stream` under `seed`.
    init(seed: UInt64, stream: UInt64, index: Int) {
        state = seed ^ (stream &* 0xD1B5_4A32_D192_ED03) ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
        // Mixing once keeps nearby indexes from starting on correlated values.
        _ = next()
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<bound`. The modulo bias is irrelevant for bounds this small.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next() % UInt64(bound))
    }

    /// `true` with a probability of `percent` in 100.
    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }
}
