import AppCore
import Foundation
@testable import HelpPetAPI
import SQLKit
import Testing
import VaporTesting

/// Which emails a practice sends: the appointment emails (on by default), the reminder's lead time (24 h by
/// default) and the discharge instructions on approval (off by default), set by an administrator through the
/// practice, and what each setting does to the outbox.
@Suite struct PracticeEmailSettingsTests {
    typealias F = RecordingFixtures
    typealias Note = ClinicalNoteTests
    static let practicePath = "/api/v1/practices/\(Demo.practiceID.lowercased)"

    static func kinds(_ app: Application) async throws -> [String] {
        try await app.db.sql.raw("SELECT kind FROM mail_outbox ORDER BY created_at, kind").all()
            .map { try $0.decode(column: "kind", as: String.self) }
    }

    static func dischargeMessage(_ app: Application) async throws -> (recipient: String, raw: String)? {
        try await app.db.sql.raw("""
            SELECT recipient, raw_message FROM mail_outbox WHERE kind = 'discharge_instructions'
            """).first().map {
            (try $0.decode(column: "recipient", as: String.self), try $0.decode(column: "raw_message", as: String.self))
        }
    }

    /// The text/plain part of a rendered message, quoted-printable decoded.
    static func plainText(of raw: String) throws -> String {
        let raw = raw.replacingOccurrences(of: "\r\n", with: "\n")
        let start = try #require(raw.range(of: "Content-Type: text/plain; charset=UTF-8"))
        let afterHeaders = try #require(raw.range(of: "\n\n", range: start.upperBound..<raw.endIndex))
        let end = try #require(raw.range(of: "\n--", range: afterHeaders.upperBound..<raw.endIndex))
        let encoded = raw[afterHeaders.upperBound..<end.lowerBound].replacingOccurrences(of: "=\n", with: "")
        var bytes: [UInt8] = []
        var index = encoded.utf8.startIndex
        let utf8 = encoded.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "="), let hi = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex),
                let lo = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), lo < utf8.endIndex,
                let value = UInt8(String(decoding: [utf8[hi], utf8[lo]], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                index = utf8.index(after: lo)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aPracticeSendsAppointmentEmailsAndRemindersButNoDischargeEmailsUntilToldOtherwise() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let practice = try await app.get(Self.practicePath, token: admin)
            #expect(practice.json["appointment_emails_enabled"].bool == true)
            #expect(practice.json["appointment_reminder_hours"].int == 24)
            #expect(practice.json["discharge_emails_enabled"].bool == false)
        }
    }

    @Test func anAdministratorChangesTheSettingsAndAVetMayNot() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let changed = try await app.put(Self.practicePath, token: admin, json: [
                "appointment_reminder_hours": 48, "appointment_emails_enabled": false, "discharge_emails_enabled": true,
            ])
            #expect(changed.status == .ok, "\(changed)")
            #expect(changed.json["appointment_reminder_hours"].int == 48)
            #expect(changed.json["appointment_emails_enabled"].bool == false)
            #expect(changed.json["discharge_emails_enabled"].bool == true)
            let vet = try await app.token(for: Demo.vet1)
            #expect(try await app.put(Self.practicePath, token: vet, json: ["discharge_emails_enabled": false]).status == .forbidden)
        }
    }

    @Test(arguments: [
        ("{\"appointment_reminder_hours\": 169}", "appointment_reminder_hours"),
        ("{\"appointment_reminder_hours\": -1}", "appointment_reminder_hours"),
        ("{\"appointment_reminder_hours\": \"24\"}", "appointment_reminder_hours"),
        ("{\"appointment_reminder_hours\": null}", "appointment_reminder_hours"),
        ("{\"discharge_emails_enabled\": \"yes\"}", "discharge_emails_enabled"),
        ("{\"appointment_emails_enabled\": 1}", "appointment_emails_enabled"),
    ])
    func aBadSettingIsRefusedWithItsFieldNamed(_ body: String, _ field: String) async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let refused = try await app.sendRaw(.PUT, Self.practicePath, token: admin, body: body, contentType: .json)
            #expect(refused.status == .badRequest, "\(body): \(refused)")
            #expect(refused.json["detail"].string?.contains(field) == true, "\(refused)")
            let practice = try await app.get(Self.practicePath, token: admin)
            #expect(practice.json["appointment_reminder_hours"].int == 24)
        }
    }

    @Test func withAppointmentEmailsOffBookingSendsTheOwnerNothing() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            _ = try await app.put(Self.practicePath, token: admin, json: ["appointment_emails_enabled": false])
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            #expect(try await MailOutboxTests.rows(app, appointment: id) == [])
            _ = try await app.put(Self.practicePath, token: admin, json: ["appointment_emails_enabled": true])
            #expect(try await app.delete("/api/v1/appointments/\(id)", token: vet).status == .ok)
            #expect(try await MailOutboxTests.rows(app, appointment: id).map(\.kind) == ["appointment_cancelled"])
        }
    }

    @Test func approvingANoteEmailsTheOwnerTheDischargeInstructionsWordForWordWhenThePracticeSendsThem() async throws {
        try await F.withApp { app in
            let admin = try await app.token(for: Demo.admin)
            _ = try await app.put(Self.practicePath, token: admin, json: ["discharge_emails_enabled": true])
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let visitID = try await Note.transcribed(app, vet)
            #expect(try await Self.dischargeMessage(app) == nil, "a draft is never emailed")
            _ = try await Note.approveAsDrafted(app, vet, visitID)

            let message = try #require(try await Self.dischargeMessage(app))
            #expect(message.recipient == "john.smith@email.com")
            #expect(message.raw.contains("Subject: Discharge instructions for Bella from "))
            let page = try await app.get(Note.dischargePath(visitID), token: owner)
            let pageText = try #require(page.json["text"].string)
            #expect(try Self.plainText(of: message.raw) == pageText)
            // Sending the approved text again keeps the first approval and sends nothing new.
            let summary = try #require(try await F.visit(app, vet, visitID).json["summary"].string)
            _ = try await app.put(F.visitPath(visitID), token: vet, json: ["summary": summary])
            #expect(try await Self.kinds(app).filter { $0 == "discharge_instructions" }.count == 1)
        }
    }

    @Test func noDischargeEmailWhenThePracticeDoesNotSendThemOrTheOwnerSwitchedNotificationsOff() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let first = try await Note.transcribed(app, vet)
            _ = try await Note.approveAsDrafted(app, vet, first)
            #expect(try await Self.dischargeMessage(app) == nil, "the practice's default is off")
        }
        try await F.withApp { app in
            let admin = try await app.token(for: Demo.admin)
            _ = try await app.put(Self.practicePath, token: admin, json: ["discharge_emails_enabled": true])
            let vet = try await app.token(for: Demo.vet1)
            let off = try await app.put("/api/v1/pet-owners/\(Demo.owner(1).lowercased)", token: vet,
                                        json: ["notifications_enabled": false])
            #expect(off.status == .ok)
            let visitID = try await Note.transcribed(app, vet)
            _ = try await Note.approveAsDrafted(app, vet, visitID)
            #expect(try await Self.dischargeMessage(app) == nil)
        }
    }
}
