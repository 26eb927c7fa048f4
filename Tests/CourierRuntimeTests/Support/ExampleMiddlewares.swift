import CourierRuntime
import Foundation
import HTTPTypes

// The worked examples of the Middleware article (CourierRuntime.docc/Middleware.md), as the
// tests run them. Keep the two in step.

/// Remembers each GET's `ETag` and body, asks with `If-None-Match`, and turns the server's
/// `304 Not Modified` into the remembered `200`.
struct ETagCache: ClientMiddleware {
    /// The remembered responses, by URL; an actor, because attempts of several calls run at once.
    actor Store {
        struct Entry {
            var etag: String
            var head: HTTPResponse
            var body: Data
        }

        private var entries: [String: Entry] = [:]

        func entry(for key: String) -> Entry? { entries[key] }
        func remember(_ entry: Entry, for key: String) { entries[key] = entry }
    }

    let store = Store()

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: ClientMiddleware.Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // A streamed body is the caller's to read as it arrives: this cache keeps only buffered ones.
        guard request.method == .get, !context.streamsResponse else {
            return try await next(request, body)
        }
        let key = "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "")"
        let cached = await store.entry(for: key)
        var request = request
        if let cached {
            request.headerFields[.ifNoneMatch] = cached.etag
        }
        let (response, responseBody) = try await next(request, body)
        if response.status == .notModified, let cached {
            return (cached.head, HTTPBody(cached.body))
        }
        // A buffered call's body is in memory already (`bufferedData`), so keeping it costs no read.
        if response.status == .ok, let etag = response.headerFields[.eTag], let data = responseBody?.bufferedData {
            await store.remember(Store.Entry(etag: etag, head: response, body: data), for: key)
        }
        return (response, responseBody)
    }
}

/// Signs every attempt in the manner of AWS Signature Version 4: an HMAC-SHA256, under a
/// shared secret, of a canonical request that includes the SHA-256 of the body's final bytes
/// and a timestamp taken for this attempt.
struct RequestSigner: ClientMiddleware {
    static let date = HTTPField.Name("X-Courier-Date")!
    static let contentHash = HTTPField.Name("X-Courier-Content-SHA256")!
    static let signature = HTTPField.Name("X-Courier-Signature")!
    /// Signed besides the date and the body's hash: the server, and the credentials auth put on.
    static let signedHeaders = ["host", "authorization", "x-courier-content-sha256", "x-courier-date"]
    /// The most a streamed body may hold to be signed; it is read into memory to be hashed.
    static let bodyLimit = 8 * 1024 * 1024

    var keyID: String
    var secret: [UInt8]
    /// The attempt's timestamp, such as `20260101T120000Z`.
    var now: @Sendable () -> String

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: ClientMiddleware.Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // The hash must be of the bytes that go out. A file or a stream is read here, once, and
        // those very bytes are passed on: reading a single-use body a second time would fail.
        var payload = body?.bufferedData ?? Data()
        if let body, body.bufferedData == nil {
            payload = try await body.collect(upTo: Self.bodyLimit)
        }
        var request = request
        let date = now()
        request.headerFields[Self.date] = date
        request.headerFields[Self.contentHash] = SHA256.hex(SHA256.hash(payload))
        let values = Self.signedHeaders.map { name in
            name == "host" ? (request.authority ?? "") : (HTTPField.Name(name).flatMap { request.headerFields[$0] } ?? "")
        }
        let signature = Self.sign(method: request.method.rawValue, target: request.path ?? "/", headerValues: values,
                                  payloadHash: SHA256.hex(SHA256.hash(payload)), date: date, secret: secret)
        request.headerFields[Self.signature] =
            "keyId=\(keyID), signedHeaders=\(Self.signedHeaders.joined(separator: ";")), signature=\(signature)"
        return try await next(request, body == nil ? nil : HTTPBody(payload))
    }

    /// The signature over a request's parts: what the client computes, and what a server that
    /// has received the request recomputes from what it received.
    static func sign(method: String, target: String, headerValues: [String], payloadHash: String, date: String, secret: [UInt8]) -> String {
        let headers = zip(signedHeaders, headerValues).map { "\($0):\($1.trimmingCharacters(in: .whitespaces))\n" }.joined()
        let canonicalRequest = [method, target, headers, signedHeaders.joined(separator: ";"), payloadHash].joined(separator: "\n")
        let stringToSign = ["COURIER-HMAC-SHA256", date, SHA256.hex(SHA256.hash(Data(canonicalRequest.utf8)))].joined(separator: "\n")
        return SHA256.hex(SHA256.hmac(key: secret, message: Data(stringToSign.utf8)))
    }
}
