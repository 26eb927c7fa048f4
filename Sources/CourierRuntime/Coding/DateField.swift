import Foundation

/// How one property's dates are written, when it differs from the service's
/// ``JSONCoding/DateFormat`` (a spec property's `dates:` key).
///
/// Generated models decode and encode such a property through the `decodeDate`/`encodeDate`
/// helpers below, which read the JSON string or number themselves, so the decoder's own date
/// strategy never applies to it.
@_spi(Generated) public enum DateField: Sendable, Hashable {
    /// ISO 8601 without fractional seconds, such as `2025-01-31T09:30:00Z`. Reading also accepts
    /// fractional seconds.
    case iso8601
    /// ISO 8601 with milliseconds, such as `2025-01-31T09:30:00.250Z`. Reading also accepts
    /// whole seconds.
    case iso8601WithFractionalSeconds
    /// Seconds since 1970 as a JSON number.
    case epochSeconds
    /// A calendar date, `YYYY-MM-DD` (Asana's `due_on`): midnight UTC of that day when read, the
    /// UTC day of the date when written, so that no time zone moves it to the day before.
    case calendarDate

    /// Reads a date from `container`.
    func decode(from container: any SingleValueDecodingContainer) throws -> Date {
        if self == .epochSeconds {
            return Date(timeIntervalSince1970: try container.decode(Double.self))
        }
        let text = try container.decode(String.self)
        let date = self == .calendarDate ? Self.parseCalendarDate(text) : JSONCoding.parseISO8601(text)
        guard let date else {
            let expected = self == .calendarDate ? "a date such as 2025-01-31" : "an ISO 8601 date"
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected \(expected), found \"\(text.prefix(40))\".")
        }
        return date
    }

    /// Writes `date` to `container`.
    func encode(_ date: Date, to container: inout any SingleValueEncodingContainer) throws {
        switch self {
        case .iso8601: try container.encode(JSONCoding.formatISO8601(date, fractional: false))
        case .iso8601WithFractionalSeconds: try container.encode(JSONCoding.formatISO8601(date, fractional: true))
        case .epochSeconds: try container.encode(date.timeIntervalSince1970)
        case .calendarDate: try container.encode(Self.formatCalendarDate(date))
        }
    }

    private static let secondsPerDay: Int64 = 86_400

    /// `YYYY-MM-DD` to midnight UTC, or `nil` for anything else (including `2025-02-30`).
    /// Plain arithmetic on the proleptic Gregorian calendar, so that it is exact and needs no
    /// `Calendar` or time zone.
    static func parseCalendarDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        return Date(timeIntervalSince1970: Double(daysFromCivil(year: year, month: month, day: day) * secondsPerDay))
    }

    /// The UTC calendar day of `date` as `YYYY-MM-DD`.
    static func formatCalendarDate(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / secondsPerDay : (seconds - secondsPerDay + 1) / secondsPerDay
        let (year, month, day) = civilFromDays(days)
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil and civil_from_days (http://howardhinnant.github.io/date_algorithms.html).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A date and its format, so that encoding goes through the keyed container's own `encode`,
/// which converts the key as the encoder's key strategy says.
private struct FormattedDate: Encodable {
    var date: Date
    var format: DateField

    func encode(to encoder: any Encoder) throws {
        var container: any SingleValueEncodingContainer = encoder.singleValueContainer()
        try format.encode(date, to: &container)
    }
}

extension KeyedDecodingContainer {
    /// The date at `key`, written as `format` says.
    @_spi(Generated) public func decodeDate(forKey key: Key, as format: DateField) throws -> Date {
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value for \(key.stringValue)."))
        }
        return try format.decode(from: superDecoder(forKey: key).singleValueContainer())
    }

    /// The date at `key`, or `nil` when the key is missing or `null`.
    @_spi(Generated) public func decodeDateIfPresent(forKey key: Key, as format: DateField) throws -> Date? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeDate(forKey: key, as: format)
    }

    /// `nil` when `key` is missing, ``Nullable/null`` when it is `null`, the date otherwise.
    @_spi(Generated) public func decodeNullableDate(forKey key: Key, as format: DateField) throws -> Nullable<Date>? {
        guard contains(key) else { return nil }
        return try decodeNil(forKey: key) ? .null : .value(decodeDate(forKey: key, as: format))
    }
}

extension KeyedEncodingContainer {
    /// Writes `date` at `key` as `format` says.
    @_spi(Generated) public mutating func encodeDate(_ date: Date, forKey key: Key, as format: DateField) throws {
        try encode(FormattedDate(date: date, format: format), forKey: key)
    }

    /// Writes `date` at `key` when it is not `nil`; leaves the key out otherwise.
    @_spi(Generated) public mutating func encodeDateIfPresent(_ date: Date?, forKey key: Key, as format: DateField) throws {
        guard let date else { return }
        try encodeDate(date, forKey: key, as: format)
    }

    /// Leaves the key out for `nil`, writes `null` for ``Nullable/null``, the date otherwise.
    @_spi(Generated) public mutating func encodeNullableDate(_ date: Nullable<Date>?, forKey key: Key, as format: DateField) throws {
        switch date {
        case nil: return
        case .null?: try encodeNil(forKey: key)
        case .value(let value)?: try encodeDate(value, forKey: key, as: format)
        }
    }
}
