import Foundation
import HTTPTypes

/// One endpoint call, described as data.
///
/// Generated request types conform to this protocol and only state facts: the method,
/// the path template and its values, the query, headers and body, which statuses mean
/// success, what comes back and how failures map. ``APIClient`` does the work.
///
/// ```swift
/// struct GetUser: APIRequest {
///     typealias Response = User
///     typealias Failure = GetUserFailure
///     var id: Int
///     var method: HTTPRequest.Method { .get }
///     var path: RequestPath { RequestPath("/users/{id}", ["id": id]) }
/// }
/// ```
public protocol APIRequest: Sendable {
    /// What a successful response decodes to; ``NoContent`` for none. A `Decodable` type decodes
    /// from the body, a ``ResponseDecodable`` one from the whole response (see
    /// ``decodeResponse(from:)``).
    associatedtype Response: Sendable = NoContent
    /// The endpoint's documented failures; `Never` (the default) for an endpoint that documents none.
    associatedtype Failure: EndpointFailure = Never

    /// The HTTP method.
    var method: HTTPRequest.Method { get }
    /// The path template and the values for its placeholders.
    var path: RequestPath { get }
    /// The query items; empty by default. `nil` values are left out.
    var query: Parameters { get }
    /// Header fields for this call, added after the client's defaults; empty by default.
    var headers: Parameters { get }
    /// The body; `nil` by default.
    var body: RequestBody? { get }
    /// The statuses that mean success; any 2xx by default.
    var successStatuses: StatusCodes { get }
    /// Whether sending the request twice has the same effect as sending it once.
    /// Defaults to the method's semantics (GET, HEAD, OPTIONS, TRACE, PUT, DELETE).
    var isIdempotent: Bool { get }
    /// The header in which the client sends an idempotency key, generated once per call and
    /// kept on every attempt, such as `.idempotencyKey`
    /// (`Idempotency-Key`) or a service's own `X-Idempotency-Key`; `nil` (no key) by default.
    /// A request with a key may be retried although its method is not idempotent.
    var idempotencyKeyHeader: HTTPField.Name? { get }
    /// This call's per-attempt timeout, overriding the client's; `nil` by default.
    var timeout: Duration? { get }
    /// How this endpoint departs from the client's retry and circuit-breaker setup: its own
    /// attempt count or policy, an opt-in to retrying a POST or PATCH, its own breaker or
    /// none. ``EndpointResilience/inherited`` (no change) by default; generated code sets it
    /// from the spec's per-endpoint resilience hints.
    var resilience: EndpointResilience { get }
    /// Header names whose values must never be logged (beyond `Authorization`,
    /// `Cookie` and their kin, which never are); empty by default.
    var secretHeaderNames: Set<String> { get }
    /// A stable name for logs and events, such as `getUser`; the type name by default.
    var operationName: String { get }
    /// Which credentials this call sends: ``AuthenticationRequirement/inherited`` (the client's)
    /// by default; ``AuthenticationRequirement/none`` for a public endpoint, or the named
    /// schemes it accepts. Generated code sets it from the endpoint's `auth:`.
    var authentication: AuthenticationRequirement { get }

    /// Decodes a response whose status this request counts as success.
    ///
    /// You rarely write it: the default decodes the body with ``RawResponse/decodeBody(_:)`` when
    /// `Response` is `Decodable`, and calls ``ResponseDecodable/init(decoding:)`` when it is
    /// ``ResponseDecodable`` (several success statuses with different bodies). A `Response` that is
    /// neither does not compile, so the choice is made when the request type is written, never
    /// found out when a response arrives.
    static func decodeResponse(from response: RawResponse) throws(DecodingFailure) -> Response
}

extension APIRequest where Response: Decodable {
    /// The body decoded with ``RawResponse/decodeBody(_:)``.
    public static func decodeResponse(from response: RawResponse) throws(DecodingFailure) -> Response {
        try response.decodeBody(Response.self)
    }
}

extension APIRequest where Response: ResponseDecodable {
    /// The whole response decoded with ``ResponseDecodable/init(decoding:)``.
    public static func decodeResponse(from response: RawResponse) throws(DecodingFailure) -> Response {
        try Response(decoding: response)
    }
}

extension APIRequest where Response: ResponseDecodable & Decodable {
    /// The whole response decoded with ``ResponseDecodable/init(decoding:)``, which knows the
    /// status, rather than the body alone.
    public static func decodeResponse(from response: RawResponse) throws(DecodingFailure) -> Response {
        try Response(decoding: response)
    }
}

extension APIRequest {
    /// No query items.
    public var query: Parameters { [:] }
    /// No extra header fields.
    public var headers: Parameters { [:] }
    /// No body.
    public var body: RequestBody? { nil }
    /// Any 2xx status.
    public var successStatuses: StatusCodes { .successful }
    /// Idempotent when the method is (RFC 9110, section 9.2.2).
    public var isIdempotent: Bool {
        switch method {
        case .get, .head, .options, .trace, .put, .delete: true
        default: false
        }
    }
    /// No idempotency key.
    public var idempotencyKeyHeader: HTTPField.Name? { nil }
    /// The client's timeout.
    public var timeout: Duration? { nil }
    /// The client's retry and circuit-breaker setup, unchanged.
    public var resilience: EndpointResilience { .inherited }
    /// No spec-marked secret headers.
    public var secretHeaderNames: Set<String> { [] }
    /// The type's name.
    public var operationName: String { String(describing: Self.self) }
    /// The client's authentication.
    public var authentication: AuthenticationRequirement { .inherited }
}

/// A path template such as `/users/{id}/posts/{postID}` with the values for its placeholders.
///
/// Each value is percent-encoded as one segment, so a value such as `../admin` or
/// `a/b?c#d` can never change which resource is addressed. The template itself, never
/// the filled-in path, is what logs and events show.
public struct RequestPath: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The template, with `{name}` placeholders.
    public var template: String
    /// The placeholder values by name.
    public var values: [String: ParameterValue]

    /// Creates a path from a template and its values.
    public init(_ template: String, _ values: KeyValuePairs<String, any ParameterConvertible> = [:]) {
        self.template = template
        var collected: [String: ParameterValue] = [:]
        for (name, value) in values {
            collected[name] = value.parameterValue
        }
        self.values = collected
    }

    /// Creates a path without placeholders.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

/// A set of HTTP status codes, written as a list of codes and ranges.
public struct StatusCodes: Sendable, Hashable, ExpressibleByArrayLiteral, ExpressibleByIntegerLiteral {
    /// The ranges, each inclusive.
    public var ranges: [ClosedRange<Int>]

    /// Creates a set from ranges.
    public init(_ ranges: [ClosedRange<Int>]) {
        self.ranges = ranges
    }

    /// Creates a set from single codes, such as `[200, 201]`.
    public init(arrayLiteral codes: Int...) {
        ranges = codes.map { $0...$0 }
    }

    /// Creates a set holding one code.
    public init(integerLiteral code: Int) {
        ranges = [code...code]
    }

    /// Any 2xx status.
    public static let successful = StatusCodes([200...299])

    /// Whether `status` is in the set.
    public func contains(_ status: HTTPResponse.Status) -> Bool {
        ranges.contains { $0.contains(status.code) }
    }
}

/// What a request sends as its body.
public enum RequestBody: Sendable {
    /// A value encoded with the client's JSON encoder, sent as `application/json`.
    case json(any Encodable & Sendable)
    /// Bytes sent as given with the content type given.
    case data(Data, contentType: String)
    /// A body read as it is sent, such as a file (``HTTPBody/init(contentsOf:chunkSize:)``), with
    /// the content type given. A body that can be read only once is never retried.
    case stream(HTTPBody, contentType: String)
    /// A `multipart/form-data` form, sent with its boundary in `Content-Type`.
    case multipart(MultipartForm)
    /// Fields sent as `application/x-www-form-urlencoded`.
    case form(Parameters)
    /// A model sent as `application/x-www-form-urlencoded` fields, nested objects and arrays
    /// spelled per `style` (`metadata[order_id]=6735`, `expand[]=customer` by default) and
    /// names and dates per the client's ``JSONCoding``; see ``FormEncoder``.
    case formFields(any Encodable & Sendable, style: FormEncoder.Style)
    /// Text sent as UTF-8 under `contentType` (`text/plain`, `text/csv`…); `; charset=utf-8` is
    /// added when the content type names no charset, so that no server reads the bytes as ASCII
    /// or Latin-1.
    case text(String, contentType: String)
    /// A `multipart/form-data` form of a model's fields, each a text part named in `style`
    /// (nested values as `address[city]`) and spelled per the client's ``JSONCoding``, followed by
    /// file parts; `nil` files are left out.
    case multipartFields((any Encodable & Sendable)?, files: [(name: String, file: MultipartForm.File?)], style: FormEncoder.Style)
}
