import AppCore
import Foundation
@testable import HelpPetAPI
import Testing
import VaporTesting

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
}
