import Foundation
import Testing

@testable import Mail

@Suite struct MailMessageTests {
    let message = MailMessage(
        from: MailAddress("clinic@helppet.test", displayName: "Tierarztpraxis Müller"),
        to: [MailAddress("owner@example.org", displayName: "Zoë Owner")],
        subject: "Bestätigung", text: "Hello Zoë,\n.see you\n" + String(repeating: "long ", count: 60),
        html: "<p>Hello Zoë</p>", calendar: CalendarAttachment(method: "REQUEST", content: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"),
        date: Date(timeIntervalSince1970: 1_795_000_000), messageID: "abc-123@helppet.test")

    @Test func theDateHeaderIsRFC5322InUTC() {
        #expect(MailMessage.rfc5322Date(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
    }

    @Test func everyLineEndsInCRLFAndNoneIsLongerThan78() {
        let rendered = message.render()
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        for line in rendered.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 78) }
    }

    @Test func theMessageHasBothBodiesAndTheCalendarWithItsMethod() {
        let rendered = message.render()
        #expect(rendered.contains("Message-ID: <abc-123@helppet.test>"))
        #expect(rendered.contains("Content-Type: multipart/mixed;"))
        #expect(rendered.contains("Content-Type: multipart/alternative;"))
        #expect(rendered.contains("Content-Type: text/plain; charset=UTF-8"))
        #expect(rendered.contains("Content-Type: text/html; charset=UTF-8"))
        #expect(rendered.contains("Content-Type: text/calendar; charset=UTF-8; method=REQUEST"))
        #expect(rendered.contains("From: =?UTF-8?B?"))
    }

    @Test func withoutACalendarTheTopLevelIsMultipartAlternative() {
        var plain = message
        plain.calendar = nil
        #expect(plain.render().contains("\r\nContent-Type: multipart/alternative;"))
        #expect(!plain.render().contains("multipart/mixed"))
    }

    @Test func quotedPrintableEncodesNonASCIIEqualsSignsAndTrailingSpace() {
        #expect(BodyEncoding.quotedPrintable("Zoë = 1 ") == "Zo=C3=AB =3D 1=20")
        let long = BodyEncoding.quotedPrintable(String(repeating: "x", count: 200))
        for line in long.components(separatedBy: "\r\n") { #expect(line.count <= 76) }
        #expect(long.replacingOccurrences(of: "=\r\n", with: "") == String(repeating: "x", count: 200))
    }
}
