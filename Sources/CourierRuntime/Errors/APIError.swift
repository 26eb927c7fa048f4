import Foundation
import HTTPTypes

/// Everything that can go wrong with one endpoint call, generic over the endpoint's
/// documented failures.
///
/// Clients throw it with typed throws, so a `switch` over it is checked by the compiler:
///
/// ```swift
/// do {
///     let user = try await client.getUser(id: 42)
/// } catch {
///     switch error {
///     case .endpoint(.notFound, _): showMissing()
///     case .endpoint(let failure, _): show(failure)
///     case .transport(let transport) where transport.kind == .notConnected: showOffline()
///     case .undocumentedStatus, .transport, .decoding, .invalidRequest, .circuitOpen:
///         show(error.localizedDescription)
///     }
/// }
/// ```
public enum APIError<Failure: EndpointFailure>: Error, Sendable {
    /// A failure the endpoint documents, with the response it came from.
    case endpoint(Failure, RawResponse)
    /// A non-success status the endpoint does not document.
    case undocumentedStatus(RawResponse)
    /// No complete response arrived.
    case transport(TransportError)
    /// A success response whose body did not decode.
    case decoding(DecodingFailure)
    /// The request could not be built; nothing was sent.
    case invalidRequest(InvalidRequest)
    /// The circuit breaker refused the call's first attempt; nothing was sent. A call that
    /// did reach the server and whose retry the breaker refused ends with that attempt's own
    /// error instead.
    case circuitOpen(CircuitBreaker.Refusal)

    /// The response, when one arrived.
    public var response: RawResponse? {
        switch self {
        case .endpoint(_, let response), .undocumentedStatus(let response): response
        case .decoding(let failure): failure.response
        case .transport, .invalidRequest, .circuitOpen: nil
        }
    }

    /// The response status, when a response arrived.
    public var status: HTTPResponse.Status? { response?.status }

    /// The response header fields, when a response arrived.
    public var headerFields: HTTPFields? { response?.headerFields }

    /// What the server said about rate limits, when a response arrived.
    public var rateLimit: RateLimit? { response?.rateLimit }

    /// The documented failure, if this is one.
    public var endpointFailure: Failure? {
        if case .endpoint(let failure, _) = self { return failure }
        return nil
    }

    /// The transport failure, if this is one.
    public var transportError: TransportError? {
        if case .transport(let error) = self { return error }
        return nil
    }

    /// The kind of error without its payload, the same for every endpoint.
    public var category: ErrorCategory {
        switch self {
        case .endpoint: .endpoint
        case .undocumentedStatus: .undocumentedStatus
        case .transport(let error): .transport(error.kind)
        case .decoding: .decoding
        case .invalidRequest: .invalidRequest
        case .circuitOpen: .circuitOpen
        }
    }

    /// Whether sending the same request again may succeed: a documented failure that says so
    /// (``EndpointFailure/isRetryable``, the spec's `retryable`), else transient transport
    /// failures, 408, 429, 500, 502, 503 and 504, and an open circuit once its `retryAfter`
    /// has passed. Never cancellation, TLS failures, other 4xx statuses or decoding failures,
    /// nor a documented failure that says it is not retryable.
    ///
    /// This answers "may the user press Retry". Whether the client retries by itself also
    /// depends on the method's idempotency.
    public var isRetryable: Bool {
        switch self {
        case .endpoint(let failure, let response):
            failure.isRetryable ?? Self.retryableStatuses.contains(response.status.code)
        case .undocumentedStatus(let response):
            Self.retryableStatuses.contains(response.status.code)
        case .transport(let error):
            error.kind.isTransient
        case .circuitOpen:
            true
        case .decoding, .invalidRequest:
            false
        }
    }

    static var retryableStatuses: Set<Int> { [408, 429, 500, 502, 503, 504] }

    /// The same error with a different failure type, for wrapping one endpoint's errors
    /// in another's (for example in a hand-written facade over several endpoints).
    public func mapFailure<Other: EndpointFailure>(_ transform: (Failure) -> Other) -> APIError<Other> {
        switch self {
        case .endpoint(let failure, let response): .endpoint(transform(failure), response)
        case .undocumentedStatus(let response): .undocumentedStatus(response)
        case .transport(let error): .transport(error)
        case .decoding(let failure): .decoding(failure)
        case .invalidRequest(let error): .invalidRequest(error)
        case .circuitOpen(let error): .circuitOpen(error)
        }
    }
}

/// The kind of an ``APIError`` without its payload; the same type for every endpoint, so
/// events, metrics and app-wide handlers can use it.
public enum ErrorCategory: Sendable, Hashable {
    /// A documented endpoint failure.
    case endpoint
    /// An undocumented status.
    case undocumentedStatus
    /// A transport failure of the given kind.
    case transport(TransportError.Kind)
    /// A success body that did not decode.
    case decoding
    /// A request that could not be built.
    case invalidRequest
    /// An open circuit.
    case circuitOpen
}

extension TransportError.Kind {
    /// Whether a failure of this kind may clear up on its own.
    public var isTransient: Bool {
        switch self {
        case .notConnected, .cannotResolveHost, .connectionRefused, .connectionLost, .timedOut: true
        case .cancelled, .tls, .responseTooLarge, .other: false
        }
    }
}
