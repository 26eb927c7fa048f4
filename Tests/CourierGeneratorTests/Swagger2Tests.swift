@testable import CourierGenerator
import Foundation
import Testing

/// Swagger 2.0 documents, read on the OpenAPI reader through ``Swagger2Converter``: one small
/// fixture per construct, every diagnostic at its `line:column` in the 2.0 text, and a 2.0
/// document generating the same client as its hand-written 3.0 twin.
@Suite struct Swagger2Tests {
    /// The one endpoint named `name` of a document that must load without errors.
    func endpoint(_ name: String, in yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> EndpointSpec {
        let (spec, lines) = loadSpec(yaml, path: "swagger.yaml", sourceLocation: sourceLocation)
        let loaded = try #require(spec, "\(lines)", sourceLocation: sourceLocation)
        return try #require(loaded.endpoints.first { $0.name == name }, sourceLocation: sourceLocation)
    }

    @Test func aBodyParameterIsTheRequestBodyInTheJSONTypesOfConsumes() throws {
        let yaml = """
            swagger: "2.0"
            info: { title: Pets, version: "1" }
            host: pets.example.com
            consumes: [application/json, application/xml]
            paths:
              /pets:
                post:
                  operationId: createPet
                  parameters: [{ $ref: "#/parameters/PetBody" }]
                  responses: { "201": { description: made, schema: { $ref: "#/definitions/Pet" } } }
                put:
                  operationId: replacePets
                  consumes: [text/plain]
                  parameters: [{ name: list, in: body, schema: { type: string } }]
                  responses: { "204": { description: done } }
            parameters:
              PetBody: { name: pet, in: body, required: true, description: The pet., schema: { $ref: "#/definitions/Pet" } }
            definitions:
              Pet: { type: object, required: [name], properties: { name: { type: string } } }
            """
        #expect(diagnosticLines(yaml, path: "swagger.yaml") == [
            "swagger.yaml:4:11: warning: 'consumes' lists application/xml beside JSON; Courier sends this document's body parameters "
                + "as JSON and does not offer it",
        ])
        let create = try endpoint("createPet", in: yaml)
        #expect(create.body?.type == .named("Pet"))
        #expect(create.body?.contentType == RequestBodySpec.json)
        #expect(create.body?.variants == [])
        #expect(create.body?.description == "The pet.")
        #expect(create.response.body == .named("Pet"))
        // A body that `consumes` lists only as text is a text body.
        let replace = try endpoint("replacePets", in: yaml)
        #expect(replace.body?.type == .primitive(.string))
        #expect(replace.body?.contentType == "text/plain")
    }

    @Test func formParametersAreAFormOrAMultipartBody() throws {
        let yaml = """
            swagger: "2.0"
            info: { title: Forms, version: "1" }
            host: forms.example.com
            paths:
              /login:
                post:
                  operationId: logIn
                  consumes: [application/x-www-form-urlencoded]
                  parameters:
                    - { name: user, in: formData, type: string, required: true }
                    - { name: remember, in: formData, type: boolean }
                  responses: { "204": { description: in } }
              /photos/{id}:
                parameters:
                  - { name: id, in: path, type: string, required: true }
                  - { name: caption, in: formData, type: string }
                post:
                  operationId: uploadPhoto
                  consumes: [multipart/form-data]
                  parameters:
                    - { name: photo, in: formData, type: file, required: true }
                  responses: { "204": { description: stored } }
                put:
                  operationId: captionPhoto
                  parameters:
                    - { name: credit, in: formData, type: string }
                  responses: { "204": { description: stored } }
                patch:
                  operationId: ratePhoto
                  parameters:
                    - { name: rating, in: formData, type: integer }
                  responses: { "204": { description: stored } }
            """
        #expect(diagnosticLines(yaml, path: "swagger.yaml") == [])
        let logIn = try endpoint("logIn", in: yaml)
        #expect(logIn.body?.contentType == "application/x-www-form-urlencoded")
        let (spec, _) = loadSpec(yaml, path: "swagger.yaml")
        let fields = spec?.models.first { $0.name == logIn.body?.type.description }?.properties
        #expect(fields?.map(\.name) == ["user", "remember"])
        #expect(fields?.map(\.type.description) == ["String", "Bool?"])
        // A file makes it multipart; the path item's form parameter is one of its fields.
        let upload = try endpoint("uploadPhoto", in: yaml)
        #expect(upload.body?.isMultipart == true)
        #expect(upload.body?.files.map(\.name) == ["photo"])
        #expect(upload.body?.files.map(\.isOptional) == [false])
        #expect(upload.pathParameters.map(\.name) == ["id"])
        let uploadFields = spec?.models.first { $0.name == upload.body?.type.description }?.properties
        #expect(uploadFields?.map(\.name) == ["caption"])
        // Another operation of the path item shares its field and adds its own, in a model of its own.
        let caption = try endpoint("captionPhoto", in: yaml)
        #expect(caption.body?.contentType == "application/x-www-form-urlencoded")
        let captionFields = spec?.models.first { $0.name == caption.body?.type.description }?.properties
        #expect(captionFields?.map(\.name) == ["caption", "credit"])
        let rate = try endpoint("ratePhoto", in: yaml)
        #expect(rate.body?.type != caption.body?.type)
        #expect(spec?.models.first { $0.name == rate.body?.type.description }?.properties.map(\.name) == ["caption", "rating"])
    }

    @Test func collectionFormatsAreQueryStyles() throws {
        let yaml = """
            swagger: "2.0"
            info: { title: Lists, version: "1" }
            host: lists.example.com
            paths:
              /items:
                get:
                  operationId: listItems
                  parameters:
                    - { name: plain, in: query, type: array, items: { type: string } }
                    - { name: csv, in: query, type: array, items: { type: string }, collectionFormat: csv }
                    - { name: ssv, in: query, type: array, items: { type: string }, collectionFormat: ssv }
                    - { name: pipes, in: query, type: array, items: { type: integer }, collectionFormat: pipes }
                    - { name: multi, in: query, type: array, items: { type: string }, collectionFormat: multi }
                    - { name: tsv, in: query, type: array, items: { type: string }, collectionFormat: tsv }
                    - { name: odd, in: query, type: array, items: { type: string }, collectionFormat: semicolons }
                  responses: { "204": { description: none } }
            """
        #expect(diagnosticLines(yaml, path: "swagger.yaml") == [
            "swagger.yaml:14:91: warning: query parameter 'tsv' is a 'tsv' list, which Courier cannot send tab-separated; "
                + "it is sent comma-separated (csv)",
            "swagger.yaml:15:91: warning: query parameter 'odd' has collectionFormat 'semicolons', which Swagger 2.0 does not define; "
                + "it is sent comma-separated (csv)",
        ])
        let list = try endpoint("listItems", in: yaml)
        let styles = list.queryParameters.map { ($0.name, $0.style?.style, $0.style?.explode) }
        #expect(styles.map(\.0) == ["plain", "csv", "ssv", "pipes", "multi", "tsv", "odd"])
        // 2.0's default is csv, which 3.0 spells `explode: false`; `multi` is 3.0's default.
        #expect(styles.map(\.1) == [nil, nil, .spaceDelimited, .pipeDelimited, nil, nil, nil])
        #expect(styles.map(\.2) == [false, false, false, false, nil, false, false])
        #expect(list.queryParameters.map(\.type.description) == ["[String]?", "[String]?", "[String]?", "[Int]?", "[String]?", "[String]?",
                                                                  "[String]?"])
    }

    @Test func xNullableMakesAValueOptional() throws {
        let yaml = """
            swagger: "2.0"
            info: { title: Nulls, version: "1" }
            host: nulls.example.com
            paths:
              /pets:
                get:
                  operationId: getPet
                  responses: { "200": { description: ok, schema: { $ref: "#/definitions/Pet" } } }
            definitions:
              Pet:
                type: object
                required: [name, owner, age]
                properties:
                  name: { type: string, x-nullable: true }
                  owner: { $ref: "#/definitions/Owner", x-nullable: true }
                  age: { type: integer }
              Owner: { type: object, properties: { name: { type: string } } }
            """
        let (spec, lines) = loadSpec(yaml, path: "swagger.yaml")
        #expect(lines == [])
        let pet = try #require(spec?.models.first { $0.name == "Pet" })
        #expect(pet.properties.map(\.type.description) == ["String?", "Owner?", "Int"])
    }

    @Test func referencesIntoDefinitionsParametersAndResponsesAreFollowed() throws {
        let yaml = """
            swagger: "2.0"
            info: { title: Refs, version: "1" }
            host: refs.example.com
            produces: [application/json]
            paths:
              /pets:
                get:
                  operationId: listPets
                  parameters: [{ $ref: "#/parameters/Limit" }]
                  responses:
                    "200": { description: ok, schema: { type: array, items: { $ref: "#/definitions/Pet" } } }
                    "404": { $ref: "#/responses/NotFound" }
                    default: { $ref: "#/responses/Problem" }
            parameters:
              Limit: { name: limit, in: query, type: integer, format: int64 }
            responses:
              NotFound: { description: Not found., schema: { $ref: "#/definitions/Problem" } }
              Problem: { description: A problem., schema: { $ref: "#/definitions/Problem" } }
            definitions:
              Pet: { type: object, properties: { tag: { $ref: "#/definitions/Tag" } } }
              Tag: { type: string, enum: [cat, dog] }
              Problem: { type: object, properties: { message: { type: string } } }
            """
        let list = try endpoint("listPets", in: yaml)
        #expect(list.queryParameters.map(\.type.description) == ["Int64?"])
        #expect(list.response.body == .array(.named("Pet")))
        #expect(list.errorCases.map(\.name) == ["notFound", "problem"])
        #expect(list.errorCases.map(\.bodySchema) == ["Problem", "Problem"])
        let (spec, _) = loadSpec(yaml, path: "swagger.yaml")
        #expect(spec?.models.first { $0.name == "Tag" }?.enumCases.map(\.value) == ["cat", "dog"])
    }

    @Test func securityDefinitionsAreAuthSchemes() throws {
        let yaml = """
            swagger: "2.0"
            info: { title: Secure, version: "1" }
            host: secure.example.com
            securityDefinitions:
              basicAuth: { type: basic }
              key: { type: apiKey, name: api_key, in: query }
              oauth: { type: oauth2, flow: accessCode, authorizationUrl: "https://a.example.com/auth",
                       tokenUrl: "https://a.example.com/token", scopes: { read: Read. } }
            security: [{ oauth: [read] }]
            paths:
              /me:
                get:
                  operationId: getMe
                  security: [{ basicAuth: [] }, { key: [] }]
                  responses: { "204": { description: ok } }
              /health:
                get:
                  operationId: getHealth
                  security: []
                  responses: { "204": { description: ok } }
            """
        let (spec, lines) = loadSpec(yaml, path: "swagger.yaml")
        #expect(lines == [])
        let schemes = try #require(spec?.authSchemes)
        #expect(schemes.schemes.map(\.name) == ["basicAuth", "key", "oauth"])
        #expect(schemes.schemes.map(\.auth.scheme) == [.basic, .apiKey, .bearer])
        #expect(schemes.schemes[1].auth.keyPlacement == .query)
        #expect(schemes.schemes[1].auth.queryName == "api_key")
        #expect(schemes.defaultSchemes == ["oauth"])
        #expect(spec?.endpoints.map(\.auth?.choice) == [.anyOf(["basicAuth", "key"]), EndpointAuthSpec.Choice.none])
    }

    @Test func hostBasePathAndSchemesAreTheBaseURL() throws {
        func baseURL(_ lines: String) -> String? {
            let yaml = "swagger: \"2.0\"\ninfo: { title: Served, version: \"1\" }\n\(lines)\npaths: {}\n"
            return SpecLoader().loadSpec(contents: yaml, displayPath: "swagger.yaml").spec?.baseURL.absoluteString
        }
        #expect(baseURL("host: api.example.com\nbasePath: /v2/") == "https://api.example.com/v2")
        #expect(baseURL("host: api.example.com\nschemes: [http]") == "http://api.example.com")
        #expect(baseURL("host: api.example.com\nschemes: [http, https]\nbasePath: /") == "https://api.example.com")
        let relative = diagnosticLines("swagger: \"2.0\"\ninfo: { title: Served, version: \"1\" }\nbasePath: /v1\npaths: {}\n",
                                       path: "swagger.yaml")
        #expect(relative == ["swagger.yaml:3:11: warning: the server URL '/v1' is not absolute; the client's base URL must be passed"])
    }

    @Test func diagnosticsPointIntoTheSwaggerFile() {
        let yaml = """
            swagger: "2.0"
            info: { title: Broken, version: "1" }
            host: broken.example.com
            paths:
              /pets/{id}:
                post:
                  operationId: tagPet
                  parameters:
                    - { name: other, in: path, type: string, required: true }
                    - { name: tags, in: formData, type: array, items: { type: string }, collectionFormat: csv }
                  responses:
                    "200":
                      description: ok
                      schema:
                        $ref: "#/definitions/Missing"
            """
        #expect(diagnosticLines(yaml, path: "Specs/swagger.yaml") == [
            "Specs/swagger.yaml:7:7: warning: the path '/pets/{id}' of 'tagPet' has '{id}', which no parameter declares; Courier takes it as a String path parameter",
            "Specs/swagger.yaml:9:11: warning: path parameter 'other' is not in the path '/pets/{id}'; it is left out",
            "Specs/swagger.yaml:10:95: warning: form parameter 'tags' is a 'csv' list; Courier spells the arrays of a form body "
                + "as the client's form encoding says (repeated 'tags[]' fields by default)",
            "Specs/swagger.yaml:15:13: warning: the $ref '#/definitions/Missing' points at nothing; Courier reads it as free-form JSON",
        ])
    }

    @Test func aSwaggerVersionOtherThanTwoIsAnErrorAtIt() {
        let yaml = """
            swagger: "1.2"
            info: { title: Old, version: "1" }
            host: old.example.com
            paths: {}
            """
        #expect(diagnosticLines(yaml, path: "swagger.yaml") == [
            "swagger.yaml:1:10: error: 'swagger' is '1.2'; Courier reads Swagger 2.0 and OpenAPI 3.0 and 3.1 documents",
        ])
    }

    @Test func aDocumentWithNeitherKeyIsStillReadAsASpec() {
        let yaml = """
            info: { title: Neither }
            paths: {}
            """
        // What a Courier spec without `service` gets, as before Swagger 2.0 was read.
        #expect(diagnosticLines(yaml, path: "Specs/x.yaml") == [
            "Specs/x.yaml:1:1: error: unknown key 'info' in the service",
            "Specs/x.yaml:1:1: error: the service is missing required key 'service'",
            "Specs/x.yaml:1:1: error: the service is missing required key 'baseURL'",
            "Specs/x.yaml:2:1: error: unknown key 'paths' in the service",
        ])
    }

    @Test func referencesIntoOtherFilesAreConvertedToo() throws {
        let folder = try TemporaryFolder()
        try folder.write("""
            definitions:
              Pet:
                type: object
                required: [owner]
                properties:
                  owner: { $ref: "owner.yaml", x-nullable: true }
                  photo: { type: file }
            parameters:
              PetID: { name: id, in: path, type: integer, required: true }
            """, to: "api/shared.yaml")
        try folder.write("""
            type: object
            properties:
              nick: { type: string, x-nullable: true }
              pets: { type: array, items: { $ref: "shared.yaml#/definitions/Pet" } }
            """, to: "api/owner.yaml")
        let root = try folder.write("""
            swagger: "2.0"
            info: { title: Split, version: "1" }
            host: split.example.com
            paths:
              /pets/{id}:
                get:
                  operationId: getPet
                  parameters: [{ $ref: "shared.yaml#/parameters/PetID" }]
                  responses:
                    "200": { description: ok, schema: { $ref: "shared.yaml#/definitions/Pet" } }
                    "404": { description: gone, schema: { $ref: "shared.yaml#/definitions/Nothing" } }
            """, to: "api/swagger.yaml")
        let result = loadValidated(at: URL(fileURLWithPath: root), displayPath: "api/swagger.yaml")
        #expect(result.diagnostics.renderedLines == [
            "api/swagger.yaml:11:45: warning: the $ref 'shared.yaml#/definitions/Nothing' points at nothing; Courier reads it as free-form JSON",
        ])
        let working = try folder.write("""
            swagger: "2.0"
            info: { title: Split, version: "1" }
            host: split.example.com
            paths:
              /pets/{id}:
                get:
                  operationId: getPet
                  parameters: [{ $ref: "shared.yaml#/parameters/PetID" }]
                  responses:
                    "200": { description: ok, schema: { $ref: "shared.yaml#/definitions/Pet" } }
              /owners: { $ref: "owners.yaml" }
            """, to: "api/working.yaml")
        try folder.write("""
            post:
              operationId: addOwner
              parameters: [{ name: owner, in: body, schema: { $ref: "owner.yaml" } }]
              responses: { "204": { description: added } }
            """, to: "api/owners.yaml")
        let again = loadValidated(at: URL(fileURLWithPath: working), displayPath: "api/working.yaml")
        let spec = try #require(again.spec, "\(again.diagnostics.renderedLines)")
        #expect(spec.endpoints.first?.pathParameters.map(\.type.description) == ["Int"])
        #expect(spec.models.first { $0.name == "Pet" }?.properties.map(\.type.description) == ["Owner?", "String?"])
        #expect(spec.models.first { $0.name == "Owner" }?.properties.map(\.type.description) == ["String?", "[Pet]?"])
        // A path item in a file of its own: its body parameter is the operation's body.
        #expect(spec.endpoints.first { $0.name == "addOwner" }?.body?.type == .named("Owner"))
    }

    /// A 2.0 document and the 3.0 document a person would write for the same API.
    static let swagger = """
        swagger: "2.0"
        info: { title: Store, version: "1", description: A small store. }
        host: store.example.com
        basePath: /v1
        schemes: [https]
        consumes: [application/json]
        produces: [application/json]
        securityDefinitions:
          token: { type: apiKey, name: Authorization-Token, in: header }
        security: [{ token: [] }]
        paths:
          /orders:
            get:
              operationId: listOrders
              summary: Lists orders.
              parameters:
                - { name: status, in: query, type: array, items: { type: string, enum: [open, closed] }, collectionFormat: csv }
                - { name: limit, in: query, type: integer, required: true }
              responses:
                "200": { description: The orders., schema: { type: array, items: { $ref: "#/definitions/Order" } } }
                default: { $ref: "#/responses/Problem" }
            post:
              operationId: createOrder
              parameters:
                - { name: order, in: body, required: true, schema: { $ref: "#/definitions/Order" } }
              responses:
                "201": { description: Made., schema: { $ref: "#/definitions/Order" } }
                default: { $ref: "#/responses/Problem" }
          /orders/{id}/receipt:
            put:
              operationId: uploadReceipt
              consumes: [multipart/form-data]
              parameters:
                - { name: id, in: path, required: true, type: string }
                - { name: note, in: formData, type: string }
                - { name: scan, in: formData, type: file, required: true }
              responses:
                "204": { description: Stored. }
                default: { $ref: "#/responses/Problem" }
        responses:
          Problem: { description: A problem., schema: { $ref: "#/definitions/Problem" } }
        definitions:
          Order:
            type: object
            required: [id, note]
            properties:
              id: { type: string }
              note: { type: string, x-nullable: true }
              total: { type: number }
          Problem: { type: object, properties: { message: { type: string } } }
        """

    static let openAPI = """
        openapi: 3.0.3
        info: { title: Store, version: "1", description: A small store. }
        servers: [{ url: "https://store.example.com/v1" }]
        components:
          securitySchemes:
            token: { type: apiKey, name: Authorization-Token, in: header }
          responses:
            Problem:
              description: A problem.
              content: { application/json: { schema: { $ref: "#/components/schemas/Problem" } } }
          schemas:
            Order:
              type: object
              required: [id, note]
              properties:
                id: { type: string }
                note: { type: string, nullable: true }
                total: { type: number }
            Problem: { type: object, properties: { message: { type: string } } }
        security: [{ token: [] }]
        paths:
          /orders:
            get:
              operationId: listOrders
              summary: Lists orders.
              parameters:
                - name: status
                  in: query
                  explode: false
                  schema: { type: array, items: { type: string, enum: [open, closed] } }
                - { name: limit, in: query, required: true, schema: { type: integer } }
              responses:
                "200":
                  description: The orders.
                  content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Order" } } } }
                default: { $ref: "#/components/responses/Problem" }
            post:
              operationId: createOrder
              requestBody:
                required: true
                content: { application/json: { schema: { $ref: "#/components/schemas/Order" } } }
              responses:
                "201": { description: Made., content: { application/json: { schema: { $ref: "#/components/schemas/Order" } } } }
                default: { $ref: "#/components/responses/Problem" }
          /orders/{id}/receipt:
            put:
              operationId: uploadReceipt
              parameters:
                - { name: id, in: path, required: true, schema: { type: string } }
              requestBody:
                content:
                  multipart/form-data:
                    schema:
                      type: object
                      required: [scan]
                      properties:
                        note: { type: string }
                        scan: { type: string, format: binary }
              responses:
                "204": { description: Stored. }
                default: { $ref: "#/components/responses/Problem" }
        """

    @Test func aSwaggerDocumentGeneratesTheClientOfItsOpenAPITwin() throws {
        let folder = try TemporaryFolder()
        let swagger = URL(fileURLWithPath: try folder.write(Self.swagger, to: "swagger.yaml"))
        let openAPI = URL(fileURLWithPath: try folder.write(Self.openAPI, to: "openapi.yaml"))
        let generator = try Generator()
        let fromSwagger = generator.generate(specAt: swagger, displayPath: "swagger.yaml")
        let fromOpenAPI = generator.generate(specAt: openAPI, displayPath: "openapi.yaml")
        #expect(fromSwagger.diagnostics.renderedLines == [])
        #expect(fromOpenAPI.diagnostics.renderedLines == [])
        try #require(fromSwagger.succeeded && fromOpenAPI.succeeded)
        #expect(fromSwagger.files.keys.sorted() == fromOpenAPI.files.keys.sorted())
        for (name, text) in fromSwagger.files {
            let other = fromOpenAPI.files[name] ?? ""
            #expect(ImportTests.droppingFirstLine(text) == ImportTests.droppingFirstLine(other),
                    "\(name) differs: \(ImportTests.firstDifference(text, other))")
        }
        // The twin is no empty agreement: the shapes a 2.0 reading could get wrong are there.
        let requests = try #require(fromSwagger.files.first { $0.key.hasSuffix("Requests.swift") }?.value)
        #expect(requests.contains("ParameterValue.joining($0, by: .comma)"))
        #expect(requests.contains(".multipartFields(payload, files: [(\"scan\", scan)]"))
        #expect(requests.contains("public var body: RequestBody? { .json(payload) }"))
    }

    @Test func anOverlayAndImportReadASwaggerDocument() throws {
        let folder = try TemporaryFolder()
        try folder.write(Self.swagger, to: "api/swagger.yaml")
        let overlayURL = URL(fileURLWithPath: try folder.write("""
            overlay: api/swagger.yaml
            service: Shop
            names:
              operations: { listOrders: orders }
              schemas: { Order: ShopOrder }
            operations:
              createOrder:
                errors:
                  409: { case: duplicate, message: The order exists. }
            """, to: "Shop.courier.yaml"))
        let result = loadValidated(at: overlayURL, displayPath: "Specs/Shop.courier.yaml")
        #expect(result.diagnostics.renderedLines == [])
        let spec = try #require(result.spec)
        #expect(spec.name == "Shop")
        #expect(spec.endpoints.map(\.name) == ["orders", "createOrder", "uploadReceipt"])
        #expect(spec.models.map(\.name).contains("ShopOrder"))
        #expect(spec.endpoints[1].errorCases.map(\.name).contains("duplicate"))

        // A schema name the document lacks is checked against its definitions.
        let wrong = URL(fileURLWithPath: try folder.write("overlay: api/swagger.yaml\nnames:\n  schemas: { Ordr: X }\n", to: "Wrong.courier.yaml"))
        #expect(loadValidated(at: wrong, displayPath: "Wrong.courier.yaml").diagnostics.renderedLines == [
            "Wrong.courier.yaml:3:20: error: the document has no schema 'Ordr' under definitions; did you mean 'Order'?",
        ])

        // `courier import` writes a spec that generates the same client, for the document and the overlay.
        try ImportTests().expectRoundTrip(folder.url.appendingPathComponent("api/swagger.yaml"), displayPath: "api/swagger.yaml")
        try ImportTests().expectRoundTrip(overlayURL, displayPath: "Shop.courier.yaml")
    }
}
