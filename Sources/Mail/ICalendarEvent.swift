import Foundation

/// One appointment as an iTIP message (RFC 5545 / 5546): a VCALENDAR with METHOD, the practice's VTIMEZONE and
/// one VEVENT. The UID is stable per appointment; SEQUENCE counts the organiser's significant revisions.
public struct ICalendarEvent: Sendable, Equatable {
    public enum Method: String, Sendable { case request = "REQUEST", cancel = "CANCEL" }

    public var method: Method
    public var uid: String
    public var sequence: Int
    public var stamp: Date
    public var start: Date
    public var end: Date
    public var timeZone: TimeZone
    public var summary: String
    public var location: String?
    public var description: String?
    public var organizer: MailAddress
    public var attendee: MailAddress

    public init(
        method: Method, uid: String, sequence: Int, stamp: Date, start: Date, end: Date, timeZone: TimeZone,
        summary: String, location: String?, description: String?, organizer: MailAddress, attendee: MailAddress
    ) {
        self.method = method
        self.uid = uid
        self.sequence = sequence
        self.stamp = stamp
        self.start = start
        self.end = end
        self.timeZone = timeZone
        self.summary = summary
        self.location = location
        self.description = description
        self.organizer = organizer
        self.attendee = attendee
    }

    /// The calendar text with CRLF line ends and folded lines.
    public func render() -> String {
        let year = Calendar(identifier: .gregorian).dateComponents(in: timeZone, from: start).year ?? 1970
        let tzid = timeZone.identifier
        var lines = [
            "BEGIN:VCALENDAR",
            "PRODID:-//HelpPet//Appointments//EN",
            "VERSION:2.0",
            "CALSCALE:GREGORIAN",
            "METHOD:\(method.rawValue)",
        ]
        lines += VTimeZone.lines(for: timeZone, year: year)
        lines += [
            "BEGIN:VEVENT",
            "UID:\(ICalendarText.escape(uid))",
            "SEQUENCE:\(sequence)",
            "DTSTAMP:\(Self.stamp(stamp, zone: .gmt, utc: true))",
            "DTSTART;TZID=\(tzid):\(Self.stamp(start, zone: timeZone, utc: false))",
            "DTEND;TZID=\(tzid):\(Self.stamp(end, zone: timeZone, utc: false))",
            "SUMMARY:\(ICalendarText.escape(summary))",
        ]
        if let location, !location.isEmpty { lines.append("LOCATION:\(ICalendarText.escape(location))") }
        if let description, !description.isEmpty { lines.append("DESCRIPTION:\(ICalendarText.escape(description))") }
        lines.append("ORGANIZER\(Self.commonName(organizer)):mailto:\(organizer.address)")
        lines.append(
            "ATTENDEE\(Self.commonName(attendee));ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:\(attendee.address)")
        lines.append("STATUS:\(method == .cancel ? "CANCELLED" : "CONFIRMED")")
        lines += ["END:VEVENT", "END:VCALENDAR"]
        return lines.map(ICalendarText.fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `;CN="..."` (a quoted parameter value may hold anything but `"` and controls).
    static func commonName(_ address: MailAddress) -> String {
        guard let name = address.displayName, !name.isEmpty else { return "" }
        let clean = name.unicodeScalars.filter { $0 != "\"" && $0.value >= 32 && $0.value != 127 }
        return ";CN=\"\(String(String.UnicodeScalarView(clean)))\""
    }

    /// `yyyyMMdd'T'HHmmss` in the zone, with `Z` for UTC.
    static func stamp(_ date: Date, zone: TimeZone, utc: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let text = Digits.pad(c.year ?? 0, 4) + Digits.pad(c.month ?? 0, 2) + Digits.pad(c.day ?? 0, 2) + "T"
            + Digits.pad(c.hour ?? 0, 2) + Digits.pad(c.minute ?? 0, 2) + Digits.pad(c.second ?? 0, 2)
        return utc ? text + "Z" : text
    }
}
