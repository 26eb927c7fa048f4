import Foundation
import HTTPTypes

/// A request turned into what goes on the wire, ready for any number of attempts.
struct PreparedRequest: Sendable {
    var head: HTTPRequest
    var body: HTTPBody?
    /// Whether a successful response's body is handed to the caller as it arrives instead of
    /// being buffered (``APIClient/stream(_:resilience:)``).
    var streamsResponse = false
    var summary: RequestSummary
    var attemptTimeout: Duration
    var isIdempotent: Bool
    var idempotencyKey: String?
    var secretHeaderNames: Set<String>
    /// The statuses that end the call successfully, so the retry loop stops at them.
    var successStatuses: StatusCodes
    /// The server's budget and breaker key, worked out once per client from the base URL.
    var hostKey: Resilience.Host?
    /// What the endpoint's documented failure for a response says about repeating it
    /// (``EndpointFailure/isRetryable``); `nil` for an endpoint that documents no failure, so
    /// that its failed attempts are not mapped for nothing.
    var failureRetryability: (@Sendable (RawResponse) -> Bool?)?
    /// How the configuration's instrument observes this call; `nil` when there is no
    /// instrument or it leaves the call alone.
    var observation: (any CallObservation)?
}

/// Where requests go: the parts of the base URL the builder needs, checked once.
/// Carries an ``InvalidRequest/Reason`` through typed throws before the operation is known.
struct InvalidReason: Error {
    var reason: InvalidRequest.Reason
}

struct BaseAddress: Sendable {
    var scheme: String
    var authority: String
    var pathPrefix: String
    /// The key of every request's server; requests differ only in path, so it is read here
    /// once rather than parsed out of each request's authority.
    var hostKey: Resilience.Host?

    init(_ url: URL) throws(InvalidReason) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), !scheme.isEmpty,
              let host = components.host, !host.isEmpty
        else { throw InvalidReason(reason: .invalidBaseURL(url.absoluteString)) }
        self.scheme = scheme
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        authority = components.port.map { "\(hostPart):\($0)" } ?? hostPart
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        pathPrefix = prefix
        hostKey = Resilience.Host(HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/"))
    }
}

enum RequestBuilder {
    static func prepare<Request: APIRequest>(
        _ request: Request,
        base: BaseAddress,
        configuration: APIClient.Configuration
    ) throws(InvalidRequest) -> PreparedRequest {
        let name = request.operationName
        func fail(_ reason: InvalidRequest.Reason) -> InvalidRequest { InvalidRequest(reason, operationName: name) }

        let requestPath = request.path
        let coding = configuration.coding
        var path = base.pathPrefix
        do throws(InvalidReason) {
            path += try fillTemplate(requestPath, coding: coding)
        } catch {
            throw fail(error.reason)
        }
        if path.isEmpty { path = "/" }
        do throws(InvalidReason) {
            let query = try encodeForm(request.query, coding: coding, query: configuration.query, encoding: .query)
            if !query.isEmpty { path += "?" + query }
        } catch {
            throw fail(error.reason)
        }

        var fields = configuration.defaultHeaderFields
        for item in request.headers.items {
            guard let fieldName = HTTPField.Name(item.name) else { throw fail(.invalidHeaderName(item.name)) }
            let value = ParameterText.headerText(item.value, coding: coding)
            // HTTPField would quietly turn CR/LF into spaces; an injection attempt must fail loudly.
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw fail(.headerValueContainsLineBreak(name: item.name))
            }
            fields[fieldName] = value
        }

        var body: HTTPBody?
        switch request.body {
        case nil:
            break
        case .json(let value):
            do {
                body = HTTPBody(try coding.makeRequestEncoder().encode(value))
            } catch {
                throw fail(.bodyEncodingFailed(String(describing: error)))
            }
            if !fields.contains(.contentType) { fields[.contentType] = "application/json" }
        case .data(let data, let contentType):
            body = HTTPBody(data)
            if !fields.contains(.contentType) { fields[.contentType] = contentType }
        case .stream(let stream, let contentType):
            body = stream
            if !fields.contains(.contentType) { fields[.contentType] = contentType }
        case .multipart(let form):
            do throws(MultipartForm.EncodingError) {
                let (encoded, contentType) = try form.encoded()
                body = encoded
                // The boundary in the field must be the one in the body, whatever else was set.
                fields[.contentType] = contentType
            } catch {
                throw fail(.bodyEncodingFailed(error.description))
            }
        case .form(let parameters):
            do throws(InvalidReason) {
                body = HTTPBody(Data(try encodeForm(parameters, coding: coding, query: configuration.query, encoding: .form).utf8))
            } catch {
                throw fail(.bodyEncodingFailed(String(describing: error.reason)))
            }
            if !fields.contains(.contentType) { fields[.contentType] = "application/x-www-form-urlencoded" }
        case .multipartFields(let value, let files, let style):
            var parts: [MultipartForm.Part] = []
            if let value {
                do {
                    let pairs = try FormEncoder(coding: coding, style: style, booleans: configuration.query.booleanStyle).pairs(value)
                    parts = pairs.map { MultipartForm.Part.field($0.name, $0.value) }
                } catch {
                    throw fail(.bodyEncodingFailed(String(describing: error)))
                }
            }
            for (name, file) in files {
                guard let file else { continue }
                var headerFields = file.headerFields
                for item in file.partHeaders.items {
                    guard let fieldName = HTTPField.Name(item.name) else { throw fail(.invalidHeaderName(item.name)) }
                    let value = ParameterText.headerText(item.value, coding: coding)
                    // HTTPField would quietly turn CR/LF into spaces; an injection attempt must fail loudly.
                    guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                        throw fail(.bodyEncodingFailed(MultipartForm.EncodingError.invalidPartHeader(partName: name, field: item.name).description))
                    }
                    headerFields[fieldName] = value
                }
                parts.append(MultipartForm.Part(name: name, filename: file.filename, contentType: file.contentType,
                                                headerFields: headerFields, body: file.body))
            }
            do throws(MultipartForm.EncodingError) {
                let (encoded, contentType) = try MultipartForm(parts: parts).encoded()
                body = encoded
                fields[.contentType] = contentType
            } catch {
                throw fail(.bodyEncodingFailed(error.description))
            }
        case .formFields(let value, let style):
            do {
                body = HTTPBody(try FormEncoder(coding: coding, style: style, booleans: configuration.query.booleanStyle).encode(value))
            } catch {
                throw fail(.bodyEncodingFailed(String(describing: error)))
            }
            if !fields.contains(.contentType) { fields[.contentType] = "application/x-www-form-urlencoded" }
        case .text(let text, let contentType):
            body = HTTPBody(Data(text.utf8))
            if !fields.contains(.contentType) { fields[.contentType] = textContentType(contentType) }
        }
        // `contains`, not the subscript, which joins every value of the name into a new string.
        if !fields.contains(.accept) { fields[.accept] = "application/json" }

        var idempotencyKey: String?
        if let keyName = request.idempotencyKeyHeader {
            if let existing = fields[keyName] {
                idempotencyKey = existing
            } else {
                let key = UUID().uuidString.lowercased()
                fields[keyName] = key
                idempotencyKey = key
            }
        }

        let head = HTTPRequest(method: request.method, scheme: base.scheme, authority: base.authority, path: path, headerFields: fields)
        return PreparedRequest(
            head: head,
            body: body,
            summary: RequestSummary(operationName: name, method: request.method, pathTemplate: requestPath.template, host: base.authority),
            attemptTimeout: request.timeout ?? configuration.timeouts.attempt,
            isIdempotent: request.isIdempotent,
            idempotencyKey: idempotencyKey,
            secretHeaderNames: Set(request.secretHeaderNames.map { $0.lowercased() }),
            successStatuses: request.successStatuses,
            hostKey: base.hostKey,
            failureRetryability: failureRetryability(of: Request.Failure.self)
        )
    }

    /// Asks `Failure` what its mapping of a response says about repeating it; `nil` for an
    /// endpoint that documents no failure, so that its failed attempts are not mapped for nothing.
    static func failureRetryability<Failure: EndpointFailure>(of failure: Failure.Type) -> (@Sendable (RawResponse) -> Bool?)? {
        if failure == Never.self { return nil }
        return { response in Failure.map(response)?.isRetryable }
    }

    /// Fills `{name}` placeholders, each value percent-encoded as a single segment, and
    /// percent-encodes the template's literal text, so the result is a request target that
    /// transports send as it is and nothing encodes again.
    ///
    /// A `%` in the template is a percent sign the spec author wrote, not the start of an
    /// escape: `/a%20b` is sent as `/a%2520b`. Reading it as an escape would make the same
    /// characters mean different things in a literal and in a value.
    static func fillTemplate(_ path: RequestPath, coding: JSONCoding) throws(InvalidReason) -> String {
        var result = ""
        var remainder = path.template[...]
        while let open = remainder.firstIndex(of: "{") {
            result += ParameterText.percentEncode(remainder[..<open], keeping: ParameterText.isPathCharacter)
            guard let close = remainder[open...].firstIndex(of: "}") else {
                result += ParameterText.percentEncode(remainder[open...], keeping: ParameterText.isPathCharacter)
                return result
            }
            let name = String(remainder[remainder.index(after: open)..<close])
            guard let value = path.values[name] else { throw InvalidReason(reason: .missingPathValue(name)) }
            var segment = ParameterText.percentEncode(ParameterText.pathText(value, coding: coding))
            // `.` and `..` as a whole segment would be resolved away by URL normalisation.
            if segment == "." || segment == ".." {
                segment = segment.replacingOccurrences(of: ".", with: "%2E")
            }
            result += segment
            remainder = remainder[remainder.index(after: close)...]
        }
        result += ParameterText.percentEncode(remainder, keeping: ParameterText.isPathCharacter)
        if !result.isEmpty && !result.hasPrefix("/") { result = "/" + result }
        return result
    }

    /// `content type; charset=utf-8` unless the content type already names a charset: text
    /// bodies are always sent as UTF-8.
    static func textContentType(_ contentType: String) -> String {
        let parameters = contentType.split(separator: ";").dropFirst()
        let namesCharset = parameters.contains { $0.drop { $0 == " " || $0 == "\t" }.lowercased().hasPrefix("charset=") }
        return namesCharset ? contentType : contentType + "; charset=utf-8"
    }

    /// A query string or form body: `name=value` pairs joined by `&`, each percent-encoded per
    /// `encoding` (RFC 3986 in a query, the WHATWG form rules in a body).
    static func encodeForm(_ parameters: Parameters, coding: JSONCoding, query: QueryEncoding,
                           encoding: FormByteEncoding) throws(InvalidReason) -> String {
        var bytes: [UInt8] = []
        func add(_ pair: FormPair) {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: "&")) }
            pair.write(into: &bytes, encoding: encoding)
        }
        func text(_ value: ParameterValue) -> String { ParameterText.scalarText(value, coding: coding, booleans: query.booleanStyle) }
        for item in parameters.items {
            switch item.value {
            case .list(let values):
                switch query.arrayStyle {
                case .repeatedKey:
                    values.forEach { add(FormPair(name: item.name, pieces: [text($0)])) }
                case .bracketed:
                    values.forEach { add(FormPair(name: item.name + "[]", pieces: [text($0)])) }
                case .commaSeparated:
                    add(FormPair(name: item.name, pieces: values.map(text)))
                }
            case .joined(let values, let separator):
                add(FormPair(name: item.name, pieces: values.map(text), separator: separator.rawValue))
            case .object(let object):
                let encoder = FormEncoder(coding: coding, style: .brackets, booleans: query.booleanStyle)
                do {
                    try encoder.collect(object.value, named: item.name).forEach(add)
                } catch {
                    throw InvalidReason(reason: .queryEncodingFailed(name: item.name, reason: String(describing: error)))
                }
            default:
                add(FormPair(name: item.name, pieces: [text(item.value)]))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

}

extension HTTPField.Name {
    /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header).
    public static var idempotencyKey: HTTPField.Name { HTTPField.Name("Idempotency-Key")! }
}
