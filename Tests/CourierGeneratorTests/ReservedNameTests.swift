@testable import CourierGenerator
import Foundation
import Testing

/// The names issue 12 found accepted and broken, each now either generated correctly or
/// rejected at its `file:line:col`, with both origins named when two names collide. Validation
/// and generation print the same lines (``diagnosticLines(_:path:sourceLocation:)`` checks it).
@Suite("Reserved names")
struct ReservedNameTests {
    typealias Case = SpecDiagnosticCase

    static let cases: [Case] = [
        Case(name: "properties self and selfValue", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              Pair:
                self: String
                selfValue: String
            endpoints:
              ping: { get: /ping }
            """, lines: [
                "Specs/x.yaml:6:5: error: property 'selfValue' and property 'self' both become the Swift name 'selfValue' as a parameter of the initialiser of model 'Pair'; rename one",
                "Specs/x.yaml:5:5: note: property 'self' is declared here",
            ]),
        Case(name: "parameters self and selfValue", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            endpoints:
              ping:
                get: /ping/{self}
                path: { self: String }
                query: { selfValue: String? }
            """, lines: [
                "Specs/x.yaml:7:14: error: query parameter 'selfValue' and path parameter 'self' both become the Swift name 'selfValue' as a property of the request type of endpoint 'ping'; rename one",
                "Specs/x.yaml:6:13: note: path parameter 'self' is declared here",
            ]),
        Case(name: "a model CodingKeys and a model Self", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              CodingKeys: { a: String }
              self: { a: String }
            endpoints:
              ping: { get: /ping }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'CodingKeys' becomes the Swift type 'CodingKeys', which is reserved as the coding keys every generated struct declares inside itself; rename it",
                "Specs/x.yaml:5:3: error: model 'self' becomes the Swift type 'Self', which is reserved as the type of the declaration it appears in; rename it",
            ]),
        Case(name: "a property hashValue", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            errorSchemas:
              Problem: { hash_value: Int }
            endpoints:
              ping: { get: /ping }
            """, lines: [
                "Specs/x.yaml:4:14: error: property 'hash_value' becomes the Swift name 'hashValue' in error schema 'Problem', which generated code reserves for Hashable's requirement every generated struct synthesizes; rename it",
            ]),
        Case(name: "a model named like a primitive in another case", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              url: { a: String }
            endpoints:
              ping: { get: /ping }
            """, lines: [
                "Specs/x.yaml:4:3: error: model 'url' becomes the Swift type 'URL', which is reserved as a built-in type; rename it",
            ]),
        Case(name: "an enum value rawValue, an endpoint client, a header configuration", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            headers:
              configuration: { description: A header. }
            models:
              Mode: { enum: [raw_value] }
            endpoints:
              client: { get: /client }
            """, lines: [
                "Specs/x.yaml:4:3: error: header 'configuration' becomes the Swift name 'configuration' as a parameter of the client's initialiser, which generated code reserves for a parameter of the client's initialiser; rename it",
                "Specs/x.yaml:6:18: error: enum value 'raw_value' becomes the Swift name 'rawValue' in enum 'Mode', which generated code reserves for the raw value property of every generated enum; rename it",
                "Specs/x.yaml:8:3: error: endpoint 'client' becomes the Swift name 'client' as a method of the client, which generated code reserves for the client's stored APIClient; rename it",
            ]),
        Case(name: "an endpoint calls, the fake's record", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            endpoints:
              calls: { get: /calls }
            """, lines: [
                "Specs/x.yaml:4:3: error: endpoint 'calls' becomes the Swift name 'calls' as a method of the client, which generated code reserves for the fake's record of its calls and results; rename it",
            ]),
        Case(name: "the body's label and a parameter requestBody", yaml: """
            service: Shop
            baseURL: https://shop.example.com
            models:
              Order: { a: String }
            endpoints:
              place:
                post: /orders
                body: Order
                query: { body: String?, requestBody: String? }
            """, lines: [
                "Specs/x.yaml:9:29: error: query parameter 'requestBody' and the body both become the Swift name 'requestBody' as a parameter of the method of endpoint 'place'; rename one",
                "Specs/x.yaml:8:5: note: the body is declared here",
            ]),
    ]

    @Test("A name that breaks generated code is an error at its line, in validation as in generation", arguments: cases)
    func rejected(_ item: Case) {
        #expect(diagnosticLines(item.yaml) == item.lines)
    }

    @Test("Cases named none and some are accepted and written qualified where an optional is expected")
    func noneAndSome() throws {
        let yaml = """
            service: Shop
            baseURL: https://shop.example.com
            models:
              Mode: { enum: [none, some] }
            endpoints:
              find:
                get: /find
                query: { mode: { type: Mode?, default: none } }
                errors: { 404: none, 410: some }
            """
        #expect(diagnosticLines(yaml) == [])
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(yaml, to: "Shop.yaml"))
        let result = try Generator().generate(specAt: url, displayPath: "Shop.yaml")
        let errors = try #require(result.files["ShopErrors.swift"])
        let requests = try #require(result.files["ShopRequests.swift"])
        #expect(errors.contains("return Self.none\n"))
        #expect(errors.contains("return Self.some\n"))
        #expect(!errors.contains("return .none"))
        #expect(requests.contains("mode: Mode? = Mode.none"))
    }
}
