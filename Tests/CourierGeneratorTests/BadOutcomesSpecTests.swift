@testable import CourierGenerator
import Foundation
import Testing

/// Several success statuses, response header fields and content-typed responses: every misuse
/// gets one exact `path:line:column:` diagnostic.
@Suite struct BadOutcomesSpecTests {
    @Test func outcomeMistakes() {
        let yaml = """
            service: Reports
            baseURL: https://reports.example.com
            models:
              Report: { id: Int }
            endpoints:
              errorAsOutcome:
                get: /a
                response: { 200: Report, 404: Report }
              bodyOn304:
                get: /b
                response: { 200: Report, 304: Report }
              bodyOn204:
                get: /c
                response: { 200: Report, 204: { body: Report } }
              mixedKeys:
                get: /d
                response: { 200: Report, body: Report }
              clashingCases:
                get: /e
                response: { 200: Report, 201: { body: Report, case: ok } }
              onlyRedirect:
                get: /f
                response: { 304: { description: Not modified. } }
              pagedOutcomes:
                get: /g
                query: { page: Int? }
                response: { 200: "[Report]", 202: { description: Later. } }
                paginate: { page: { param: page } }
              badCase:
                get: /h
                response: { 200: Report, 202: { case: "!!" } }
              unusedCase:
                get: /j
                response: { 201: { body: Report, case: made } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:8:30: error: status 404 of endpoint 'errorAsOutcome' is not a success or redirection status (200…399); map failures under 'errors'",
            "Specs/x.yaml:11:30: error: a 304 response has no body (RFC 9110); remove its 'body'",
            "Specs/x.yaml:14:30: error: a 204 response has no body (RFC 9110); remove its 'body'",
            "Specs/x.yaml:17:30: error: unknown key 'body' in the response of endpoint 'mixedKeys', which lists statuses; allowed: statuses (200…399) and 'headers'; with statuses as keys, each status has its own 'body' and 'description'",
            "Specs/x.yaml:20:30: error: status 201 and status 200 both become the Swift name 'ok' as a case of the outcome enum of endpoint 'clashingCases'; rename one",
            "Specs/x.yaml:20:17: note: status 200 is declared here",
            "Specs/x.yaml:23:17: error: the only status of endpoint 'onlyRedirect' is 304; a redirection is an outcome beside a 2xx status, not the only one",
            "Specs/x.yaml:28:5: error: endpoint 'pagedOutcomes' has several success statuses, so it cannot also 'paginate': a page is one status with a list",
            "Specs/x.yaml:31:43: error: case '!!' has no letters or digits to form a Swift identifier",
            "Specs/x.yaml:34:17: warning: 'case' of status 201 of endpoint 'unusedCase' is not used: an endpoint with one success status returns its body, not an enum",
        ])
    }

    @Test func headerMistakes() {
        let yaml = """
            service: Reports
            baseURL: https://reports.example.com
            models:
              Report: { id: Int }
              Kind: { enum: [a, b] }
            endpoints:
              badTypes:
                get: /a
                response:
                  body: Report
                  headers:
                    X-List: "[String]"
                    X-Model: Report
                    X-Kind: Kind?
                    X-Missing: Nowhere
              badNames:
                get: /b
                response:
                  body: Report
                  headers:
                    "X Bad": String
                    ETag: String
                    etag: String?
                    X-A: String
                    X_A: String
              streamedHeaders:
                get: /c
                response: { body: Binary, headers: { ETag: String } }
              clash:
                get: /d
                response: { body: Report, headers: { ETag: String } }
              clashWithHeaders:
                get: /e
              acceptParameter:
                get: /f
                headers: { Accept: String }
                response: { body: String, contentType: text/plain }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:12:9: error: response header 'X-List' of endpoint 'badTypes' has type '[String]'; a header field is read as String, Int, Int64, Double, Bool, Date, URL or a string enum",
            "Specs/x.yaml:13:9: error: response header 'X-Model' of endpoint 'badTypes' has type 'Report'; a header field is read as String, Int, Int64, Double, Bool, Date, URL or a string enum",
            "Specs/x.yaml:15:9: error: type 'Nowhere' used by response header 'X-Missing' is not defined",
            "Specs/x.yaml:21:9: error: 'X Bad' is not a valid HTTP header name",
            "Specs/x.yaml:23:9: error: response header 'etag' of endpoint 'badNames' is 'ETag' again (field names are case-insensitive)",
            "Specs/x.yaml:22:9: note: first declared here",
            "Specs/x.yaml:25:9: error: response header 'X_A' and response header 'X-A' both become the Swift name 'xA' in the response headers of endpoint 'badNames'; rename one",
            "Specs/x.yaml:24:9: note: response header 'X-A' is declared here",
            "Specs/x.yaml:28:42: error: the response of endpoint 'streamedHeaders' is streamed; its header fields are in the `StreamingResponse` it returns, so it declares no 'headers'",
            "Specs/x.yaml:31:42: error: endpoint 'clash' declares response headers, so the client gets a method 'clashWithHeaders', which is also the method of endpoint 'clashWithHeaders'; rename one of them",
            "Specs/x.yaml:36:16: error: header parameter 'Accept' of endpoint 'acceptParameter' is already sent as the response's content type ('text/plain')",
        ])
    }

    @Test func contentTypeMistakes() {
        let yaml = """
            service: Reports
            baseURL: https://reports.example.com
            models:
              Report: { id: Int }
            endpoints:
              modelAsText:
                get: /a
                response: { body: Report, contentType: text/plain }
              noBody:
                get: /b
                response: { contentType: text/plain }
              notAMediaType:
                get: /c
                response: { body: String, contentType: plain }
              outcomeContentType:
                get: /d
                response: { 200: { body: Report, contentType: text/csv }, 202: { contentType: text/plain } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:8:5: error: the response of endpoint 'modelAsText' is 'Report' under content type 'text/plain', which is not JSON; read it as 'String' (text) or 'Data' (bytes), or name a JSON content type",
            "Specs/x.yaml:11:30: error: 'contentType' of the response of endpoint 'noBody' is 'text/plain', but the response has no 'body'",
            "Specs/x.yaml:14:44: error: 'plain' is not a media type such as 'text/plain' or 'application/json'",
            "Specs/x.yaml:17:17: error: the 200 response of endpoint 'outcomeContentType' is 'Report' under content type 'text/csv', which is not JSON; read it as 'String' (text) or 'Data' (bytes), or name a JSON content type",
            "Specs/x.yaml:17:83: error: 'contentType' of status 202 of endpoint 'outcomeContentType' is 'text/plain', but that status has no 'body'",
        ])
    }
}
