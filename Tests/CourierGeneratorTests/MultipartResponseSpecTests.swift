@testable import CourierGenerator
import Foundation
import Testing

/// `multipart/*` responses (batch answers): the spec format and the OpenAPI reader take them,
/// and the generated method returns the parts as they arrive, raw or with typed bodies.
@Suite struct MultipartResponseSpecTests {
    static let batchSpec = serviceYAML("Batch", """
        models:
          Answer: { id: Int }
        endpoints:
          runBatch:
            description: Runs several calls in one.
            post: /batch
            response: { contentType: multipart/mixed }
          typedBatch:
            post: /batch/typed
            response: { body: Answer, contentType: "multipart/mixed; charset=utf-8" }
        """)

    @Test("A multipart response, with or without a per-part type, is accepted and streams its parts")
    func theSpecIsAcceptedAndGenerates() throws {
        let (spec, lines) = loadSpec(Self.batchSpec)
        #expect(lines == [])
        let endpoints = try #require(spec?.endpoints)
        #expect(endpoints[0].response.stream == .parts(nil, contentType: "multipart/mixed"))
        #expect(endpoints[0].response.body == nil)
        #expect(endpoints[0].response.status == 200)
        #expect(endpoints[1].response.stream == .parts(.named("Answer"), contentType: "multipart/mixed; charset=utf-8"))
        #expect(endpoints[1].response.body == nil)

        let files = try Generator().generate(try #require(spec), specPath: "batch.yaml")
        let client = try #require(files["BatchClient.swift"])
        #expect(client.contains("""
                /// Runs several calls in one.
                ///
                /// - Returns: Each part, with its header fields, as it arrives; cancelling the reading task closes the connection.
                public func runBatch() async throws(APIError<RunBatchFailure>) -> MultipartParts<HTTPBody> {
                    try await self.client.stream(RunBatchRequest(), accept: "multipart/mixed").multipartParts()
                }
            """), "\(client)")
        #expect(client.contains("""
                public func typedBatch() async throws(APIError<TypedBatchFailure>) -> DecodedSequence<MultipartParts<HTTPBody>, Answer> {
                    DecodedSequence(try await self.client.stream(TypedBatchRequest(), accept: "multipart/mixed; charset=utf-8").multipartParts(), as: Answer.self, coding: self.client.configuration.coding)
                }
            """), "\(client)")
    }

    @Test("A per-part type must be something JSON decodes, and a multipart response declares no header fields")
    func mistakes() {
        let yaml = serviceYAML("Batch", """
            endpoints:
              bytesParts:
                post: /a
                response: { body: Data, contentType: multipart/mixed }
              optionalParts:
                post: /b
                response: { body: String?, contentType: multipart/mixed }
              unknownParts:
                post: /c
                response: { body: Nowhere, contentType: multipart/mixed }
              withHeaders:
                post: /d
                response: { contentType: multipart/mixed, headers: { X-Batch: String } }
            """)
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:6:5: error: the response of endpoint 'bytesParts' is multipart with parts of type 'Data'; each part's body decodes as a model, a JSON type or String (leave out 'body' for the raw parts)",
            "Specs/x.yaml:9:5: error: the response of endpoint 'optionalParts' is multipart with parts of type 'String?'; each part's body decodes as a model, a JSON type or String (leave out 'body' for the raw parts)",
            "Specs/x.yaml:12:5: error: type 'Nowhere' used by the response of endpoint 'unknownParts' is not defined",
            "Specs/x.yaml:15:58: error: the response of endpoint 'withHeaders' is streamed; its header fields are in the `StreamingResponse` it returns, so it declares no 'headers'",
        ])
    }

    @Test("An OpenAPI multipart/mixed response becomes the streamed parts, without a warning")
    func openAPIMultipartResponse() throws {
        let yaml = """
            openapi: 3.0.3
            info: { title: Batch }
            servers: [{ url: https://batch.example.com }]
            paths:
              /batch:
                post:
                  operationId: runBatch
                  responses:
                    "200":
                      description: One part per call.
                      content:
                        multipart/mixed:
                          schema: { type: object, properties: { first: { type: string } } }
            """
        let (spec, lines) = loadSpec(yaml, path: "batch.yaml")
        #expect(lines == [])
        let response = try #require(spec?.endpoints.first?.response)
        #expect(response.stream == .parts(nil, contentType: "multipart/mixed"))
        #expect(response.body == nil)
        let files = try Generator().generate(try #require(spec), specPath: "batch.yaml")
        let client = try #require(files["BatchClient.swift"])
        #expect(client.contains("-> MultipartParts<HTTPBody> {"), "\(client)")
        #expect(client.contains(#"try await self.client.stream(RunBatchRequest(), accept: "multipart/mixed").multipartParts()"#), "\(client)")
    }

    @Test("courier import writes a multipart response back as the spec format says it")
    func importWritesTheParts() throws {
        let folder = try TemporaryFolder()
        let input = URL(fileURLWithPath: try folder.write(Self.batchSpec, to: "batch.yaml"))
        let text = try #require(SpecImporter().importSpec(at: input, displayPath: "batch.yaml").text)
        #expect(text.contains("""
                post: /batch
                response:
                  contentType: multipart/mixed
            """), "\(text)")
        #expect(text.contains("""
                response:
                  body: Answer
                  contentType: multipart/mixed; charset=utf-8
            """), "\(text)")
        let reloaded = try #require(loadSpec(text, path: "Imported.yaml").spec)
        #expect(reloaded.endpoints.map(\.response.stream) == [.parts(nil, contentType: "multipart/mixed"),
                                                              .parts(.named("Answer"), contentType: "multipart/mixed; charset=utf-8")])
    }
}
