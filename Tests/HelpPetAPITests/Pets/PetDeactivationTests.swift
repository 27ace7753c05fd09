import AppCore
import Foundation
import Testing
import VaporTesting

/// `DELETE /api/v1/pets/{pet_id}` — deactivate (contract §4.7): nothing is deleted, repeating is a no-op.
@Suite struct PetDeactivationTests {
    @Test func deactivationKeepsThePetAndItsHistory() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 60)
            let response = try await app.delete(PetFixtures.path(1), token: vet)
            #expect(response.status == .ok, "\(response)")
            #expect(response.json.keys == ClinicalKeys.pet)
            #expect(response.json["is_active"].bool == false)
            #expect(response.json["name"].string == "Bella")
            let deactivatedAt = WireTime.format(clock.now())
            #expect(response.json["updated_at"].string == deactivatedAt)

            // Repeating is a no-op: 200, same representation, updated_at kept.
            clock.advance(by: 60)
            let again = try await app.delete(PetFixtures.path(1), token: vet)
            #expect(again.status == .ok)
            #expect(again.json.value == response.json.value)

            #expect(try await app.get(PetFixtures.path(1), token: vet).json["is_active"].bool == false)
            let owner = try await app.get("/api/v1/pet-owners/\(Demo.owner(1).lowercased)", token: vet)
            #expect(owner.json["pets"].ids == [Demo.pet(2), Demo.pet(3)].lowercasedIDs, "owner summaries list active pets")
            let records = try await app.get("/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)", token: vet)
            #expect(records.json["total"].int == 2)
            let visits = try await app.get("/api/v1/visit-transcripts/pet/\(Demo.pet(1).lowercased)", token: vet)
            #expect(visits.json.ids == [Demo.visitID.lowercased])
            let appointment = try await app.get("/api/v1/appointments/\(Demo.appointmentID(1, app).lowercased)", token: vet)
            #expect(appointment.json["pets"].ids.contains(Demo.pet(1).lowercased))
        }
    }

    @Test func inactivePetsCannotJoinNewAppointments() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            #expect(try await app.delete(PetFixtures.path(2), token: vet).status == .ok)
            expectError(
                try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body()),
                .badRequest, "Pet \(Demo.pet(2).lowercased) is inactive")
        }
    }

    @Test func idsVisibilityAndGates() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(try await app.delete("/api/v1/pets/nope", token: vet), .badRequest, "Invalid pet ID format")
            expectError(try await app.delete("/api/v1/pets/\(UUID().lowercased)", token: vet), .notFound, "Pet not found")
            let other = try await OtherPractice.create(app)
            expectError(try await app.delete(PetFixtures.path(1), token: other.vetToken), .notFound, "Pet not found")
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await app.delete(PetFixtures.path(1), token: owner), .forbidden, "Veterinary staff or administrator access required")
            #expect(try await app.get(PetFixtures.path(1), token: vet).json["is_active"].bool == true)

            let admin = try await app.delete("/api/v1/pets/\(Demo.pet(5).uuidString)/", token: try await app.token(for: Demo.admin))
            #expect(admin.status == .ok, "upper-case id with a trailing slash: \(admin)")
            #expect(admin.json["is_active"].bool == false)
        }
    }

    @Test func aBodyOrContentTypeOnDeleteIsIgnored() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.send(.DELETE, PetFixtures.path(6), token: vet, body: "{not json", contentType: .plainText)
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["is_active"].bool == false)
        }
    }
}
