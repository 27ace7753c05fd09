import Foundation

/// The JSON configuration the HelpPet API needs (contract §9): default key strategy (the models declare explicit
/// snake_case `CodingKeys`) and one date strategy for every date on the wire.
///
/// Dates are decoded from:
/// - JSON numbers: seconds since 1970-01-01T00:00:00Z (the visit transcript's `visit_date`);
/// - strings in RFC 3339 form: `2025-01-15T17:00:00Z`, with or without a fraction of any length, with `Z`, an offset
///   (`-08:00`, `+0000`) or, leniently, no zone at all (read as UTC);
/// - calendar days `2025-01-15` (midnight UTC).
///
/// Dates are encoded as `yyyy-MM-dd'T'HH:mm:ss'Z'` (UTC, whole seconds), the only form the server emits.
public enum HelpPetCoding {
    /// A decoder for HelpPet responses: default keys, the HelpPet date strategy.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dateDecodingStrategy
        return decoder
    }

    /// An encoder for HelpPet request bodies: default keys, dates as UTC `...Z` strings, slashes unescaped.
    public static func makeEncoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = dateEncodingStrategy
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        return encoder
    }

    /// Numbers as unix seconds; strings as RFC 3339 datetimes (fraction and offset optional) or `YYYY-MM-DD`.
    public static let dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            return Date(timeIntervalSince1970: seconds)
        }
        let text = try container.decode(String.self)
        guard let date = parseDate(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected an ISO-8601 datetime or unix seconds, got '\(text)'")
        }
        return date
    }

    /// `yyyy-MM-dd'T'HH:mm:ss'Z'` in UTC.
    public static let dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(formatDate(date))
    }

    /// Parses `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z`, `±HH:MM`, `±HHMM`, `±HH` or
    /// nothing (UTC). A space is accepted instead of `T`. Returns nil for anything else or an impossible date.
    public static func parseDate(_ text: String) -> Date? {
        var scanner = DateScanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take(UInt8(ascii: "-")),
              let month = scanner.digits(2), scanner.take(UInt8(ascii: "-")),
              let day = scanner.digits(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        if scanner.atEnd { return Date(timeIntervalSince1970: Double(days) * 86_400) }

        guard scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")),
              let hour = scanner.digits(2), scanner.take(UInt8(ascii: ":")), let minute = scanner.digits(2),
              hour < 24, minute < 60
        else { return nil }
        var second = 0
        var fraction = 0.0
        if scanner.take(UInt8(ascii: ":")) {
            guard let value = scanner.digits(2), value <= 60 else { return nil }
            second = value
            if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                var scale = 0.1
                var count = 0
                while let digit = scanner.digit() {
                    fraction += Double(digit) * scale
                    scale /= 10
                    count += 1
                }
                guard count > 0 else { return nil }
            }
        }
        var offset = 0
        if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(2), hours <= 23 else { return nil }
            var minutes = 0
            if scanner.take(UInt8(ascii: ":")) {
                guard let value = scanner.digits(2) else { return nil }
                minutes = value
            } else if let value = scanner.digits(2) {
                minutes = value
            }
            guard minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.atEnd else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Formats `date` as `yyyy-MM-dd'T'HH:mm:ss'Z'` (UTC, fraction dropped).
    public static func formatDate(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, secondsOfDay / 3600, secondsOfDay % 3600 / 60,
            secondsOfDay % 60)
    }

    /// Formats the calendar day of `date` in `timeZone` as `YYYY-MM-DD` (the form of the `date` query parameter).
    public static func formatDay(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    // MARK: Civil calendar arithmetic (proleptic Gregorian, UTC)

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A byte cursor for the date parser.
private struct DateScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int? {
        guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - 48)
    }

    mutating func digits(_ count: Int) -> Int? {
        let start = index
        var value = 0
        for _ in 0..<count {
            guard let d = digit() else {
                index = start
                return nil
            }
            value = value * 10 + d
        }
        return value
    }

    mutating func sign() -> Int? {
        if take(UInt8(ascii: "+")) { return 1 }
        if take(UInt8(ascii: "-")) { return -1 }
        return nil
    }
}
