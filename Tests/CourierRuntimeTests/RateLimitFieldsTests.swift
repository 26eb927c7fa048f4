@testable import CourierRuntime
import Foundation
import HTTPTypes
import Testing

/// A service's own rate-limit names (`RateLimit.Fields`): Qiita's headers, Discord's fractional
/// reset and body `retry_after`, and what the retry loop's demand is made of.
@Suite struct RateLimitFieldsTests {
    static let received = Date(timeIntervalSince1970: 1_700_000_000)

    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    static let qiita = RateLimit.Fields(limit: "Rate-Limit", remaining: "Rate-Remaining", reset: "Rate-Reset")
    static let discord = RateLimit.Fields(resetAfter: "X-RateLimit-Reset-After", retryAfterField: "retry_after")

    @Test func qiitaNamesAreReadAndWinOverTheCommonOnes() {
        let headers = Self.fields([
            ("Rate-Limit", "1000"), ("Rate-Remaining", "0"), ("Rate-Reset", "1700003600"),
            ("X-RateLimit-Limit", "60"), ("X-RateLimit-Remaining", "59"),
        ])
        let named = RateLimit(headerFields: headers, body: Data(), names: Self.qiita, receivedAt: Self.received)
        #expect(named.limit == 1000)
        #expect(named.remaining == 0)
        #expect(named.resetsAt == Date(timeIntervalSince1970: 1_700_003_600))
        #expect(named.retryDate == Date(timeIntervalSince1970: 1_700_003_600))
        // Without the names, the same response says what its common fields say.
        let common = RateLimit(headerFields: headers, receivedAt: Self.received)
        #expect(common.limit == 60)
        #expect(common.remaining == 59)
        #expect(common.resetsAt == nil)
    }

    @Test func discordResetAfterIsFractionalSecondsFromReceipt() {
        let headers = Self.fields([("X-RateLimit-Reset-After", "64.57"), ("X-RateLimit-Remaining", "0")])
        let rateLimit = RateLimit(headerFields: headers, body: Data(), names: Self.discord, receivedAt: Self.received)
        #expect(rateLimit.resetsAt == Self.received.addingTimeInterval(64.57))
        #expect(rateLimit.remaining == 0)
        #expect(rateLimit.retryDate == Self.received.addingTimeInterval(64.57))
    }

    @Test(arguments: ["-1", "soon", "", "1e3", "nan", "1.2.3"])
    func garbageResetAfterIsIgnored(value: String) {
        let headers = Self.fields([("X-RateLimit-Reset-After", value)])
        #expect(RateLimit(headerFields: headers, body: Data(), names: Self.discord, receivedAt: Self.received).resetsAt == nil)
    }

    @Test func bodyRetryAfterKeepsItsFractionForTheLoopAndRoundsUpForRateLimit() {
        let body = Data(#"{"message": "You are being rate limited.", "retry_after": 1.25, "global": false}"#.utf8)
        #expect(Self.discord.bodyRetryDelay(in: body) == .milliseconds(1250))
        let rateLimit = RateLimit(headerFields: HTTPFields(), body: body, names: Self.discord, receivedAt: Self.received)
        #expect(rateLimit.retryAfter == .seconds(2))
        // Without the field's name, the body is not read.
        #expect(RateLimit.Fields.standard.bodyRetryDelay(in: body) == nil)
        #expect(RateLimit(headerFields: HTTPFields(), body: body, names: .standard).retryAfter == nil)
    }

    @Test func theRetryAfterHeaderWinsOverTheBody() {
        let body = Data(#"{"retry_after": 1.25}"#.utf8)
        let headers = Self.fields([("Retry-After", "7")])
        #expect(RateLimit(headerFields: headers, body: body, names: Self.discord).retryAfter == .seconds(7))
    }

    @Test(arguments: [
        #"{"retry_after": -1}"#, #"{"retry_after": "soon"}"#, #"{"retry_after": null}"#, #"{"retry_after": [1]}"#,
        #"{"other": 1}"#, "not json", #"{"retry_after": 1"#, "",
    ])
    func unusableBodyRetryAfterIsNone(body: String) {
        #expect(Self.discord.bodyRetryDelay(in: Data(body.utf8)) == nil)
    }

    @Test func aNestedFieldAndAHugeValue() {
        let nested = RateLimit.Fields(retryAfterField: "error.retry_after")
        #expect(nested.bodyRetryDelay(in: Data(#"{"error": {"retry_after": 0.5}}"#.utf8)) == .milliseconds(500))
        // Far beyond any policy's limit, and still a Duration rather than an overflow.
        #expect(Self.discord.bodyRetryDelay(in: Data(#"{"retry_after": 1e300}"#.utf8)) == .seconds(1_000_000_000))
    }

    @Test func aLargeBodyIsReadInOnePass() {
        // 1 MB of values before the field, and a document nested past JSONDecoder's depth limit:
        // the scanner walks each once and builds none of them.
        let filler = String(repeating: #"{"a": [1, "two", null, true]},"#, count: 40_000)
        let large = Data(#"{"items": [\#(filler) 0], "retry_after": 2.5}"#.utf8)
        #expect(large.count > 1_000_000)
        #expect(Self.discord.bodyRetryDelay(in: large) == .milliseconds(2500))
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect(Self.discord.bodyRetryDelay(in: deep) == nil)
    }

    @Test func theLoopsDemandIsTheBodyWhenNoHeaderSays() {
        let call = PreparedRequest(
            head: HTTPRequest(method: .get, scheme: "https", authority: "discord.test", path: "/channels/1"), body: nil,
            summary: RequestSummary(operationName: "getChannel", method: .get, pathTemplate: "/channels/{id}", host: "discord.test"),
            attemptTimeout: .seconds(10), isIdempotent: false, idempotencyKey: nil, secretHeaderNames: [],
            successStatuses: .successful, hostKey: nil, failureRetryability: nil)
        let head = HTTPResponse(status: .tooManyRequests)
        let body = Data(#"{"retry_after": 0.75}"#.utf8)
        let fromBody = APIClient.assess(.response(TransportResponse(head: head, body: body)), of: call, coding: JSONCoding(),
                                        rateLimitFields: Self.discord)
        #expect(fromBody == .status(.tooManyRequests, retryAfter: .milliseconds(750), retryable: nil))
        let withoutNames = APIClient.assess(.response(TransportResponse(head: head, body: body)), of: call, coding: JSONCoding())
        #expect(withoutNames == .status(.tooManyRequests, retryAfter: nil, retryable: nil))
        // The policy waits exactly that long: a body's fraction is not rounded up to a second.
        let decision = RetryPolicy.default.decision(after: fromBody ?? .invalidRequest, attempt: 1,
                                                    of: RetryTraits(method: .get, hasIdempotencyKey: false, callerOptedIn: false),
                                                    remaining: nil, jitter: 1)
        #expect(decision == .retry(after: .milliseconds(750)))
    }
}
