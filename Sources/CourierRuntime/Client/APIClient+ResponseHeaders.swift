import Foundation
import HTTPTypes

extension APIClient {
    /// Sends a request and returns its decoded body together with the header fields
    /// `decodeHeaders` reads, such as a generated `GetRepositoryResponseHeaders.init(decoding:)`.
    ///
    /// The header fields are read once the call has succeeded, after any retries, so a missing or
    /// ill-formed field is never retried.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - decodeHeaders: Reads the declared fields from the successful response; it throws
    ///     ``DecodingFailure`` naming the field (`headers.ETag`) when a required field is missing
    ///     or a field's value is not of its type.
    ///   - resilience: This call's own retry and breaker choices, over the request's
    ///     ``APIRequest/resilience``.
    /// - Throws: `APIError<Request.Failure>`, ``APIError/decoding(_:)`` for a required field that
    ///   is missing or a field that is not of its type.
    @_spi(Generated) public func response<Request: APIRequest, Headers: Sendable>(
        for request: Request,
        headers decodeHeaders: @escaping @Sendable (RawResponse) throws(DecodingFailure) -> Headers,
        resilience: EndpointResilience? = nil
    ) async throws(APIError<Request.Failure>) -> ResponseWithHeaders<Request.Response, Headers> {
        try await perform(
            request,
            resilience: resilience,
            adjust: { _ in },
            interpret: { raw, _ in
                Self.interpret(raw, for: request).flatMap { response in
                    do throws(DecodingFailure) {
                        return .success(ResponseWithHeaders(body: response.value, headers: try decodeHeaders(raw), raw: raw))
                    } catch {
                        return .failure(.decoding(error))
                    }
                }
            },
            status: { ($0.status, $0.raw.rateLimit) })
    }
}
