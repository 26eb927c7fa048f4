@testable import CourierGenerator
import CourierTestSupport
import Foundation
import Testing

/// Names a person would keep, from an OpenAPI document: titles for inline schemas and union
/// variants, one model for inline schemas that are alike, a component's inline properties named
/// after it, no doubled words, and service-derived names without a doubled suffix; and the
/// spec `courier import` writes says each thing once.
@Suite struct ImportNamingTests {
    /// Loads `yaml` as an OpenAPI document named `api.yaml`, requiring a spec.
    func load(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ServiceSpec {
        let loaded = SpecLoader().loadSpec(contents: yaml, displayPath: "api.yaml")
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics.renderedLines)", sourceLocation: sourceLocation)
        return try #require(loaded.spec, sourceLocation: sourceLocation)
    }

    /// A payment API in train-travel's shape, small: a component with an inline enum and an
    /// inline union of titled variants, reached first through a response's `allOf`; three list
    /// responses with the same inline `links` object; two operations answering the same inline
    /// `allOf`.
    static let payments = """
        openapi: 3.1.0
        info: { title: Payments API, version: "1" }
        servers: [{ url: "https://payments.example.com" }]
        paths:
          /payments:
            post:
              operationId: create-payment
              requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Payment" } } } }
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        allOf:
                          - $ref: "#/components/schemas/Payment"
                          - properties: { links: { $ref: "#/components/schemas/SelfLink" } }
            get:
              operationId: get-payments
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        properties:
                          data: { type: array, items: { $ref: "#/components/schemas/Payment" } }
                          links:
                            allOf: [{ $ref: "#/components/schemas/SelfLink" }, { $ref: "#/components/schemas/PageLinks" }]
          /payments/{id}:
            get:
              operationId: get-payment
              parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        allOf:
                          - $ref: "#/components/schemas/Payment"
                          - properties: { links: { $ref: "#/components/schemas/SelfLink" } }
          /refunds:
            get:
              operationId: get-refunds
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        properties:
                          data: { type: array, items: { type: string } }
                          links:
                            allOf: [{ $ref: "#/components/schemas/SelfLink" }, { $ref: "#/components/schemas/PageLinks" }]
          /payouts:
            get:
              operationId: get-payouts
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        properties:
                          data: { type: array, items: { type: integer } }
                          links:
                            allOf: [{ $ref: "#/components/schemas/SelfLink" }, { $ref: "#/components/schemas/PageLinks" }]
        components:
          schemas:
            Payment:
              properties:
                amount: { type: number }
                currency: { type: string, enum: [eur, gbp] }
                source:
                  oneOf:
                    - title: Card
                      properties: { number: { type: string }, cvc: { type: string } }
                      required: [number]
                    - title: Bank Account
                      properties:
                        number: { type: string }
                        account_type: { type: string, enum: [individual, company] }
                      required: [number]
            SelfLink: { properties: { self: { type: string, format: uri } } }
            PageLinks: { properties: { next: { type: string, format: uri } } }
        """

    @Test func titlesNameInlineSchemasAndUnionVariants() throws {
        let spec = try load(Self.payments)
        let names = spec.models.map(\.name)
        #expect(names.contains("Card") && names.contains("BankAccount"), "\(names)")
        #expect(!names.contains { $0.contains("Variant") }, "\(names)")
        let source = try #require(spec.models.first { $0.name == "PaymentSource" }?.union)
        #expect(source.variants.map(\.type) == [.named("Card"), .named("BankAccount")])
        #expect(source.variants.map(\.swiftName.name) == ["card", "bankAccount"])
    }

    @Test func aTitleTakenByAComponentOrAnotherTypeLeavesThePathName() throws {
        let spec = try load("""
            openapi: 3.0.3
            info: { title: Shop, version: "1" }
            servers: [{ url: "https://shop.example.com" }]
            paths:
              /orders:
                get:
                  operationId: getOrders
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            properties:
                              first: { title: Order, properties: { a: { type: string } } }
                              second: { title: Pagination, properties: { b: { type: string } } }
                              third: { title: Card, properties: { c: { type: string } } }
                              fourth: { title: Card, properties: { d: { type: string } } }
                              order: { $ref: "#/components/schemas/Order" }
            components:
              schemas:
                Order: { properties: { id: { type: string } } }
            """)
        let names = Set(spec.models.map(\.name))
        // `Order` is the component's, `Pagination` a runtime type's, the second `Card` the first's.
        #expect(names == ["GetOrdersResponseFirst", "GetOrdersResponseSecond", "Card", "GetOrdersResponseFourth", "Order",
                          "GetOrdersResponse"], "\(names.sorted())")
    }

    @Test func aComponentsInlinePropertiesAreNamedAfterItWhereverTheyAreMetFirst() throws {
        let spec = try load(Self.payments)
        let names = spec.models.map(\.name)
        // The response's `allOf` reaches `Payment`'s enum before the request body does.
        #expect(names.contains("PaymentCurrency"), "\(names)")
        #expect(!names.contains { $0.hasPrefix("CreatePaymentResponse") && $0 != "CreatePaymentResponse" }, "\(names)")
        let payment = try #require(spec.models.first { $0.name == "Payment" })
        #expect(payment.properties.first { $0.name == "currency" }?.type == .optional(.named("PaymentCurrency")))
        // A property's words are not doubled: `account_type` of `BankAccount`.
        #expect(names.contains("BankAccountType") && !names.contains("BankAccountAccountType"), "\(names)")
    }

    @Test func alikeInlineSchemasAreOneModelNamedForAllTheirUses() throws {
        let spec = try load(Self.payments)
        let names = spec.models.map(\.name)
        #expect(names.contains("Links"), "\(names)")
        #expect(!names.contains { $0.hasPrefix("Get") && $0.hasSuffix("Links") }, "\(names)")
        #expect(names.contains("PaymentResponse") && !names.contains("GetPaymentResponse") && !names.contains("CreatePaymentResponse"),
                "\(names)")
        for endpoint in ["getPayments", "getRefunds", "getPayouts"] {
            let body = try #require(spec.endpoints.first { $0.name == endpoint }?.response.body)
            let model = try #require(spec.models.first { $0.name == body.nonOptional.referencedNames.first })
            #expect(model.properties.first { $0.name == "links" }?.type == .optional(.named("Links")), "\(endpoint)")
        }
        #expect(spec.endpoints.first { $0.name == "createPayment" }?.response.body == .named("PaymentResponse"))
        #expect(spec.endpoints.first { $0.name == "getPayment" }?.response.body == .named("PaymentResponse"))
        // No two models are alike any more, and the merges are reported with every place.
        Self.expectNoTwoModelsAlike(spec)
        #expect(spec.mergedModels.map(\.name).sorted() == ["Links", "PaymentResponse"])
        #expect(spec.mergedModels.first { $0.name == "Links" }?.locations.count == 3)
    }

    @Test func schemasThatDifferAreNotMergedAndNestedOnesMergeWithTheirParents() throws {
        let spec = try load("""
            openapi: 3.0.3
            info: { title: Shop, version: "1" }
            servers: [{ url: "https://shop.example.com" }]
            paths:
              /a:
                get:
                  operationId: getA
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            properties:
                              box: { properties: { size: { type: string, enum: [s, m] } } }
                              other: { properties: { size: { type: string, enum: [s, l] } } }
              /b:
                get:
                  operationId: getB
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema:
                            properties:
                              box: { properties: { size: { type: string, enum: [s, m] } } }
            """)
        let names = spec.models.map(\.name).sorted()
        // The two `box` objects (and their enums) are one each; `other` differs in a value.
        #expect(names == ["Box", "BoxSize", "GetAResponse", "GetAResponseOther", "GetAResponseOtherSize", "GetBResponse"], "\(names)")
        Self.expectNoTwoModelsAlike(spec)
    }

    /// No two models of `spec` have the same shape (``OpenAPIReader/shape(of:representative:)``).
    static func expectNoTwoModelsAlike(_ spec: ServiceSpec, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        var seen: [String: String] = [:]
        for model in spec.models {
            let shape = OpenAPIReader.shape(of: model, representative: [:])
            if let other = seen[shape] {
                Issue.record("'\(other)' and '\(model.name)' are alike", sourceLocation: sourceLocation)
            }
            seen[shape] = model.name
        }
    }

    @Test func aServiceNamesSuffixIsNotDoubled() {
        let api = SwiftIdentifier(typeNamed: "TrainTravelAPI")
        #expect(GeneratedNames.apiProtocol(ofService: api) == "TrainTravelAPIProtocol")
        #expect(GeneratedNames.requestProtocol(ofService: api) == "TrainTravelAPIRequest")
        #expect(GeneratedNames.client(ofService: api) == "TrainTravelAPIClient")
        #expect(GeneratedNames.fake(ofService: api) == "TrainTravelAPIFake")
        #expect(GeneratedNames.sharedFailure(ofService: api) == "TrainTravelAPIFailure")
        let client = SwiftIdentifier(typeNamed: "StripeClient")
        #expect(GeneratedNames.client(ofService: client) == "StripeClient")
        #expect(GeneratedNames.apiProtocol(ofService: client) == "StripeClientAPIProtocol")
        // Words, not letters: `Rapid` does not end with `API`'s word.
        #expect(GeneratedNames.apiProtocol(ofService: SwiftIdentifier(typeNamed: "Rapid")) == "RapidAPIProtocol")
        #expect(GeneratedNames.apiProtocol(ofService: SwiftIdentifier(typeNamed: "GitHub")) == "GitHubAPIProtocol")
        #expect(StarterProject(serviceName: "TrainTravelAPI").targetName == "TrainTravelAPI")
        #expect(StarterProject(serviceName: "StripeClient").clientName == "StripeClient")
    }

    /// What the validator accepts compiles: a service whose name ends with a suffix its types
    /// take (`ShopAPI`, whose protocols are `ShopAPIProtocol` and `ShopAPIRequest`; `ShopClient`,
    /// whose client is `ShopClient`), generated and type-checked with warnings as errors.
    @Test(arguments: ["ShopAPI", "ShopClient"])
    func aServiceNamedWithASuffixCompiles(service: String) async throws {
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write("""
            service: \(service)
            baseURL: https://shop.example.com
            models:
              Item: { id: Int, name: String }
            endpoints:
              listItems: { get: /items, response: "[Item]" }
              getItem: { get: "/items/{id}", path: { id: Int }, response: Item, errors: { 404: notFound } }
            """, to: "\(service).yaml"))
        let result = try Generator().generate(specAt: url, displayPath: "\(service).yaml")
        #expect(result.succeeded, "\(result.diagnostics.renderedLines)")
        let client = try #require(result.files["\(service)Client.swift"])
        let expected = service == "ShopAPI"
            ? ["struct ShopAPIClient:", "protocol ShopAPIProtocol:", "final class ShopAPIFake:", "protocol ShopAPIRequest"]
            : ["struct ShopClient:", "protocol ShopClientAPIProtocol:", "final class ShopClientFake:"]
        let requests = try #require(result.files["\(service)Requests.swift"])
        for declaration in expected {
            #expect((client + requests).contains("public \(declaration)"), "\(declaration)")
        }
        var sources: [String] = []
        for (name, text) in result.files.sorted(by: { $0.key < $1.key }) {
            sources.append(try folder.write(text, to: "Client/" + name))
        }
        let modules = try SyntheticCompileTests.modulesFolder()
        let compile = try await ChildProcess.run("swiftc", ["-swift-version", "6", "-warnings-as-errors", "-parse-as-library",
                                                            "-module-name", service + "Module", "-I", modules.path, "-Onone", "-wmo",
                                                            "-emit-sil", "-o", "/dev/null"] + sources)
        let complaints = compile.standardError.split(separator: "\n").filter { $0.contains("error:") || $0.contains("warning:") }
        #expect(compile.succeeded, "swiftc failed:\n\(complaints.prefix(30).joined(separator: "\n"))")
    }

    @Test func theValidatorAgreesWithTheNamesWithoutADoubledSuffix() {
        // A service whose client would be the runtime's `APIClient` is refused, as its generated
        // code would not compile.
        let refused = SpecLoader().loadSpec(contents: """
            service: API
            baseURL: https://api.example.com
            endpoints:
              ping: { get: /ping }
            """, displayPath: "Specs/x.yaml")
        #expect(refused.diagnostics.renderedLines.contains(
            "Specs/x.yaml:1:10: error: service 'API' needs the Swift type 'APIClient' for its client, but generated code uses that name for a type of its own; rename the service"),
            "\(refused.diagnostics.renderedLines)")
        // A model taking the protocol name of `TrainTravelAPI` is refused, at the model.
        let taken = SpecLoader().loadSpec(contents: """
            service: TrainTravelAPI
            baseURL: https://api.example.com
            models:
              TrainTravelAPIProtocol: { a: String }
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
            """, displayPath: "Specs/x.yaml")
        #expect(taken.diagnostics.renderedLines == [
            "Specs/x.yaml:4:3: error: model 'TrainTravelAPIProtocol' becomes the Swift type 'TrainTravelAPIProtocol', the name of the protocol the client and the fake of service 'TrainTravelAPI' adopt; rename one",
        ])
        // An endpoint whose request type is the request protocol's name is refused too.
        let endpoint = SpecLoader().loadSpec(contents: """
            service: TrainTravelAPI
            baseURL: https://api.example.com
            endpoints:
              trainTravelAPI: { get: /ping, errors: { 404: notFound } }
            """, displayPath: "Specs/x.yaml")
        #expect(endpoint.diagnostics.hasErrors)
    }

    @Test func anOpenAPITitleThatWouldNameARuntimeTypeIsKeptApart() throws {
        // `API` would give the client `APIClient`; a document is never refused for its title.
        let spec = try load("""
            openapi: 3.0.3
            info: { title: API, version: "1" }
            servers: [{ url: "https://api.example.com" }]
            paths:
              /ping: { get: { operationId: ping, responses: { "204": { description: ok } } } }
            """)
        #expect(spec.name == "APIService")
        #expect(GeneratedNames.client(ofService: spec.swiftName) == "APIServiceClient")
        // A document's model never takes a service-derived name.
        let named = try load("""
            openapi: 3.0.3
            info: { title: Shop API, version: "1" }
            servers: [{ url: "https://api.example.com" }]
            paths:
              /ping:
                get:
                  operationId: ping
                  responses:
                    "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/ShopAPIProtocol" } } } }
            components:
              schemas:
                ShopAPIProtocol: { properties: { a: { type: string } } }
            """)
        #expect(named.models.map(\.name) == ["ShopAPIProtocol2"])
    }

    // MARK: The spec courier import writes

    @Test func theImportSaysWhatDefaultsSayOnceAndSharedHeaderBlocksOnce() throws {
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write("""
            openapi: 3.0.3
            info: { title: Shop, version: "1" }
            servers: [{ url: "https://shop.example.com" }]
            x-speakeasy-retries: { strategy: backoff, backoff: { initialInterval: 500, maxInterval: 60000 } }
            paths:
              /a:
                get:
                  operationId: getA
                  responses:
                    "200": { description: ok, content: { text/plain: { schema: { type: string } } } }
              /b:
                get:
                  operationId: getB
                  x-speakeasy-retries: { strategy: none }
                  responses:
                    "200":
                      description: ok
                      headers:
                        RateLimit: { $ref: "#/components/headers/RateLimit" }
                        Cache-Control: { description: Caching., schema: { type: string } }
                      content: { text/plain: { schema: { type: string } } }
              /c:
                get:
                  operationId: getC
                  responses:
                    "200":
                      description: ok
                      headers:
                        RateLimit: { $ref: "#/components/headers/RateLimit" }
                        Cache-Control: { description: Caching., schema: { type: string } }
                      content: { text/plain: { schema: { type: string } } }
              /d:
                get:
                  operationId: getD
                  responses:
                    "200":
                      description: ok
                      headers:
                        RateLimit: { $ref: "#/components/headers/RateLimit" }
                        Cache-Control: { description: Caching., schema: { type: string } }
                      content: { text/plain: { schema: { type: string } } }
            components:
              headers:
                RateLimit: { description: The quota., schema: { type: string } }
            """, to: "shop.yaml"))
        let imported = SpecImporter().importSpec(at: url, displayPath: "shop.yaml")
        let text = try #require(imported.text, "\(imported.diagnostics.renderedLines)")
        // The format's default coding goes unsaid.
        #expect(!text.contains("coding:"), "\(text)")
        // The default retry once, under defaults; getB's own `retry: false` stays.
        #expect(text.components(separatedBy: "retry:").count - 1 == 2, "\(text)")
        #expect(text.contains("  retry: { baseDelay: 0.5, maxDelay: 60 }\n"))
        #expect(text.contains("    retry: false\n"))
        // The header block in full once, then by its anchor.
        #expect(text.components(separatedBy: "description: The quota.").count - 1 == 1, "\(text)")
        #expect(text.contains("      headers: &rateLimitCacheControlHeaders\n"), "\(text)")
        #expect(text.components(separatedBy: "      headers: *rateLimitCacheControlHeaders\n").count - 1 == 2, "\(text)")
        // And it reads back as the same client.
        let written = URL(fileURLWithPath: try folder.write(text, to: "Shop.yaml"))
        let generator = try Generator()
        let direct = generator.generate(specAt: url, displayPath: "shop.yaml")
        let viaSpec = generator.generate(specAt: written, displayPath: "Shop.yaml")
        #expect(viaSpec.diagnostics.renderedLines == [])
        for (name, file) in direct.files {
            #expect(ImportTests.droppingFirstLine(file) == ImportTests.droppingFirstLine(viaSpec.files[name] ?? ""), "\(name)")
        }
    }

    @Test func theImportNamesMergesWhereAPersonReadsTheModel() throws {
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(Self.payments, to: "payments.yaml"))
        let imported = SpecImporter().importSpec(at: url, displayPath: "payments.yaml")
        let text = try #require(imported.text, "\(imported.diagnostics.renderedLines)")
        #expect(imported.mergedModels.map(\.name).sorted() == ["Links", "PaymentResponse"])
        let comment = try #require(text.split(separator: "\n").first { $0.contains("One model for 3 alike inline schemas") })
        #expect(comment.hasPrefix("  # One model for 3 alike inline schemas: payments.yaml:"), "\(comment)")
        #expect(text.contains("\(comment)\n  Links:\n"))
    }

    // MARK: Fingerprints

    @Test func aFingerprintTellsAnUneditedImportFromAnEditedOne() throws {
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(Self.payments, to: "payments.yaml"))
        let text = try #require(SpecImporter().importSpec(at: url, displayPath: "payments.yaml").text)
        let firstLine = try #require(text.split(separator: "\n").first)
        #expect(firstLine.wholeMatch(of: /# Imported by courier import from payments\.yaml, fingerprint [0-9a-f]{16}\./) != nil, "\(firstLine)")
        #expect(SpecImporter.examine(existing: text) == .unedited)
        #expect(SpecImporter.examine(existing: text.replacingOccurrences(of: "\n", with: "\r\n")) == .unedited)
        #expect(SpecImporter.examine(existing: text.replacingOccurrences(of: "service: PaymentsAPI", with: "service: Payments")) == .edited)
        #expect(SpecImporter.examine(existing: text + "# mine\n") == .edited)
        let withoutFingerprint = SpecImporter.headerPrefix + "payments.yaml.\n" + text.split(separator: "\n", maxSplits: 1)[1]
        #expect(SpecImporter.examine(existing: withoutFingerprint) == .withoutFingerprint)
        #expect(SpecImporter.examine(existing: "service: Mine\n") == .notAnImport)
        // The same input imports to the same text: the fingerprint is of the text, not of the time.
        #expect(SpecImporter().importSpec(at: url, displayPath: "payments.yaml").text == text)
    }

    // MARK: train-travel.yaml

    @Test("train-travel.yaml imports with names a person would keep",
          .enabled(if: FileManager.default.fileExists(atPath: sharedOpenAPIFolder.appendingPathComponent("train-travel.yaml").path),
                   "../shared/openapi/train-travel.yaml is absent beside the package; the real document is not imported"))
    func trainTravel() throws {
        let url = sharedOpenAPIFolder.appendingPathComponent("train-travel.yaml")
        let imported = SpecImporter().importSpec(at: url, displayPath: "train-travel.yaml")
        let text = try #require(imported.text, "\(imported.diagnostics.renderedLines.prefix(10))")
        let spec = try #require(SpecLoader().loadSpec(at: url, displayPath: "train-travel.yaml").spec)

        #expect(spec.name == "TrainTravelAPI")
        #expect(GeneratedNames.apiProtocol(ofService: spec.swiftName) == "TrainTravelAPIProtocol")
        let generated = try Generator().generate(specAt: url, displayPath: "train-travel.yaml")
        let client = try #require(generated.files["TrainTravelAPIClient.swift"])
        #expect(client.contains("public protocol TrainTravelAPIProtocol"))
        #expect(!generated.files.values.contains { $0.contains("APIAPI") })

        let names = spec.models.map(\.name)
        #expect(!names.contains { $0.contains("Variant") }, "\(names)")
        let source = try #require(spec.models.first { $0.name == "BookingPaymentSource" }?.union)
        #expect(source.variants.map(\.type) == [.named("Card"), .named("BankAccount")])
        Self.expectNoTwoModelsAlike(spec)
        #expect(names.contains("Links") && names.contains("BookingResponse"), "\(names)")
        // The request body's currency is the payment's, named after it.
        let payment = try #require(spec.models.first { $0.name == "BookingPayment" })
        #expect(payment.properties.first { $0.name == "currency" }?.type == .optional(.named("BookingPaymentCurrency")))

        // The spec says once what defaults say, and each header block once.
        #expect(text.components(separatedBy: "retry:").count - 1 == 1, "\(text)")
        #expect(text.components(separatedBy: "The RateLimit header communicates").count - 1 == 1)
        #expect(text.components(separatedBy: "headers: *cacheControlRateLimitHeaders").count - 1 == 4)
        #expect(SpecImporter.examine(existing: text) == .unedited)
    }
}
