import CourierGenerator
import Foundation
import Testing

/// Every kind of bad input gets one exact `path:line:column: error: message` line.
@Suite struct BadSpecTests {
    @Test func aModelBodyCanOnlyBeSentAsJSON() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int }
            endpoints:
              createPet:
                post: /pets
                body: { type: Pet, contentType: application/x-www-form-urlencoded }
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
            "Specs/x.yaml:8:5: error: the body of endpoint 'createPet' has content type 'application/x-www-form-urlencoded' and type 'Pet'; "
                + "only JSON media types ('application/json' or '…+json') are encoded, so send other content types as 'Data' (type: Data)",
            "Specs/x.yaml:14:5: error: the body of endpoint 'badType' has content type 'not a media type', which is not a media type such as 'application/octet-stream'",
            "Specs/x.yaml:18:16: error: header parameter 'Content-Type' of endpoint 'patchPet' is already sent as the body's content type ('application/merge-patch+json')",
        ])
    }

    @Test func yamlSyntaxErrorIsReportedAtLibyamlsPosition() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int, name: String
            endpoints: {}
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:10: error: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 4, column 8)",
        ])
    }

    @Test func badIndentationIsASyntaxError() {
        let yaml = """
            service: Petstore
              baseURL: https://petstore.example.com
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:2:10: error: YAML syntax error: mapping values are not allowed in this context",
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
            "Specs/x.yaml:1:1: error: the service is missing required key 'baseURL'",
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
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:2:10: error: 'baseURL' must be a string, found a list",
            "Specs/x.yaml:3:9: error: 'models' must be a mapping, found 'not a mapping'",
            "Specs/x.yaml:7:14: error: 'timeout' must be a number of seconds greater than 0, found 'soon'",
            "Specs/x.yaml:8:21: error: 'idempotencyKey' (true, false or { header: Name }) must be true or false, found 'maybe'",
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
            "Specs/x.yaml:4:26: error: model 'Ownr' used by property 'owner' is not defined; did you mean 'Owner'?",
            "Specs/x.yaml:10:5: error: model 'Pett' used by the response of endpoint 'getPet' is not defined; did you mean 'Pet'?",
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

    @Test func duplicateKeyInYAML() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int }
              Owner: { name: String }
              Pet: { name: String }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:6:3: error: duplicate key 'Pet' in the same mapping",
            "Specs/x.yaml:4:3: note: 'Pet' is first written here",
        ])
    }

    @Test func duplicateKeyInFlowMapping() {
        let yaml = """
            service: Petstore
            baseURL: https://petstore.example.com
            models:
              Pet: { id: Int, name: String, id: String }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:33: error: duplicate key 'id' in the same mapping",
            "Specs/x.yaml:4:10: note: 'id' is first written here",
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

    @Test func emptyFile() {
        #expect(diagnosticLines("") == [
            "Specs/x.yaml:1:1: error: the file is empty; a spec needs at least 'service', 'baseURL' and 'endpoints'",
        ])
        #expect(diagnosticLines("# only a comment\n\n") == [
            "Specs/x.yaml:1:1: error: the file is empty; a spec needs at least 'service', 'baseURL' and 'endpoints'",
        ])
    }

    @Test func topLevelIsNotAMapping() {
        #expect(diagnosticLines("- service: Petstore\n") == [
            "Specs/x.yaml:1:1: error: the top level must be a mapping with keys such as 'service' and 'endpoints', found a list",
        ])
        #expect(diagnosticLines("just some text\n") == [
            "Specs/x.yaml:1:1: error: the top level must be a mapping with keys such as 'service' and 'endpoints', found 'just some text'",
        ])
    }

    @Test func nonUTF8Bytes() {
        var data = Data("service: Petstore\nbaseURL: https://petstore.example.com\ndescription: caf".utf8)
        data.append(contentsOf: [0xE9, 0x0A])  // Latin-1 é
        let result = loadValidated(data: data, displayPath: "Specs/x.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/x.yaml:3:17: error: the file is not valid UTF-8 (byte 0xE9); save it as UTF-8",
        ])
        #expect(result.spec == nil)
    }

    @Test func controlCharacters() {
        let yaml = "service: Pet\u{1}store\nbaseURL: https://petstore.example.com\n"
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:1:13: error: invalid character U+0001 in the file: control characters are not allowed",
        ])
    }

    @Test func tabsAreASyntaxError() {
        let yaml = "service: Petstore\nmodels:\n\tPet: { id: Int }\n"
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:3:1: error: YAML syntax error: found character that cannot start any token (while scanning for the next token at line 3, column 1)",
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
            "Specs/x.yaml:11:36: error: the default of query parameter 'limit' must be a Int, found 'ten'",
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

    @Test func nothingButErrorsWhenAMappingIsMisshapen() {
        // Every section in the wrong shape; each is reported and nothing crashes.
        let yaml = """
            service: [Petstore]
            baseURL: ftp://petstore.example.com
            include: { a: b }
            headers: [Accept]
            auth: basic
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
            "Specs/x.yaml:5:7: error: 'auth' must be one of bearer, found 'basic'",
            "Specs/x.yaml:6:17: error: 'keys' must be one of asIs, snake_case, found 'camelCase'",
            "Specs/x.yaml:6:35: error: 'dates' must be one of iso8601, iso8601WithFractionalSeconds, epochSeconds, found 'rfc1123'",
            "Specs/x.yaml:7:21: error: 'errors' of 'defaults' must be a mapping, found a list",
            "Specs/x.yaml:8:15: error: 'errorSchemas' must be a mapping, found a list",
            "Specs/x.yaml:9:12: error: 'endpoints' must be a mapping, found a list",
        ])
    }
}

@Suite struct ReservedHeaderTests {
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
