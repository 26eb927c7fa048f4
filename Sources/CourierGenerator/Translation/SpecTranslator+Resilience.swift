import Foundation

/// The `EndpointResilience` of each request: retry and circuit-breaker hints, merged with the
/// spec's `defaults:` and shared through one constant when an endpoint only inherits them.
extension SpecTranslator {
    /// The name of the `EndpointResilience` constant that holds the spec's `defaults:` retry and
    /// breaker hints, such as `bookshelfDefaults`, or `nil` when the defaults say nothing of them.
    var defaultResilienceName: String? {
        resilienceArguments(retry: spec.defaultResilience.retry, breaker: spec.defaultResilience.breaker, breakerKey: nil).isEmpty
            ? nil : GeneratedNames.resilienceDefaults(ofService: spec.swiftName)
    }

    /// The `EndpointResilience` the spec's retry and breaker hints (already merged with
    /// `defaults`) become, or `nil` when they say nothing, so the client's setup applies as is.
    /// An endpoint that inherits both from `defaults` names the shared constant instead.
    ///
    /// A breaker written on the endpoint is the endpoint's own (keyed by its spec name); a
    /// breaker inherited from `defaults` is the host's, shared by every endpoint that inherits it.
    func resilienceExpression(_ endpoint: EndpointSpec) -> String? {
        let hints = endpoint.resilience
        let defaults = spec.defaultResilience
        if let shared = defaultResilienceName, hints.retry == defaults.retry, hints.breaker == defaults.breaker {
            return "." + shared
        }
        let inherited = hints.breaker == defaults.breaker
        let arguments = resilienceArguments(retry: hints.retry, breaker: hints.breaker,
                                            breakerKey: inherited ? nil : endpoint.name)
        return arguments.isEmpty ? nil : Self.resilienceInitializer(arguments, indentation: "        ")
    }

    /// The declaration of the `defaults:` constant, or `nil` when there is none.
    func defaultResilienceDeclaration() -> String? {
        guard let name = defaultResilienceName else { return nil }
        let arguments = resilienceArguments(retry: spec.defaultResilience.retry, breaker: spec.defaultResilience.breaker, breakerKey: nil)
        return "static let \(name) = " + Self.resilienceInitializer(arguments, indentation: "    ", prefixLength: name.count + 16)
    }

    /// The arguments of `EndpointResilience(...)` for these hints; `breakerKey` names the
    /// endpoint's own breaker, `nil` means the host's.
    func resilienceArguments(retry: RetryOverride?, breaker: BreakerOverride?, breakerKey: String?) -> [String] {
        var arguments: [String] = []
        switch retry {
        case nil:
            break
        case .disabled:
            arguments.append("maxAttempts: 1")
        case .custom(let retry):
            if let attempts = retry.maxAttempts { arguments.append("maxAttempts: \(attempts)") }
            if let base = retry.baseDelay { arguments.append("backoffBase: \(Self.duration(base))") }
            if let cap = retry.maxDelay { arguments.append("backoffCap: \(Self.duration(cap))") }
            if retry.retriesNonIdempotent { arguments.append("isSafeToRepeat: true") }
        }
        switch breaker {
        case nil:
            break
        case .disabled:
            arguments.append("circuitBreaker: .off")
        case .custom(let breaker):
            arguments.append(breakerKey.map { "circuitBreaker: .endpoint(\(SwiftLiteral.string($0)))" } ?? "circuitBreaker: .host")
            var settings: [String] = []
            if let threshold = breaker.failureThreshold { settings.append(String(threshold)) }
            if let reset = breaker.resetAfter { settings.append("openDuration: \(Self.duration(reset))") }
            if !settings.isEmpty {
                arguments.append("circuitBreakerConfiguration: .consecutiveFailures(\(settings.joined(separator: ", ")))")
            }
        }
        return arguments
    }

    /// `EndpointResilience(...)` on one line when it fits after `indentation` (and
    /// `prefixLength` more characters), else one argument per line.
    static func resilienceInitializer(_ arguments: [String], indentation: String, prefixLength: Int = 0) -> String {
        let line = "EndpointResilience(\(arguments.joined(separator: ", ")))"
        if fitsOnOneLine(indentation + String(repeating: " ", count: prefixLength) + line) { return line }
        return "EndpointResilience(\n" + arguments.map { indentation + "    " + $0 }.joined(separator: ",\n") + "\n" + indentation + ")"
    }

    static func duration(_ seconds: Double) -> String {
        if seconds == seconds.rounded(), seconds < 1e9 {
            return ".seconds(\(Int(seconds)))"
        }
        return ".milliseconds(\(Int((seconds * 1000).rounded())))"
    }
}
