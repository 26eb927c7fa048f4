@testable import CourierGenerator
import Foundation
import Testing

/// `message` (text, field, fallback, key), `retryable` and top-level `rateLimit`: what a good
/// spec parses into, and one exact diagnostic line for each mistake.
@Suite struct ErrorMeaningSpecTests {
    @Test func parsesMessagesRetryabilityAndRateLimitNames() throws {
        let (spec, lines) = loadSpec("""
            service: Discord
            baseURL: https://discord.com/api/v10
            rateLimit: { resetAfter: X-RateLimit-Reset-After, retryAfterField: retry_after }
            errorSchemas:
              DiscordError: { code: Int, message: String }
            defaults:
              errors:
                404:
                  body: DiscordError
                  discriminator: code
                  cases:
                    10003: { case: unknownChannel, message: { field: message, fallback: No such channel. }, retryable: false }
                  otherwise: { case: notFound, message: { key: errors.notFound, fallback: Not found. } }
                  retryable: true
                429: { case: rateLimited, body: DiscordError, message: Slow down., retryable: true }
            endpoints:
              getChannel: { get: "/channels/{id}", path: { id: String } }
            """)
        #expect(lines == [])
        let parsed = try #require(spec)
        let cases = parsed.defaultErrors.flatMap(\.allCases)
        #expect(cases.map(\.name) == ["unknownChannel", "notFound", "rateLimited"])
        #expect(cases.map(\.messageField?.description) == ["message", nil, nil])
        #expect(cases.map(\.message) == ["No such channel.", "Not found.", "Slow down."])
        #expect(cases.map(\.messageKey) == [nil, "errors.notFound", nil])
        // The mapping's `retryable` reaches its `otherwise`, not the listed cases.
        #expect(cases.map(\.retryable) == [false, true, true])
        let rateLimit = try #require(parsed.rateLimit)
        #expect(rateLimit.resetAfter == "X-RateLimit-Reset-After")
        #expect(rateLimit.retryAfterField?.description == "retry_after")
        #expect(rateLimit.limit == nil)
    }

    /// A mapping's `message` is the default of every case it lists, so that an overlay over
    /// dozens of cases says it once; a case's own message replaces it whole.
    @Test func aMappingsMessageIsItsListedCasesDefault() throws {
        let (spec, lines) = loadSpec("""
            service: Shop
            baseURL: https://shop.example.com
            errorSchemas:
              ShopError: { wrappedIn: error, properties: { type: String, message: String? } }
            defaults:
              errors:
                400:
                  body: ShopError
                  discriminator: error.type
                  message: { field: error.message, fallback: The request was refused. }
                  cases:
                    card_error: cardError
                    idempotency_error: { case: idempotencyError, retryable: true }
                    rate_limit: { case: rateLimited, message: Slow down. }
                  otherwise: invalidRequest
            endpoints:
              getCharge: { get: "/charges/{id}", path: { id: String } }
            """)
        #expect(lines == [])
        let cases = try #require(spec).defaultErrors.flatMap(\.allCases)
        #expect(cases.map(\.name) == ["cardError", "idempotencyError", "rateLimited", "invalidRequest"])
        #expect(cases.map(\.messageField?.description) == ["error.message", "error.message", nil, "error.message"])
        #expect(cases.map(\.message) == ["The request was refused.", "The request was refused.", "Slow down.", "The request was refused."])
        #expect(cases.map(\.retryable) == [nil, true, nil, nil])
    }

    @Test func badMessagesAndRetryability() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { code: String, detail: { type: String? }, nested: { type: "[String]" } }
            endpoints:
              getPet:
                get: /pets/{id}
                path: { id: String }
                errors:
                  400: { case: badRequest, message: { field: detail } }
                  401: { case: unauthorized, message: { key: errors.unauthorized } }
                  402: { case: paymentRequired, message: { text: Pay first. } }
                  403: { case: forbidden, message: {} }
                  404: { case: notFound, body: Problem, message: { field: "detail[" } }
                  409: { case: conflict, body: Problem, message: { field: missing } }
                  410: { case: gone, body: Problem, message: { field: nested } }
                  429: { case: rateLimited, retryable: sometimes }
                  500: { case: serverError, message: One text. }
                  503: { case: serverError, message: Another text. }
                  502: { case: badGateway, retryable: true }
                  504: { case: badGateway, retryable: false }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:10:43: error: 'message' reads the body field 'detail', so the mapping needs 'body' to name the error schema",
            "Specs/x.yaml:11:45: error: 'message' has a localization 'key' but no 'fallback' text to show where the key is not localized",
            "Specs/x.yaml:12:48: error: unknown key 'text' in 'message'",
            "Specs/x.yaml:13:40: error: 'message' needs 'field' (a body field path), 'fallback' (text) or both",
            "Specs/x.yaml:14:63: error: '[' in path 'detail[' must be an index such as [0]",
            "Specs/x.yaml:15:20: error: message field 'missing' of error case 'conflict' does not fit error schema 'Problem': it has no field 'missing'",
            "Specs/x.yaml:16:20: error: message field 'nested' of error case 'gone' does not fit error schema 'Problem': the field must hold a string, number or boolean",
            "Specs/x.yaml:17:44: error: 'retryable' must be true or false, found 'sometimes'",
            "Specs/x.yaml:19:20: error: error case 'serverError' of endpoint 'getPet' has the message \"Another text.\" here but the message \"One text.\" at an earlier use; one case has one message, so give it once, or the same at each use, or use two cases",
            "Specs/x.yaml:18:20: note: 'serverError' has its message here",
            "Specs/x.yaml:21:20: error: error case 'badGateway' of endpoint 'getPet' is 'retryable: false' here but 'retryable: true' where it is first used; one case is retryable or not",
            "Specs/x.yaml:20:20: note: 'badGateway' is first used here",
        ])
    }

    @Test("One case given different messages by different mappings is an error at the later use")
    func oneCaseHasOneMessage() {
        // The enum has one message per case: two texts, or two keys, would lose one of them
        // without a word.
        let yaml = """
            service: P
            baseURL: https://p.example.com
            errorSchemas: { E: { message: String? } }
            defaults:
              errors:
                500: { case: serverError, message: One text. }
                503: { case: serverError, message: Another text. }
            endpoints:
              get:
                get: /x
                errors:
                  404: { case: notFound, body: E, message: { key: errors.a, fallback: Not here. } }
                  410: { case: notFound, body: E, message: { key: errors.b, fallback: Not here. } }
                  408: { case: timedOut, body: E, message: { field: message, fallback: Too slow. } }
                  504: { case: timedOut, body: E, message: { field: message, fallback: Too slow. } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:7:18: error: error case 'serverError' of 'defaults' has the message \"Another text.\" here but the message \"One text.\" at an earlier use; one case has one message, so give it once, or the same at each use, or use two cases",
            "Specs/x.yaml:6:18: note: 'serverError' has its message here",
            "Specs/x.yaml:13:20: error: error case 'notFound' of endpoint 'get' has the message { fallback: \"Not here.\", key: errors.b } here but the message { fallback: \"Not here.\", key: errors.a } at an earlier use; one case has one message, so give it once, or the same at each use, or use two cases",
            "Specs/x.yaml:12:20: note: 'notFound' has its message here",
        ])
    }

    @Test("A message given at one use of a case holds for every use, whichever use gives it")
    func aMessageGivenOnceHoldsForTheCase() throws {
        // The issue's repro: the 403 says nothing, the 429 says "Slow down."; the text was
        // dropped because the first use's (none) won.
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write("""
            service: P
            baseURL: https://p.example.com
            errorSchemas: { E: { message: String? } }
            endpoints:
              get:
                get: /x
                errors:
                  403: { case: rateLimited, body: E }
                  429: { case: rateLimited, body: E, message: Slow down. }
            """, to: "p.yaml"))
        let result = try Generator().generate(specAt: url, displayPath: "p.yaml")
        #expect(result.diagnostics.renderedLines == [])
        let errors = try #require(result.files["PErrors.swift"])
        #expect(errors.contains(#"case .rateLimited: "Slow down.""#), "\(errors)")
    }

    @Test func badRateLimit() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            rateLimit:
              limit: "Rate Limit"
              remainder: Rate-Remaining
              retryAfterField: "retry_after["
            endpoints:
              getPet: { get: /pets }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:10: error: 'Rate Limit' is not a valid HTTP header name",
            "Specs/x.yaml:5:3: error: unknown key 'remainder' in 'rateLimit'; did you mean 'remaining'?",
            "Specs/x.yaml:6:20: error: '[' in path 'retry_after[' must be an index such as [0]",
        ])
        #expect(diagnosticLines("""
            service: Petstore
            baseURL: https://petstore.example.com
            rateLimit: {}
            endpoints:
              getPet: { get: /pets }
            """) == [
            "Specs/x.yaml:3:12: error: 'rateLimit' names none of 'limit', 'remaining', 'reset', 'resetAfter' or 'retryAfterField'",
        ])
    }
}
