@testable import CourierGenerator
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

    @Test("A field path may pass through a union to the variants it fits, in discriminators, conditions and messages")
    func fieldPathThroughAUnion() throws {
        // GitHub's 422: `errors` items are objects or plain strings.
        let base = """
            service: Hub
            baseURL: https://hub.example.com
            models:
              ValidationIssue: { resource: String, field: String, code: String }
              ValidationIssueItem:
                oneOf: [ValidationIssue, String]
            errorSchemas:
              GitHubError:
                properties:
                  message: String
                  errors: "[ValidationIssueItem]?"
            endpoints:
              createIssue:
                post: /issues
                errors:
                  422:
                    body: GitHubError

            """
        let (spec, lines) = loadSpec(base + """
                    conditions:
                      - { field: "errors[0].field", equals: title, case: badTitle }
                    discriminator: errors[0].code
                    cases:
                      missing_field: { case: missingField, message: { field: "errors[0].code", fallback: A field is missing. } }
                    otherwise: invalid
            """)
        #expect(lines == [])
        let mapping = try #require(spec?.endpoints.first?.effectiveErrors.first)
        guard case .discriminated(let discriminator) = mapping.outcome else {
            Issue.record("expected a discriminator, got \(mapping.outcome)")
            return
        }
        #expect(discriminator.valueKind == .string)

        // A field no variant has is still an error, and names the union.
        #expect(diagnosticLines(base + """
                    discriminator: errors[0].kind
                    cases: { a: kindA }
                    otherwise: invalid
            """) == [
            "Specs/x.yaml:18:9: error: discriminator 'errors[0].kind' does not fit error schema 'GitHubError': no variant of union 'ValidationIssueItem' has a field 'kind'",
        ])
    }
}
