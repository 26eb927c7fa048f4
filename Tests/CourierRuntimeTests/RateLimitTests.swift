import CourierRuntime
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct RateLimitTests {
    private let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func fields(_ pairs: [String: String]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            fields[HTTPField.Name(name)!] = value
        }
        return fields
    }

    @Test(arguments: [
        ("120", RateLimit.RetryAfter.seconds(120)),
        (" 0 ", .seconds(0)),
        ("Sun, 06 Nov 1994 08:49:37 GMT", .date(Date(timeIntervalSince1970: 784_111_777))),
        ("Sunday, 06-Nov-94 08:49:37 GMT", .date(Date(timeIntervalSince1970: 784_111_777))),
        ("Sun Nov  6 08:49:37 1994", .date(Date(timeIntervalSince1970: 784_111_777))),
    ])
    func retryAfterParsesBothForms(text: String, expected: RateLimit.RetryAfter) {
        #expect(RateLimit.RetryAfter(headerValue: text) == expected)
    }

    @Test(arguments: ["-5", "soon", "", "1.5", "12abc", "Sun, 32 Nov 1994 08:49:37 GMT"])
    func retryAfterIgnoresGarbage(text: String) {
        #expect(RateLimit.RetryAfter(headerValue: text) == nil)
    }

    @Test func retryAfterDelaysCountFromNowAndNeverGoNegative() {
        #expect(RateLimit.RetryAfter.seconds(30).delay(from: now) == .seconds(30))
        #expect(RateLimit.RetryAfter.date(now.addingTimeInterval(12.2)).delay(from: now) == .seconds(13))
        #expect(RateLimit.RetryAfter.date(now.addingTimeInterval(-60)).delay(from: now) == .zero)
        #expect(RateLimit.RetryAfter.seconds(30).date(relativeTo: now) == now.addingTimeInterval(30))
    }

    @Test func legacyXRateLimitFieldsWithEpochAndDeltaResets() {
        let epoch = RateLimit(headerFields: fields(["X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1750003600"]), receivedAt: now)
        #expect(epoch.limit == 60)
        #expect(epoch.remaining == 0)
        #expect(epoch.resetsAt == Date(timeIntervalSince1970: 1_750_003_600))
        #expect(epoch.retryDate == Date(timeIntervalSince1970: 1_750_003_600))
        let delta = RateLimit(headerFields: fields(["X-RateLimit-Reset": "90"]), receivedAt: now)
        #expect(delta.resetsAt == now.addingTimeInterval(90))
        #expect(delta.retryDate == nil)
    }

    @Test func ietfFieldsInEveryDraftShape() {
        let separate = RateLimit(headerFields: fields(["RateLimit-Limit": "100", "RateLimit-Remaining": "7", "RateLimit-Reset": "30"]), receivedAt: now)
        #expect(separate.limit == 100 && separate.remaining == 7 && separate.resetsAt == now.addingTimeInterval(30))
        let combined = RateLimit(headerFields: fields(["RateLimit": "limit=50, remaining=0, reset=10"]), receivedAt: now)
        #expect(combined.limit == 50 && combined.remaining == 0 && combined.retryDate == now.addingTimeInterval(10))
        let structured = RateLimit(headerFields: fields(["RateLimit": #""default";r=3;t=45"#, "RateLimit-Policy": #""default";q=500;w=3600"#]), receivedAt: now)
        #expect(structured.limit == 500 && structured.remaining == 3 && structured.resetsAt == now.addingTimeInterval(45))
    }

    @Test func retryAfterWinsOverTheResetAndGarbageIsIgnored() {
        let limit = RateLimit(headerFields: fields(["Retry-After": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1750003600"]), receivedAt: now)
        #expect(limit.retryDate == now.addingTimeInterval(5))
        let garbage = RateLimit(headerFields: fields(["Retry-After": "later", "X-RateLimit-Limit": "-1", "RateLimit": "nonsense"]), receivedAt: now)
        #expect(garbage.isEmpty)
    }

    @Test func everyResponseAndEveryErrorWithAResponseCarriesIt() async throws {
        let stub = StubTransport()
        stub.on(.get, "/users/{id}",
                .json(#"{"id":1,"name":"a"}"#, headers: ["X-RateLimit-Remaining": "59", "X-RateLimit-Limit": "60"]),
                .json(#"{"code":"rate","message":"slow down"}"#, status: 429, headers: ["Retry-After": "120", "X-RateLimit-Remaining": "0"]))
        let client = stubClient(stub)
        let success = try await client.response(for: GetUser(id: "1"))
        #expect(success.rateLimit.remaining == 59)
        #expect(success.rateLimit.limit == 60)
        let error = await capture { () async throws(APIError<UserFailure>) in try await client.send(GetUser(id: "1")) }
        guard case .endpoint(.rateLimited(let body), _) = error else {
            Issue.record("expected rateLimited, got \(String(describing: error))")
            return
        }
        #expect(body.message == "slow down")
        let rateLimit = try #require(error?.rateLimit)
        #expect(rateLimit.retryAfter == .seconds(120))
        #expect(rateLimit.remaining == 0)
        #expect(rateLimit.retryDate == rateLimit.receivedAt.addingTimeInterval(120))
    }
}
