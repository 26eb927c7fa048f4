import CourierAsyncHTTPClient
import CourierLocking
import CourierRuntime
import CourierTestServer
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import Testing

// Types shaped like generated code, so the tests exercise the API the generator targets.

struct User: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

/// A Laravel-style error body: `{code, message, detail}`.
struct Problem: Codable, Sendable, Equatable {
    var code: String
    var message: String
    var detail: String?
}

enum UserFailure: EndpointFailure, LocalizedError, Equatable {
    case unauthorized(ErrorBody<Problem>)
    case forbidden(ErrorBody<Problem>)
    case notFound(ErrorBody<Problem>)
    case rateLimited(ErrorBody<Problem>)
    case server(ErrorBody<Problem>)

    static func map(_ response: RawResponse) -> UserFailure? {
        switch response.status.code {
        case 401: .unauthorized(response.errorBody())
        case 403: .forbidden(response.errorBody())
        case 404: .notFound(response.errorBody())
        case 429: .rateLimited(response.errorBody())
        case 500...599: .server(response.errorBody())
        default: nil
        }
    }

    var body: ErrorBody<Problem> {
        switch self {
        case .unauthorized(let body), .forbidden(let body), .notFound(let body), .rateLimited(let body), .server(let body): body
        }
    }

    var errorDescription: String? {
        switch self {
        case .notFound: "That user does not exist."
        default: body.message
        }
    }
}

/// A request whose every part a test can set.
struct Probe<Response: Decodable & Sendable, Failure: EndpointFailure>: APIRequest {
    var method: HTTPRequest.Method = .get
    var path: RequestPath = "/"
    var query: Parameters = [:]
    var headers: Parameters = [:]
    var body: RequestBody?
    var successStatuses: StatusCodes = .successful
    var timeout: Duration?
    var idempotencyKeyHeader: HTTPField.Name?
    var secretHeaderNames: Set<String> = []
    var operationName = "probe"
    var resilience: EndpointResilience = .inherited
}

typealias UserProbe = Probe<User, UserFailure>

struct GetUser: APIRequest {
    typealias Response = User
    typealias Failure = UserFailure
    var id: String
    var method: HTTPRequest.Method { .get }
    var path: RequestPath { RequestPath("/users/{id}", ["id": id]) }
    var operationName: String { "getUser" }
}

struct DeleteUser: APIRequest {
    typealias Failure = UserFailure
    var id: Int
    var method: HTTPRequest.Method { .delete }
    var path: RequestPath { RequestPath("/users/{id}", ["id": id]) }
}

struct Blob: Decodable, Sendable {
    var blob: String
}

let testBaseURL = URL(string: "https://api.test")!

extension Resilience {
    /// One attempt per call, for tests about something other than retries.
    static var singleAttempt: Resilience { Resilience(retryPolicy: .never, sharing: .isolated) }
}

/// A client of ``testBaseURL`` over `stub`. Its budgets and breakers are its own: tests run in
/// parallel against the same host, and process-wide ones would carry one test's failures into
/// another's.
func stubClient(_ stub: StubTransport, _ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
    var configuration = APIClient.Configuration(resilience: Resilience(sharing: .isolated))
    configure(&configuration)
    return APIClient(baseURL: testBaseURL, transport: stub, configuration: configuration)
}

/// Runs `body`, returning the typed error it throws, or `nil` if it succeeded.
func capture<Value, Failure>(_ body: () async throws(APIError<Failure>) -> Value) async -> APIError<Failure>? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// The two real transports, so integration tests run against both.
enum TransportKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession
    case asyncHTTPClient

    func make(maximumResponseBodySize: Int = 32 * 1024 * 1024) -> any HTTPTransport {
        switch self {
        case .urlSession: URLSessionTransport(maximumResponseBodySize: maximumResponseBodySize)
        case .asyncHTTPClient: AsyncHTTPClientTransport(client: SharedHTTPClient.client, maximumResponseBodySize: maximumResponseBodySize)
        }
    }

    var testDescription: String { rawValue }
}

enum SharedHTTPClient {
    /// One client for the whole test process; statics are never deinitialised, so it never
    /// trips AsyncHTTPClient's shutdown check.
    static let client = AsyncHTTPClientTransport.makeHTTPClient()
}

/// Starts a server, runs `body`, and stops the server even when `body` throws.
func withServer<T>(_ body: (TestServer) async throws -> T) async throws -> T {
    let server = try await TestServer.start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

func client(for server: TestServer, _ kind: TransportKind, maximumResponseBodySize: Int = 32 * 1024 * 1024,
            _ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
    // Budgets and breakers of the client's own, so that a reused loopback port never meets
    // another test's process-wide state.
    var configuration = APIClient.Configuration(resilience: Resilience(sharing: .isolated))
    // Long enough that no attempt times out on a starved machine (a CI run saw a 5 MB upload
    // and an event stream's head each take over 5 s there); a hung test still ends at its
    // suite's time limit. Tests about timeouts set their own.
    configuration.timeouts.attempt = .seconds(30)
    configure(&configuration)
    return APIClient(baseURL: server.baseURL, transport: kind.make(maximumResponseBodySize: maximumResponseBodySize), configuration: configuration)
}

/// A port nothing listens on, and nothing will while the tests run; see
/// ``TestServer/portWithNothingListening()`` for why a stopped server's port will not do.
func closedPort() async throws -> Int {
    try TestServer.portWithNothingListening()
}

/// Collects log records in memory.
final class LogRecorder: @unchecked Sendable {
    struct Record {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let storage = Locked<[Record]>([])

    var records: [Record] {
        storage.value
    }

    func append(_ record: Record) {
        storage.withLock { $0.append(record) }
    }

    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "courier.test") { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    /// Everything logged, as one string, for "never contains" checks.
    var allText: String {
        records.map { record in
            record.message + " " + record.metadata.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        }.joined(separator: "\n")
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(Record(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
        }
    }
}

/// Collects client events in memory.
final class EventRecorder: @unchecked Sendable {
    private let storage = Locked<[ClientEvent]>([])

    var events: [ClientEvent] {
        storage.value
    }

    var hook: @Sendable (ClientEvent) -> Void {
        { [storage] event in
            storage.withLock { $0.append(event) }
        }
    }
}
