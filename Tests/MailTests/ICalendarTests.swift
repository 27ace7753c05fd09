import Foundation
import Testing

@testable import Mail

@Suite struct ICalendarTextTests {
    @Test func backslashSemicolonCommaAndNewlineAreEscaped() {
        #expect(ICalendarText.escape("a\\b;c,d\ne\r\nf") == "a\\\\b\\;c\\,d\\ne\\nf")
    }

    @Test func linesAreFoldedAt75OctetsWithoutSplittingUTF8() {
        let line = "SUMMARY:" + String(repeating: "ü", count: 100)
        let folded = ICalendarText.fold(line)
        let parts = folded.components(separatedBy: "\r\n")
        #expect(parts.count > 1)
        for part in parts {
            #expect(part.utf8.count <= 75)
            // No 2-byte ü was cut (a cut one would decode as U+FFFD).
            #expect(!part.contains("\u{FFFD}"))
        }
        #expect(parts.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(parts.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined() == line)
    }

    @Test func shortLinesAreNotFolded() {
        #expect(ICalendarText.fold("UID:abc") == "UID:abc")
    }
}

@Suite struct VTimeZoneTests {
    @Test func losAngelesHasDaylightInMarchAndStandardInNovember() throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let lines = VTimeZone.lines(for: zone, year: 2026)
        #expect(lines.first == "BEGIN:VTIMEZONE")
        #expect(lines.contains("TZID:America/Los_Angeles"))
        let text = lines.joined(separator: "\n")
        #expect(text.contains("BEGIN:DAYLIGHT\nTZOFFSETFROM:-0800\nTZOFFSETTO:-0700"))
        #expect(text.contains("DTSTART:20260308T020000"))
        #expect(text.contains("BEGIN:STANDARD\nTZOFFSETFROM:-0700\nTZOFFSETTO:-0800"))
        // 2 a.m. PDT on 1 November 2026, the wall time before the change.
        #expect(text.contains("DTSTART:20261101T020000"))
        // The observance in force on 1 January (from November of the year before) is included.
        #expect(text.contains("DTSTART:20251102T020000"))
    }

    @Test func berlinSwitchesAtTwoAndThreeLocalTime() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let text = VTimeZone.lines(for: zone, year: 2027).joined(separator: "\n")
        #expect(text.contains("TZOFFSETFROM:+0100\nTZOFFSETTO:+0200"))
        #expect(text.contains("DTSTART:20270328T020000"))
        #expect(text.contains("TZOFFSETFROM:+0200\nTZOFFSETTO:+0100"))
        #expect(text.contains("DTSTART:20271031T030000"))
    }

    @Test func utcHasOneStandardObservanceAtOffsetZero() throws {
        let zone = try #require(TimeZone(identifier: "UTC"))
        let lines = VTimeZone.lines(for: zone, year: 2026)
        #expect(lines.filter { $0 == "BEGIN:STANDARD" }.count == 1)
        #expect(!lines.contains("BEGIN:DAYLIGHT"))
        #expect(lines.contains("TZOFFSETFROM:+0000"))
        #expect(lines.contains("TZOFFSETTO:+0000"))
    }

    @Test func offsetsWithMinutesAreWrittenInFull() {
        #expect(VTimeZone.offset(19800) == "+0530")
        #expect(VTimeZone.offset(-12600) == "-0330")
    }
}

@Suite struct ICalendarEventTests {
    func event(_ method: ICalendarEvent.Method, sequence: Int) throws -> ICalendarEvent {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let start = try #require(ISO8601DateFormatter().date(from: "2026-12-01T17:00:00Z"))
        return ICalendarEvent(
            method: method, uid: "appointment-1@helppet.test", sequence: sequence,
            stamp: Date(timeIntervalSince1970: 0), start: start, end: start.addingTimeInterval(1800), timeZone: zone,
            summary: "Checkup: Bello, Mia", location: "1 Main St, Springfield", description: "Phone: +1 555 0100",
            organizer: MailAddress("clinic@helppet.test", displayName: "Happy Paws"),
            attendee: MailAddress("owner@example.org", displayName: "Jane \"JJ\" Owner"))
    }

    @Test func aRequestNamesTheZoneAndItsWallTimes() throws {
        let text = try event(.request, sequence: 0).render()
        #expect(text.contains("METHOD:REQUEST\r\n"))
        #expect(text.contains("DTSTART;TZID=America/Los_Angeles:20261201T090000\r\n"))
        #expect(text.contains("DTEND;TZID=America/Los_Angeles:20261201T093000\r\n"))
        #expect(text.contains("SUMMARY:Checkup: Bello\\, Mia\r\n"))
        #expect(text.contains("LOCATION:1 Main St\\, Springfield\r\n"))
        #expect(text.contains("STATUS:CONFIRMED\r\n"))
        #expect(text.contains("SEQUENCE:0\r\n"))
        #expect(text.contains("DTSTAMP:19700101T000000Z\r\n"))
        #expect(text.contains("ATTENDEE;CN=\"Jane JJ Owner\""))
    }

    @Test func aCancellationKeepsTheUIDAndSaysCancelled() throws {
        let text = try event(.cancel, sequence: 2).render()
        #expect(text.contains("METHOD:CANCEL\r\n"))
        #expect(text.contains("STATUS:CANCELLED\r\n"))
        #expect(text.contains("SEQUENCE:2\r\n"))
        #expect(text.contains("UID:appointment-1@helppet.test\r\n"))
    }
}
