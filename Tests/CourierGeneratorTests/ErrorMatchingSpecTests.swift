import CourierGenerator
import Foundation
import Testing

/// The example specs of error matching (Specs/Slack.yaml, Specs/Stripe.yaml) are clean and say
/// what their services' conventions need.
@Suite struct ErrorMatchingSpecTests {
    private func load(_ name: String) throws -> ServiceSpec {
        let url = packageRoot.appendingPathComponent("Specs").appendingPathComponent(name)
        let result = loadValidated(at: url, displayPath: "Specs/\(name)")
        #expect(result.diagnostics.renderedLines == [])
        return try #require(result.spec)
    }

    @Test func slackMapsFailuresInsideHTTP200() throws {
        let spec = try load("Slack.yaml")
        let inherited = try #require(spec.defaultErrors.first { $0.status == .exact(200) })
        #expect(inherited.isSuccessMapping)
        #expect(inherited.when == .fieldEquals(FieldPath(components: [.key("ok")]), .boolean(false)))
        let postMessage = try #require(spec.endpoint(named: "chatPostMessage"))
        let own = try #require(postMessage.effectiveErrors.first { $0.status == .exact(200) })
        #expect(!own.isInherited)
        guard case .discriminated(let byError) = own.outcome else {
            Issue.record("200 should discriminate on error")
            return
        }
        #expect(byError.cases.map(\.value).contains("msg_too_long"))
        #expect(byError.fallback.name == "slackError")
    }

    @Test func stripeNestsCodeWithinTypeAfterItsConditions() throws {
        let spec = try load("Stripe.yaml")
        let charge = try #require(spec.endpoint(named: "createCharge"))
        let declined = try #require(charge.effectiveErrors.first { $0.status == .exact(402) })
        #expect(declined.conditions.map(\.errorCase.name) == ["insufficientFunds"])
        guard case .discriminated(let byType) = declined.outcome, let byCode = byType.cases.first?.nested else {
            Issue.record("402 should discriminate on error.type, then error.code")
            return
        }
        #expect(byType.source.description == "error.type")
        #expect(byCode.source.description == "error.code")
        #expect(byCode.fallback.name == "cardError")
        #expect(byType.fallback.name == "paymentFailed")
        let conflict = try #require(spec.defaultErrors.first { $0.status == .exact(409) })
        #expect(conflict.conditions.map(\.predicate) == [.headerEquals("stripe-should-retry", "true")])
    }
}
