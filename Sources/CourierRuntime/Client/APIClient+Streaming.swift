import Foundation

extension APIClient {
    /// Sends a request and returns as soon as a successful response's head arrives, with its
    /// body to be read as it arrives.
    ///
    /// Everything up to the head is an ordinary call: auth, retries, the breaker and the
    /// budget, the attempt timeout (which ends when the head arrives), and a failed status
    /// mapped to the endpoint's documented failure from its body, read whole. The successful
    /// body is not decoded, and `Failure.mapSuccess` does not look at it.
    ///
    /// ```swift
    /// let download = try await client.stream(GetExport(id: id))
    /// for try await chunk in download.body { try file.write(contentsOf: chunk) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to send; its `Response` type is not used.
    ///   - resilience: This call's own retry and breaker choices, over the request's
    ///     ``APIRequest/resilience``.
    ///   - accept: The `Accept` field to send, such as `application/x-ndjson`, instead of the
    ///     client's default (`application/json`); `nil` leaves it.
    public func stream<Request: APIRequest>(
        _ request: Request,
        resilience: EndpointResilience? = nil,
        accept: String? = nil
    ) async throws(APIError<Request.Failure>) -> StreamingResponse {
        var fields = HTTPFields()
        if let accept { fields[.accept] = accept }
        return try await stream(request, resilience: resilience, adding: fields)
    }

    /// ``stream(_:resilience:)`` with header fields added after the request's own, such as
    /// an event stream's `Last-Event-ID` when it reconnects.
    func stream<Request: APIRequest>(
        _ request: Request,
        resilience: EndpointResilience?,
        adding extraFields: HTTPFields
    ) async throws(APIError<Request.Failure>) -> StreamingResponse {
        try await perform(request, resilience: resilience, adjust: { prepared in
            prepared.streamsResponse = true
            for field in extraFields {
                prepared.head.headerFields[field.name] = field.value
            }
        }, interpret: { raw, body -> Result<StreamingResponse, APIError<Request.Failure>> in
            guard request.successStatuses.contains(raw.status) else {
                return Self.interpretFailure(raw, for: request)
            }
            return .success(StreamingResponse(status: raw.status, headerFields: raw.headerFields, body: body ?? HTTPBody(raw.body), rateLimit: raw.rateLimit))
        }, status: { ($0.status, $0.rateLimit) })
    }
}
