import AppCore
import Foundation
@testable import HelpPetAPI
import Testing
import VaporTesting
import MailOutbox

/// The delivery log the console shows: every email about an appointment with its status and reason, and the latest
/// emails of a practice's appointments only.
@Suite struct DeliveryLogTests {
    @Test func anAppointmentsLogListsEachEmailWithItsStatusAndTheReasonItFailed() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try #require(UUID(uuidString: try await AppointmentFixtures.create(app, token: vet)))
            let store = MailOutboxStore(db: app.db)
            var log = try await store.deliveries(ofAppointment: id)
            #expect(log.map(\.kind) == ["appointment_confirmation"])
            #expect(log.first?.status == "queued" && log.first?.recipient == "john.smith@email.com")

            let claimed = try #require(try await store.claim(owner: "test", leaseSeconds: 60, now: Date().addingTimeInterval(1)))
            try await store.markFailed(claimed, error: "RCPT TO: 550 no such user", now: Date().addingTimeInterval(2))
            log = try await store.deliveries(ofAppointment: id)
            #expect(log.first?.status == "failed")
            #expect(log.first?.lastError == "RCPT TO: 550 no such user")
        }
    }

    @Test func aPracticesLogHoldsOnlyItsOwnAppointmentsNewestFirst() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let first = try await AppointmentFixtures.create(app, token: vet)
            #expect(try await app.delete("/api/v1/appointments/\(first)", token: vet).status == .ok)
            let store = MailOutboxStore(db: app.db)
            let log = try await store.deliveries(ofPractice: Demo.practiceID, limit: 20)
            #expect(log.map(\.kind) == ["appointment_cancelled", "appointment_confirmation"])
            #expect(try await store.deliveries(ofPractice: Demo.practiceID, limit: 1).count == 1)
            #expect(try await store.deliveries(ofPractice: UUID(), limit: 20).isEmpty)
        }
    }

    @Test func theLogListsThePushesToTheVetBesideTheOwnersEmailsWithTheReasonOneWasNotSent() async throws {
        let clock = ManualClock(VetPushReminderTests.start.addingTimeInterval(-3600))
        try await withTestApp(clock: clock) { app in
            let id = try await VetPushReminderTests.bookForVet1(app)
            let appointment = try #require(UUID(uuidString: id))
            #expect(try await VetPushReminders(db: app.db, leadMinutes: 15)
                .runOnce(now: VetPushReminderTests.start.addingTimeInterval(-10 * 60)) == 1)
            let admin = try await app.token(for: Demo.admin)
            #expect(try await app.delete("/api/v1/appointments/\(id)", token: admin).status == .ok)

            let pushes = try await PushOutboxStore(db: app.db).deliveries(ofAppointment: appointment)
            #expect(pushes.map(\.kind) == ["appointment_booked", "appointment_reminder"])
            #expect(pushes.allSatisfy { $0.channel == "push" && $0.recipient == "Dr. Sarah Johnson" })
            #expect(pushes.last?.status == "skipped")
            #expect(pushes.last?.lastError == "not sent: the appointment was cancelled or closed")
            let emails = try await MailOutboxStore(db: app.db).deliveries(ofAppointment: appointment)
            #expect(emails.map(\.channel) == ["email", "email"])

            // The practice's log holds both channels, newest first.
            let practice = try await PushOutboxStore(db: app.db).deliveries(ofPractice: Demo.practiceID, limit: 20)
            #expect(practice.map(\.kind) == ["appointment_reminder", "appointment_booked"])
            let merged = ClinicNotifications.merged(emails, pushes, newestFirst: false)
            #expect(merged.map(\.createdAt) == merged.map(\.createdAt).sorted())
            #expect(merged.count == 4)
        }
    }
}
