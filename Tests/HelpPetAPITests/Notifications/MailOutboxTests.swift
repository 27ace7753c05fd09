import AppCore
import Foundation
@testable import HelpPetAPI
import SQLKit
import Testing
import VaporTesting
import MailOutbox

/// The appointment emails' outbox on the test's database engine (SQLite, or PostgreSQL with `DATABASE_URL`): rows
/// written with the appointment, the stored SEQUENCE, the owner's choices, and the lease rules of a claim.
@Suite struct MailOutboxTests {
    struct Row: Equatable {
        var kind: String
        var sequence: Int?
        var status: String
        var recipient: String
    }

    static func rows(_ app: Application, appointment: String) async throws -> [Row] {
        try await app.db.sql.raw("""
            SELECT kind, ics_sequence, status, recipient FROM mail_outbox
            WHERE appointment_id = \(bind: UUID(uuidString: appointment)!) ORDER BY ics_sequence
            """).all().map {
            Row(kind: try $0.decode(column: "kind", as: String.self), sequence: try $0.decode(column: "ics_sequence", as: Int?.self),
                status: try $0.decode(column: "status", as: String.self), recipient: try $0.decode(column: "recipient", as: String.self))
        }
    }

    @Test func bookingMovingAndCancellingEnqueueThreeMessagesWithRisingSequence() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            #expect(try await Self.rows(app, appointment: id) == [
                Row(kind: "appointment_confirmation", sequence: 0, status: "queued", recipient: "john.smith@email.com")
            ])
            // Notes are not the owner's business: no message.
            _ = try await app.put("/api/v1/appointments/\(id)", token: vet, json: ["notes": "bring the leash"])
            #expect(try await Self.rows(app, appointment: id).count == 1)
            let moved = try await app.put("/api/v1/appointments/\(id)", token: vet, json: ["appointment_date": "2030-05-02T16:00:00Z"])
            #expect(moved.status == .ok)
            let cancelled = try await app.delete("/api/v1/appointments/\(id)", token: vet)
            #expect(cancelled.status == .ok)
            #expect(try await Self.rows(app, appointment: id).map(\.kind) == [
                "appointment_confirmation", "appointment_rescheduled", "appointment_cancelled",
            ])
            #expect(try await Self.rows(app, appointment: id).map(\.sequence) == [0, 1, 2])
        }
    }

    @Test func anOwnerWhoSwitchedNotificationsOffOrPrefersSMSGetsNoMessage() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for change: [String: Any?] in [["notifications_enabled": false], ["notifications_enabled": true, "preferred_communication": "sms"]] {
                let updated = try await app.put("/api/v1/pet-owners/\(Demo.owner(1).lowercased)", token: vet, json: change)
                #expect(updated.status == .ok, "\(updated)")
                let id = try await AppointmentFixtures.create(app, token: vet)
                #expect(try await Self.rows(app, appointment: id) == [])
            }
        }
    }

    @Test func aClaimedMessageIsNotClaimedAgainUntilItsLeaseExpires() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            _ = try await AppointmentFixtures.create(app, token: vet)
            let store = MailOutboxStore(db: app.db)
            let t0 = Date().addingTimeInterval(1)
            let first = try #require(try await store.claim(owner: "a", leaseSeconds: 300, now: t0))
            #expect(first.attempts == 1 && first.rawMessage.contains("Message-ID: <\(first.messageID)>"))
            #expect(try await store.claim(owner: "b", leaseSeconds: 300, now: t0.addingTimeInterval(299)) == nil)
            let retaken = try #require(try await store.claim(owner: "b", leaseSeconds: 300, now: t0.addingTimeInterval(301)))
            #expect(retaken.id == first.id && retaken.attempts == 2)
            // The first worker lost its lease: its late "sent" changes nothing.
            try await store.markSent(first, now: t0.addingTimeInterval(302))
            #expect(try await store.counts().sent == 0)
            try await store.retryLater(retaken, error: "451 later", delay: 60, now: t0.addingTimeInterval(303))
            #expect(try await store.claim(owner: "c", leaseSeconds: 300, now: t0.addingTimeInterval(362)) == nil)
            let third = try #require(try await store.claim(owner: "c", leaseSeconds: 300, now: t0.addingTimeInterval(364)))
            try await store.markFailed(third, error: "RCPT TO: 550 no such user", now: t0.addingTimeInterval(365))
            #expect(try await store.counts() == MailOutboxCounts(queued: 0, sending: 0, sent: 0, failed: 1))
        }
    }

    @Test func backoffDoublesFromTheBaseUpToTheCap() {
        #expect(MailDelivery.backoff(attempt: 1, base: 30, cap: 3600) == 30)
        #expect(MailDelivery.backoff(attempt: 2, base: 30, cap: 3600) == 60)
        #expect(MailDelivery.backoff(attempt: 4, base: 30, cap: 3600) == 240)
        #expect(MailDelivery.backoff(attempt: 20, base: 30, cap: 3600) == 3600)
    }
}

/// The reminder before an appointment: due at the practice's lead time (24 h by default), once, never for a
/// cancelled or begun appointment, and not for one booked inside the lead time.
@Suite struct AppointmentReminderTests {
    static let start = ISO8601DateFormatter().date(from: "2030-05-01T16:00:00Z")!

    static func reminders(_ app: Application, _ id: String) async throws -> [(status: String, error: String?)] {
        try await app.db.sql.raw("""
            SELECT status, last_error FROM mail_outbox
            WHERE appointment_id = \(bind: UUID(uuidString: id)!) AND kind = 'appointment_reminder'
            """).all().map { (try $0.decode(column: "status", as: String.self), try $0.decode(column: "last_error", as: String?.self)) }
    }

    @Test func theReminderIsEnqueuedOnceWhenTheLeadTimeHasComeWhateverTheNumberOfWorkers() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            let a = AppointmentReminders(db: app.db, mailFrom: "clinic@helppet.test")
            let b = AppointmentReminders(db: app.db, mailFrom: "clinic@helppet.test")
            #expect(try await a.runOnce(now: Self.start.addingTimeInterval(-25 * 3600)) == 0, "too early")
            let due = Self.start.addingTimeInterval(-23 * 3600)
            #expect(try await a.runOnce(now: due) == 1)
            #expect(try await b.runOnce(now: due.addingTimeInterval(60)) == 0)
            #expect(try await a.runOnce(now: due.addingTimeInterval(120)) == 0)
            #expect(try await Self.reminders(app, id).map(\.status) == ["queued"])
        }
    }

    @Test func noReminderForACancelledOrBegunAppointmentAndAQueuedOneIsWithdrawnOnCancellation() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let reminders = AppointmentReminders(db: app.db, mailFrom: "clinic@helppet.test")
            let begun = try await AppointmentFixtures.create(app, token: vet)
            #expect(try await reminders.runOnce(now: Self.start.addingTimeInterval(60)) == 0)
            #expect(try await Self.reminders(app, begun).isEmpty)

            let queued = try await reminders.runOnce(now: Self.start.addingTimeInterval(-3600))
            #expect(queued == 1)
            let cancelled = try await app.delete("/api/v1/appointments/\(begun)", token: vet)
            #expect(cancelled.status == .ok)
            let rows = try await Self.reminders(app, begun)
            #expect(rows.map(\.status) == ["failed"])
            #expect(rows.first?.error == "not sent: the appointment was cancelled")

            let other = try await AppointmentFixtures.create(
                app, token: vet, body: AppointmentFixtures.body(date: "2030-05-03T16:00:00Z"))
            _ = try await app.delete("/api/v1/appointments/\(other)", token: vet)
            #expect(try await reminders.runOnce(now: Self.start.addingTimeInterval(47 * 3600)) == 0)
            #expect(try await Self.reminders(app, other).isEmpty)
        }
    }

    @Test func anOwnerWhoSwitchedNotificationsOffGetsNoReminder() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            let off = try await app.put(
                "/api/v1/pet-owners/\(Demo.owner(1).lowercased)", token: vet, json: ["notifications_enabled": false])
            #expect(off.status == .ok)
            let reminders = AppointmentReminders(db: app.db, mailFrom: "clinic@helppet.test")
            #expect(try await reminders.runOnce(now: Self.start.addingTimeInterval(-3600)) == 0)
            #expect(try await Self.reminders(app, id).isEmpty)
        }
    }

    @Test func anAppointmentBookedInsideItsLeadTimeGetsNoReminder() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let soon = Date().addingTimeInterval(3 * 3600)
            let id = try await AppointmentFixtures.create(
                app, token: vet, body: AppointmentFixtures.body(date: WireTime.format(soon)))
            let reminders = AppointmentReminders(db: app.db, mailFrom: "clinic@helppet.test")
            try await reminders.runOnce(now: Date())
            #expect(try await Self.reminders(app, id).isEmpty)
        }
    }
}

/// An appointment's messages are claimed in SEQUENCE order, even when written in the same second.
@Suite struct MailOutboxOrderTests {
    @Test func aLaterMessageOfTheSameAppointmentWaitsUntilTheEarlierOneIsDone() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            _ = try await app.put("/api/v1/appointments/\(id)", token: vet, json: ["appointment_date": "2030-05-02T16:00:00Z"])
            let store = MailOutboxStore(db: app.db)
            let t0 = Date().addingTimeInterval(1)
            let first = try #require(try await store.claim(owner: "a", leaseSeconds: 300, now: t0))
            #expect(first.rawMessage.contains("Appointment confirmed"))
            #expect(try await store.claim(owner: "b", leaseSeconds: 300, now: t0) == nil, "the reschedule waits")
            try await store.retryLater(first, error: "451", delay: 60, now: t0)
            #expect(try await store.claim(owner: "b", leaseSeconds: 300, now: t0.addingTimeInterval(1)) == nil)
            let again = try #require(try await store.claim(owner: "b", leaseSeconds: 300, now: t0.addingTimeInterval(61)))
            #expect(again.id == first.id)
            try await store.markSent(again, now: t0.addingTimeInterval(62))
            let second = try #require(try await store.claim(owner: "c", leaseSeconds: 300, now: t0.addingTimeInterval(63)))
            #expect(second.rawMessage.contains("Appointment moved"))
        }
    }
}
