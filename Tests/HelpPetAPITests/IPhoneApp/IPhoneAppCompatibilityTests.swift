import AppCore
import Fluent
import SQLKit
import Foundation
import Testing
import VaporTesting

/// Every call of the shipped iPhone app (except the phone-service routes), decoded with the app's own models
/// (AppModels) and sent with its own request bodies and encoders, in both client profiles.
@Suite struct IPhoneAppCompatibilityTests {
    @Test(arguments: ClientKind.allCases)
    func theAppsReadScreensDecode(_ kind: ClientKind) async throws {
        try await withTestApp { app in
            let client = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: kind)
            let me = try await client.get("/api/v1/auth/me", as: App.User.self)
            #expect(me.role == .vetStaff, "vet1 is VET_STAFF in the demo data")
            let today = LocalDay.day(containing: app.testSeedTime, in: Demo.zone)
            let dashboard = try await client.get(
                "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today?date=\(today)", as: App.DashboardResponse.self)
            #expect(!dashboard.appointmentsToday.isEmpty)
            let owners = try await client.get("/api/v1/pet_owners/", as: [App.PetOwnerResponse].self)
            #expect(owners.contains { $0.uuid == Demo.owner(1).lowercased && $0.fullName == "John Smith" })
            let details = try await client.get("/api/v1/pet_owners/", as: [App.PetOwnerDetails].self)
            let allNotified = details.allSatisfy(\.notificationsEnabled)
            #expect(allNotified)
            let pets = try await client.get("/api/v1/pets/owner/\(Demo.owner(1).lowercased)", as: [App.Pet].self)
            let bella = try #require(pets.first { $0.id == Demo.pet(1).lowercased })
            #expect(bella.owner?.fullName == "John Smith")
            #expect(bella.displayName == "\(bella.name) (\(bella.species))")
            #expect(bella.dateOfBirth == nil || bella.ageYears != nil)
            _ = try await client.get("/api/v1/pets/\(Demo.pet(1).lowercased)", as: App.Pet.self)
            let practices = try await client.get("/api/v1/practices/", as: [App.Practice].self)
            #expect(practices.map(\.id) == [Demo.practiceID.lowercased])
            let appointment = try await client.get(
                "/api/v1/appointments/\(Demo.appointmentID(1, app).lowercased)", as: App.Appointment.self)
            #expect(appointment.pets.count == 3)
            let transcripts = try await client.get(
                "/api/v1/visit-transcripts/pet/\(Demo.pet(1).lowercased)", as: [App.VisitTranscriptListItem].self)
            let manual = try #require(transcripts.first { $0.uuid == Demo.visitID.lowercased })
            #expect(manual.hasAudio == false)
        }
    }

    @Test(arguments: ClientKind.allCases)
    func ownersCreatedAndEditedByTheAppKeepTheirFullName(_ kind: ClientKind) async throws {
        try await withTestApp { app in
            let client = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: kind)
            let create = App.CreatePetOwnerRequest(
                fullName: "Mary Ann  van Dyke", email: "mary@example.com", phone: "555-0100", secondaryPhone: nil,
                address: nil, emergencyContact: "Tom", preferredCommunication: "sms", notificationsEnabled: false)
            let created = try await client.call(
                .POST, "/api/v1/pet_owners/", body: try AppCoding.plainSnakeCaseEncoder.encode(create),
                as: App.PetOwnerDetails.self)
            #expect(created.fullName == "Mary Ann  van Dyke")
            #expect(created.preferredCommunication == "sms")
            #expect(created.notificationsEnabled == false)
            #expect(created.emergencyContact == "Tom")
            let stored = try await app.get("/api/v1/pet-owners/\(created.uuid)", token: client.token)
            #expect(stored.json["first_name"].string == "Mary Ann  van")
            #expect(stored.json["last_name"].string == "Dyke")

            // The edit screen sends every field; empty texts are "" and clear the field.
            let update = App.UpdatePetOwnerRequest(
                userId: nil, fullName: "Cher", email: "cher@example.com", phone: "", emergencyContact: "",
                secondaryPhone: "555-0101", address: "", preferredCommunication: "email", notificationsEnabled: true)
            let updated = try await client.call(
                .PUT, "/api/v1/pet_owners/\(created.uuid)", body: try AppCoding.plainSnakeCaseEncoder.encode(update),
                as: App.PetOwnerDetails.self)
            #expect(updated.fullName == "Cher")
            #expect(updated.phone == nil)
            #expect(updated.emergencyContact == nil)
            #expect(updated.secondaryPhone == "555-0101")
            let after = try await app.get("/api/v1/pet-owners/\(created.uuid)", token: client.token)
            #expect(after.json["first_name"].string == "Cher")
            #expect(after.json["last_name"].string == "")
        }
    }

    @Test(arguments: ClientKind.allCases)
    func petsCreatedAndEditedByTheAppDecode(_ kind: ClientKind) async throws {
        try await withTestApp { app in
            let client = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: kind)
            var born = DateComponents()
            (born.year, born.month, born.day) = (2019, 3, 4)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let create = App.CreatePetRequest(
                name: "Biscuit", species: "Dog", breed: nil, color: "Tan", gender: "Male", weight: 0,
                dateOfBirth: utc.date(from: born)!, microchipId: "CHIP-\(kind.rawValue)-1", spayedNeutered: true,
                allergies: nil, medications: "Apoquel", medicalNotes: "Anxious at the vet", emergencyContact: "Ann",
                emergencyPhone: "555-0199", ownerId: Demo.owner(1).lowercased)
            let pet = try await client.call(
                .POST, "/api/v1/pets/", body: try AppCoding.petEncoder.encode(create), as: App.Pet.self)
            #expect(pet.weight == nil, "weight 0 means not weighed")
            #expect(pet.microchipId == "CHIP-\(kind.rawValue)-1")
            #expect(pet.spayedNeutered == true)
            #expect(pet.medications == "Apoquel")
            #expect(pet.ageYears != nil && pet.ageYears! >= 6)
            #expect(pet.displayName == "Biscuit (Dog)")

            let update = App.UpdatePetRequest(
                name: "Biscuit", species: "Dog", breed: "Beagle", color: nil, gender: "Male", weight: 21.5,
                dateOfBirth: pet.dateOfBirth, microchipId: pet.microchipId, spayedNeutered: nil, allergies: nil,
                medications: nil, medicalNotes: nil, emergencyContact: nil, emergencyPhone: nil)
            let updated = try await client.call(
                .PUT, "/api/v1/pets/\(pet.id)", body: try AppCoding.petEncoder.encode(update), as: App.Pet.self)
            #expect(updated.breed == "Beagle")
            #expect(updated.weight == 21.5)
            #expect(updated.medications == "Apoquel", "an omitted (nil) field is left as it is")
        }
    }

    /// The one conflict of shapes: `medications` is a list in the contract and a string in the app.
    @Test func medicalRecordsDecodeWithTheAppsModelsInTheLegacyProfile() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.vet1)
            let legacy = AppClient(app: app, token: token, kind: .legacy)
            let standard = AppClient(app: app, token: token, kind: .standard)
            let visit = Date(timeIntervalSince1970: 1_767_000_000)  // 2025-12-29
            let followUp = try #require(ISO8601DateFormatter().date(from: "2026-01-10T08:00:00Z"))  // LA midnight
            let create = App.CreateMedicalRecordRequest(
                recordType: "grooming", title: "Groom", description: nil,
                medicalData: .init(heartRate: "90", respiratoryRate: nil, bloodPressure: nil, bodyConditionScore: nil,
                                   dentalCondition: nil, skinCondition: "dry", eyeCondition: nil, earCondition: nil),
                visitDate: visit, veterinarianName: "Dr. Vet", clinicName: "Demo Clinic", diagnosis: nil,
                treatment: "Bath", medications: "Chlorhexidine shampoo, Ear cleaner", followUpRequired: true,
                followUpDate: followUp, weight: 12.5, temperature: 0, cost: 40, petId: Demo.pet(1).lowercased)
            let record = try await legacy.call(
                .POST, "/api/v1/medical-records/", body: try AppCoding.medicalRecordEncoder.encode(create),
                as: App.MedicalRecord.self)
            #expect(record.medications == "Chlorhexidine shampoo, Ear cleaner")
            #expect(record.treatment == "Bath")
            #expect(record.followUpRequired)
            #expect(record.temperature == nil)
            #expect(record.medicalData?.skinCondition == "dry")
            #expect(record.createdByUserId == Demo.vet1.id.lowercased)
            #expect(record.visitDate == visit)

            let seedShaped = try await standard.raw(.GET, "/api/v1/medical-records/\(record.id)")
            #expect(seedShaped.json["medications"].array?.compactMap(\.string) == ["Chlorhexidine shampoo", "Ear cleaner"])
            #expect(seedShaped.json["follow_up_date"].string == "2026-01-10", "the practice-local day of the datetime")
            #expect(throws: (any Error).self) {
                try AppCoding.decoder.decode(App.MedicalRecord.self, from: seedShaped.body)
            }

            let all = try await legacy.get(
                "/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)?include_historical=true",
                as: App.MedicalRecordsResponse.self)
            #expect(all.records.contains { $0.id == record.id })
            let latest = try await legacy.get(
                "/api/v1/medical-records/pet/\(Demo.pet(1).lowercased)?latest_only=true",
                as: App.MedicalRecordsResponse.self)
            #expect(latest.records.count == 1)

            let update = App.UpdateMedicalRecordRequest(
                recordType: "grooming", title: "Groom and nails", description: "",
                medicalData: .init(heartRate: nil, respiratoryRate: nil, bloodPressure: nil, bodyConditionScore: nil,
                                   dentalCondition: nil, skinCondition: nil, eyeCondition: nil, earCondition: nil),
                visitDate: visit, veterinarianName: "Dr. Vet", clinicName: "Demo Clinic", diagnosis: "",
                treatment: "Bath", medications: "", followUpRequired: false, followUpDate: nil, weight: 12.5,
                temperature: nil, cost: 45)
            let amended = try await legacy.call(
                .PUT, "/api/v1/medical-records/\(record.id)", body: try AppCoding.medicalRecordEncoder.encode(update),
                as: App.MedicalRecord.self)
            #expect(amended.version == 2)
            #expect(amended.medications == "")
            #expect(amended.followUpRequired == false)
            #expect(amended.cost == 45)
        }
    }

    @Test func adminIsSystemAdminOnlyInTheLegacyProfile() async throws {
        try await withTestApp { app in
            let token = try await app.token(for: Demo.admin)
            let legacy = try await AppClient(app: app, token: token, kind: .legacy)
                .get("/api/v1/auth/me", as: App.User.self)
            #expect(legacy.role == .systemAdmin)
            let standard = try await AppClient(app: app, token: token, kind: .standard).raw(.GET, "/api/v1/auth/me")
            #expect(standard.json["role"].string == "ADMIN")
            let header = try await app.get(
                "/api/v1/auth/me", token: token, headers: ["X-HelpPet-Client": "ios-legacy"])
            #expect(header.json["role"].string == "SYSTEM_ADMIN")
        }
    }

    /// The edit screen sends every field, the pets of a Set in any order. Completing a scheduled appointment is the
    /// legacy profile's extra transition; other clients keep the contract's 409 (the kits' CLI pins it).
    @Test(arguments: ClientKind.allCases)
    func theAppsAppointmentEditSendsPetsInAnyOrderAndMayComplete(_ kind: ClientKind) async throws {
        try await withTestApp { app in
            let client = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: kind)
            let path = "/api/v1/appointments/\(Demo.appointmentID(1, app).lowercased)"
            let current = try await client.get(path, as: App.Appointment.self)
            #expect(current.status == .scheduled || current.status == .confirmed)
            func edit(_ status: App.AppointmentStatus) -> App.UpdateAppointmentRequest {
                App.UpdateAppointmentRequest(
                    assignedVetUserId: current.assignedVetUserId, appointmentDate: current.appointmentDate,
                    durationMinutes: current.durationMinutes, appointmentType: "grooming", status: status,
                    title: current.title, description: current.description, notes: current.notes,
                    petIds: current.pets.map(\.id).reversed())
            }
            if kind == .standard {
                let refused = try await client.raw(.PUT, path, body: try AppCoding.appointmentEncoder.encode(edit(.completed)))
                expectError(refused, .conflict, "Cannot change appointment status from \(current.status.rawValue) to completed")
            }
            let target: App.AppointmentStatus = kind == .legacy ? .completed : current.status
            let updated = try await client.call(
                .PUT, path, body: try AppCoding.appointmentEncoder.encode(edit(target)), as: App.Appointment.self)
            #expect(updated.status == target)
            #expect(updated.appointmentType == "grooming")
            #expect(updated.pets.map(\.id) == current.pets.map(\.id), "a reorder is not a change")
            // Saving again from the edit screen changes nothing and is accepted (also once completed).
            let again = try await client.call(
                .PUT, path, body: try AppCoding.appointmentEncoder.encode(edit(target)), as: App.Appointment.self)
            #expect(again.updatedAt == updated.updatedAt)
        }
    }

    @Test(arguments: ClientKind.allCases)
    func deviceTokensRegisterIdempotentlyAndMoveToTheLastUser(_ kind: ClientKind) async throws {
        try await withTestApp { app in
            let vet1 = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: kind)
            let vet2 = AppClient(app: app, token: try await app.token(for: Demo.vet2), kind: kind)
            let token = String(repeating: "ab12", count: 16)
            let body = try AppCoding.plainSnakeCaseEncoder.encode(
                App.DeviceTokenRegistrationRequest(deviceToken: token, deviceType: "ios"))
            let first = try await vet1.call(.POST, "/api/v1/device-tokens/register", body: body, as: App.DeviceTokenResponse.self)
            let again = try await vet1.call(.POST, "/api/v1/device-tokens/register", body: body, as: App.DeviceTokenResponse.self)
            #expect(first.id == again.id)
            #expect(first.deviceToken == token && first.isActive)
            _ = try await vet2.call(.POST, "/api/v1/device-tokens/register", body: body, as: App.DeviceTokenResponse.self)
            #expect(try await vet1.get("/api/v1/device-tokens/", as: [App.DeviceTokenResponse].self).isEmpty)
            #expect(try await vet2.get("/api/v1/device-tokens/", as: [App.DeviceTokenResponse].self).count == 1)

            let unregister = try JSONEncoder().encode(["device_token": token])
            #expect(try await vet1.raw(.DELETE, "/api/v1/device-tokens/unregister", body: unregister).status == .noContent)
            #expect(try await vet2.get("/api/v1/device-tokens/", as: [App.DeviceTokenResponse].self).count == 1,
                    "another user's token is not removed")
            #expect(try await vet2.raw(.DELETE, "/api/v1/device-tokens/unregister", body: unregister).status == .noContent)
            #expect(try await vet2.get("/api/v1/device-tokens/", as: [App.DeviceTokenResponse].self).isEmpty)
        }
    }

    @Test func anAppointmentBookedForAnotherVetLeavesAnOutboxRow() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let response = try await app.post("/api/v1/appointments", token: admin, json: [
                "practice_id": Demo.practiceID.lowercased, "pet_owner_id": Demo.owner(1).lowercased,
                "assigned_vet_user_id": Demo.vet1.id.lowercased, "appointment_date": "2030-01-15T17:00:00Z",
                "title": "Checkup", "pet_ids": [Demo.pet(1).lowercased],
            ])
            #expect(response.status == .created, "\(response)")
            let rows = try await app.db.sql.raw(
                "SELECT user_id, kind FROM notification_outbox").all()
            #expect(rows.count == 1)
            #expect(try rows.first?.decode(column: "user_id", as: UUID.self) == Demo.vet1.id)
        }
    }
}
