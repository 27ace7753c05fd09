import AppCore
import Foundation
@testable import HelpPetAPI
import SQLKit
import Testing
import VaporTesting

/// The vet's appointment reminder by push (docs/notifications.md, Push, "Events") on the test's database engine: due
/// once the start is within the lead time, once per start whatever the number of scans and workers, withdrawn when
/// the appointment moves or is cancelled, and never for a vet without a device.
@Suite struct VetPushReminderTests {
    /// 16:00 in the demo practice's zone (America/Los_Angeles, PDT), after the seed's appointments of that day.
    static let start = Date(timeIntervalSince1970: 1_903_906_800)  // 2030-05-01T23:00:00Z

    /// vet1's two devices and an appointment the admin booked for vet1 at `start`; returns its id.
    static func bookForVet1(_ app: Application) async throws -> String {
        let vet = try await app.token(for: Demo.vet1)
        for token in [PushDeliveryTests.tokenA, PushDeliveryTests.tokenB] {
            let registered = try await app.post("/api/v1/device-tokens/register", token: vet, json: ["device_token": token])
            #expect(registered.status == .ok, "\(registered)")
        }
        let admin = try await app.token(for: Demo.admin)
        return try await AppointmentFixtures.create(app, token: admin, body: AppointmentFixtures.body(
            date: WireTime.format(start), extra: ["practice_id": Demo.practiceID.lowercased]))
    }

    struct Reminder: Equatable {
        var status: String
        var reminderFor: Date
    }

    static func reminders(_ app: Application) async throws -> [Reminder] {
        try await app.db.sql.raw("""
            SELECT status, reminder_for FROM notification_outbox WHERE kind = 'appointment_reminder'
            ORDER BY created_at, reminder_for
            """).all().map {
            Reminder(status: try $0.decode(column: "status", as: String.self),
                     reminderFor: try $0.decode(column: "reminder_for", as: Date.self))
        }
    }

    static func scan(_ app: Application, at now: Date, lead: Int = 15) async throws -> Int {
        try await VetPushReminders(db: app.db, leadMinutes: lead).runOnce(now: now)
    }

    @Test func theAssignedVetIsRemindedOnceWhenTheStartIsWithinTheLeadTime() async throws {
        let clock = ManualClock(Self.start.addingTimeInterval(-3600))
        try await withTestApp(clock: clock) { app in
            let id = try await Self.bookForVet1(app)
            #expect(try await Self.scan(app, at: Self.start.addingTimeInterval(-16 * 60)) == 0)
            #expect(try await Self.scan(app, at: Self.start.addingTimeInterval(-14 * 60)) == 1)
            // Later scans, by this worker or another, find it done.
            #expect(try await Self.scan(app, at: Self.start.addingTimeInterval(-10 * 60)) == 0)
            #expect(try await Self.scan(app, at: Self.start.addingTimeInterval(-60)) == 0)
            #expect(try await Self.reminders(app) == [Reminder(status: "queued", reminderFor: Self.start)])

            let row = try #require(try await app.db.sql.raw("""
                SELECT id, user_id FROM notification_outbox WHERE kind = 'appointment_reminder'
                """).first())
            #expect(try row.decode(column: "user_id", as: UUID.self) == Demo.vet1.id)
            let payload = try await PushOutboxStore(db: app.db).payload(
                of: ClaimedPush(id: try row.decode(column: "id", as: UUID.self), userID: Demo.vet1.id,
                                kind: "appointment_reminder", createdAt: Self.start, attempts: 1, owner: "test"))
            #expect(payload["type"] == "appointment_reminder" && payload["appointment_id"] == id)
            #expect(payload["appointment_local_time"] == "16:00")
            let alert = try #require(PushMessages.notification(
                kind: "appointment_reminder", payload: payload, createdAt: Self.start.addingTimeInterval(-14 * 60),
                relevance: 86_400))
            #expect(alert.title == "Coming up")
            #expect(alert.body.hasSuffix("(John Smith) at 16:00"), "\(alert.body)")
            // Worth nothing once the appointment has begun.
            #expect(alert.expiration == Self.start)
        }
    }

    @Test func aMovedAppointmentIsRemindedOfItsNewTimeAndTheOldReminderIsWithdrawn() async throws {
        let clock = ManualClock(Self.start.addingTimeInterval(-3600))
        try await withTestApp(clock: clock) { app in
            let id = try await Self.bookForVet1(app)
            #expect(try await Self.scan(app, at: Self.start.addingTimeInterval(-10 * 60)) == 1)
            clock.set(Self.start.addingTimeInterval(-9 * 60))
            let admin = try await app.token(for: Demo.admin)
            let later = Self.start.addingTimeInterval(2 * 3600)
            let moved = try await app.put("/api/v1/appointments/\(id)", token: admin,
                                          json: ["appointment_date": WireTime.format(later)])
            #expect(moved.status == .ok, "\(moved)")
            #expect(try await Self.reminders(app) == [Reminder(status: "skipped", reminderFor: Self.start)])
            #expect(try await Self.scan(app, at: later.addingTimeInterval(-5 * 60)) == 1)
            #expect(try await Self.reminders(app).last == Reminder(status: "queued", reminderFor: later))

            let cancelled = try await app.delete("/api/v1/appointments/\(id)", token: admin)
            #expect(cancelled.status == .ok, "\(cancelled)")
            #expect(try await Self.reminders(app).map(\.status) == ["skipped", "skipped"])
        }
    }

    @Test func aCancelledAppointmentAVetWithoutADeviceAndALeadOfZeroGetNoReminder() async throws {
        let clock = ManualClock(Self.start.addingTimeInterval(-3600))
        try await withTestApp(clock: clock) { app in
            let id = try await Self.bookForVet1(app)
            let admin = try await app.token(for: Demo.admin)
            // vet2 has no device.
            _ = try await AppointmentFixtures.create(app, token: admin, body: AppointmentFixtures.body(
                date: "2030-05-01T23:05:00Z",
                extra: ["practice_id": Demo.practiceID.lowercased, "assigned_vet_user_id": Demo.vet2.id.lowercased]))
            #expect(try await Self.scan(app, at: Self.start.addingTimeInterval(-10 * 60), lead: 0) == 0)
            #expect(try await app.delete("/api/v1/appointments/\(id)", token: admin).status == .ok)
            #expect(try await Self.scan(app, at: Self.start.addingTimeInterval(-10 * 60)) == 0)
            #expect(try await Self.reminders(app).isEmpty)
        }
    }
}
