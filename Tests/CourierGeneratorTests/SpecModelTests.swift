@testable import CourierGenerator
import Foundation
import Testing

/// What a valid spec turns into: the typed model the code generator consumes.
@Suite struct SpecModelTests {
    static let petstore = """
        service: pet-store
        description: Pets and their owners.
        baseURL: https://petstore.example.com/v1
        headers:
          Accept: application/json
          X-Api-Key: { secret: true, description: The partner key. }
        auth: { scheme: bearer, header: X-Auth, description: A session token. }
        coding: { keys: snake_case, dates: epochSeconds }
        defaults:
          timeout: 10
          retry: { maxAttempts: 3, baseDelay: 0.2 }
          errors:
            401: unauthorized
            429: { case: rateLimited, body: Problem, message: Slow down. }
            5XX: { case: server, body: Problem }
            default: unexpected
        errorSchemas:
          Problem: { code: String, message: String, details: "[FieldIssue]?" }
          StripeError: { wrappedIn: error, properties: { type: String, code: String? } }
          JSONAPIErrors:
            description: JSON:API error objects.
            arrayIn: errors
            properties: { status: String, code: String, title: String? }
        models:
          Pet:
            description: A pet.
            properties:
              id: Int64
              name: String
              tag: String?
              status: PetStatus
              createdAt: Date
              ownerIds: "[Int]"
              attributes: "[String: String]"
              weirdKey: { type: Int, json: WeirdKEY, description: Kept as written. }
          PetStatus:
            enum: [available, pending, { value: sold-out, case: soldOut, description: Gone. }]
          FieldIssue: { field: String, message: String }
          Category: { name: String, parent: Category?, children: "[Category]" }
        endpoints:
          getPet:
            description: One pet.
            get: /pets/{petId}
            path: { petId: { type: Int64, description: The pet's id. } }
            headers:
              X-Request-ID: { type: String?, secret: true }
            response: Pet
            errors:
              404: { case: notFound, body: Problem, message: No pet has that id. }
              5XX: { case: maintenance, body: Problem }
          listPets:
            get: /pets
            query:
              status: { type: PetStatus, default: available }
              limit: { type: Int, default: 20 }
              tags: "[String]?"
              cursor: String?
              verbose: { type: Bool, default: "false" }
            response: "[Pet]"
            retry: false
            breaker: { failureThreshold: 3, resetAfter: 20 }
          createPet:
            post: /pets
            body:
              description: The new pet.
              properties: { name: String, tag: String? }
            response: { status: 201, body: Pet }
            idempotencyKey: true
            timeout: 30
            errors:
              422:
                body: Problem
                discriminator: code
                cases:
                  name_taken: nameTaken
                  bad_tag: { case: badTag, message: That tag is not allowed. }
                otherwise: invalid
              403:
                body: Problem
                discriminator: { header: x-ratelimit-remaining }
                cases: { "0": rateLimited }
                otherwise: forbidden
          deletePet:
            delete: /pets/{petId}
            path: { petId: Int64 }
          archivePet:
            post: /pets/{petId}/archive
            path: { petId: Int64 }
            idempotencyKey: { header: X-Idempotency-Key }
          chargePet:
            post: /pets/{petId}/charge
            path: { petId: Int64 }
            body: { type: "[String: Int]", contentType: application/vnd.pets+json }
            response: { status: 202 }
            retry: { nonIdempotent: true }
            errors:
              402: { body: StripeError, discriminator: error.code, cases: { card_declined: declined }, otherwise: paymentFailed }
              409: { body: JSONAPIErrors, discriminator: "errors[0].code", cases: { locked: locked }, otherwise: conflict }
        """

    private func spec() throws -> ServiceSpec {
        let (spec, lines) = loadSpec(Self.petstore, path: "Specs/Petstore.yaml")
        #expect(lines == [])
        return try #require(spec)
    }

    @Test func serviceSettings() throws {
        let spec = try spec()
        #expect(spec.name == "pet-store")
        #expect(spec.swiftName.name == "PetStore")
        #expect(spec.description == "Pets and their owners.")
        #expect(spec.baseURL.absoluteString == "https://petstore.example.com/v1")
        #expect(spec.location == SourceLocation(file: "Specs/Petstore.yaml", line: 1, column: 10))
        #expect(spec.headers.map(\.name) == ["Accept", "X-Api-Key"])
        #expect(spec.headers[0].value == "application/json")
        #expect(spec.headers[0].isSecret == false)
        #expect(spec.headers[1].value == nil)
        #expect(spec.headers[1].isSecret)
        #expect(spec.headers[1].swiftName.name == "xAPIKey")
        #expect(spec.auth?.scheme == .bearer)
        #expect(spec.auth?.headerName == "X-Auth")
        #expect(spec.coding == CodingSpec(keys: .snakeCase, dates: .epochSeconds))
        #expect(spec.defaultResilience.timeout == 10)
    }

    @Test func modelsAndProperties() throws {
        let spec = try spec()
        let pet = try #require(spec.model(named: "Pet"))
        #expect(pet.description == "A pet.")
        #expect(pet.location == SourceLocation(file: "Specs/Petstore.yaml", line: 25, column: 3))
        #expect(pet.properties.map(\.name) == ["id", "name", "tag", "status", "createdAt", "ownerIds", "attributes", "weirdKey"])
        #expect(pet.properties.map(\.jsonKey) == ["id", "name", "tag", "status", "created_at", "owner_ids", "attributes", "WeirdKEY"])
        #expect(pet.properties.map(\.swiftName.name) == ["id", "name", "tag", "status", "createdAt", "ownerIDs", "attributes", "weirdKey"])
        #expect(pet.properties.map(\.type) == [
            .primitive(.int64), .primitive(.string), .optional(.primitive(.string)), .named("PetStatus"), .primitive(.date),
            .array(.primitive(.int)), .map(.primitive(.string)), .primitive(.int),
        ])
        #expect(pet.properties.map(\.isRequired) == [true, true, false, true, true, true, true, true])
        #expect(pet.properties.last?.description == "Kept as written.")
        #expect(!pet.isRecursive)

        let status = try #require(spec.model(named: "PetStatus"))
        #expect(status.isStringEnum)
        #expect(status.enumCases.map(\.value) == ["available", "pending", "sold-out"])
        #expect(status.enumCases.map(\.swiftName.name) == ["available", "pending", "soldOut"])
        #expect(status.enumCases.last?.description == "Gone.")

        #expect(spec.model(named: "Category")?.isRecursive == true)
        #expect(spec.model(named: "FieldIssue")?.isRecursive == false)
    }

    @Test func errorSchemaShapes() throws {
        let spec = try spec()
        #expect(spec.errorSchema(named: "Problem")?.shape == .object)
        #expect(spec.errorSchema(named: "Problem")?.properties.map(\.type) == [
            .primitive(.string), .primitive(.string), .optional(.array(.named("FieldIssue"))),
        ])
        #expect(spec.errorSchema(named: "StripeError")?.shape == .wrapped(key: "error"))
        #expect(spec.errorSchema(named: "JSONAPIErrors")?.shape == .array(key: "errors"))
        #expect(spec.errorSchema(named: "JSONAPIErrors")?.swiftName.name == "JSONAPIErrors")
        #expect(spec.errorSchema(named: "JSONAPIErrors")?.description == "JSON:API error objects.")
    }

    @Test func endpointParametersAndBodies() throws {
        let spec = try spec()
        let getPet = try #require(spec.endpoint(named: "getPet"))
        #expect(getPet.method == .get)
        #expect(getPet.path.segments == [.literal("/pets/"), .parameter("petId")])
        #expect(getPet.pathParameters.map(\.name) == ["petId"])
        #expect(getPet.pathParameters.first?.description == "The pet's id.")
        #expect(getPet.headerParameters.map(\.name) == ["X-Request-ID"])
        #expect(getPet.headerParameters.first?.swiftName.name == "xRequestID")
        #expect(getPet.headerParameters.first?.isSecret == true)
        #expect(getPet.headerParameters.first?.isRequired == false)
        #expect(getPet.response == ResponseSpec(status: 200, body: .named("Pet"), location: getPet.response.location))

        let listPets = try #require(spec.endpoint(named: "listPets"))
        #expect(listPets.queryParameters.map(\.name) == ["status", "limit", "tags", "cursor", "verbose"])
        #expect(listPets.queryParameters.map(\.defaultValue) == [.string("available"), .integer(20), nil, nil, .boolean(false)])
        #expect(listPets.queryParameters.map(\.isRequired) == [false, false, false, false, false])
        #expect(listPets.response.body == .array(.named("Pet")))

        let createPet = try #require(spec.endpoint(named: "createPet"))
        #expect(createPet.body?.type == .named("CreatePetBody"))
        #expect(createPet.body?.description == "The new pet.")
        let inline = try #require(spec.model(named: "CreatePetBody"))
        #expect(inline.synthesizedForEndpoint == "createPet")
        #expect(inline.properties.map(\.name) == ["name", "tag"])
        #expect(createPet.response.status == 201)

        let deletePet = try #require(spec.endpoint(named: "deletePet"))
        #expect(deletePet.response.status == 204)
        #expect(deletePet.response.body == nil)

        let chargePet = try #require(spec.endpoint(named: "chargePet"))
        #expect(chargePet.body?.type == .map(.primitive(.int)))
        #expect(chargePet.body?.contentType == "application/vnd.pets+json")
        #expect(chargePet.response.status == 202)
    }

    @Test func errorMappingsInheritDefaults() throws {
        let spec = try spec()
        #expect(spec.defaultErrors.map(\.status) == [.exact(401), .exact(429), .range(5), .default])
        #expect(spec.defaultErrors.allSatisfy { $0.isInherited })

        let getPet = try #require(spec.endpoint(named: "getPet"))
        #expect(getPet.errors.map(\.status) == [.exact(404), .range(5)])
        #expect(getPet.effectiveErrors.map(\.status) == [.exact(401), .exact(404), .exact(429), .range(5), .default])
        #expect(getPet.effectiveErrors.map(\.isInherited) == [true, false, true, false, true])
        // The endpoint's own 5XX replaces the default one.
        #expect(getPet.effectiveErrors.first { $0.status == .range(5) }?.allCases.map(\.name) == ["maintenance"])
        #expect(getPet.errorCases.map(\.name) == ["unauthorized", "notFound", "rateLimited", "maintenance", "unexpected"])
        let notFound = try #require(getPet.errorCases.first { $0.name == "notFound" })
        #expect(notFound.bodySchema == "Problem")
        #expect(notFound.message == "No pet has that id.")
        #expect(getPet.errorCases.first?.bodySchema == nil)
    }

    @Test func discriminators() throws {
        let spec = try spec()
        let createPet = try #require(spec.endpoint(named: "createPet"))
        let validation = try #require(createPet.errors.first { $0.status == .exact(422) })
        guard case .discriminated(let byCode) = validation.outcome else {
            Issue.record("422 should discriminate")
            return
        }
        #expect(byCode.source == .bodyField(FieldPath(components: [.key("code")])))
        #expect(byCode.cases.map(\.value) == ["name_taken", "bad_tag"])
        #expect(byCode.cases.map(\.errorCase.name) == ["nameTaken", "badTag"])
        #expect(byCode.cases.last?.errorCase.message == "That tag is not allowed.")
        #expect(byCode.fallback.name == "invalid")
        #expect(byCode.fallback.bodySchema == "Problem")

        let forbidden = try #require(createPet.errors.first { $0.status == .exact(403) })
        guard case .discriminated(let byHeader) = forbidden.outcome else {
            Issue.record("403 should discriminate")
            return
        }
        #expect(byHeader.source == .header("x-ratelimit-remaining"))
        #expect(byHeader.cases.map(\.value) == ["0"])
        #expect(forbidden.allCases.map(\.name) == ["rateLimited", "forbidden"])

        let chargePet = try #require(spec.endpoint(named: "chargePet"))
        let paths = chargePet.errors.compactMap { mapping -> String? in
            guard case .discriminated(let discriminator) = mapping.outcome else { return nil }
            return discriminator.source.description
        }
        #expect(paths == ["error.code", "errors[0].code"])
    }

    @Test func resilienceHintsMergeWithDefaults() throws {
        let spec = try spec()
        let getPet = try #require(spec.endpoint(named: "getPet"))
        #expect(getPet.resilience.timeout == 10)
        #expect(getPet.resilience.retry == .custom(RetryPolicySpec(maxAttempts: 3, baseDelay: 0.2)))
        #expect(getPet.allowsRetry)

        let listPets = try #require(spec.endpoint(named: "listPets"))
        #expect(listPets.resilience.retry == .disabled)
        #expect(!listPets.allowsRetry)
        #expect(listPets.resilience.breaker == .custom(BreakerPolicySpec(failureThreshold: 3, resetAfter: 20)))

        let createPet = try #require(spec.endpoint(named: "createPet"))
        #expect(createPet.resilience.idempotencyKey == IdempotencyKeySpec(headerName: "Idempotency-Key"))
        #expect(createPet.resilience.timeout == 30)
        #expect(createPet.allowsRetry)

        #expect(spec.endpoint(named: "archivePet")?.resilience.idempotencyKey?.headerName == "X-Idempotency-Key")
        #expect(spec.endpoint(named: "deletePet")?.allowsRetry == true)
        let chargePet = try #require(spec.endpoint(named: "chargePet"))
        #expect(chargePet.resilience.retry == .custom(RetryPolicySpec(retriesNonIdempotent: true)))
        #expect(chargePet.allowsRetry)
    }

    @Test func postWithoutKeyOrPermissionIsNotRetried() throws {
        let yaml = "service: S\nbaseURL: https://s.example.com\nendpoints:\n  send: { post: /send }\n"
        let (spec, _) = loadSpec(yaml)
        #expect(spec?.endpoints.first?.allowsRetry == false)
    }

    @Test func warningsDoNotStopGeneration() throws {
        let yaml = "service: S\nbaseURL: https://s.example.com\nendpoints:\n  read:\n    get: /read\n    idempotencyKey: true\n"
        let result = loadValidated(contents: yaml, displayPath: "Specs/s.yaml")
        #expect(result.diagnostics.renderedLines == [
            "Specs/s.yaml:4:3: warning: endpoint 'read' uses GET, which is already idempotent; 'idempotencyKey' is not needed",
        ])
        #expect(!result.hasErrors)
        #expect(result.spec != nil)
    }

    @Test func asIsKeysKeepPropertyNames() throws {
        let yaml = "service: S\nbaseURL: https://s.example.com\nmodels:\n  M: { createdAt: Date, user_id: Int }\n"
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        #expect(spec?.model(named: "M")?.properties.map(\.jsonKey) == ["createdAt", "user_id"])
        #expect(spec?.model(named: "M")?.properties.map(\.swiftName.name) == ["createdAt", "userID"])
    }
}
