@testable import CourierGenerator
import Foundation
import Testing

/// JSON under a vendor media type (issue 32, item 10): AWS's JSON protocols name a JSON body
/// `application/x-amz-json-1.0`, which says neither `application/json` nor `+json`. The spec says
/// it with `contentType: { type: …, coding: json }`; the OpenAPI reader knows AWS's family by name,
/// and takes another `application/…` type with an object schema as JSON, with a warning.
@Suite struct VendorJSONTests {
    static let header = """
        service: Dynamo
        baseURL: https://dynamodb.example.com
        coding:
          keys: snake_case
        models:
          TableQuery:
            properties: { tableName: String }
          Table:
            properties: { tableName: String, itemCount: Int }
        """

    @Test func aMappingSaysThatAVendorTypeIsJSONForTheBodyAndTheResponse() throws {
        let yaml = """
            \(Self.header)
            endpoints:
              describeTable:
                post: /
                body: { type: TableQuery, contentType: { type: application/x-amz-json-1.0, coding: json } }
                response:
                  body: Table
                  contentType: { type: application/x-amz-json-1.0, coding: json }
              describeTables:
                post: /tables
                body: { type: TableQuery, contentType: { type: application/x-amz-json-1.1, coding: json } }
                response:
                  200: { body: Table, contentType: { type: application/x-amz-json-1.1, coding: json } }
                  202: { body: Table, case: creating }
            """
        let (spec, lines) = loadSpec(yaml)
        #expect(lines == [])
        let endpoints = try #require(spec?.endpoints)
        let single = try #require(endpoints.first { $0.name == "describeTable" })
        let body = try #require(single.body)
        #expect(body.contentType == "application/x-amz-json-1.0")
        #expect(body.mediaCoding == .json)
        #expect(body.isJSON && !body.isRaw)
        #expect(single.response.contentType == "application/x-amz-json-1.0")
        #expect(single.response.mediaCoding == .json)
        #expect(single.response.acceptedContentTypes == "application/x-amz-json-1.0")
        let outcomes = try #require(endpoints.first { $0.name == "describeTables" }).response.outcomes
        #expect(outcomes.map(\.mediaCoding) == [.json, nil])
        #expect(outcomes.map(\.contentType) == ["application/x-amz-json-1.1", nil])
    }

    @Test func theGeneratedRequestSendsJSONUnderTheVendorTypeAndAsksForIt() throws {
        let yaml = """
            \(Self.header)
            endpoints:
              describeTable:
                post: /
                body: { type: TableQuery, contentType: { type: application/x-amz-json-1.0, coding: json } }
                response: { body: Table, contentType: { type: application/x-amz-json-1.0, coding: json } }
            """
        let folder = try TemporaryFolder()
        let url = URL(fileURLWithPath: try folder.write(yaml, to: "Dynamo.yaml"))
        let result = try Generator().generate(specAt: url, displayPath: "Dynamo.yaml")
        #expect(result.diagnostics.renderedLines == [])
        let requests = try #require(result.files["DynamoRequests.swift"])
        // The runtime sends JSON as `application/json` unless the request names its type.
        #expect(requests.contains("""
                    [
                        "Accept": "application/x-amz-json-1.0",
                        "Content-Type": "application/x-amz-json-1.0"
                    ]
            """), "\(requests)")
        #expect(requests.contains("public var body: RequestBody? { .json(payload) }"), "\(requests)")
    }

    @Test func aBadMappingIsReportedWhereItIsWritten() {
        let yaml = """
            \(Self.header)
            endpoints:
              misspelledCoding:
                post: /a
                body: { type: TableQuery, contentType: { type: application/x-amz-json-1.0, coding: jsn } }
              noCoding:
                post: /b
                body: { type: TableQuery, contentType: { type: application/x-amz-json-1.0 } }
              strayKey:
                post: /c
                response: { body: Table, contentType: { type: application/x-amz-json-1.0, coding: json, charset: utf-8 } }
              listOfTypes:
                post: /d
                body: { type: TableQuery, contentType: [application/x-amz-json-1.0] }
              notAMediaType:
                post: /e
                body: { type: TableQuery, contentType: { type: amz-json, coding: json } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:13:88: error: unknown 'coding' 'jsn' of content type 'application/x-amz-json-1.0'; expected 'json' "
                + "(a body Courier does not code is 'Data', sent and read as it is); did you mean 'json'?",
            "Specs/x.yaml:16:31: error: 'contentType' is missing required key 'coding'",
            "Specs/x.yaml:19:93: error: unknown key 'charset' in 'contentType'",
            "Specs/x.yaml:22:44: error: 'contentType' (a media type, or a mapping with 'type' and 'coding') must be a string, found a list",
            "Specs/x.yaml:25:5: error: the body of endpoint 'notAMediaType' has content type 'amz-json', which is not a media type such as 'application/octet-stream'",
        ])
    }

    @Test func codingJSONGoesOnlyWhereABodyIsDecodedWholeAndNotOnAForm() {
        let yaml = """
            \(Self.header)
            endpoints:
              jsonForm:
                post: /a
                body: { type: TableQuery, contentType: { type: application/x-www-form-urlencoded, coding: json } }
              jsonStream:
                get: /b
                response: { body: Binary, contentType: { type: application/x-amz-json-1.0, coding: json } }
              jsonString:
                get: /c
                response: { body: String, contentType: { type: application/x-amz-json-1.0, coding: json } }
              jsonBinaryUpload:
                post: /d
                body: { type: Binary, contentType: { type: application/x-amz-json-1.0, coding: json } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:13:5: error: the body of endpoint 'jsonForm' is a form ('application/x-www-form-urlencoded'), which Courier "
                + "encodes as form fields, so it has no 'coding'; write the media type alone",
            "Specs/x.yaml:16:44: error: the response of endpoint 'jsonStream' is streamed, so its 'contentType' has no 'coding'; "
                + "write the media type alone",
            "Specs/x.yaml:19:5: error: the response of endpoint 'jsonString' is 'String' under 'application/x-amz-json-1.0' with "
                + "'coding: json'; a String under a media type that is not 'application/json' or '…+json' is read as text, so read the "
                + "JSON as a model, 'JSON' (free-form) or 'Data'",
            "Specs/x.yaml:22:5: error: the body of endpoint 'jsonBinaryUpload' is 'Binary', sent as it is; give it the content type of "
                + "its bytes, such as 'application/octet-stream' or 'image/png' (it is 'application/x-amz-json-1.0')",
        ])
    }

    /// Without `coding:` a vendor type is not JSON, as before; the error now says how to say it is.
    @Test func aModelUnderAVendorTypeWithoutCodingSuggestsTheMapping() {
        let yaml = """
            \(Self.header)
            endpoints:
              describeTable:
                post: /
                body: { type: TableQuery, contentType: application/x-amz-json-1.0 }
                response: { body: Table, contentType: application/x-amz-json-1.0 }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:13:5: error: the body of endpoint 'describeTable' has content type 'application/x-amz-json-1.0' and type "
                + "'TableQuery'; Courier does not take 'application/x-amz-json-1.0' for JSON by its name: if it is JSON, write "
                + "contentType: { type: application/x-amz-json-1.0, coding: json } (or send 'Data', as it is)",
            "Specs/x.yaml:14:5: error: the response of endpoint 'describeTable' is 'Table' under content type 'application/x-amz-json-1.0'; "
                + "Courier does not take 'application/x-amz-json-1.0' for JSON by its name: if it is JSON, write "
                + "contentType: { type: application/x-amz-json-1.0, coding: json } (or read 'Data', as it is)",
        ])
    }

    // MARK: OpenAPI

    static func document(_ paths: String) -> String {
        """
        openapi: 3.0.3
        info: { title: Dynamo }
        servers: [{ url: https://dynamodb.example.com }]
        paths:
        \(paths.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
        components:
          schemas:
            Table:
              type: object
              required: [TableName]
              properties: { TableName: { type: string }, ItemCount: { type: integer } }
            Failure:
              type: object
              properties: { __type: { type: string }, message: { type: string } }
        """
    }

    @Test func openAPIReadsAWSJSONAsJSONByName() throws {
        let yaml = Self.document("""
            /:
              post:
                operationId: describeTable
                requestBody:
                  required: true
                  content:
                    application/x-amz-json-1.0: { schema: { $ref: "#/components/schemas/Table" } }
                responses:
                  "200":
                    description: ok
                    content:
                      application/x-amz-json-1.0: { schema: { $ref: "#/components/schemas/Table" } }
                  "400":
                    description: bad request
                    content:
                      application/x-amz-json-1.0: { schema: { $ref: "#/components/schemas/Failure" } }
            """)
        let (spec, lines) = loadSpec(yaml, path: "dynamo.yaml")
        #expect(lines == [])
        let endpoint = try #require(spec?.endpoints.first)
        #expect(endpoint.body?.type == .named("Table"))
        #expect(endpoint.body?.contentType == "application/x-amz-json-1.0")
        #expect(endpoint.body?.mediaCoding == .json)
        #expect(endpoint.response.body == .named("Table"))
        #expect(endpoint.response.contentType == "application/x-amz-json-1.0")
        #expect(endpoint.response.mediaCoding == .json)
        #expect(endpoint.errors.first?.bodySchema == "FailureError")
    }

    @Test func openAPIReadsAnotherTypeWithAnObjectSchemaAsJSONWithAWarning() throws {
        let yaml = Self.document("""
            /orders:
              post:
                operationId: createOrder
                requestBody:
                  content:
                    application/vnd.acme.order-v2: { schema: { $ref: "#/components/schemas/Table" } }
                responses:
                  "200":
                    description: ok
                    content:
                      application/vnd.acme.order-v2: { schema: { $ref: "#/components/schemas/Table" } }
            /report:
              post:
                operationId: postReport
                requestBody:
                  content:
                    application/xml: { schema: { $ref: "#/components/schemas/Table" } }
                responses:
                  "200":
                    description: ok
                    content:
                      application/pdf: { schema: { type: string, format: binary } }
            """)
        let (spec, lines) = loadSpec(yaml, path: "acme.yaml")
        #expect(lines == [
            "acme.yaml:10:11: warning: the request body of 'createOrder' is 'application/vnd.acme.order-v2' with an object schema; "
                + "Courier reads no other format into a model, so it takes the body as JSON under that media type "
                + "(contentType: { type: application/vnd.acme.order-v2, coding: json })",
            "acme.yaml:15:13: warning: the 200 response of 'createOrder' is 'application/vnd.acme.order-v2' with an object schema; "
                + "Courier reads no other format into a model, so it takes the body as JSON under that media type "
                + "(contentType: { type: application/vnd.acme.order-v2, coding: json })",
        ])
        let endpoints = try #require(spec?.endpoints)
        let create = try #require(endpoints.first { $0.name == "createOrder" })
        #expect(create.body?.mediaCoding == .json)
        #expect(create.body?.type.nonOptional == .named("Table"))
        #expect(create.response.mediaCoding == .json)
        // XML is a structure of its own and a PDF is bytes: neither is taken for JSON.
        let report = try #require(endpoints.first { $0.name == "postReport" })
        #expect(report.body?.mediaCoding == nil)
        #expect(report.body?.type.nonOptional == .primitive(.binary))
        #expect(report.response.body == .primitive(.data))
        #expect(report.response.mediaCoding == nil)
    }

    @Test func importWritesTheMappingAndTheSpecGeneratesTheSameClient() throws {
        let yaml = Self.document("""
            /:
              post:
                operationId: describeTable
                requestBody:
                  required: true
                  content:
                    application/x-amz-json-1.1: { schema: { $ref: "#/components/schemas/Table" } }
                responses:
                  "200":
                    description: ok
                    content:
                      application/x-amz-json-1.1: { schema: { $ref: "#/components/schemas/Table" } }
            """)
        let folder = try TemporaryFolder()
        let input = URL(fileURLWithPath: try folder.write(yaml, to: "dynamo.yaml"))
        let imported = SpecImporter(errorLimit: 1000).importSpec(at: input, displayPath: "dynamo.yaml")
        let text = try #require(imported.text, "\(imported.diagnostics.renderedLines)")
        #expect(text.contains("contentType: { type: application/x-amz-json-1.1, coding: json }"), "\(text)")
        try ImportTests().expectRoundTrip(input, displayPath: "dynamo.yaml")
    }
}
