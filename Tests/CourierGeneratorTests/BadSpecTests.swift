@testable import CourierGenerator
import Foundation
import Testing

/// Every kind of bad input gets one exact `path:line:column: error: message` line: keys, values, references and names.
@Suite struct BadSpecTests {
    @Test func aModelBodyIsSentAsJSONOrAFormOnly() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int }
            endpoints:
              createPet:
                post: /pets
                body: { type: Pet, contentType: application/xml }
              upload:
                put: /photo
                body: { type: Data, contentType: image/png }
              badType:
                put: /raw
                body: { type: Data, contentType: "not a media type" }
              patchPet:
                patch: /pets
                body: { type: Pet, contentType: application/merge-patch+json }
                headers: { Content-Type: String }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:8:5: error: the body of endpoint 'createPet' has content type 'application/xml' and type 'Pet'; Courier encodes JSON "
                + "('application/json' or '…+json'), forms ('application/x-www-form-urlencoded', from a model) and text ('text/…', from String), "
                + "so send other content types as 'Data' (type: Data)",
            "Specs/x.yaml:14:5: error: the body of endpoint 'badType' has content type 'not a media type', which is not a media type such as 'application/octet-stream'",
            "Specs/x.yaml:18:16: error: header parameter 'Content-Type' of endpoint 'patchPet' is already sent as the body's content type ('application/merge-patch+json')",
        ])
    }

    @Test func unknownKeyGetsASuggestion() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            endpoints:
              getPet:
                get: /pets
                respnse: Pet
            models:
              Pet: { id: Int }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:6:5: error: unknown key 'respnse' in endpoint 'getPet'; did you mean 'response'?",
        ])
    }

    @Test func unknownTopLevelKeyGetsASuggestion() {
        let yaml = """
            service: Petstore
            baseUrl: https://petstore.example.com
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:2:1: error: unknown key 'baseUrl' in the service; did you mean 'baseURL'?",
        ])
    }

    @Test func missingRequiredKey() {
        let yaml = """
            service: Petstore
            endpoints: {}
            """
        #expect(diagnosticLines(yaml) == ["Specs/x.yaml:1:1: error: the service is missing required key 'baseURL'"])
    }

    @Test func missingMethodAndPath() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            endpoints:
              getPet:
                response: String
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:3: error: endpoint 'getPet' needs a method and path, such as 'get: /items/{id}'",
        ])
    }

    @Test func wrongValueTypes() {
        let yaml = """
            service: Petstore
            baseURL: [https://petstore.example.com]
            models: not a mapping
            endpoints:
              listPets:
                get: /pets
                timeout: soon
                idempotencyKey: maybe
            fake: no
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:2:10: error: 'baseURL' must be a string, found a list",
            "Specs/x.yaml:3:9: error: 'models' must be a mapping, found 'not a mapping'",
            "Specs/x.yaml:7:14: error: 'timeout' must be a number of seconds greater than 0, found 'soon'",
            "Specs/x.yaml:8:21: error: 'idempotencyKey' (true, false or { header: Name }) must be true or false, found 'maybe'",
            "Specs/x.yaml:9:7: error: 'fake' must be true or false, found 'no'",
        ])
    }

    @Test func undefinedModelReference() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int, owner: Ownr }
              Owner: { name: String }
            endpoints:
              getPet:
                get: /pets/{id}
                path: { id: Int }
                response: "[Pett]"
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:26: error: type 'Ownr' used by property 'owner' is not defined; did you mean 'Owner'?",
            "Specs/x.yaml:10:5: error: type 'Pett' used by the response of endpoint 'getPet' is not defined; did you mean 'Pet'?",
        ])
    }

    @Test func undefinedErrorSchemaReference() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { code: String, message: String }
            defaults:
              errors:
                5XX: { case: server, body: Problme }
            endpoints:
              listPets:
                get: /pets
                errors:
                  404: { case: notFound, body: Missing }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:7:5: error: error schema 'Problme' used by the error mapping for 5XX is not defined; did you mean 'Problem'?",
            "Specs/x.yaml:12:7: error: error schema 'Missing' used by the error mapping for 404 is not defined",
        ])
    }

    @Test func namesThatCollideAsSwiftIdentifiers() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              pet_status: { enum: [available, sold] }
              PetStatus: { enum: [in-stock, in_stock] }
              Pet: { first_name: String, firstName: String }
            endpoints:
              get-user:
                get: /users
              get_user:
                get: /users2
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:3: error: model 'PetStatus' and model 'pet_status' both become the Swift type 'PetStatus'; rename one",
            "Specs/x.yaml:4:3: note: 'pet_status' is declared here",
            "Specs/x.yaml:5:33: error: enum value 'in_stock' and enum value 'in-stock' both become the Swift name 'inStock'; rename one",
            "Specs/x.yaml:5:23: note: 'in-stock' is declared here",
            "Specs/x.yaml:6:30: error: property 'firstName' and property 'first_name' both become the Swift name 'firstName'; rename one",
            "Specs/x.yaml:6:10: note: 'first_name' is declared here",
            "Specs/x.yaml:10:3: error: endpoint 'get_user' and endpoint 'get-user' both become the Swift name 'getUser'; rename one",
            "Specs/x.yaml:8:3: note: 'get-user' is declared here",
        ])
    }

    @Test func modelAndErrorSchemaShareOneNamespace() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            errorSchemas:
              Problem: { message: String }
            models:
              Problem: { code: String }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:3: error: error schema 'Problem' is already declared as a model",
            "Specs/x.yaml:6:3: note: 'Problem' is first declared here",
        ])
    }

    @Test func undeclaredAndUnusedPathParameters() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            endpoints:
              getPet:
                get: /owners/{ownerId}/pets/{petId}
                path:
                  petId: Int
                  petID: Int
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:10: error: path parameter '{ownerId}' of endpoint 'getPet' is not declared under 'path:'",
            "Specs/x.yaml:8:7: error: path parameter 'petID' is declared but '/owners/{ownerId}/pets/{petId}' does not use it",
            "Specs/x.yaml:8:7: error: parameter 'petID' and parameter 'petId' both become the Swift name 'petID'; rename one",
            "Specs/x.yaml:7:7: note: 'petId' is declared here",
        ])
    }

    @Test func invalidMethod() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            endpoints:
              fetchPets:
                fetch: /pets
              listPets:
                GET: /pets
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:5: error: invalid HTTP method 'fetch' in endpoint 'fetchPets'; expected one of get, post, put, patch, delete, head, options",
            "Specs/x.yaml:7:5: error: invalid HTTP method 'GET' in endpoint 'listPets'; methods are written in lowercase: 'get'",
        ])
    }

    @Test func twoMethodsInOneEndpoint() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            endpoints:
              pets:
                get: /pets
                post: /pets
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:6:5: error: endpoint 'pets' has more than one method ('get', 'post'); declare one endpoint per method",
        ])
    }

    @Test func requiredRecursionIsImpossible() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Person: { name: String, partner: Couple }
              Couple: { first: Person, since: Date }
              Tree: { value: Int, children: "[Tree]", parent: Tree? }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:3: error: model 'Person' contains itself through required properties (Person.partner → Couple.first); make one of them optional or an array",
        ])
    }

    @Test func invalidParametersAndDefaults() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int }
              Status: { enum: [available, sold] }
            endpoints:
              listPets:
                get: /pets/{kind}
                path: { kind: String? }
                query:
                  limit: { type: Int, default: ten }
                  status: { type: Status, default: availabel }
                  filter: Pet
                headers:
                  X Bad: String
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:9:19: error: path parameter 'kind' cannot be optional; path parameters are always required",
            "Specs/x.yaml:11:36: error: the default of query parameter 'limit' must be an Int, found 'ten'",
            "Specs/x.yaml:12:7: error: the default of query parameter 'status' is 'availabel', which is not a value of enum 'Status'; did you mean 'available'?",
            "Specs/x.yaml:13:7: error: query parameter 'filter' has type 'Pet'; query parameters take String, Int, Int64, Double, Bool, Date, URL, a string enum, or a list of these",
            "Specs/x.yaml:15:7: error: 'X Bad' is not a valid HTTP header name",
        ])
    }

    @Test func swiftKeywordsAreValidNames() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Type: { default: String, class: Int, self: Bool, Type: String? }
              Protocol: { enum: [default, class, self] }
            endpoints:
              default:
                get: /things/{self}
                path: { self: String }
                query: { class: String? }
                response: Type
                errors:
                  404: default
            """
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        let model = spec?.model(named: "Type")
        #expect(model?.swiftName.escaped == "`Type`")
        #expect(model?.properties.map(\.swiftName.escaped) == ["`default`", "`class`", "`self`", "type"])
        #expect(spec?.model(named: "Protocol")?.enumCases.map(\.swiftName.escaped) == ["`default`", "`class`", "`self`"])
        #expect(spec?.endpoints.first?.swiftName.escaped == "`default`")
        #expect(spec?.endpoints.first?.errorCases.map(\.swiftName.escaped) == ["`default`"])
    }
}


@Suite struct ReservedHeaderTests {
    /// A fixed header value is sent as written or not at all: a line break would otherwise reach
    /// the wire changed (HTTPTypes turns it into a space) or, in a hand-built request, split the field.
    @Test func fixedHeaderValuesCannotHoldLineBreaksOrControlCharacters() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            headers:
              X-Injected: "v1\\r\\nX-Admin: true"
              X-Block: |
                one line
              X-Null: { value: "a\\u0000b" }
              X-Tabbed: "a\\tb"
            endpoints:
              getPet: { get: /pets }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:15: error: the value of header 'X-Injected' contains a line break, which cannot be sent in a header field; "
                + "write the value on one line (a block scalar '|' adds a line break at its end)",
            "Specs/x.yaml:5:12: error: the value of header 'X-Block' contains a line break, which cannot be sent in a header field; "
                + "write the value on one line (a block scalar '|' adds a line break at its end)",
            "Specs/x.yaml:7:20: error: the value of header 'X-Null' contains the control character U+0000, which cannot be sent in a header field; "
                + "write the value on one line (a block scalar '|' adds a line break at its end)",
        ])
    }

    @Test func headersCourierSetsCannotBeParameters() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            headers:
              authorization: Basic abc
            auth: bearer
            endpoints:
              createPet:
                post: /pets
                idempotencyKey: true
                headers:
                  Authorization: String
                  idempotency-key: String?
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:3: error: header 'authorization' is already sent by 'auth'; remove it from 'headers'",
            "Specs/x.yaml:11:7: error: header parameter 'Authorization' of endpoint 'createPet' is already sent as the auth header",
            "Specs/x.yaml:12:7: error: header parameter 'idempotency-key' of endpoint 'createPet' is already sent as the idempotency key",
        ])
    }
}
