@testable import CourierGenerator
import Foundation
import Testing

/// The spec's `breaker:` forms (issue 16): which model each selects, `successesToClose`, and the
/// errors for forms and values that cannot mean anything.
@Suite struct BreakerSpecTests {
    /// The `circuitBreakerConfiguration` generated for the endpoint `probe` with `breaker`.
    static func generatedConfiguration(_ breaker: String) throws -> String? {
        let yaml = serviceYAML("Breakers", """
            endpoints:
              probe: { get: /probe, breaker: \(breaker) }
            """)
        let spec = try #require(loadSpec(yaml).spec)
        let requests = try #require(try Generator().generate(spec, specPath: "breakers.yaml")["BreakersRequests.swift"])
        guard let label = requests.range(of: "circuitBreakerConfiguration: ") else { return nil }
        let rest = requests[label.upperBound...]
        // Up to the end of the argument: the closing parenthesis of the configuration's call.
        var depth = 0
        var end = rest.startIndex
        for index in rest.indices {
            if rest[index] == "(" { depth += 1 }
            if rest[index] == ")" {
                depth -= 1
                if depth == 0 { end = rest.index(after: index); break }
            }
        }
        return String(rest[..<end])
    }

    @Test("failureThreshold selects the consecutive-failures model, with successesToClose")
    func consecutiveFailures() throws {
        #expect(try Self.generatedConfiguration("{ failureThreshold: 3, resetAfter: 10, successesToClose: 4 }")
            == ".consecutiveFailures(3, successesToClose: 4, openDuration: .seconds(10))")
        #expect(try Self.generatedConfiguration("{ failureThreshold: 3 }") == ".consecutiveFailures(3)")
    }

    @Test("failureRate, minimumCalls and window select the failure-rate model, the client's default")
    func failureRate() throws {
        #expect(try Self.generatedConfiguration("{ failureRate: 0.25, minimumCalls: 10, window: 60, resetAfter: 15, successesToClose: 3 }")
            == ".failureRate(0.25, minimumCalls: 10, window: .seconds(60), successesToClose: 3, breakDuration: .seconds(15))")
        #expect(try Self.generatedConfiguration("{ window: 0.5 }") == ".failureRate(window: .milliseconds(500))")
    }

    @Test("Only resetAfter or successesToClose keeps the default model; an empty mapping keeps the client's configuration")
    func noModelKey() throws {
        #expect(try Self.generatedConfiguration("{ successesToClose: 2 }") == ".failureRate(successesToClose: 2)")
        #expect(try Self.generatedConfiguration("{ resetAfter: 2 }") == ".failureRate(breakDuration: .seconds(2))")
        #expect(try Self.generatedConfiguration("{}") == nil)
    }

    @Test("The parsed model keeps every key")
    func parsedModel() throws {
        let yaml = serviceYAML("Breakers", """
            defaults:
              breaker: { failureRate: 0.3, minimumCalls: 5, window: 20, resetAfter: 4, successesToClose: 2 }
            endpoints:
              probe: { get: /probe }
            """)
        let spec = try #require(loadSpec(yaml).spec)
        #expect(spec.defaultResilience.breaker == .custom(BreakerPolicySpec(
            failureRate: 0.3, minimumCalls: 5, window: 20, resetAfter: 4, successesToClose: 2)))
    }

    @Test("Both models at once, and values out of range, are errors at their file:line:col")
    func badBreakers() {
        let yaml = serviceYAML("Breakers", """
            endpoints:
              both: { get: /both, breaker: { failureThreshold: 3, window: 30 } }
              zero: { get: /zero, breaker: { failureThreshold: 3, successesToClose: 0 } }
              rate: { get: /rate, breaker: { failureRate: 1.5 } }
              word: { get: /word, breaker: { failureRate: half, minimumCalls: 0 } }
            """)
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:55: error: 'breaker' takes 'failureThreshold' (opens after that many failures in a row) "
                + "or 'window' (opens on a failure rate within a window), not both",
            "Specs/x.yaml:5:73: error: 'successesToClose' must be a whole number 1…1000, found '0'",
            "Specs/x.yaml:6:47: error: 'failureRate' must be a fraction greater than 0 and at most 1, such as 0.5, found '1.5'",
            "Specs/x.yaml:7:47: error: 'failureRate' must be a fraction greater than 0 and at most 1, such as 0.5, found 'half'",
            "Specs/x.yaml:7:67: error: 'minimumCalls' must be a whole number 1 or more, found '0'",
        ])
    }
}
