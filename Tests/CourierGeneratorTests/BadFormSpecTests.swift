@testable import CourierGenerator
import Foundation
import Testing

/// Form and text bodies, `contentTypes:` and query styles: every combination that makes no sense
/// gets one exact `path:line:column: error: message` line, at the key that says it.
@Suite struct BadFormSpecTests {
    static let models = """
        models:
          Pet:
            properties: { name: String, tags: "[String]?" }
          Kind:
            enum: [cat, dog]
        """

    @Test func bodiesNeedAnEncoderForTheirContentType() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            \(Self.models)
            endpoints:
              formOfString:
                post: /a
                body: { type: String, contentType: application/x-www-form-urlencoded }
              formOfEnum:
                post: /b
                body: { type: Kind, contentType: application/x-www-form-urlencoded }
              textOfModel:
                post: /c
                body: { type: Pet, contentType: text/plain }
              latin1Text:
                post: /d
                body: { type: String, contentType: "text/plain; charset=iso-8859-1" }
              formStyleOnJSON:
                post: /e
                body: { type: Pet, form: { arrays: indexed } }
              badFormStyle:
                post: /f
                body: { type: Pet, contentType: application/x-www-form-urlencoded, form: { arrays: nested, objects: dots } }
              xmlModel:
                post: /g
                body: { type: Pet, contentType: application/xml }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:11:5: error: the body of endpoint 'formOfString' is a form ('application/x-www-form-urlencoded') of type 'String'; a form is named fields, so its type must be a model or a map (or Data, sent as it is)",
            "Specs/x.yaml:14:5: error: the body of endpoint 'formOfEnum' is a form ('application/x-www-form-urlencoded') of type 'Kind'; a form is named fields, so its type must be a model or a map (or Data, sent as it is)",
            "Specs/x.yaml:17:5: error: the body of endpoint 'textOfModel' is text ('text/plain') of type 'Pet'; text bodies are String (or Data, sent as it is)",
            "Specs/x.yaml:20:5: error: the body of endpoint 'latin1Text' has charset 'iso-8859-1'; text bodies are sent as UTF-8, so write 'charset=utf-8' or no charset",
            "Specs/x.yaml:23:5: error: the body of endpoint 'formStyleOnJSON' has 'form', which applies only to a model sent as 'application/x-www-form-urlencoded'; its content type is 'application/json' and its type 'Pet'",
            "Specs/x.yaml:26:88: error: 'arrays' of 'form' is 'nested'; expected one of brackets, indexed, repeated, comma",
            "Specs/x.yaml:29:5: error: the body of endpoint 'xmlModel' has content type 'application/xml' and type 'Pet'; Courier encodes JSON ('application/json' or '…+json'), forms ('application/x-www-form-urlencoded', from a model) and text ('text/…', from String), so send other content types as 'Data' (type: Data)",
        ])
    }

    @Test func contentTypesNeedDistinctCasesAndValues() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            \(Self.models)
            endpoints:
              twoJSON:
                post: /a
                body:
                  contentTypes:
                    - { type: Pet }
                    - { type: Pet, contentType: application/json }
              noCaseName:
                post: /b
                body:
                  contentTypes:
                    - { type: Pet }
                    - { type: Pet, contentType: application/xml }
              optionalVariant:
                post: /c
                body:
                  contentTypes: [{ type: Pet? }, { type: String, contentType: text/plain }]
              withType:
                post: /d
                body:
                  type: Pet
                  contentTypes: [{ type: Pet }]
              empty:
                post: /e
                body: { contentTypes: [] }
              mergePatch:
                patch: /f
                body:
                  contentTypes: [{ type: Pet, contentType: application/merge-patch+json }, { type: String, contentType: text/plain }]
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:14:11: error: the body of endpoint 'twoJSON' has two content types with case name 'json' ('application/json' and 'application/json'); name one with 'case:'",
            "Specs/x.yaml:20:11: error: the body of endpoint 'noCaseName' has content type 'application/xml' and type 'Pet'; Courier encodes JSON ('application/json' or '…+json'), forms ('application/x-www-form-urlencoded', from a model) and text ('text/…', from String), so send other content types as 'Data' (type: Data)",
            "Specs/x.yaml:20:11: error: the body of endpoint 'noCaseName' accepts 'application/xml', for which Courier has no case name; name it with 'case:'",
            "Specs/x.yaml:24:22: error: a content type of the body of endpoint 'optionalVariant' has optional type 'Pet?'; the caller picks a case, so each case carries a value",
            "Specs/x.yaml:28:7: error: 'body' has both 'contentTypes' and 'type'; with 'contentTypes' each entry gives its own type and content type",
            "Specs/x.yaml:32:27: error: 'contentTypes' is empty; list at least one { type: …, contentType: … }",
            "Specs/x.yaml:36:22: error: a content type of the body of endpoint 'mergePatch' is 'application/merge-patch+json'; among several content types JSON is sent as 'application/json' only",
            "Specs/x.yaml:36:22: error: the body of endpoint 'mergePatch' accepts 'application/merge-patch+json', for which Courier has no case name; name it with 'case:'",
        ])
    }

    @Test func queryStylesOnlyWhereTheyMeanSomething() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            \(Self.models)
            endpoints:
              styles:
                get: /pets/{id}
                path: { id: { type: "[String]", explode: false } }
                headers: { X-Tags: { type: "[String]?", style: pipeDelimited } }
                query:
                  scalarDeep: { type: String, style: deepObject }
                  enumDeep: { type: Kind?, style: deepObject }
                  deepNoExplode: { type: Pet?, style: deepObject, explode: false }
                  scalarExplode: { type: Int?, explode: false }
                  pipeScalar: { type: String?, style: pipeDelimited }
                  spaceExploded: { type: "[String]?", style: spaceDelimited, explode: true }
                  unknownStyle: { type: "[String]?", style: matrix }
                  modelWithoutStyle: Pet?
                  deepDefault: { type: Pet, style: deepObject, default: rex }
                response: "[Pet]"
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:11:13: error: path parameter 'id' has type '[String]'; path parameters take String, Int, Int64, Double, Bool, Date, URL or a string enum",
            "Specs/x.yaml:11:37: error: path parameter 'id' has 'style' or 'explode'; only query parameters take them (a path list is always comma-separated)",
            "Specs/x.yaml:12:16: error: header parameter 'X-Tags' has type '[String]?'; header parameters take String, Int, Int64, Double, Bool, Date, URL or a string enum",
            "Specs/x.yaml:12:45: error: header parameter 'X-Tags' has 'style' or 'explode'; only query parameters take them (a header list is always comma-separated)",
            "Specs/x.yaml:14:35: error: query parameter 'scalarDeep' has style 'deepObject' but type 'String'; deepObject sends a model's fields (filter[status]=open) or a list's items (expand[]=a), so its type must be a model, a map or a list",
            "Specs/x.yaml:15:32: error: query parameter 'enumDeep' has style 'deepObject' but type 'Kind?'; deepObject sends a model's fields (filter[status]=open) or a list's items (expand[]=a), so its type must be a model, a map or a list",
            "Specs/x.yaml:16:36: error: query parameter 'deepNoExplode' has style 'deepObject' with 'explode: false'; deepObject always sends one item per field",
            "Specs/x.yaml:17:36: error: query parameter 'scalarExplode' has 'explode' but type 'Int?'; explode says how a list is sent, and a single value is always one item",
            "Specs/x.yaml:18:36: error: query parameter 'pipeScalar' has style 'pipeDelimited' but type 'String?'; delimited styles join the elements of a list",
            "Specs/x.yaml:19:43: error: query parameter 'spaceExploded' has style 'spaceDelimited' with 'explode: true'; a delimited style joins the elements into one item, so it cannot also repeat the name",
            "Specs/x.yaml:20:49: error: unknown 'style' 'matrix' of query parameter 'unknownStyle'; expected one of form, spaceDelimited, pipeDelimited, deepObject",
            "Specs/x.yaml:21:7: error: query parameter 'modelWithoutStyle' has type 'Pet?'; query parameters take String, Int, Int64, Double, Bool, Date, URL, a string enum, or a list of these",
            "Specs/x.yaml:22:7: error: query parameter 'deepDefault' has style 'deepObject' and a 'default'; a model has no literal to default to, so make it optional instead",
        ])
    }

    @Test func formAndCaseValuesAndTheGeneratedEnumName() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            \(Self.models)
              SubmitContent:
                properties: { a: String }
            endpoints:
              submit:
                post: /a
                body:
                  contentTypes: [{ type: Pet }, { type: String, contentType: text/plain, case: "--" }]
              styled:
                post: /b
                body: { type: Pet, contentType: application/x-www-form-urlencoded, form: brackets }
              missingType:
                post: /c
                body:
                  contentTypes: [{ contentType: text/plain }]
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:8:3: error: model 'SubmitContent' becomes the Swift type 'SubmitContent', the name of the content-type enum of endpoint 'submit'; rename one",
            "Specs/x.yaml:14:84: error: case name '--' has no letters or digits to form a Swift identifier",
            "Specs/x.yaml:17:78: error: 'form' must be a mapping, found 'brackets'",
            "Specs/x.yaml:21:22: error: an entry of 'contentTypes' is missing required key 'type'",
        ])
    }

    @Test func validFormsTextVariantsAndStylesGenerate() throws {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            \(Self.models)
            endpoints:
              create:
                post: /pets
                body: { type: Pet, contentType: application/x-www-form-urlencoded, form: { objects: dots, arrays: comma } }
              note:
                post: /notes
                body: { type: String?, contentType: text/csv }
              pick:
                post: /pick
                body:
                  contentTypes:
                    - { type: Pet }
                    - { type: Pet, contentType: application/x-www-form-urlencoded }
                    - { type: String, contentType: text/plain }
                    - { type: Data, contentType: application/xml, case: xml }
              list:
                get: /pets
                query:
                  ids: { type: "[Int]", explode: false }
                  tags: { type: "[URL]?", style: pipeDelimited }
                  filter: { type: Pet?, style: deepObject }
                response: "[Pet]"
            """
        #expect(diagnosticLines(yaml) == [])
        let spec = try #require(loadSpec(yaml).spec)
        let requests = try #require(try Generator().generate(spec, specPath: "x.yaml")["PetstoreRequests.swift"])
        #expect(requests.contains(".formFields(payload, style: FormEncoder.Style(objects: .dots, arrays: .comma))"))
        #expect(requests.contains(#"payload.map { .text($0, contentType: "text/csv") }"#))
        #expect(requests.contains("public enum PickContent: Sendable {"))
        #expect(requests.contains(#"case .text(let value): .text(value, contentType: "text/plain")"#))
        #expect(requests.contains(#"case .xml(let value): .data(value, contentType: "application/xml")"#))
        #expect(requests.contains(#""ids": ParameterValue.joining(ids, by: .comma)"#))
        #expect(requests.contains(#""tags": tags.map { ParameterValue.joining($0.map(\.absoluteString), by: .pipe) }"#))
        #expect(requests.contains(#""filter": filter.map { ParameterValue.deepObject($0) }"#))
    }
}
