@testable import CourierGenerator
import Foundation
import Testing

/// Error matching that cannot work (success statuses, conditions, nested and typed
/// discriminators) gets one exact diagnostic line each, at the place to fix.
@Suite struct BadErrorMatchingTests {
    @Test func discriminatorValuesAreReadAsTheFieldsType() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { kind: String, code: Int?, ratio: Double?, final: Bool?, detail: Detail? }
            models:
              Detail: { level: Int }
            endpoints:
              listPets:
                get: /pets
                errors:
                  404: { when: { header: x-a }, case: notFound }
                  422:
                    body: Problem
                    discriminator: code
                    cases: { abc: notANumber, 1: one, 01: oneAgain, 2.5: fraction }
                    otherwise: unprocessable
                  409:
                    body: Problem
                    discriminator: final
                    cases: { yes: agreed, true: finalConflict }
                    otherwise: conflict
                  410:
                    body: Problem
                    discriminator: ratio
                    cases: { 1: whole, 1.0: wholeAgain, x: notADouble }
                    otherwise: gone
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:11:14: error: 'when' applies only to a success status (200…299 or 2XX), whose matching responses become failures; 404 is already a failure",
            "Specs/x.yaml:15:18: error: 'abc' under 'cases' is not a valid Int, the type of 'code'",
            // `01` is the Int 1, already listed.
            "Specs/x.yaml:15:47: error: discriminator value '1' is listed twice",
            "Specs/x.yaml:15:57: error: '2.5' under 'cases' is not a valid Int, the type of 'code'",
            "Specs/x.yaml:20:18: error: 'yes' under 'cases' is not a valid Bool, the type of 'final'",
            // `1.0` is the Double 1, already listed.
            "Specs/x.yaml:25:33: error: discriminator value '1.0' is listed twice",
            "Specs/x.yaml:25:45: error: 'x' under 'cases' is not a valid Double, the type of 'ratio'",
        ])
    }

    @Test func conditionsPredicatesAndNestedDiscriminators() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { kind: String, code: Int?, ratio: Double?, final: Bool?, detail: Detail? }
            models:
              Detail: { level: Int }
            endpoints:
              listPets:
                get: /pets
                errors:
                  200: { when: { field: ok, equals: false, header: x-a }, case: failedInside }
                  201: { when: { field: ok }, case: created, wat: 1 }
                  400:
                    body: Problem
                    conditions:
                      - { case: noPredicate }
                      - { header: x-a, field: kind, case: both }
                      - { field: missing, case: missingField }
                      - { field: code, equals: many, case: wrongType }
                      - { field: detail, equals: 1, case: notAScalar }
                      - { header: x-b, equals: "1", case: fine, colour: red }
                      - plainString
                    case: badRequest
                  429:
                    body: Problem
                    discriminator: kind
                    cases:
                      limit:
                        discriminator: code
                        cases: { 1: tooMany }
                      burst:
                        discriminator: code
                        cases: { x: notInt }
                        otherwise: burst
                    otherwise: limited
            """
        #expect(diagnosticLines(yaml) == [
            // listPets answers 204 (no response body), so its own success mappings never apply.
            "Specs/x.yaml:11:7: warning: the error mapping for 200 never applies: endpoint 'listPets' succeeds with 204",
            "Specs/x.yaml:11:20: error: 'when' of the error mapping for 200 needs exactly one of 'header' (a response header) or 'field' (a body field path)",
            "Specs/x.yaml:12:7: warning: the error mapping for 201 never applies: endpoint 'listPets' succeeds with 204",
            "Specs/x.yaml:12:50: error: unknown key 'wat' in the error mapping for 201",
            "Specs/x.yaml:16:13: error: condition 1 of the error mapping for 400 needs exactly one of 'header' (a response header) or 'field' (a body field path)",
            "Specs/x.yaml:17:13: error: condition 2 of the error mapping for 400 needs exactly one of 'header' (a response header) or 'field' (a body field path)",
            "Specs/x.yaml:18:13: error: field 'missing' of a condition does not fit error schema 'Problem': it has no field 'missing'",
            "Specs/x.yaml:19:13: error: 'equals: many' is not a valid Int, the type of 'code'",
            "Specs/x.yaml:20:13: error: field 'detail' of a condition does not fit error schema 'Problem': the field must hold a string, number or boolean",
            "Specs/x.yaml:21:53: error: unknown key 'colour' in condition 6 of the error mapping for 400",
            "Specs/x.yaml:22:13: error: condition 7 of the error mapping for 400 must be a mapping of a predicate ('header' or 'field', optionally 'equals') and a 'case', found 'plainString'",
            "Specs/x.yaml:29:13: error: the nested discriminator for 'limit' discriminates on 'code' but has no 'otherwise' fallback case; discriminator values are an open set",
            "Specs/x.yaml:33:22: error: 'x' under 'cases' is not a valid Int, the type of 'code'",
        ])
    }

    @Test func anEndpointsSuccessMappingForAnotherStatusNeverApplies() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            defaults:
              errors:
                200: { when: { header: x-failed }, case: failedByHeader }
            endpoints:
              createPet:
                post: /pets
                response: { status: 201 }
                errors:
                  2XX: { when: { header: x-failed }, case: failedInRange }
                  200: { when: { header: x-failed }, case: failedByHeader }
            """
        // The defaults' 200 is for other endpoints; the endpoint's own 200 is a mistake.
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:12:7: warning: the error mapping for 200 never applies: endpoint 'createPet' succeeds with 201",
        ])
    }

    @Test func successKeysWithWhenAndEveryScalarTypeAreAccepted() throws {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { ok: Bool, kind: String?, code: Int64?, ratio: Double?, detail: Detail? }
            models:
              Detail: { level: Int }
            defaults:
              errors:
                2xx: { when: { field: ok, equals: false }, body: Problem, case: failedInside }
            endpoints:
              listPets:
                get: /pets
                response: "[String]"
                errors:
                  200:
                    when: { header: x-failed, equals: "yes" }
                    case: failedByHeader
                  400:
                    body: Problem
                    conditions:
                      - { field: detail, case: detailed }
                      - { field: ratio, equals: 1, case: whole }
                    discriminator: code
                    cases: { 1: one, -2: minusTwo, 9223372036854775807: largest }
                    otherwise: badRequest
                  409:
                    body: Problem
                    discriminator: ratio
                    cases: { 0.5: half, 1: whole, 1e3: thousand }
                    otherwise: conflict
            """
        let loaded = loadSpec(yaml)
        #expect(loaded.lines == [])
        let spec = try #require(loaded.spec)
        let endpoint = try #require(spec.endpoint(named: "listPets"))
        #expect(endpoint.effectiveErrors.map(\.status) == [.exact(200), .exact(400), .exact(409), .range(2)])
        #expect(endpoint.effectiveErrors.map(\.isSuccessMapping) == [true, false, false, true])
        #expect(endpoint.effectiveErrors[0].when == .headerEquals("x-failed", "yes"))
        #expect(endpoint.effectiveErrors[3].when == .fieldEquals(FieldPath(components: [.key("ok")]), .boolean(false)))
        let badRequest = endpoint.effectiveErrors[1]
        // The literal 1 is retyped as the Double it is compared with.
        #expect(badRequest.conditions.map(\.predicate) == [
            .fieldPresent(FieldPath(components: [.key("detail")])),
            .fieldEquals(FieldPath(components: [.key("ratio")]), .double(1)),
        ])
        guard case .discriminated(let byCode) = badRequest.outcome, case .discriminated(let byRatio) = endpoint.effectiveErrors[2].outcome else {
            Issue.record("400 and 409 should discriminate")
            return
        }
        #expect(byCode.valueKind == .integer)
        #expect(byCode.cases.map(\.value) == ["1", "-2", "9223372036854775807"])
        #expect(byRatio.valueKind == .double)
        #expect(byRatio.cases.map(\.value) == ["0.5", "1.0", "1000.0"])
        #expect(endpoint.errorCases.map(\.name) == [
            "failedByHeader", "detailed", "whole", "one", "minusTwo", "largest", "badRequest", "half", "thousand", "conflict", "failedInside",
        ])
    }
}
