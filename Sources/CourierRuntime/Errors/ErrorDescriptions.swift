import Foundation
import HTTPTypes

// User-facing text (LocalizedError) says what happened and what to do in plain words and
// never shows bodies or headers. debugDescription is for logs and bug reports: status,
// redacted headers, a body prefix and the underlying error.

extension APIError: LocalizedError {
    /// A short sentence for the user.
    public var errorDescription: String? {
        switch self {
        case .endpoint(let failure, let response):
            if let text = (failure as? any LocalizedError)?.errorDescription {
                return text
            }
            return FailureMessage.statusSentence(response.status)
        case .undocumentedStatus(let response):
            return "The server responded with an unexpected status (\(response.status.code))."
        case .transport(let error):
            return error.errorDescription
        case .decoding:
            return "The server's response could not be read."
        case .invalidRequest(let error):
            return error.errorDescription
        case .circuitOpen:
            return "The service is temporarily unavailable."
        }
    }

    /// Why it happened, when that helps the user.
    public var failureReason: String? {
        switch self {
        case .endpoint(let failure, let response):
            if let text = (failure as? any LocalizedError)?.failureReason {
                return text
            }
            return StatusText.reason(for: response.status.code)
        case .undocumentedStatus(let response):
            return StatusText.reason(for: response.status.code)
        case .transport(let error):
            return error.failureReason
        case .decoding:
            return "The response did not have the expected format."
        case .invalidRequest(let error):
            return error.failureReason
        case .circuitOpen(let open) where open.state == .halfOpen:
            return "Recent requests to the service failed; a test request is checking whether it has recovered."
        case .circuitOpen:
            return "Recent requests to the service failed, so new requests are paused."
        }
    }

    /// What the user can do about it.
    public var recoverySuggestion: String? {
        switch self {
        case .endpoint(let failure, _):
            if let text = (failure as? any LocalizedError)?.recoverySuggestion {
                return text
            }
            return isRetryable ? "Try again later." : nil
        case .undocumentedStatus:
            return isRetryable ? "Try again later." : nil
        case .transport(let error):
            return error.recoverySuggestion
        case .decoding:
            return "Check for an app update."
        case .invalidRequest:
            return nil
        case .circuitOpen(let open):
            // A zero wait (a breaker configured with no break) must not read as "1 second".
            guard open.retryAfter > .zero else { return "Try again in a moment." }
            return "Try again in \(RateLimitText.seconds(open.retryAfter))."
        }
    }
}

extension APIError: CustomDebugStringConvertible {
    /// Everything known about the failure, for logs and bug reports. Credentials and cookies
    /// in header fields are redacted.
    public var debugDescription: String {
        switch self {
        case .endpoint(let failure, let response):
            return "APIError.endpoint(\(failure)) \(response.debugSummary)"
        case .undocumentedStatus(let response):
            return "APIError.undocumentedStatus \(response.debugSummary)"
        case .transport(let error):
            return "APIError.transport(\(error.debugDescription))"
        case .decoding(let failure):
            return "APIError.decoding(\(failure.debugDescription))"
        case .invalidRequest(let error):
            return "APIError.invalidRequest(\(error.debugDescription))"
        case .circuitOpen(let open):
            return "APIError.circuitOpen(key: \(open.key), retryAfter: \(open.retryAfter))"
        }
    }
}

extension TransportError: LocalizedError {
    /// A short sentence for the user.
    public var errorDescription: String? {
        switch kind {
        case .notConnected: "You appear to be offline."
        case .cannotResolveHost: "The server could not be found."
        case .connectionRefused: "Could not connect to the server."
        case .connectionLost: "The network connection was lost."
        case .timedOut: "The request timed out."
        case .cancelled: "The request was cancelled."
        case .tls: "A secure connection to the server could not be made."
        case .responseTooLarge: "The server's response was too large."
        case .other: "A network error occurred."
        }
    }

    /// Why it happened.
    public var failureReason: String? {
        switch kind {
        case .notConnected: "The device has no network connection."
        case .cannotResolveHost: "The server's name could not be resolved."
        case .connectionRefused: "The server is not accepting connections."
        case .connectionLost: "The connection closed before the response was complete."
        case .timedOut: "The server took too long to respond."
        case .cancelled: nil
        case .tls: "The server's identity could not be verified."
        case .responseTooLarge: "The response exceeded the size limit."
        case .other: nil
        }
    }

    /// What the user can do about it.
    public var recoverySuggestion: String? {
        switch kind {
        case .notConnected: "Check your internet connection and try again."
        case .cannotResolveHost, .connectionRefused, .connectionLost, .timedOut: "Try again later."
        case .cancelled, .tls, .responseTooLarge, .other: nil
        }
    }
}

extension TransportError: CustomDebugStringConvertible {
    /// The kind, whether the request may have been sent, and the underlying error.
    public var debugDescription: String {
        var text = "TransportError(\(kind.rawValue), requestMayHaveBeenSent: \(requestMayHaveBeenSent)"
        if let underlying {
            text += ", underlying: \(String(reflecting: underlying))"
        }
        return text + ")"
    }
}

extension InvalidRequest: LocalizedError {
    /// A short sentence for the user; for a fake without a result, the sentence that tells the
    /// test's author what to set, since that is who reads it.
    public var errorDescription: String? {
        if case .fakeResultNotSet(let fake) = reason {
            return "\(fake) has no result for \(operationName); set the fake's `\(operationName)` before calling it."
        }
        return "The request could not be created."
    }

    /// What was wrong, naming the header or placeholder but never a header's value.
    public var failureReason: String? {
        switch reason {
        case .invalidBaseURL(let url): "The base URL \"\(url)\" has no scheme or host."
        case .missingPathValue(let name): "The path placeholder {\(name)} has no value."
        case .invalidHeaderName(let name): "\"\(name)\" is not a valid header name."
        case .headerValueContainsLineBreak(let name): "The value of header \"\(name)\" contains a line break."
        case .bodyEncodingFailed(let reason): "The body could not be encoded: \(reason)"
        case .queryEncodingFailed(let name, let reason): "The query parameter \"\(name)\" could not be encoded: \(reason)"
        case .authorizationFailed(let reason): "Credentials could not be obtained: \(reason)"
        case .invalidCredentials(let reason): "The credentials cannot be sent: \(reason)"
        case .fakeResultNotSet(let fake): "\(fake) was called for \(operationName) with no result set: a mistake in the test, not a network failure."
        case .middlewareFailed(let reason): "A client middleware failed: \(reason)"
        }
    }
}

extension InvalidRequest: CustomDebugStringConvertible {
    /// The operation and the reason.
    public var debugDescription: String {
        "InvalidRequest(\(operationName): \(failureReason ?? ""))"
    }
}

extension DecodingFailure: LocalizedError {
    /// A short sentence for the user.
    public var errorDescription: String? { "The server's response could not be read." }
    /// Where decoding stopped.
    public var failureReason: String? {
        codingPath.isEmpty ? reason : "At \(codingPath): \(reason)"
    }
}

extension DecodingFailure: CustomDebugStringConvertible {
    /// The coding path, the decoder's reason, the status and a body prefix.
    public var debugDescription: String {
        "DecodingFailure(at: \"\(codingPath)\", reason: \(reason), status: \(response.status.code), body: \(bodyPrefix.debugDescription))"
    }
}

extension CircuitBreaker.Refusal: LocalizedError {
    /// A short sentence for the user.
    public var errorDescription: String? { "The service is temporarily unavailable." }
}

extension RawResponse {
    /// Header names whose values never appear in descriptions or logs.
    static let redactedHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
    ]

    /// The status, header fields with credentials redacted, and a body prefix.
    var debugSummary: String {
        let headers = headerFields.map { field -> String in
            let name = field.name.canonicalName
            let value = Self.redactedHeaderNames.contains(name) ? "<redacted>" : field.value
            return "\(field.name.rawName): \(value)"
        }
        return "status: \(status.code), headers: [\(headers.joined(separator: ", "))], body: \(bodyPrefix(maxBytes: 256).debugDescription)"
    }
}

/// Standard reason phrases, from our own table: the phrase a server sends is its own text
/// and does not belong in a user-facing message.
enum StatusText {
    static func reason(for code: Int) -> String? {
        switch code {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 423: "Locked"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: nil
        }
    }
}

enum RateLimitText {
    static func seconds(_ duration: Duration) -> String {
        let seconds = max(1, Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).rounded(.up)))
        return seconds == 1 ? "1 second" : "\(seconds) seconds"
    }
}
