@_spi(Generated) import CourierRuntime
import Foundation
import Testing

/// Per-property date formats (`dates:` in a spec) through the public keyed-container helpers that
/// generated models call, with Foundation's own calendar as the oracle for calendar dates.
@Suite struct DateFieldTests {
    /// One date under `d`, written and read as `format` says.
    struct Box: Codable, Equatable {
        static let formatKey = CodingUserInfoKey(rawValue: "format")!
        var date: Date?
        var format: DateField

        enum CodingKeys: String, CodingKey { case d }

        init(date: Date?, format: DateField) {
            self.date = date
            self.format = format
        }

        init(from decoder: any Decoder) throws {
            format = decoder.userInfo[Self.formatKey] as? DateField ?? .iso8601
            date = try decoder.container(keyedBy: CodingKeys.self).decodeDateIfPresent(forKey: .d, as: format)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeDateIfPresent(date, forKey: .d, as: format)
        }
    }

    static func encoded(_ date: Date, _ format: DateField) throws -> String {
        String(decoding: try JSONEncoder().encode(Box(date: date, format: format)), as: UTF8.self)
    }

    static func decoded(_ json: String, _ format: DateField) throws -> Date? {
        let decoder = JSONDecoder()
        decoder.userInfo[Box.formatKey] = format
        return try decoder.decode(Box.self, from: Data(json.utf8)).date
    }

    @Test func calendarDatesAgreeWithFoundationEveryFifthDayFrom1600To2400() throws {
        let formatter = DateFormatter()
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let start = try #require(formatter.date(from: "1600-01-01")).timeIntervalSince1970
        let end = try #require(formatter.date(from: "2400-12-31")).timeIntervalSince1970
        var checked = 0
        for midnight in stride(from: start, through: end, by: 5 * 86_400) {
            // Any time of the UTC day writes that day; reading gives its midnight back.
            let date = Date(timeIntervalSince1970: midnight + 86_399.5)
            let text = formatter.string(from: date)
            #expect(try Self.encoded(date, .calendarDate) == #"{"d":"\#(text)"}"#)
            #expect(try Self.decoded(#"{"d":"\#(text)"}"#, .calendarDate) == Date(timeIntervalSince1970: midnight))
            checked += 1
        }
        #expect(checked > 58_000)
    }

    @Test(arguments: ["2025-02-29", "1900-02-29", "2025-13-01", "2025-00-10", "2025-01-32", "2025-1-01", "2025-01-01T00:00:00Z", "20250101", "２０２５-01-01", ""])
    func impossibleCalendarDatesFailDecoding(text: String) {
        #expect(throws: DecodingError.self) { try Self.decoded(#"{"d":"\#(text)"}"#, .calendarDate) }
    }

    @Test func leapDaysOfCenturiesFollowTheGregorianRule() throws {
        #expect(try Self.decoded(#"{"d":"2000-02-29"}"#, .calendarDate) == Date(timeIntervalSince1970: 951_782_400))
        #expect(try Self.decoded(#"{"d":"2024-02-29"}"#, .calendarDate) == Date(timeIntervalSince1970: 1_709_164_800))
    }

    @Test func theOtherFormatsReadAndWriteTheirOwnForms() throws {
        let date = Date(timeIntervalSince1970: 1_738_315_800.25)
        #expect(try Self.encoded(date, .iso8601WithFractionalSeconds) == #"{"d":"2025-01-31T09:30:00.250Z"}"#)
        #expect(try Self.encoded(date, .iso8601) == #"{"d":"2025-01-31T09:30:00Z"}"#)
        #expect(try Self.encoded(date, .epochSeconds) == #"{"d":1738315800.25}"#)
        #expect(try Self.decoded(#"{"d":1738315800.25}"#, .epochSeconds) == date)
        // Each ISO 8601 form reads the other, as the service-wide formats do.
        #expect(try Self.decoded(#"{"d":"2025-01-31T09:30:00Z"}"#, .iso8601WithFractionalSeconds) == Date(timeIntervalSince1970: 1_738_315_800))
        let fractional = try #require(try Self.decoded(#"{"d":"2025-01-31T09:30:00.250Z"}"#, .iso8601))
        #expect(abs(fractional.timeIntervalSince1970 - 1_738_315_800.25) < 0.000_5)
        #expect(try Self.decoded(#"{"d":null}"#, .iso8601) == nil)
        #expect(try Self.decoded("{}", .calendarDate) == nil)
        #expect(throws: DecodingError.self) { try Self.decoded(#"{"d":"yesterday"}"#, .iso8601) }
    }

    @Test func snakeCaseKeyStrategiesApplyToDateFieldsToo() throws {
        struct Task: Codable, Equatable {
            var dueOn: Date
            enum CodingKeys: String, CodingKey { case dueOn }
            init(dueOn: Date) { self.dueOn = dueOn }
            init(from decoder: any Decoder) throws {
                dueOn = try decoder.container(keyedBy: CodingKeys.self).decodeDate(forKey: .dueOn, as: .calendarDate)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeDate(dueOn, forKey: .dueOn, as: .calendarDate)
            }
        }
        let coding = JSONCoding(keyStyle: .snakeCase)
        let task = Task(dueOn: Date(timeIntervalSince1970: 1_738_281_600))
        #expect(String(decoding: try coding.makeEncoder().encode(task), as: UTF8.self) == #"{"due_on":"2025-01-31"}"#)
        #expect(try coding.makeDecoder().decode(Task.self, from: Data(#"{"due_on":"2025-01-31"}"#.utf8)) == task)
        #expect(throws: DecodingError.self) { try coding.makeDecoder().decode(Task.self, from: Data("{}".utf8)) }
    }

    @Test func nullableKeepsNullApartFromAMissingKey() throws {
        struct Patch: Codable, Equatable {
            var milestone: Nullable<Int>?
            enum CodingKeys: String, CodingKey { case milestone }
            init(milestone: Nullable<Int>?) { self.milestone = milestone }
            init(from decoder: any Decoder) throws {
                milestone = try decoder.container(keyedBy: CodingKeys.self).decodeNullable(Int.self, forKey: .milestone)
            }
        }
        for (value, json) in [(nil, "{}"), (Nullable<Int>.null, #"{"milestone":null}"#), (.value(3), #"{"milestone":3}"#)] {
            #expect(String(decoding: try JSONEncoder().encode(Patch(milestone: value)), as: UTF8.self) == json)
            #expect(try JSONDecoder().decode(Patch.self, from: Data(json.utf8)) == Patch(milestone: value))
        }
        #expect(Nullable<Int>(nil) == .null && Nullable<Int>(5).value == 5)
    }
}
