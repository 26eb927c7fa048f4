@testable import CourierGenerator
import Foundation
import Testing

/// A spec whose names collide with the names generated code needs is rejected by validation, at
/// the declaration's line, exactly as generation rejects it: `courier validate` used to accept
/// these specs and `courier generate` then refused them.
@Suite("Generated names")
struct GeneratedNameTests {
    typealias Case = SpecDiagnosticCase

    static let cases: [Case] = [
        Case(name: "a runtime type", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              APIClient: { a: String }
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'APIClient' becomes the Swift type 'APIClient', which generated code uses for a type of its own; rename it",
            ]),
        Case(name: "a standard library type", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            errorSchemas:
              Optional: { message: String }
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:4:3: error: error schema 'Optional' becomes the Swift type 'Optional', which generated code uses for a type of its own; rename it",
            ]),
        Case(name: "an endpoint's request and failure types", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              GetOrderRequest: { a: String }
              get_order_failure: { a: String }
            endpoints:
              getOrder: { get: /orders, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'GetOrderRequest' becomes the Swift type 'GetOrderRequest', the name of the request type of endpoint 'getOrder'; rename one",
                "Specs/x.yaml:5:3: error: model 'get_order_failure' becomes the Swift type 'GetOrderFailure', the name of the failure type of endpoint 'getOrder'; rename one",
            ]),
        Case(name: "the client type", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              ShopClient: { a: String }
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'ShopClient' becomes the Swift type 'ShopClient', the name of the client type of service 'Shop'; rename one",
            ]),
        Case(name: "the shared failure type", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              ShopFailure: { a: String }
            endpoints:
              ping: { get: /ping }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'ShopFailure' becomes the Swift type 'ShopFailure', the name of the failure type service 'Shop' shares for endpoints that document only its defaults; rename one",
            ]),
        Case(name: "the request protocol, taken by a model", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              ShopAPIRequest: { a: String }
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'ShopAPIRequest' becomes the Swift type 'ShopAPIRequest', the name of the protocol every request type of service 'Shop' adopts; rename one",
            ]),
        Case(name: "the request protocol, taken by an endpoint's request type", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
              shopAPI: { get: /api, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:5:3: error: endpoint 'shopAPI' has a Swift type named 'ShopAPIRequest', the name of the protocol every request type of service 'Shop' adopts; rename the endpoint",
            ]),
        Case(name: "the client's protocol and the fake, taken by models", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              ShopAPIProtocol: { a: String }
            errorSchemas:
              ShopFake: { message: String }
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'ShopAPIProtocol' becomes the Swift type 'ShopAPIProtocol', the name of the protocol the client and the fake of service 'Shop' adopt; rename one",
                "Specs/x.yaml:6:3: error: error schema 'ShopFake' becomes the Swift type 'ShopFake', the name of the fake of service 'Shop'; rename one",
            ]),
        Case(name: "the fake's runtime types", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              FakeResult: { a: String }
              FakeCalls: { a: String }
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'FakeResult' becomes the Swift type 'FakeResult', which generated code uses for a type of its own; rename it",
                "Specs/x.yaml:5:3: error: model 'FakeCalls' becomes the Swift type 'FakeCalls', which generated code uses for a type of its own; rename it",
            ]),
        Case(name: "an error envelope", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            errorSchemas:
              Problem: { wrappedIn: error, properties: { message: String } }
            models:
              ProblemEnvelope: { a: String }
            endpoints:
              ping: { get: /ping, errors: { 404: { case: notFound, body: Problem } } }
            """, lines: [
                "Specs/x.yaml:6:3: error: model 'ProblemEnvelope' becomes the Swift type 'ProblemEnvelope', the name of the envelope of error schema 'Problem'; rename one",
            ]),
        Case(name: "beside other errors", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              Parameters: { a: Strin }
            endpoints:
              ping: { get: /ping, errors: { 404: notFound } }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'Parameters' becomes the Swift type 'Parameters', which generated code uses for a type of its own; rename it",
                "Specs/x.yaml:4:20: error: type 'Strin' used by property 'a' is not defined; did you mean 'String'?",
            ]),
    ]

    @Test("Validation rejects a name generated code needs, as generation does", arguments: cases)
    func validationRejects(_ item: Case) throws {
        // `diagnosticLines` validates and also checks that generation prints the same lines.
        #expect(diagnosticLines(item.yaml) == item.lines)
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(item.yaml, to: "Specs/x.yaml"))
        let validated = SpecLoader().loadSpec(at: url, displayPath: "Specs/x.yaml")
        let generated = try Generator().generate(specAt: url, displayPath: "Specs/x.yaml")
        #expect(validated.spec == nil)
        #expect(validated.diagnostics.renderedLines == item.lines)
        #expect(generated.diagnostics.renderedLines == item.lines)
        #expect(!generated.succeeded)
        #expect(generated.files.isEmpty)
    }
}
