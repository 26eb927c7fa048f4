import CourierRuntime
import HTTPTypes
import Foundation
import ReferenceDiscriminators
import ReferenceErrorRanges
import Testing

/// Wrapped (`{"error": {...}}`) and arrayed (`{"errors": [...]}`) error bodies, header
/// discriminators, and the order exact -> range -> default, on the reference fixtures.
@Suite("Error shapes and status order (reference fixtures)")
struct DiscriminatorShapesTests {
    func response(_ status: Int, _ body: String = "", headers: [String: String] = [:]) -> RawResponse {
        RawResponse(status: .init(code: status), headerFields: HTTPFieldsBuilder.fields(headers), body: Data(body.utf8))
    }

    @Test("A wrapped body discriminates on error.code and carries the inner object")
    func wrapped() throws {
        let failure = try #require(PayFailure.map(response(402, #"{"error": {"type": "card_error", "code": "card_declined"}}"#)))
        guard case .cardDeclined(let body) = failure else {
            Issue.record("got \(failure)")
            return
        }
        #expect(body.value == Stripe(type: "card_error", code: "card_declined"))
        #expect(failure.errorDescription == "Your card was declined.")
        let fallback = try #require(PayFailure.map(response(402, "not json")))
        guard case .paymentFailed(let raw) = fallback else {
            Issue.record("got \(fallback)")
            return
        }
        #expect(raw.value == nil)
        #expect(raw.text == "not json")
    }

    @Test("An arrayed body discriminates on errors[0].code and carries every error")
    func arrayed() throws {
        let failure = try #require(PayFailure.map(response(422, #"{"errors": [{"status": "422", "code": "too_small"}, {"status": "422"}]}"#)))
        guard case .amountTooSmall(let body) = failure else {
            Issue.record("got \(failure)")
            return
        }
        #expect(body.value?.count == 2)
        #expect(body.value?.first?.code == "too_small")
    }

    @Test("A discriminator and a condition read errors[0] through a union of objects and strings")
    func throughAUnion() throws {
        func name(_ body: String) -> String? {
            ValidateFailure.map(response(422, body)).map { failure in
                switch failure {
                case .badTitle: "badTitle"
                case .missingField: "missingField"
                case .invalidInput: "invalidInput"
                }
            }
        }
        #expect(name(#"{"message": "Validation Failed", "errors": [{"field": "amount", "code": "missing_field"}]}"#) == "missingField")
        #expect(name(#"{"message": "Validation Failed", "errors": [{"field": "title", "code": "invalid"}]}"#) == "badTitle")
        // A string item has no code: the fallback, with the body decoded through the union.
        #expect(name(#"{"message": "Validation Failed", "errors": ["amount is missing"]}"#) == "invalidInput")
        guard case .invalidInput(let body)? = ValidateFailure.map(response(422, #"{"message": "m", "errors": ["x"]}"#)) else {
            Issue.record("expected invalidInput")
            return
        }
        #expect(body.value?.errors == [.string("x")])
    }

    @Test("A header discriminator picks by value, case-insensitively by name; a missing header falls back")
    func header() throws {
        let quota = try #require(PayFailure.map(response(429, headers: ["retry-reason": "quota"])))
        let burst = try #require(PayFailure.map(response(429, headers: ["Retry-Reason": "burst"])))
        let none = try #require(PayFailure.map(response(429)))
        let names = [quota, burst, none].map { failure in
            switch failure {
            case .quotaExhausted: "quotaExhausted"
            case .slowDown: "slowDown"
            case .rateLimited: "rateLimited"
            default: "\(failure)"
            }
        }
        #expect(names == ["quotaExhausted", "slowDown", "rateLimited"])
        #expect(PayFailure.map(response(400)) == nil)
    }

    @Test("Exact statuses win over ranges, ranges over default",
          arguments: [(404, "notFound"), (400, "clientError"), (499, "clientError"), (503, "maintenance"),
                      (500, "serverError"), (599, "serverError"), (302, "unexpected"), (600, "unexpected")])
    func order(status: Int, expected: String) throws {
        let failure = try #require(GetThingFailure.map(response(status, #"{"title": "t"}"#)))
        let name = switch failure {
        case .notFound(let body): body.value?.title == "t" ? "notFound" : "notFound without body"
        case .clientError: "clientError"
        case .maintenance: "maintenance"
        case .serverError(let body): body.value?.title == "t" ? "serverError" : "serverError without body"
        case .unexpected: "unexpected"
        }
        #expect(name == expected)
    }

    @Test("An endpoint's own default replaces nothing it does not cover; no mapping means undocumented")
    func defaults() throws {
        #expect(PingFailure.map(response(404)).map { "\($0)" } == "unexpected")
        #expect(DeleteThingFailure.map(response(404, #"{"title": "gone"}"#)).map { failure -> String in
            if case .failed(let body) = failure { return body.value?.title ?? "" }
            return "\(failure)"
        } == "gone")
    }
}

/// Builds header fields from a dictionary for raw responses.
enum HTTPFieldsBuilder {
    static func fields(_ headers: [String: String]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let name = HTTPField.Name(name) {
                fields[name] = value
            }
        }
        return fields
    }
}
