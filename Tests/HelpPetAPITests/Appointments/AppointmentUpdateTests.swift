import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `PUT /api/v1/appointments/{id}` other than status (contract §4.5): partial update, immutables, closed
/// appointments, replacing the pet list, visibility.
@Suite struct AppointmentUpdateTests {
    @Test func partialUpdateChangesOnlySentFieldsAndNullClears() async throws {
        try await withTestApp(clock: ManualClock(Date(timeIntervalSince1970: 1_900_000_000))) { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                extra: ["description": "Bring records", "notes": "Nervous dog"]))
            let clock = try #require(app.core.clock as? ManualClock)
            clock.advance(by: 60)
            let response = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                "title": "  Updated  ", "notes": nil, "duration_minutes": 45, "assigned_vet_user_id": nil,
            ])
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["title"].string == "Updated")
            #expect(response.json["notes"].isNull)
            #expect(response.json["description"].string == "Bring records")
            #expect(response.json["duration_minutes"].int == 45)
            #expect(response.json["assigned_vet_user_id"].isNull)
            #expect(response.json["updated_at"].string != response.json["created_at"].string)
        }
    }

    @Test func sendingTheWholeObjectBackIsAccepted() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            let current = try await app.get("/api/v1/appointments/\(id)", token: vet)
            let body = try JSONDecoder().decode([String: JSONValue].self, from: current.body)
            let echoed = try await app.sendRaw(
                .PUT, "/api/v1/appointments/\(id)", token: vet,
                body: String(decoding: try JSONEncoder().encode(body), as: UTF8.self), contentType: .json)
            #expect(echoed.status == .ok, "\(echoed)")
            #expect(echoed.json["updated_at"].string == current.json["updated_at"].string)
        }
    }

    @Test func immutableFieldsCannotChange() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            for key in ["practice_id", "pet_owner_id", "id"] {
                let response = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                    key: UUID().lowercased, "title": "x",
                ])
                #expect(response.status == .badRequest)
                #expect(response.detail == "\(key) cannot be changed")
            }
            let same = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                "practice_id": Demo.practiceID.uuidString, "title": "x",
            ])
            #expect(same.status == .ok, "the current value may be repeated, in any case: \(same)")
        }
    }

    @Test func emptyUpdateIsRefused() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            let response = try await app.put("/api/v1/appointments/\(id)", token: vet, json: ["created_at": "x"])
            #expect(response.status == .badRequest)
            #expect(response.detail == "At least one updatable field is required")
            let nullDate = try await app.put("/api/v1/appointments/\(id)", token: vet, json: ["appointment_date": nil])
            #expect(nullDate.detail == "appointment_date cannot be null")
        }
    }

    @Test func closedAppointmentsOnlyTakeTextChanges() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for status in ["completed", "cancelled"] {
                let id = try await AppointmentFixtures.create(app, token: vet)
                try await AppointmentFixtures.drive(app, token: vet, id: id, to: status)
                let texts = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                    "title": "Follow-up notes", "description": "done", "notes": "n",
                ])
                #expect(texts.status == .ok, "\(texts)")
                let structural = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                    "duration_minutes": 90,
                ])
                #expect(structural.status == .conflict)
                #expect(structural.detail == "Cannot modify a \(status) appointment")
                let pets = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                    "pet_ids": [Demo.pet(1).lowercased],
                ])
                #expect(pets.detail == "Cannot modify a \(status) appointment")
            }
        }
    }

    @Test func replacingPetsKeepsTheNewOrderAndRefusesForeignOrInactivePets() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let id = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                pets: [Demo.pet(1), Demo.pet(2), Demo.pet(3)]))
            let reordered = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                "pet_ids": [Demo.pet(3).lowercased, Demo.pet(1).lowercased],
            ])
            #expect(reordered.status == .ok, "\(reordered)")
            #expect(reordered.json["pets"].ids == [Demo.pet(3).lowercased, Demo.pet(1).lowercased])
            let positions = try await app.db.sql.raw("""
                SELECT pet_id, position FROM appointment_pets WHERE appointment_id = \(bind: UUID(uuidString: id)!)
                ORDER BY position
                """).all()
            #expect(try positions.map { try $0.decode(column: "position", as: Int.self) } == [0, 1])

            let foreign = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                "pet_ids": [Demo.pet(5).lowercased],
            ])
            #expect(foreign.status == .badRequest)
            #expect(foreign.detail == "One or more pets not found or don't belong to this owner")

            // An inactive pet that is already on the appointment may stay; it cannot be added.
            try await app.db.sql.raw("UPDATE pets SET is_active = \(bind: false) WHERE id IN (\(binds: [Demo.pet(1), Demo.pet(2)]))").run()
            let keep = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                "pet_ids": [Demo.pet(1).lowercased, Demo.pet(3).lowercased],
            ])
            #expect(keep.status == .ok, "\(keep)")
            let add = try await app.put("/api/v1/appointments/\(id)", token: vet, json: [
                "pet_ids": [Demo.pet(1).lowercased, Demo.pet(2).lowercased],
            ])
            #expect(add.status == .badRequest)
            #expect(add.detail == "Pet \(Demo.pet(2).lowercased) is inactive")
        }
    }

    @Test func visibilityAndRoles() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let id = try await AppointmentFixtures.create(app, token: vet)
            let other = try await AppointmentFixtures.otherPractice(app)

            let foreign = try await app.put("/api/v1/appointments/\(id)", token: other.vetToken, json: ["title": "x"])
            #expect(foreign.status == .notFound)
            #expect(foreign.detail == "Appointment not found")
            let foreignCancel = try await app.delete("/api/v1/appointments/\(id)", token: other.vetToken)
            #expect(foreignCancel.status == .notFound)

            let byOwner = try await app.put("/api/v1/appointments/\(id)", token: owner, json: ["title": "x"])
            #expect(byOwner.status == .forbidden)
            #expect(byOwner.detail == "Veterinary staff or administrator access required")

            let malformed = try await app.put("/api/v1/appointments/123", token: vet, json: ["title": "x"])
            #expect(malformed.status == .badRequest)
            #expect(malformed.detail == "Invalid appointment ID format")
            let unknown = try await app.put("/api/v1/appointments/\(UUID().lowercased)", token: vet, json: ["title": "x"])
            #expect(unknown.status == .notFound)
        }
    }
}
