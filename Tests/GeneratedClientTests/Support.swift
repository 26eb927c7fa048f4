import CourierAsyncHTTPClient
import CourierRuntime
import CourierTestServer
import Foundation
import Testing

/// Runs a client call that must fail and returns its typed error; records an issue (and returns
/// `nil`) when the call succeeds.
func failure<Failure, Value>(
    of call: () async throws(APIError<Failure>) -> Value,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> APIError<Failure>? {
    do throws(APIError<Failure>) {
        let value = try await call()
        Issue.record("expected a failure, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Starts a loopback server, runs `body` and stops the server, also when `body` throws.
func withServer(_ body: (TestServer) async throws -> Void) async throws {
    let server = try await TestServer.start()
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

/// One client per real transport, named for failure messages: `urlSession` (a test suite keeps
/// one, so that its calls share connections as an app's would) and the default AsyncHTTPClient.
func clientsOverBothTransports<Client>(urlSession: URLSessionTransport,
                                       _ make: (any HTTPTransport) -> Client) -> [(String, Client)] {
    [("URLSession", make(urlSession)), ("AsyncHTTPClient", make(AsyncHTTPClientTransport()))]
}

/// The fields of an `application/x-www-form-urlencoded` body as a server reads them (WHATWG
/// URL standard, "application/x-www-form-urlencoded parsing"): split on `&` and the first `=`,
/// `+` as a space, then percent-decoded.
func formFields(_ body: Data) -> [(name: String, value: String)] {
    String(decoding: body, as: UTF8.self).split(separator: "&", omittingEmptySubsequences: true).map { field in
        let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        func decode(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
    }
}
