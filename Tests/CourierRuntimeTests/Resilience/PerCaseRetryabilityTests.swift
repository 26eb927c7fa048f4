import CourierRuntime
import CourierTestServer
import Foundation
import HTTPTypes
import Testing

/// A failure enum written as the generator will write one for a spec whose cases say
/// `retryable: true|false`: a 409 `lock_timeout` is worth repeating although 409 is not, a 503
/// `maintenance` is not although 503 is, and any other 503 follows the status rule.
enum LockFailure: EndpointFailure, Equatable {
    case lockTimeout(ErrorBody<Problem>)
    case conflict(ErrorBody<Problem>)
    case maintenance(ErrorBody<Problem>)
    case unavailable(ErrorBody<Problem>)

    static func map(_ response: RawResponse) -> LockFailure? {
        switch response.status.code {
        case 409:
            switch response.discriminator(at: "code") {
            case "lock_timeout": .lockTimeout(response.errorBody())
            default: .conflict(response.errorBody())
            }
        case 503:
            switch response.discriminator(at: "code") {
            case "maintenance": .maintenance(response.errorBody())
            default: .unavailable(response.errorBody())
            }
        default: nil
        }
    }

    var isRetryable: Bool? {
        switch self {
        case .lockTimeout: true
        case .maintenance: false
        case .conflict, .unavailable: nil
        }
    }
}

struct GetLock: APIRequest {
    typealias Response = User
    typealias Failure = LockFailure
    var name: String
    var method: HTTPRequest.Method = .get
    var path: RequestPath { RequestPath("/locks/{name}", ["name": name]) }
    var operationName: String { "getLock" }
}

/// A case's own retryability beats the status rule, in the client's retry loop (counted at
/// the real loopback server, through both real transports) and in ``APIError/isRetryable``.
@Suite(.timeLimit(.minutes(10))) struct PerCaseRetryabilityTests {
    static func reply(_ status: Int, code: String) -> TestServer.Behavior {
        .respond(.json(#"{"code":"\#(code)","message":"m"}"#, status: status))
    }

    /// Sends one call whose every attempt gets `behavior`; the error and the server's count.
    static func call(_ behavior: TestServer.Behavior, method: HTTPRequest.Method = .get, _ kind: TransportKind) async throws -> (APIError<LockFailure>?, Int) {
        try await withServer { server in
            server.route(method.rawValue, "/locks/a", behavior)
            let api = client(for: server, kind) {
                $0.resilience = Resilience(retryPolicy: FaultInjectionTests.quickPolicy, retryBudget: nil, sharing: .isolated)
            }
            let error = await capture { () async throws(APIError<LockFailure>) -> User in try await api.send(GetLock(name: "a", method: method)) }
            return (error, server.requestCount(method.rawValue, "/locks/a"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func a409CaseMarkedRetryableIsRetried(kind: TransportKind) async throws {
        let (error, received) = try await Self.call(Self.reply(409, code: "lock_timeout"), kind)
        #expect(received == FaultInjectionTests.quickPolicy.maxAttempts)
        #expect(error?.endpointFailure.map { if case .lockTimeout = $0 { true } else { false } } == true)
        #expect(error?.isRetryable == true)
    }

    @Test(arguments: TransportKind.allCases)
    func another409FollowsTheStatusRuleAndIsNotRetried(kind: TransportKind) async throws {
        let (error, received) = try await Self.call(Self.reply(409, code: "duplicate"), kind)
        #expect(received == 1)
        #expect(error?.isRetryable == false)
    }

    @Test(arguments: TransportKind.allCases)
    func a503CaseMarkedNotRetryableIsNotRetried(kind: TransportKind) async throws {
        let (error, received) = try await Self.call(Self.reply(503, code: "maintenance"), kind)
        #expect(received == 1)
        #expect(error?.endpointFailure.map { if case .maintenance = $0 { true } else { false } } == true)
        #expect(error?.isRetryable == false)
    }

    @Test(arguments: TransportKind.allCases)
    func another503FollowsTheStatusRuleAndIsRetried(kind: TransportKind) async throws {
        let (error, received) = try await Self.call(Self.reply(503, code: "overloaded"), kind)
        #expect(received == FaultInjectionTests.quickPolicy.maxAttempts)
        #expect(error?.isRetryable == true)
    }

    @Test(arguments: TransportKind.allCases)
    func aRetryableCaseStillNeedsARequestThatIsSafeToRepeat(kind: TransportKind) async throws {
        // A POST without an Idempotency-Key may have changed something: the case says the
        // failure is transient, not that repeating this request is harmless.
        let (error, received) = try await Self.call(Self.reply(409, code: "lock_timeout"), method: .post, kind)
        #expect(received == 1)
        #expect(error?.isRetryable == true)
    }

    @Test func thePolicyFollowsTheCaseOverTheStatus() {
        let policy = RetryPolicy.default
        let get = RetryTraits(method: .get)
        #expect(policy.isRetryable(.status(409, retryable: true), for: get))
        #expect(!policy.isRetryable(.status(409), for: get))
        #expect(!policy.isRetryable(.status(503, retryable: false), for: get))
        #expect(policy.isRetryable(.status(503), for: get))
        #expect(policy.decision(after: .status(409, retryable: true), attempt: 1, of: RetryTraits(method: .post), remaining: nil, jitter: 0) == .stop(.notIdempotent))
        #expect(policy.decision(after: .status(503, retryable: false), attempt: 1, of: get, remaining: nil, jitter: 0) == .stop(.notRetryable))
        // The retryable case still honours the server's Retry-After.
        #expect(policy.decision(after: .status(409, retryAfter: .seconds(2), retryable: true), attempt: 1, of: get, remaining: nil, jitter: 0) == .retry(after: .seconds(2)))
    }

    @Test func endpointFailuresSayNothingByDefault() {
        #expect(UserFailure.notFound(ErrorBody(value: nil, raw: Data())).isRetryable == nil)
        let raw = RawResponse(status: 503)
        #expect(APIError<UserFailure>.endpoint(.server(ErrorBody(value: nil, raw: Data())), raw).isRetryable)
    }
}
