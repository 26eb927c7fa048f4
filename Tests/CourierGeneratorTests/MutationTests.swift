@testable import CourierGenerator
import Foundation
import Testing

/// Damages a real spec in many reproducible ways; every result must be well-formed
/// diagnostics (or a clean load), never a crash.
@Suite struct MutationTests {
    /// A small deterministic generator, so that a failure can be replayed.
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func next(below bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    }

    static let fragments = ["{", "}", "[", "]", ":", ",", "-", "?", "*a", "&a", "!", "\"", "'", "#", "|", ">", "\t", "\n", "  ",
                            "{id}", "4XX", "default", "[Pet]?", "discriminator: x", "\u{0}", "é", "\u{FEFF}"]

    @Test func damagedSpecsNeverCrash() throws {
        let url = packageRoot.appendingPathComponent("Specs/GitHub.yaml")
        let original = Array(try String(contentsOf: url, encoding: .utf8).unicodeScalars)
        let lineCount = original.filter { $0 == "\n" }.count + 1
        let pattern = try Regex(#"^Specs/GitHub\.yaml:(\d+):(\d+): (error|warning|note): \S.*$|^\d+ more (errors|warnings) not shown$"#)
        var random = SplitMix64(state: 2026)
        var withErrors = 0

        for _ in 0..<600 {
            var scalars = original
            for _ in 0...random.next(below: 3) {
                let position = random.next(below: scalars.count)
                switch random.next(below: 4) {
                case 0: scalars.removeSubrange(position..<min(scalars.count, position + 1 + random.next(below: 20)))
                case 1: scalars.insert(contentsOf: Self.fragments[random.next(below: Self.fragments.count)].unicodeScalars, at: position)
                case 2: scalars.removeSubrange(position...)
                default: scalars.swapAt(position, random.next(below: scalars.count))
                }
                if scalars.isEmpty { break }
            }
            let text = String(String.UnicodeScalarView(scalars))
            let result = loadValidated(contents: text, displayPath: "Specs/GitHub.yaml")
            if result.hasErrors { withErrors += 1 }
            #expect(result.hasErrors == (result.spec == nil))
            for line in result.diagnostics.renderedLines {
                let match = try #require(try pattern.wholeMatch(in: line), "malformed diagnostic: \(line)")
                if let number = match.output[1].substring.flatMap({ Int($0) }) {
                    #expect(number >= 1 && number <= lineCount + 40, "line out of range: \(line)")
                }
            }
        }
        // The mutations must actually break most specs, or this test would prove nothing.
        #expect(withErrors > 300)
    }
}
