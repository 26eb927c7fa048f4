@testable import CourierGenerator
import Foundation
import Testing

/// The mistakes a new user makes in the first hour, each answered with a message that says what
/// was meant: a built-in type misspelt, two letters swapped, `[Item]` left unquoted, a wrong
/// default, a misspelt required key, and a `$ref` typo in an OpenAPI document.
@Suite struct FirstHourDiagnosticTests {
    @Test func misspeltTypesGetASuggestionFromTheBuiltInTypesAndTheModels() {
        let yaml = """
            service: T
            baseURL: https://t.example.com
            models:
              Item:
                name: Strin
                count: Integr
                other: Itme
                flag: boolean
                unknown: Zebra
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:5:11: error: type 'Strin' used by property 'name' is not defined; did you mean 'String'?",
            "Specs/x.yaml:6:12: error: type 'Integr' used by property 'count' is not defined; did you mean 'Int'?",
            "Specs/x.yaml:7:12: error: type 'Itme' used by property 'other' is not defined; did you mean 'Item'?",
            "Specs/x.yaml:8:11: error: type 'boolean' used by property 'flag' is not defined; did you mean 'Bool'?",
            "Specs/x.yaml:9:14: error: type 'Zebra' used by property 'unknown' is not defined",
        ])
    }

    @Test func twoLettersSwappedCountAsOneEdit() {
        #expect(Suggestions.editDistance("itme", "item", limit: 3) == 1)
        #expect(Suggestions.editDistance("respnose", "response", limit: 3) == 1)
        #expect(Suggestions.editDistance("kitten", "sitting", limit: 5) == 3)
        #expect(Suggestions.closest(to: "Itme", among: ["Item", "Items"]) == "Item")
    }

    @Test func anUnquotedListTypeSaysHowToQuoteIt() {
        let yaml = """
            service: T
            baseURL: https://t.example.com
            models:
              Item: { name: String }
            endpoints:
              list:
                get: /items
                response: [Item]
            """
        #expect(diagnosticLines(yaml) == [
            #"Specs/x.yaml:8:15: error: the response must be a string, found a list; write "[Item]" in quotes, since YAML reads [Item] unquoted as a list"#,
        ])
    }

    @Test func aWrongDefaultNamesItsTypeWithTheRightArticle() {
        let yaml = """
            service: T
            baseURL: https://t.example.com
            endpoints:
              list:
                get: /items
                query:
                  limit: { type: Int, default: twenty }
                  from: { type: Double, default: soon }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:7:36: error: the default of query parameter 'limit' must be an Int, found 'twenty'",
            "Specs/x.yaml:8:38: error: the default of query parameter 'from' must be a Double, found 'soon'",
        ])
    }

    @Test func aMisspeltRequiredKeyIsOneMistake() {
        let yaml = """
            service: T
            baseUrl: https://t.example.com
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:2:1: error: unknown key 'baseUrl' in the service; did you mean 'baseURL'?",
        ])
        // Without a key close to it, the required key is still missing.
        #expect(diagnosticLines("service: T\nlocation: https://t.example.com\n") == [
            "Specs/x.yaml:1:1: error: the service is missing required key 'baseURL'",
            "Specs/x.yaml:2:1: error: unknown key 'location' in the service",
        ])
    }

    @Test func aMisspeltReferenceInAnOpenAPIDocumentGetsASuggestion() {
        let yaml = """
            openapi: 3.1.0
            info: { title: Pets, version: "1" }
            servers: [{ url: https://pets.example.com }]
            paths:
              /pets/{id}:
                get:
                  operationId: getPet
                  parameters: [{ $ref: "#/components/parameters/PetID" }]
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { $ref: "#/components/schemas/Pett" } } }
            components:
              parameters:
                PetId: { name: id, in: path, required: true, schema: { type: string } }
              schemas:
                Pet: { type: object, properties: { name: { type: string } } }
            """
        #expect(diagnosticLines(yaml, path: "pets.yaml") == [
            "pets.yaml:7:7: warning: the path '/pets/{id}' of 'getPet' has '{id}', which no parameter declares; Courier takes it as a String path parameter",
            "pets.yaml:8:20: error: the $ref '#/components/parameters/PetID' points at nothing; did you mean '#/components/parameters/PetId'?",
            "pets.yaml:12:50: warning: the $ref '#/components/schemas/Pett' points at nothing; did you mean '#/components/schemas/Pet'?; Courier reads it as free-form JSON",
        ])
    }

    @Test func aSurprisingRenameIsNamedInTheDocComment() throws {
        let yaml = """
            service: Shop
            baseURL: https://shop.example.com
            models:
              Item:
                item_id: { type: Int, description: The item's number. }
                created_at: { type: String, description: When it was made. }
            endpoints:
              getItem:
                get: /items/{itemId}
                path: { itemId: { type: Int, description: Which item. } }
                response: Item
            """
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(yaml, to: "Shop.yaml"))
        let files = try Generator().generate(specAt: url, displayPath: "Shop.yaml").files
        let models = try #require(files["ShopModels.swift"])
        #expect(models.contains("    /// The item's number. JSON key: `item_id`.\n    public var itemID: Int\n"), "\(models)")
        // What lower camel case makes of a spec name is no surprise, so it is not pointed out.
        #expect(models.contains("    /// When it was made.\n    public var createdAt: String\n"), "\(models)")
        let client = try #require(files["ShopClient.swift"])
        #expect(client.contains("///   - itemID: Which item. Spec name: `itemId`."), "\(client)")
    }
}
