import CourierGenerator
import Foundation
import Testing

/// `Binary` and streamed responses: every misuse gets one exact `path:line:column: error:` line.
@Suite struct BadStreamingSpecTests {
    @Test func binaryAndStreamsInTheWrongPlaces() {
        let yaml = """
            service: Media
            baseURL: https://media.example.com
            models:
              Clip: { data: Binary, name: String }
            endpoints:
              jsonBinary:
                put: /a
                body: Binary
              listOfBinary:
                get: /b
                response: "[Binary]"
              binaryQuery:
                get: /c
                query: { blob: Binary }
              twoStreams:
                get: /d
                response: { events: Clip, lines: Clip }
              optionalEvents:
                get: /e
                response: { events: Clip? }
              strayContentType:
                get: /f
                response: { body: Clip, contentType: application/zip }
              clashingParameter:
                get: /g
                query: { reconnection: String? }
                response: { events: String }
              streamedPages:
                get: /h
                query: { page: Int? }
                response: { lines: Clip }
                paginate: { page: { param: page } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:4:17: error: property 'data' of model 'Clip' is 'Binary'; 'Binary' is a body read or sent as it streams, so it is only an endpoint's 'body' or response 'body' (use 'Data' for bytes in JSON)",
            "Specs/x.yaml:8:5: error: the body of endpoint 'jsonBinary' is 'Binary', sent as it is; give it the content type of its bytes, such as 'application/octet-stream' or 'image/png' (it is 'application/json')",
            "Specs/x.yaml:11:5: error: the response of endpoint 'listOfBinary' is '[Binary]'; 'Binary' is a body read or sent as it streams, so it is only an endpoint's 'body' or response 'body', not inside another type",
            "Specs/x.yaml:14:14: error: query parameter 'blob' has type 'Binary'; query parameters take String, Int, Int64, Double, Bool, Date, URL, a string enum, or a list of these",
            "Specs/x.yaml:17:31: error: the response of endpoint 'twoStreams' has 'events' and 'lines'; give one of them",
            "Specs/x.yaml:20:5: error: the response of endpoint 'optionalEvents' streams 'Clip?'; each event or line decodes as a model, a JSON type or String",
            "Specs/x.yaml:23:5: error: the response of endpoint 'strayContentType' is 'Clip' under content type 'application/zip', which is not JSON; read it as 'String' (text) or 'Data' (bytes), or name a JSON content type",
            "Specs/x.yaml:26:14: error: query parameter 'reconnection' of endpoint 'clashingParameter' is named like the parameter 'reconnection' its generated method adds; rename it",
            "Specs/x.yaml:32:5: error: endpoint 'streamedPages' streams its response, so it cannot also 'paginate'",
        ])
    }

    @Test func multipartMistakes() {
        let yaml = """
            service: Media
            baseURL: https://media.example.com
            models:
              Fields: { title: String }
            endpoints:
              filesInJSON:
                post: /a
                body: { type: Fields, files: { photo: {} } }
              multipartOfString:
                post: /b
                body: { type: String, contentType: multipart/form-data }
              clash:
                post: /c/{photo}
                path: { photo: String }
                body: { type: Fields, contentType: multipart/form-data, files: { photo: {} } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:8:5: error: the body of endpoint 'filesInJSON' has 'files', which a 'multipart/form-data' body sends; its content type is 'application/json'",
            "Specs/x.yaml:11:5: error: the body of endpoint 'multipartOfString' is a multipart form of type 'String'; its fields come from a model (write 'properties: {}' for a form of files only)",
            "Specs/x.yaml:15:70: error: file 'photo' of endpoint 'clash' has the Swift name of a parameter or of another file ('photo'); rename it",
        ])
    }
}
