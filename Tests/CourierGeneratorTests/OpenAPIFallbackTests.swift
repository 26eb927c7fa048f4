@testable import CourierGenerator
import Foundation
import Testing

/// Constructs of real documents that Courier's format cannot say as written, each read through
/// its nearest faithful fallback with a warning at its place, never failing the document. Each
/// was an error until Courier read the public corpus (docs/OpenAPI.md lists them by kind).
@Suite struct OpenAPIFallbackTests {
    /// A document around `paths` (and optional `components`), with one server.
    static func document(_ paths: String, components: String = "") -> String {
        """
        openapi: 3.0.3
        info: { title: Shop }
        servers: [{ url: https://shop.example.com }]
        paths:
        \(paths.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
        \(components.isEmpty ? "" : "components:\n" + components.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
        """
    }

    /// Stripe's `expand` is `style: deepObject` on a list of strings: its items go out as `expand[]=…`.
    @Test func aDeepObjectListSendsItsItemsUnderBrackets() throws {
        let yaml = Self.document("""
            /charges:
              get:
                operationId: listCharges
                parameters:
                  - { name: expand, in: query, style: deepObject, explode: true, schema: { type: array, items: { type: string } } }
                  - { name: limit, in: query, style: deepObject, schema: { type: integer } }
                  - { name: metadata, in: query, style: deepObject, schema: { type: object } }
                responses: { "204": { description: none } }
            """)
        let (spec, lines) = loadSpec(yaml, path: "shop.yaml")
        #expect(lines == [
            "shop.yaml:9:11: warning: query parameter 'expand' has style 'deepObject' on a list, which OpenAPI leaves undefined; Courier sends each item as 'expand[]=…'",
            "shop.yaml:10:11: warning: query parameter 'limit' has style 'deepObject' on a single value, which has no fields; Courier sends it as 'limit=…'",
        ])
        let parameters = try #require(spec?.endpoints.first?.parameters)
        #expect(parameters.map(\.name) == ["expand", "limit", "metadata"])
        #expect(parameters[0].type == .optional(.array(.primitive(.string))))
        #expect(parameters[0].style?.style == .deepObject)
        #expect(parameters[1].style == nil)
        // A free-form object's fields, whatever they are.
        #expect(parameters[2].type == .optional(.map(.primitive(.json))))
        #expect(parameters[2].style?.style == .deepObject)
    }

    /// The spec format takes a `deepObject` list too, with the same meaning, so `courier import`
    /// can write it back.
    @Test func aSpecTakesADeepObjectList() {
        let yaml = """
            service: Shop
            baseURL: https://shop.example.com
            endpoints:
              listCharges:
                get: /charges
                query: { expand: { type: "[String]?", style: deepObject } }
            """
        #expect(loadSpec(yaml).lines == [])
    }

    /// OpenAI's descriptions put `$recursiveRef: "#"` among a discriminated union's variants: the
    /// union itself, which adds no value its other variants do not decode.
    @Test func aRecursiveVariantOfADiscriminatedUnionIsTheUnionItself() throws {
        let yaml = Self.document("""
            /items:
              get:
                operationId: getItem
                responses:
                  "200":
                    description: ok
                    content: { application/json: { schema: { $ref: "#/components/schemas/Item" } } }
            """, components: """
            schemas:
              Item:
                oneOf:
                  - $ref: "#/components/schemas/Text"
                  - $recursiveRef: "#"
                discriminator: { propertyName: type, mapping: { text: "#/components/schemas/Text" } }
              Text:
                type: object
                required: [type]
                properties: { type: { type: string }, value: { type: string } }
            """)
        let (spec, lines) = loadSpec(yaml, path: "ai.yaml")
        #expect(lines == ["ai.yaml:17:11: warning: a variant of 'Item' is the union itself; it adds nothing to the others and is left out"])
        let union = try #require(spec?.models.first { $0.name == "Item" }?.union)
        #expect(union.variants.map(\.type) == [.named("Text")])
        #expect(union.discriminator?.property == "type")
    }

    /// A stray `examples:` beside `application/json` is no media type.
    @Test func aKeyUnderContentThatIsNoMediaTypeIsIgnored() throws {
        let yaml = Self.document("""
            /accounts:
              post:
                operationId: createAccount
                requestBody:
                  content:
                    application/json: { schema: { type: object, properties: { name: { type: string } } } }
                    examples: {}
                responses:
                  "200":
                    description: ok
                    content:
                      examples: {}
                      application/json: { schema: { type: object, properties: { id: { type: string } } } }
            """)
        let (spec, lines) = loadSpec(yaml, path: "bank.yaml")
        #expect(lines == [
            "bank.yaml:11:11: warning: 'examples' under 'content' is not a media type (such as 'application/json'); it is ignored",
            "bank.yaml:16:13: warning: 'examples' under 'content' is not a media type (such as 'application/json'); it is ignored",
        ])
        let endpoint = try #require(spec?.endpoints.first)
        #expect(endpoint.body?.contentType == "application/json")
        #expect(endpoint.body?.variants.isEmpty == true)
        #expect(endpoint.response.body == .named("CreateAccountResponse"))
    }

    /// `{type: boolean, enum: [true]}` (a `deleted: true` marker) is a `Bool`, documented with its value.
    @Test func aBooleanEnumIsABool() throws {
        let yaml = Self.document("""
            /things/{id}:
              delete:
                operationId: deleteThing
                parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
                responses:
                  "200":
                    description: ok
                    content:
                      application/json:
                        schema:
                          type: object
                          required: [deleted, id]
                          properties:
                            id: { type: string }
                            deleted: { type: boolean, enum: [true], description: Whether the thing is deleted }
                            flag: { enum: [false] }
            """)
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        let model = try #require(spec?.models.first { $0.name == "DeleteThingResponse" })
        #expect(spec?.models.count == 1)
        #expect(model.properties.map(\.type) == [.primitive(.string), .primitive(.bool), .optional(.primitive(.bool))])
        #expect(model.properties[1].description == "Whether the thing is deleted. Always `true`.")
        #expect(model.properties[2].description == "Always `false`.")
    }

    /// A form body of an object without properties is still a form: named fields of any value,
    /// empty when the caller gives none, sent with the document's content type.
    @Test func anEmptyFormBodyIsAForm() throws {
        let yaml = Self.document("""
            /customers/{id}/sources:
              post:
                operationId: refreshSources
                parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
                requestBody:
                  content:
                    application/x-www-form-urlencoded:
                      schema: { type: object, properties: {}, additionalProperties: false }
                responses: { "204": { description: none } }
            """)
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        let body = try #require(spec?.endpoints.first?.body)
        #expect(body.contentType == "application/x-www-form-urlencoded")
        #expect(body.type.nonOptional == .map(.primitive(.json)))
    }

    /// A schema `$ref` that leads nowhere (a missing component, a remote document) stands for a
    /// type nobody can look up: any JSON, with a warning. Keycloak's and Square's documents have them.
    @Test func aSchemaReferenceThatLeadsNowhereIsJSON() throws {
        let yaml = Self.document("""
            /a:
              get:
                operationId: getA
                responses:
                  "200":
                    description: ok
                    content:
                      application/json:
                        schema:
                          type: object
                          properties:
                            any: { $ref: "#/components/schemas/oas_any_type_not_mapped" }
                            money: { $ref: "https://cdn.example.com/schemas/v1/common.json#/definitions/Money" }
            """)
        let (spec, lines) = loadSpec(yaml, path: "k.yaml")
        #expect(lines == [
            "k.yaml:16:24: warning: the $ref '#/components/schemas/oas_any_type_not_mapped' points at nothing; Courier reads it as free-form JSON",
            "k.yaml:17:26: warning: the $ref 'https://cdn.example.com/schemas/v1/common.json#/definitions/Money' names a remote document, which Courier does not fetch; it reads the schema as free-form JSON (save the document beside this one and refer to it by a relative path for its type)",
        ])
        #expect(spec?.models.first?.properties.map(\.type) == [.optional(.primitive(.json)), .optional(.primitive(.json))])
    }

    /// Discriminators Courier cannot read (Linode's list variant, Okta's free-form property): the
    /// union is read by trying each variant in order.
    @Test func aDiscriminatorCourierCannotReadIsDropped() throws {
        let yaml = Self.document("""
            /stats:
              get:
                operationId: getStats
                responses:
                  "200":
                    description: ok
                    content: { application/json: { schema: { $ref: "#/components/schemas/Stats" } } }
            /factors:
              get:
                operationId: getFactor
                responses:
                  "200":
                    description: ok
                    content: { application/json: { schema: { $ref: "#/components/schemas/Factor" } } }
            """, components: """
            schemas:
              Stats:
                oneOf:
                  - { type: array, items: { type: string } }
                  - { $ref: "#/components/schemas/Point" }
                discriminator: { propertyName: kind }
              Point: { type: object, properties: { kind: { type: string }, x: { type: number } } }
              Factor:
                oneOf: [{ $ref: "#/components/schemas/Call" }, { $ref: "#/components/schemas/Sms" }]
                discriminator: { propertyName: factorType }
              Call: { type: object, properties: { factorType: { type: object }, phone: { type: string } } }
              Sms: { type: object, properties: { factorType: { type: object }, number: { type: string } } }
            """)
        let (spec, lines) = loadSpec(yaml, path: "d.yaml")
        #expect(lines == [
            "d.yaml:25:22: warning: the discriminator 'kind' of 'Stats' cannot be read: its variant '[String]' is not an object; Courier reads this union by trying each variant in order",
            "d.yaml:29:22: warning: the discriminator 'factorType' of 'Factor' cannot be read: it is 'JSON' in 'Call', not a string or an integer; Courier reads this union by trying each variant in order",
        ])
        #expect(spec?.models.first { $0.name == "Stats" }?.union?.discriminator == nil)
        #expect(spec?.models.first { $0.name == "Factor" }?.union?.variants.count == 2)
    }

    /// A parameter that carries a security scheme's credential (Petstore's `api_key` header,
    /// Nomad's `X-Nomad-Token`) is sent by the client from its credentials.
    @Test func aParameterThatCarriesTheCredentialIsLeftOut() throws {
        let yaml = Self.document("""
            /pets/{id}:
              delete:
                operationId: deletePet
                parameters:
                  - { name: api_key, in: header, schema: { type: string } }
                  - { name: id, in: path, required: true, schema: { type: integer } }
                responses: { "204": { description: none } }
            """, components: """
            securitySchemes:
              api_key: { type: apiKey, name: api_key, in: header }
            """) + "\nsecurity: [{ api_key: [] }]\n"
        let (spec, lines) = loadSpec(yaml, path: "p.yaml")
        #expect(lines == [
            "p.yaml:9:11: warning: header parameter 'api_key' carries the credential a security scheme sends, which the client adds itself; it is left out",
        ])
        #expect(spec?.endpoints.first?.parameters.map(\.name) == ["id"])
    }

    /// A path parameter and a query parameter of one name (Elasticsearch's `index`) are two
    /// parameters on the wire, with two Swift names.
    @Test func aPathAndAQueryParameterMayShareAName() throws {
        let yaml = Self.document("""
            /{index}/_search:
              post:
                operationId: search
                parameters:
                  - { name: index, in: path, required: true, schema: { type: string } }
                  - { name: index, in: query, schema: { type: string } }
                responses: { "204": { description: none } }
            """)
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        let parameters = try #require(spec?.endpoints.first?.parameters)
        #expect(parameters.map(\.name) == ["index", "index"])
        #expect(parameters.map(\.swiftName.name) == ["index", "index2"])
    }

    /// A component named as a type generated code reserves gets a name a person would guess, not
    /// a number: the error schema `Error` is `ErrorResponse`, a model `Result` is `<Service>Result`.
    @Test func reservedComponentNamesBecomeNamesAPersonWouldGuess() throws {
        let yaml = Self.document("""
            /jobs/{id}:
              get:
                operationId: getJob
                parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
                responses:
                  "200":
                    description: ok
                    content: { application/json: { schema: { $ref: "#/components/schemas/Result" } } }
                  "404":
                    description: missing
                    content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } }
            """, components: """
            schemas:
              Result: { type: object, properties: { value: { type: string } } }
              Error: { type: object, properties: { message: { type: string } } }
            """)
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        #expect(spec?.models.map(\.name) == ["ShopResult"])
        #expect(spec?.errorSchemas.map(\.name) == ["ErrorResponse"])
    }

    /// `properties` beside `additionalProperties: true`: the declared properties are read, and a
    /// warning says that other keys are not kept (until now they were dropped silently).
    @Test func extraKeysBesideDeclaredPropertiesAreNamedInAWarning() throws {
        let yaml = Self.document("""
            /metrics:
              get:
                operationId: getMetrics
                responses:
                  "200":
                    description: ok
                    content:
                      application/json:
                        schema:
                          type: object
                          properties: { total: { type: integer } }
                          additionalProperties: true
            """)
        let (spec, lines) = loadSpec(yaml, path: "m.yaml")
        #expect(lines == [
            "m.yaml:16:39: warning: 'GetMetricsResponse' declares properties and allows other keys ('additionalProperties'); Courier reads the declared properties, and keys beyond them are not kept",
        ])
        #expect(spec?.models.first?.properties.map(\.jsonKey) == ["total"])
    }

    /// Inferred error cases (an overlay's `inferErrorCases: true`) never give one case name two
    /// bodies: Box's `conflict` code, beside the 409 `conflict` its operations document with
    /// another body, is `conflictClientError`. (Inferring failed Box's whole document before.)
    @Test func anInferredCaseNamedLikeAnotherCaseTakesItsSchemasName() throws {
        let yaml = Self.document("""
            /files/{id}:
              put:
                operationId: updateFile
                parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
                responses:
                  "204": { description: done }
                  "400":
                    description: bad
                    content: { application/json: { schema: { $ref: "#/components/schemas/ClientError" } } }
                  "409":
                    description: taken
                    content: { application/json: { schema: { type: array, items: { type: string } } } }
            """, components: """
            schemas:
              ClientError:
                type: object
                properties:
                  code: { type: string, enum: [conflict, item_name_invalid] }
                  message: { type: string }
            """)
        let result = SpecLoader(infersErrorCases: true).loadSpec(contents: yaml, displayPath: "box.yaml")
        #expect(result.diagnostics.renderedLines == [])
        let endpoint = try #require(result.spec?.endpoints.first)
        #expect(endpoint.effectiveErrors.flatMap(\.allCases).map(\.name) == ["conflictClientError", "itemNameInvalid", "badRequest", "conflict"])
    }

    /// A path placeholder always gets a value: a path parameter of a type Courier cannot send
    /// (Supabase's `schema: {}`) is a String, and a placeholder no parameter declares (Square's
    /// `{vendor_id}`) gets a String parameter. Both used to leave the braces in the sent path.
    @Test func everyPathPlaceholderGetsAParameter() throws {
        let yaml = Self.document("""
            /projects/{ref}/addons/{addon_variant}:
              delete:
                operationId: removeAddon
                parameters:
                  - { name: ref, in: path, required: true, schema: { type: string } }
                  - { name: addon_variant, in: path, required: true, schema: {} }
                responses: { "204": { description: none } }
            /vendors/{vendor_id}:
              put:
                operationId: updateVendor
                responses: { "204": { description: none } }
            """)
        let (spec, lines) = loadSpec(yaml, path: "v.yaml")
        #expect(lines == [
            "v.yaml:10:11: warning: path parameter 'addon_variant' of type 'JSON' is sent as a String, which the caller writes as the server reads it",
            "v.yaml:14:7: warning: the path '/vendors/{vendor_id}' of 'updateVendor' has '{vendor_id}', which no parameter declares; Courier takes it as a String path parameter",
        ])
        let endpoints = try #require(spec?.endpoints)
        #expect(endpoints.map { $0.parameters.map(\.name) } == [["ref", "addon_variant"], ["vendor_id"]])
        #expect(endpoints.flatMap(\.parameters).allSatisfy { $0.type == .primitive(.string) && $0.placement == .path })
    }
}
