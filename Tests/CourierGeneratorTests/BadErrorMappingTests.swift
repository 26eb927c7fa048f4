@testable import CourierGenerator
import Foundation
import Testing

/// Error mappings that cannot work (statuses, cases, bodies, discriminators) get one exact diagnostic line each.
@Suite struct BadErrorMappingTests {
    @Test func invalidStatusesAndRanges() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            endpoints:
              listPets:
                get: /pets
                response: { status: 404, body: String }
                errors:
                  600: tooHigh
                  2XX: success
                  200: ok
                  4X: partial
                  6XX: unknownRange
                  abc: notAStatus
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:6:25: error: the success status of endpoint 'listPets' must be 200…299, found '404'",
            "Specs/x.yaml:8:7: error: invalid status '600'; use a status 400…599, 4XX, 5XX or default",
            "Specs/x.yaml:9:7: error: invalid status range '2XX'; error mappings take 4XX or 5XX",
            "Specs/x.yaml:10:7: error: status 200 is not an error status; error mappings take 400…599, 4XX, 5XX or default",
            "Specs/x.yaml:11:7: error: invalid status '4X'; use a status 400…599, 4XX, 5XX or default",
            "Specs/x.yaml:12:7: error: invalid status range '6XX'; error mappings take 4XX or 5XX",
            "Specs/x.yaml:13:7: error: invalid status 'abc'; use a status 400…599, 4XX, 5XX or default",
        ])
    }

    @Test func twoCasesMappedToOneStatus() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            endpoints:
              listPets:
                get: /pets
                errors:
                  4xx: clientError
                  404: notFound
                  4XX: otherClientError
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:9:7: error: status 4XX is mapped twice in 'errors' of endpoint 'listPets'; map each status to one case",
            "Specs/x.yaml:7:7: note: first mapped here",
        ])
    }

    @Test func sameStatusWrittenTwice() {
        // The same key twice is a YAML-level error, reported where the second one is written.
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            endpoints:
              listPets:
                get: /pets
                errors:
                  404: notFound
                  410: gone
                  "404": missing
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:9:7: error: duplicate key '404' in the same mapping",
            "Specs/x.yaml:7:7: note: '404' is first written here",
        ])
    }

    @Test func oneCaseWithTwoBodies() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { message: String }
            defaults:
              errors:
                404: { case: notFound, body: Problem }
            endpoints:
              listPets:
                get: /pets
                errors:
                  410: notFound
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:12:12: error: error case 'notFound' of endpoint 'listPets' carries no body here but body 'Problem' elsewhere; one case has one body",
            "Specs/x.yaml:7:18: note: 'notFound' is also used here",
        ])
    }

    @Test func conflictsInDefaultsAreReportedOnce() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { message: String }
            defaults:
              errors:
                404: { case: notFound, body: Problem }
                410: notFound
                400: bad_request
                422: badRequest
            endpoints:
              listPets: { get: /pets }
              getPet: { get: /pet }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:8:10: error: error case 'notFound' of 'defaults' carries no body here but body 'Problem' elsewhere; one case has one body",
            "Specs/x.yaml:7:18: note: 'notFound' is also used here",
            "Specs/x.yaml:10:10: error: error cases 'badRequest' and 'bad_request' of 'defaults' both become the Swift case 'badRequest'; rename one",
            "Specs/x.yaml:9:10: note: 'bad_request' is used here",
        ])
    }

    @Test func discriminatedMappingWithoutFallback() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { code: String, message: String }
            endpoints:
              createPet:
                post: /pets
                errors:
                  422:
                    body: Problem
                    discriminator: code
                    cases: { name_taken: nameTaken }
                  403:
                    discriminator: { header: x-ratelimit-remaining }
                    cases: { "0": rateLimited }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:9:7: error: the error mapping for 422 discriminates on 'code' but has no 'otherwise' fallback case; discriminator values are an open set",
            "Specs/x.yaml:13:7: error: the error mapping for 403 discriminates on 'header x-ratelimit-remaining' but has no 'otherwise' fallback case; discriminator values are an open set",
        ])
    }

    @Test func discriminatorPathMustFitTheSchema() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { code: String, errors: "[Issue]" }
              Stripe: { wrappedIn: error, properties: { type: String, code: String? } }
            models:
              Issue: { field: String, code: String }
            endpoints:
              createPet:
                post: /pets
                errors:
                  422: { body: Problem, discriminator: "errors[0].cod", cases: { a: b }, otherwise: c }
                  400: { body: Problem, discriminator: code.value, cases: { a: b }, otherwise: c }
                  402: { body: Stripe, discriminator: error.code, cases: { card_declined: declined }, otherwise: payment }
                  409: { body: Stripe, discriminator: type, cases: { a: d }, otherwise: e }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:12:29: error: discriminator 'errors[0].cod' does not fit error schema 'Problem': it has no field 'cod'; did you mean 'code'?",
            "Specs/x.yaml:13:29: error: discriminator 'code.value' does not fit error schema 'Problem': 'value' is read from something that is not an object",
            "Specs/x.yaml:15:28: error: discriminator 'type' does not fit error schema 'Stripe': it has no field 'type'",
        ])
    }

    @Test func nothingButErrorsWhenAMappingIsMisshapen() {
        // Every section in the wrong shape; each is reported and nothing crashes.
        let yaml = """
            service: [Petstore]
            baseURL: ftp://petstore.example.com
            include: { a: b }
            headers: [Accept]
            auth: digest
            coding: { keys: camelCase, dates: rfc1123 }
            defaults: { errors: [404] }
            errorSchemas: [Problem]
            endpoints: [getPet]
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:1:10: error: 'service' must be a string, found a list",
            "Specs/x.yaml:2:10: error: 'baseURL' must be an absolute http or https URL, found 'ftp://petstore.example.com'",
            "Specs/x.yaml:3:10: error: an 'include' entry must be a string, found a mapping",
            "Specs/x.yaml:4:10: error: 'headers' must be a mapping, found a list",
            "Specs/x.yaml:5:7: error: 'auth' must be one of bearer, basic, apiKey, found 'digest'",
            "Specs/x.yaml:6:17: error: 'keys' must be one of asIs, snake_case, found 'camelCase'",
            "Specs/x.yaml:6:35: error: 'dates' must be one of iso8601, iso8601WithFractionalSeconds, epochSeconds, found 'rfc1123'",
            "Specs/x.yaml:7:21: error: 'errors' of 'defaults' must be a mapping, found a list",
            "Specs/x.yaml:8:15: error: 'errorSchemas' must be a mapping, found a list",
            "Specs/x.yaml:9:12: error: 'endpoints' must be a mapping, found a list",
        ])
    }
}
