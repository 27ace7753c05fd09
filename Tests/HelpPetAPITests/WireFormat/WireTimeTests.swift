import AppCore
import Foundation
import Testing

/// `WireTime`: datetime output and RFC 3339 input (contract §1.6). Pure functions, no database.
@Suite struct WireTimeTests {
    static func instant(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
    static let jan15 = instant(1_736_960_400)  // 2025-01-15T17:00:00Z

    @Test func formatIsUTCWholeSecondsWithZ() {
        #expect(WireTime.format(Self.jan15) == "2025-01-15T17:00:00Z")
        #expect(WireTime.format(Self.jan15.addingTimeInterval(0.999)) == "2025-01-15T17:00:00Z")
        #expect(WireTime.format(Self.instant(0)) == "1970-01-01T00:00:00Z")
        #expect(WireTime.format(Self.instant(951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(WireTime.format(Self.instant(4_133_980_799)) == "2100-12-31T23:59:59Z")
        #expect(WireTime.format(Self.instant(-1)) == "1969-12-31T23:59:59Z")
    }

    @Test func truncation() {
        #expect(WireTime.truncated(Self.jan15.addingTimeInterval(0.75)) == Self.jan15)
        #expect(WireTime.truncated(Self.jan15) == Self.jan15)
    }

    @Test(arguments: [
        ("2025-01-15T17:00:00Z", Int64(1_736_960_400)),
        ("2025-01-15T09:00:00-08:00", 1_736_960_400),
        ("2025-01-15T17:00:00+00:00", 1_736_960_400),
        ("2025-01-16T02:30:00+09:30", 1_736_960_400),
        ("2025-01-15T17:00:00.123Z", 1_736_960_400),
        ("2025-01-15T17:00:00.999999999Z", 1_736_960_400),
        ("2025-01-15T17:00:00.123456+00:00", 1_736_960_400),
        ("2025-01-15T17:00:00.5-00:00", 1_736_960_400),
        ("2025-01-15t17:00:00z", 1_736_960_400),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("2000-01-01T00:00:00Z", 946_684_800),
        ("2100-12-31T23:59:59Z", 4_133_980_799),
    ])
    func acceptedInputs(_ text: String, _ seconds: Int64) throws {
        #expect(WireTime.parse(text) == .success(Self.instant(seconds)), "\(text)")
        #expect(try WireTime.parseInputDateTime(text, field: "appointment_date") == Self.instant(seconds))
    }

    @Test func fractionsAreTruncatedNotRounded() throws {
        let parsed = try WireTime.parseInputDateTime("2025-01-15T16:59:59.9999Z", field: "f")
        #expect(WireTime.format(parsed) == "2025-01-15T16:59:59Z")
    }

    @Test(arguments: ["2025-01-15T17:00:00", "2025-01-15T17:00:00.123"])
    func naiveDatetimeMissesItsZone(_ text: String) {
        #expect(WireTime.parse(text) == .missingZone)
        #expect(throws: APIError.self) { try WireTime.parseInputDateTime(text, field: "appointment_date") }
        #expect(Self.message(text, "appointment_date")
            == "appointment_date must include a timezone offset (for example 2025-01-15T17:00:00Z)")
    }

    @Test(arguments: [
        "", "2025-01-15", "2025-01-15 17:00:00Z", "2025-01-15T17:00Z", "2025-01-15T17:00:00.Z",
        "2025-01-15T17:00:00+0800", "2025-01-15T17:00:00+08", "2025-01-15T24:00:00Z", "2025-01-15T17:60:00Z",
        "2025-01-15T17:00:60Z", "2025-02-30T17:00:00Z", "2025-13-01T00:00:00Z", "2025-1-15T17:00:00Z",
        "tomorrow", "2025-01-15T17:00:00ZZ", "2025-01-15T17:00:00+25:00", "1736960400", "2025-01-15T17:00:00 Z",
        " 2025-01-15T17:00:00Z", "2025-01-15T17:00:00Z ",
    ])
    func invalidInputs(_ text: String) {
        #expect(WireTime.parse(text) == .invalid, "\(text)")
        #expect(Self.message(text, "appointment_date") == "appointment_date must be an ISO-8601 datetime", "\(text)")
    }

    @Test(arguments: ["1999-12-31T23:59:59Z", "2101-01-01T00:00:00Z", "2000-01-01T00:00:00+00:01", "1970-01-01T00:00:00Z",
                      "2100-12-31T23:59:59-00:01"])
    func outOfRange(_ text: String) {
        #expect(Self.message(text, "appointment_date") == "appointment_date is out of range", "\(text)")
    }

    @Test func rangeBoundsAreInclusive() throws {
        #expect(try WireTime.parseInputDateTime("2000-01-01T00:00:00Z", field: "f") == WireTime.minimum)
        #expect(try WireTime.parseInputDateTime("2100-12-31T23:59:59Z", field: "f") == WireTime.maximum)
        #expect(try WireTime.parseInputDateTime("2100-12-31T23:59:59.999Z", field: "f") == WireTime.maximum)
    }

    @Test func roundTrip() {
        for seconds in stride(from: Int64(946_684_800), through: 4_133_980_799, by: 86_399 * 97) {
            let text = WireTime.format(Self.instant(seconds))
            #expect(WireTime.parse(text) == .success(Self.instant(seconds)), "\(text)")
        }
    }

    static func message(_ text: String, _ field: String) -> String? {
        do {
            _ = try WireTime.parseInputDateTime(text, field: field)
            return nil
        } catch let error as APIError {
            #expect(error.status == .badRequest)
            return error.message
        } catch {
            return "\(error)"
        }
    }
}
