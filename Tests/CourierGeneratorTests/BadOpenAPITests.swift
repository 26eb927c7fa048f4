@testable import CourierGenerator
import Foundation
import Testing

/// OpenAPI documents Courier reads only in part, or not at all: every problem at its
/// `file:line:column` in the document, all at once; what Courier leaves out or approximates is a
/// warning naming the fallback, never a failure of the whole document.
@Suite struct BadOpenAPITests {
    @Test func problemsAndFallbacksAreLocated() {
        let yaml = """
            openapi: 3.1.0
            info: { title: Broken }
            servers: [{ url: /relative }]
            paths:
              /a:
                get:
                  operationId: getA
                  parameters:
                    - { name: session, in: cookie, schema: { type: string } }
                    - { $ref: "#/components/parameters/missing" }
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { $ref: "#/components/schemas/Loop1" } } }
                options:
                  operationId: optionsA
                  requestBody: { content: { application/json: { schema: { type: string } } } }
                  responses: { "204": { description: none } }
              /b/{id:
                get:
                  responses: { "200": { description: ok } }
              /c:
                get:
                  operationId: getC
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { $ref: "other.yaml#/Thing" } } }
                    "299x": { description: odd }
            components:
              schemas:
                Loop1: { $ref: "#/components/schemas/Loop2" }
                Loop2: { $ref: "#/components/schemas/Loop1" }
            """
        #expect(diagnosticLines(yaml, path: "Specs/openapi.yaml") == [
            "Specs/openapi.yaml:3:11: warning: the server URL '/relative' is not absolute; the client's base URL must be passed",
            "Specs/openapi.yaml:9:11: warning: cookie parameter 'session' is not sent: Courier sends path, query and header parameters",
            "Specs/openapi.yaml:10:11: error: the $ref '#/components/parameters/missing' points at nothing",
            "Specs/openapi.yaml:14:50: error: the $ref '#/components/schemas/Loop1' leads back to itself (/components/schemas/Loop1 → /components/schemas/Loop2 → /components/schemas/Loop1) without reaching a definition",
            "Specs/openapi.yaml:17:20: warning: operation 'optionsA' uses OPTIONS, which Courier sends without a body; its request body is left out",
            "Specs/openapi.yaml:21:7: warning: path '/b/{id' of operation 'getBID' has an unbalanced '{' or '}'; the operation is left out",
            "Specs/openapi.yaml:28:50: warning: the $ref 'other.yaml#/Thing' names a file that cannot be read: no such file; Courier reads it as free-form JSON",
            "Specs/openapi.yaml:29:9: warning: response '299x' of 'getC' is not a status Courier knows; it is left out",
        ])
    }

    @Test func numberEnumsAreSpelledAsASpecSpellsThemAndAQueryInAPathIsLeftOut() {
        let yaml = """
            openapi: 3.1.0
            info: { title: Odd }
            servers: [{ url: https://odd.example.com }]
            paths:
              /ratio:
                get:
                  operationId: getRatio
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: { type: number, enum: [1, 1.5, -2, 1.0, abc] }
              /pets?kind=dog:
                get:
                  operationId: listDogs
                  responses: { "204": { description: ok } }
            """
        #expect(diagnosticLines(yaml, path: "odd.yaml") == [
            "odd.yaml:13:63: warning: enum value 'abc' of number schema 'GetRatioResponse' is not a finite number; it is left out",
            "odd.yaml:16:7: warning: the path '/pets?kind=dog' of operation 'listDogs' holds a query, which Courier does not send as part of a path; the operation is left out",
        ])
        let spec = loadSpec(yaml, path: "odd.yaml").spec
        let ratio = spec?.models.first { $0.name == "GetRatioResponse" }
        #expect(ratio?.enumCases.map(\.value) == ["1.0", "1.5", "-2.0"])
        #expect(ratio?.enumCases.map(\.swiftName.name) == ["value1Point0", "value1Point5", "valueMinus2Point0"])
        #expect(spec?.endpoints.map(\.name) == ["getRatio"])
    }

    @Test func otherVersionsAreRefused() {
        let yaml = """
            openapi: 2.0
            info: { title: Old }
            paths: { /a: { get: { responses: { "204": { description: none } } } } }
            """
        #expect(diagnosticLines(yaml, path: "Specs/openapi.yaml").contains(
            "Specs/openapi.yaml:1:10: error: 'openapi' is '2.0'; Courier reads OpenAPI 3.0 and 3.1 documents"))
    }

    @Test func aDocumentWithoutPathsSaysSo() {
        let yaml = """
            openapi: 3.0.0
            info: { title: Empty }
            servers: [{ url: https://e.example.com }]
            """
        #expect(diagnosticLines(yaml, path: "Specs/openapi.yaml").contains(
            "Specs/openapi.yaml:1:1: error: the document has no 'paths'; Courier makes a client of its operations"))
    }

    /// `paths` that is not a mapping holds no operations: the document is unusable, not empty.
    @Test(arguments: ["[/pets]", "42", "\"/pets\""])
    func pathsOfTheWrongTypeAreAnError(paths: String) {
        let yaml = """
            openapi: 3.0.0
            info: { title: Odd }
            servers: [{ url: https://e.example.com }]
            paths: \(paths)
            """
        let lines = diagnosticLines(yaml, path: "Specs/openapi.yaml")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("Specs/openapi.yaml:4:8: error: 'paths' must be a mapping from each path to its operations") == true,
                "\(lines)")
    }

    /// The references that stay errors: where no type can stand in (a parameter nobody can name),
    /// a remote document in such a place, and a chain that never reaches a definition.
    @Test func referencesThatLeaveTheDocumentUnusable() {
        let yaml = """
            openapi: 3.0.0
            info: { title: Refs }
            servers: [{ url: https://r.example.com }]
            paths:
              /a:
                get:
                  operationId: getA
                  parameters:
                    - $ref: "https://schemas.example.com/common.json#/parameters/page"
                  responses:
                    "200": { $ref: "#/components/responses/Gone" }
            """
        #expect(diagnosticLines(yaml, path: "r.yaml") == [
            "r.yaml:9:11: error: the $ref 'https://schemas.example.com/common.json#/parameters/page' names a remote document, which Courier does not fetch; save it beside this one and refer to it by a relative path",
            "r.yaml:11:16: error: the $ref '#/components/responses/Gone' points at nothing",
        ])
    }
}
