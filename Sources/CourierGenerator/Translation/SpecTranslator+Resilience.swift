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
    func resilienceModel(_ endpoint: EndpointSpec) -> ResilienceModel? {
        let hints = endpoint.resilience
        let defaults = spec.defaultResilience
        if let shared = defaultResilienceName, hints.retry == defaults.retry, hints.breaker == defaults.breaker {
            return ResilienceModel(sharedName: shared, arguments: [], isInline: true)
        }
        let inherited = hints.breaker == defaults.breaker
        let arguments = resilienceArguments(retry: hints.retry, breaker: hints.breaker,
                                            breakerKey: inherited ? nil : endpoint.name)
        guard !arguments.isEmpty else { return nil }
        var model = ResilienceModel(sharedName: nil, arguments: arguments,
                                    isInline: Self.resilienceFitsOnOneLine(arguments, indentation: "        "))
        model.isOneLine = Self.resilienceFitsOnOneLine(arguments, indentation: "    ",
                                                       prefixLength: "\(spec.access.rawValue) var resilience: EndpointResilience {  }".count)
        return model
    }

    /// The `defaults:` constant, or `nil` when there is none.
    func defaultResilienceModel() -> DefaultResilienceModel? {
        guard let name = defaultResilienceName else { return nil }
        let arguments = resilienceArguments(retry: spec.defaultResilience.retry, breaker: spec.defaultResilience.breaker, breakerKey: nil)
        return DefaultResilienceModel(
            doc: SwiftComment.documentation(
                "The `defaults:` retry and circuit-breaker hints of \(SwiftComment.inline(spec.name)), "
                    + "carried by every request that inherits them.", indentation: "    "),
            name: name, arguments: arguments,
            isInline: Self.resilienceFitsOnOneLine(arguments, indentation: "    ", prefixLength: name.count + 16))
    }

    /// The arguments of `EndpointResilience(...)` for these hints; `breakerKey` names the
    /// endpoint's own breaker, `nil` means the host's.
    func resilienceArguments(retry: RetryOverride?, breaker: BreakerOverride?, breakerKey: String?) -> [ArgumentModel] {
        var arguments: [ArgumentModel] = []
        func add(_ label: String, _ value: String) { arguments.append(ArgumentModel(label: label, value: value)) }
        switch retry {
        case nil:
            break
        case .disabled:
            add("maxAttempts", "1")
        case .custom(let retry):
            if let attempts = retry.maxAttempts { add("maxAttempts", String(attempts)) }
            if let base = retry.baseDelay { add("backoffBase", Self.duration(base)) }
            if let cap = retry.maxDelay { add("backoffCap", Self.duration(cap)) }
            if retry.retriesNonIdempotent { add("isSafeToRepeat", "true") }
        }
        switch breaker {
        case nil:
            break
        case .disabled:
            add("circuitBreaker", ".off")
        case .custom(let breaker):
            add("circuitBreaker", breakerKey.map { ".endpoint(\(SwiftLiteral.string($0)))" } ?? ".host")
            if let configuration = Self.breakerConfiguration(breaker) {
                add("circuitBreakerConfiguration", configuration)
            }
        }
        return arguments
    }

    /// The `CircuitBreaker.Configuration` the settings describe, or `nil` for an empty mapping,
    /// which keeps the client's own. `failureThreshold` selects the consecutive-failures model;
    /// anything else the failure-rate model, the client's default, with the runtime's defaults
    /// for what the spec leaves out.
    static func breakerConfiguration(_ breaker: BreakerPolicySpec) -> String? {
        guard !breaker.isEmpty else { return nil }
        var settings: [String] = []
        if let threshold = breaker.failureThreshold {
            settings.append(String(threshold))
            if let successes = breaker.successesToClose { settings.append("successesToClose: \(successes)") }
            if let reset = breaker.resetAfter { settings.append("openDuration: \(duration(reset))") }
            return ".consecutiveFailures(\(settings.joined(separator: ", ")))"
        }
        if let rate = breaker.failureRate { settings.append("\(rate)") }
        if let calls = breaker.minimumCalls { settings.append("minimumCalls: \(calls)") }
        if let window = breaker.window { settings.append("window: \(duration(window))") }
        if let successes = breaker.successesToClose { settings.append("successesToClose: \(successes)") }
        if let reset = breaker.resetAfter { settings.append("breakDuration: \(duration(reset))") }
        return ".failureRate(\(settings.joined(separator: ", ")))"
    }

    /// Whether `EndpointResilience(...)` fits on one line after `indentation` (and
    /// `prefixLength` more characters); the template writes one argument per line otherwise.
    static func resilienceFitsOnOneLine(_ arguments: [ArgumentModel], indentation: String, prefixLength: Int = 0) -> Bool {
        let line = "EndpointResilience(\(arguments.map { "\($0.label): \($0.value)" }.joined(separator: ", ")))"
        return fitsOnOneLine(indentation + String(repeating: " ", count: prefixLength) + line)
    }

    static func duration(_ seconds: Double) -> String {
        if seconds == seconds.rounded(), seconds < 1e9 {
            return ".seconds(\(Int(seconds)))"
        }
        return ".milliseconds(\(Int((seconds * 1000).rounded())))"
    }
}
