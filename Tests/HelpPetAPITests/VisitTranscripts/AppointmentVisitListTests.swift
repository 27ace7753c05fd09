import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/visit-transcripts/appointments/{appointment_id}/visits?pet_id=` (contract §4.9): the visits of one
/// appointment, scoped by the appointment; order `visit_date` desc, `created_at` desc, `uuid`; pending visits on
/// request. The visits are inserted with SQL as the (not yet implemented) audio flows would leave them.
@Suite struct AppointmentVisitListTests {
    /// Visits of appointment 1: Bella `processed` and Max `processing` created in the same second, Mittens
    /// pending (created later).
    static func insertVisits(_ app: Application) async throws -> (bella: String, max: String, mittens: String) {
        let appointment = Demo.appointmentID(1, app)
        let start = LocalDay.instant(on: app.seedDay, hour: 9, minute: 0, in: Demo.zone)  // appointment 1, 09:00 (§8)
        let created = app.testSeedTime.addingTimeInterval(2)
        let bella = try await VisitSQL.insertRecording(
            app, pet: Demo.pet(1), appointment: appointment, state: "processed", visitDate: start, createdAt: created)
        let max = try await VisitSQL.insertRecording(
            app, pet: Demo.pet(2), appointment: appointment, state: "processing", visitDate: start, createdAt: created)
        let mittens = try await VisitSQL.insertRecording(
            app, pet: Demo.pet(3), appointment: appointment, state: "new", visitDate: start,
            createdAt: created.addingTimeInterval(5))
        return (bella.lowercased, max.lowercased, mittens.lowercased)
    }

    @Test func anAppointmentWithoutVisitsHasAnEmptyList() async throws {
        try await withTestApp { app in
            let response = try await app.get(
                VisitFixtures.appointmentVisits(Demo.appointmentID(1, app)), token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok)
            #expect(response.text == "[]")
            #expect(response.totalCount == "0")
        }
    }

    @Test func listsTheAppointmentsVisitsInOrderAndPendingOnRequest() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let v = try await Self.insertVisits(app)
            let appointment = Demo.appointmentID(1, app)
            let sameSecond = [v.bella, v.max].sorted()
            for (query, expected) in [
                ("", sameSecond), ("?include_pending=false", sameSecond), ("?include_pending=true", [v.mittens] + sameSecond),
                ("?pet_id=\(Demo.pet(2).lowercased)", [v.max]), ("?pet_id=\(Demo.pet(3).uuidString)", []),
                ("?pet_id=\(Demo.pet(3).lowercased)&include_pending=1", [v.mittens]),
                ("?include_pending=true&limit=1&offset=1", [sameSecond[0]]),
            ] {
                let response = try await app.get(VisitFixtures.appointmentVisits(appointment, query), token: vet)
                #expect(response.status == .ok, "\(query): \(response)")
                #expect(response.json.ids == expected, "\(query)")
                for visit in response.json.array ?? [] {
                    #expect(visit.keys == ClinicalKeys.visitTranscript)
                    #expect(visit["appointment_id"].string == appointment.lowercased)
                }
            }
            let total = try await app.get(VisitFixtures.appointmentVisits(appointment, "?include_pending=true&limit=1"), token: vet)
            #expect(total.totalCount == "3")
            // Manual visits never belong to an appointment.
            #expect(!(try await app.get(VisitFixtures.appointmentVisits(appointment), token: vet)).json.ids
                .contains(Demo.visitID.lowercased))
        }
    }

    @Test func petMustBeOnTheAppointment() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            for pet in [Demo.pet(5), UUID()] {
                expectError(
                    try await app.get(VisitFixtures.appointmentVisits(appointment, "?pet_id=\(pet.lowercased)"), token: vet),
                    .badRequest, "Pet \(pet.lowercased) is not associated with appointment \(appointment.lowercased)")
            }
            expectError(
                try await app.get(VisitFixtures.appointmentVisits(appointment, "?pet_id=nope"), token: vet),
                .badRequest, "Invalid pet ID format")
            // The appointment's visibility (404) comes before the relationship check (400).
            expectError(
                try await app.get(VisitFixtures.appointmentVisits(UUID(), "?pet_id=\(Demo.pet(5).lowercased)"), token: vet),
                .notFound, "Appointment not found")
        }
    }

    @Test func idQueryAndPaginationErrors() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for id in ["nope", "840e37f23ad75df599bb63311ab0eb6e"] {
                expectError(
                    try await app.get("/api/v1/visit-transcripts/appointments/\(id)/visits", token: vet),
                    .badRequest, "Invalid appointment ID format")
            }
            expectError(
                try await app.get(VisitFixtures.appointmentVisits(UUID()), token: vet), .notFound, "Appointment not found")
            let appointment = Demo.appointmentID(1, app)
            for bad in ["maybe", ""] {
                expectError(
                    try await app.get(VisitFixtures.appointmentVisits(appointment, "?include_pending=\(bad)"), token: vet),
                    .badRequest, "include_pending must be true or false")
            }
            try await PaginationCases.expectRefused(app, VisitFixtures.appointmentVisits(appointment), token: vet)
            let slashed = try await app.get(
                "/api/v1/visit-transcripts/appointments/\(appointment.uuidString)/visits/", token: vet)
            #expect(slashed.status == .ok)
        }
    }

    @Test func scopedByTheAppointment() async throws {
        try await withTestApp { app in
            _ = try await Self.insertVisits(app)
            let appointment1 = Demo.appointmentID(1, app)
            let other = try await OtherPractice.create(app)
            expectError(
                try await app.get(VisitFixtures.appointmentVisits(appointment1), token: other.vetToken),
                .notFound, "Appointment not found")
            let owner = try await app.token(for: Demo.owner1)
            let own = try await app.get(VisitFixtures.appointmentVisits(appointment1), token: owner)
            #expect(own.status == .ok)
            #expect(own.json.ids.count == 2)
            expectError(
                try await app.get(VisitFixtures.appointmentVisits(Demo.appointmentID(2, app)), token: owner),
                .notFound, "Appointment not found")
            let admin = try await app.get(VisitFixtures.appointmentVisits(appointment1), token: try await app.token(for: Demo.admin))
            #expect(admin.json.ids.count == 2)
        }
    }
}
