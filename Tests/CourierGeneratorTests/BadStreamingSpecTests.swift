@testable import CourierGenerator
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
            "Specs/x.yaml:11:5: error: the body of endpoint 'multipartOfString' is a multipart form of type 'String'; its fields come from a model (leave out 'type' for a form of files only)",
            "Specs/x.yaml:15:70: error: file 'photo' of endpoint 'clash' has the Swift name of a parameter or of another file ('photo'); rename it",
        ])
    }

    @Test func formsOfFilesOnly() {
        let yaml = """
            service: Media
            baseURL: https://media.example.com
            endpoints:
              nothing:
                post: /a
                body: { contentType: multipart/form-data }
              noFiles:
                post: /b
                body: { contentType: multipart/form-data, files: {} }
              filesInJSON:
                post: /c
                body: { files: { photo: {} } }
              clash:
                post: /d
                query: { photo: String? }
                body: { contentType: multipart/form-data, files: { photo: {} } }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:6:5: error: 'body' needs 'type' (a model), 'properties' (an inline body) or, for a 'multipart/form-data' form of files only, 'files'",
            "Specs/x.yaml:9:5: error: 'body' needs 'type' (a model), 'properties' (an inline body) or, for a 'multipart/form-data' form of files only, 'files'",
            "Specs/x.yaml:12:5: error: the body of endpoint 'filesInJSON' has 'files', which a 'multipart/form-data' body sends; its content type is 'application/json'",
            "Specs/x.yaml:16:56: error: file 'photo' of endpoint 'clash' has the Swift name of a parameter or of another file ('photo'); rename it",
        ])
    }

    @Test func namesOfFilesAndPartHeaders() {
        let yaml = """
            service: Media
            baseURL: https://media.example.com
            models:
              Fields: { title: String }
            endpoints:
              twoFiles:
                post: /a
                body: { contentType: multipart/form-data, files: { my-file: {}, my_file: {} } }
              headerClash:
                post: /b
                query: { fileChecksum: String? }
                body: { contentType: multipart/form-data, files: { file: { headers: { X-Checksum: String } } } }
              headerLikeFile:
                post: /c
                body: { contentType: multipart/form-data, files: { file: { headers: { Id: String } }, fileId: {} } }
              noBodyLabel:
                post: /d
                query: { requestBody: String? }
                body: { type: Fields, contentType: multipart/form-data, files: { body: {} } }
              addedByDownload:
                post: /e
                body: { contentType: multipart/form-data, files: { to: {} } }
                response: { body: Binary }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:8:69: error: file 'my_file' of endpoint 'twoFiles' has the Swift name of a parameter or of another file ('myFile'); rename it",
            "Specs/x.yaml:12:75: error: part header 'X-Checksum' of file 'file' of endpoint 'headerClash' has the Swift name 'fileChecksum', which a parameter, a file or another part header already has; rename it",
            "Specs/x.yaml:15:91: error: file 'fileId' of endpoint 'headerLikeFile' has the Swift name of a parameter or of another file ('fileID'); rename it",
            "Specs/x.yaml:19:5: error: endpoint 'noBodyLabel' has a parameter, a file or a part header named both 'body' and 'requestBody', so its body has no argument name left; rename one",
            "Specs/x.yaml:22:56: error: 'to' of file 'to' of endpoint 'addedByDownload' is named like the parameter its generated method adds; rename it",
        ])
    }

    @Test func partHeaderMistakes() {
        let yaml = """
            service: Media
            baseURL: https://media.example.com
            models:
              Fields: { title: String }
            endpoints:
              upload:
                post: /a
                body:
                  contentType: multipart/form-data
                  files:
                    file:
                      contentType: not a type
                      headers:
                        Content-Type: String
                        content-disposition: String
                        "X Bad": String
                        X-Checksum: String
                        x-checksum: String?
                        X-Fields: Fields
                        X-Tags: "[String]"
                        X-Missing: Nowhere
                        X-Typed: { description: No type. }
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:12:24: error: the content type of file 'file' is 'not a type', which is not a media type such as 'image/png'",
            "Specs/x.yaml:14:13: error: file 'file' declares the part header 'Content-Type', which the form writes from the file's content type; the caller gives it in 'MultipartForm.File(contentType:)' (write 'contentType:' under the file to document the usual one)",
            "Specs/x.yaml:15:13: error: file 'file' declares the part header 'Content-Disposition', which the form writes from the part's name (the key under 'files') and the file name in 'MultipartForm.File(filename:)'",
            "Specs/x.yaml:16:13: error: 'X Bad' is not a valid HTTP header name",
            "Specs/x.yaml:18:13: error: file 'file' declares the part header 'x-checksum' twice (also as 'X-Checksum'); header names are case-insensitive",
            "Specs/x.yaml:19:13: error: part header 'X-Fields' of file 'file' has type 'Fields'; part headers take String, Int, Int64, Double, Bool, Date, URL or a string enum",
            "Specs/x.yaml:20:13: error: part header 'X-Tags' of file 'file' has type '[String]'; part headers take String, Int, Int64, Double, Bool, Date, URL or a string enum",
            "Specs/x.yaml:21:13: error: type 'Nowhere' used by part header 'X-Missing' of file 'file' is not defined",
            "Specs/x.yaml:22:13: error: part header 'X-Typed' of file 'file' is missing required key 'type'",
        ])
    }

    @Test("A form of files only takes no body argument; 'properties: {}' still takes an empty body")
    func formOfFilesOnlyAndEmptyProperties() throws {
        let yaml = serviceYAML("Upload", """
            endpoints:
              onlyFiles:
                post: /a
                body: { contentType: multipart/form-data, files: { file: {} } }
              emptyFields:
                post: /b
                body: { contentType: multipart/form-data, properties: {}, files: { file: {} } }
            """)
        let spec = try #require(loadSpec(yaml).spec)
        let files = try Generator().generate(spec, specPath: "upload.yaml")
        let requests = try #require(files["UploadRequests.swift"])
        let client = try #require(files["UploadClient.swift"])
        #expect(requests.contains("public init(file: MultipartForm.File) {"))
        #expect(requests.contains(".multipartFields(nil, files: [(\"file\", file)], style: .brackets)"))
        #expect(client.contains("public func onlyFiles(file: MultipartForm.File) async throws(APIError<OnlyFilesFailure>) {"))
        #expect(requests.contains("public init(body payload: EmptyFieldsBody, file: MultipartForm.File) {"))
        #expect(requests.contains(".multipartFields(payload, files: [(\"file\", file)], style: .brackets)"))
    }
}
