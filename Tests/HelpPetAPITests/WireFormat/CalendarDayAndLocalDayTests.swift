import AppCore
import Foundation
import Testing

/// `CalendarDay` (`YYYY-MM-DD`, real days only) and `LocalDay` (practice-local day windows, DST-correct; §1.6).
@Suite struct CalendarDayTests {
    @Test(arguments: ["2025-01-15", "2024-02-29", "2000-02-29", "2025-12-31", "0001-01-01", "9999-12-31"])
    func validDays(_ text: String) throws {
        let day = try #require(CalendarDay(text))
        #expect(day.description == text)
    }

    @Test(arguments: [
        "2025-02-30", "2025-02-29", "1900-02-29", "2025-04-31", "2025-13-01", "2025-00-10", "2025-01-00", "2025-01-32",
        "0000-01-01", "2025-1-15", "25-01-15", "2025/01/15", "2025-01-15T00:00:00Z", " 2025-01-15", "2025-01-15 ",
        "", "abcd-ef-gh", "+025-01-15", "2025-01-1a",
    ])
    func invalidDays(_ text: String) {
        #expect(CalendarDay(text) == nil, "\(text)")
    }

    @Test func arithmetic() throws {
        let day = try #require(CalendarDay("2025-01-15"))
        #expect(day.adding(days: 17).description == "2025-02-01")
        #expect(day.adding(days: -15).description == "2024-12-31")
        #expect(day.adding(days: -30).description == "2024-12-16")
        #expect(try #require(CalendarDay("2024-02-29")).adding(years: 1).description == "2025-02-28")
        #expect(day.adding(years: 1).description == "2026-01-15")
        #expect(CalendarDay(daysSince1970: 0).description == "1970-01-01")
        #expect(try #require(CalendarDay("2025-01-15")).daysSince1970 == 20_103)
        #expect(try #require(CalendarDay("1969-12-31")).daysSince1970 == -1)
        #expect(try #require(CalendarDay("2025-01-15")) < (try #require(CalendarDay("2025-01-16"))))
    }

    @Test func codable() throws {
        let decoded = try JSONDecoder().decode([CalendarDay].self, from: Data(#"["2025-01-15"]"#.utf8))
        #expect(decoded.first?.description == "2025-01-15")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CalendarDay].self, from: Data(#"["2025-02-30"]"#.utf8)) }
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["2025-01-15"]"#)
    }
}

@Suite struct LocalDayTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    static func window(_ day: String, _ zone: TimeZone = losAngeles) throws -> (String, String, Double) {
        let w = LocalDay.window(of: try #require(CalendarDay(day)), in: zone)
        return (WireTime.format(w.lowerBound), WireTime.format(w.upperBound), w.upperBound.timeIntervalSince(w.lowerBound) / 3600)
    }

    @Test func ordinaryDay() throws {
        let (start, end, hours) = try Self.window("2025-01-15")
        #expect(start == "2025-01-15T08:00:00Z")
        #expect(end == "2025-01-16T08:00:00Z")
        #expect(hours == 24)
    }

    @Test func springForwardDayLasts23Hours() throws {
        let (start, end, hours) = try Self.window("2025-03-09")
        #expect(start == "2025-03-09T08:00:00Z")
        #expect(end == "2025-03-10T07:00:00Z")
        #expect(hours == 23)
    }

    @Test func fallBackDayLasts25Hours() throws {
        let (start, end, hours) = try Self.window("2025-11-02")
        #expect(start == "2025-11-02T07:00:00Z")
        #expect(end == "2025-11-03T08:00:00Z")
        #expect(hours == 25)
    }

    @Test func midnightThatDoesNotExistStartsAtTheFirstInstant() throws {
        // America/Santiago skipped 2024-09-08 00:00 → 01:00 (UTC−4 → UTC−3).
        let santiago = try #require(TimeZone(identifier: "America/Santiago"))
        let (start, end, hours) = try Self.window("2024-09-08", santiago)
        #expect(start == "2024-09-08T04:00:00Z")
        #expect(end == "2024-09-09T03:00:00Z")
        #expect(hours == 23)
    }

    @Test func dayContaining() throws {
        func day(_ text: String) -> String {
            guard case .success(let instant) = WireTime.parse(text) else { return "invalid" }
            return LocalDay.day(containing: instant, in: Self.losAngeles).description
        }
        #expect(day("2025-01-15T08:00:00Z") == "2025-01-15")
        #expect(day("2025-01-15T07:59:59Z") == "2025-01-14")
        #expect(day("2025-01-16T07:59:59Z") == "2025-01-15")
        #expect(day("2025-03-10T06:59:59Z") == "2025-03-09")
        #expect(day("2025-03-10T07:00:00Z") == "2025-03-10")
        #expect(day("2025-11-03T07:59:59Z") == "2025-11-02")
    }

    @Test func localWallTimes() throws {
        let jan15 = try #require(CalendarDay("2025-01-15"))
        #expect(WireTime.format(LocalDay.instant(on: jan15, hour: 9, minute: 0, in: Self.losAngeles)) == "2025-01-15T17:00:00Z")
        let july = try #require(CalendarDay("2025-07-15"))
        #expect(WireTime.format(LocalDay.instant(on: july, hour: 9, minute: 0, in: Self.losAngeles)) == "2025-07-15T16:00:00Z")
    }

    @Test func acceptedZoneIdentifiers() {
        #expect(LocalDay.isAcceptedZoneIdentifier("UTC"))
        #expect(LocalDay.isAcceptedZoneIdentifier("America/Los_Angeles"))
        #expect(!LocalDay.isAcceptedZoneIdentifier("Etc/UTC"))
        #expect(!LocalDay.isAcceptedZoneIdentifier("Etc/GMT+8"))
        #expect(!LocalDay.isAcceptedZoneIdentifier("america/los_angeles"))
        #expect(!LocalDay.isAcceptedZoneIdentifier("utc"))
        #expect(!LocalDay.isAcceptedZoneIdentifier(""))
        #expect(!LocalDay.isAcceptedZoneIdentifier("Nowhere/City"))
    }

    @Test func aDeviceZoneMayBeAnyNameOfUTCButAPracticeZoneMayNot() {
        for utc in ["UTC", "Etc/UTC", "Etc/GMT", "GMT", "Etc/Universal", "Etc/Zulu", "Zulu", "Universal", "UCT"] {
            #expect(LocalDay.isAcceptedDeviceZoneIdentifier(utc), "\(utc)")
        }
        #expect(LocalDay.isAcceptedDeviceZoneIdentifier("America/Los_Angeles"))
        #expect(!LocalDay.isAcceptedDeviceZoneIdentifier("Mars/Olympus"))
        #expect(!LocalDay.isAcceptedDeviceZoneIdentifier("utc"))
        #expect(!LocalDay.isAcceptedDeviceZoneIdentifier(""))
        #expect(!LocalDay.isAcceptedZoneIdentifier("Etc/UTC"), "a practice's zone keeps the contract's rule")
    }
}

@Suite struct UUIDParsingTests {
    @Test(arguments: [
        "d1000000-0000-4000-8000-000000000002", "D1000000-0000-4000-8000-000000000002",
        "840e37f2-3ad7-5df5-99bb-63311ab0eb6e", "00000000-0000-0000-0000-000000000000", "AbCdEf01-2345-6789-abcd-ef0123456789",
    ])
    func canonicalForms(_ text: String) throws {
        let uuid = try #require(UUID(canonical: text))
        #expect(uuid.lowercased == text.lowercased())
    }

    @Test(arguments: [
        "", "d1000000000040008000000000000002", "{d1000000-0000-4000-8000-000000000002}",
        "urn:uuid:d1000000-0000-4000-8000-000000000002", "d1000000-0000-4000-8000-00000000002",
        "d1000000-0000-4000-8000-0000000000022", "d1000000-0000-4000-8000_000000000002", "g1000000-0000-4000-8000-000000000002",
        " d1000000-0000-4000-8000-000000000002", "d1000000-0000-4000-8000-000000000002 ", "d100000-00000-4000-8000-000000000002",
    ])
    func otherFormsAreInvalid(_ text: String) {
        #expect(UUID(canonical: text) == nil, "\(text)")
    }
}
