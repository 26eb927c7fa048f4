import BookshelfAPI
import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// A generated client passes its configuration's middlewares through: the middleware sees the
/// spec's header fields and the spec's bearer auth, and keys a header field on the operation.
@Suite("Middlewares through a generated client (loopback server)")
struct MiddlewareLoopbackTests {
    struct OperationHeader: ClientMiddleware {
        static let operation = HTTPField.Name("X-Operation")!
        static let sawAuth = HTTPField.Name("X-Saw-Auth")!

        func intercept(
            _ request: HTTPRequest,
            body: HTTPBody?,
            context: MiddlewareContext,
            next: ClientMiddleware.Next
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[Self.operation] = context.operationName
            request.headerFields[Self.sawAuth] = request.headerFields[.authorization] == nil ? "no" : "yes"
            return try await next(request, body)
        }
    }

    @Test(arguments: MeaningTransport.allCases)
    func theGeneratedClientPassesMiddlewaresThrough(transport: MeaningTransport) async throws {
        let server = try await TestServer.start()
        server.route("DELETE", "/books/3", .respond(.status(204)))
        let client = BookshelfClient(
            baseURL: server.baseURL,
            transport: transport.make(),
            auth: BookshelfClient.bearer { "t-1" },
            configuration: APIClient.Configuration(resilience: Resilience(sharing: .isolated), middlewares: [OperationHeader()])
        )
        do {
            try await client.deleteBook(book: 3)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let received = try #require(server.receivedRequests.first)
        #expect(received.header("X-Operation") == "deleteBook")
        #expect(received.header("X-Saw-Auth") == "yes")
        #expect(received.header("X-Requested-With") == "XMLHttpRequest")
    }
}
