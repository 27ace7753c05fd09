import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// Seed 000 §11 "Testing Your Implementation" on demo appointment 1 (Bella, Max, Mittens): one recording per pet,
/// three separate visits with the right pet and appointment, and uploads that do not interfere with each other.
@Suite struct RecordingMultiPetAppointmentTests {
    typealias F = RecordingFixtures

    /// The v2 flow, pet after pet. After every step the other pets are untouched: a pet's `recording` stays null
    /// until its own upload completes (pending visits are not recordings, §4.0/§4.10).
    @Test func onePresignedUploadPerPetGivesThreeVisits() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let pets = Demo.appointmentPets(1)
            var visits: [UUID: String] = [:]
            var audio: [UUID: [UInt8]] = [:]

            func expectRecordings(completed: Int, step: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let shown = F.recordings(try await app.get(F.appointmentPath(appointment), token: vet))
                for (index, pet) in pets.enumerated() {
                    let recording = shown[pet.lowercased] ?? JSONNode(nil)
                    if index < completed {
                        #expect(recording["visit_id"].string == visits[pet], "\(step): pet \(index)", sourceLocation: sourceLocation)
                        #expect(recording["state"].string == "processing", "\(step): pet \(index)", sourceLocation: sourceLocation)
                    } else {
                        #expect(recording.isNull, "\(step): pet \(index) must show no recording, got \(recording)",
                                sourceLocation: sourceLocation)
                    }
                }
            }

            for (index, pet) in pets.enumerated() {
                let started = try await F.initiated(app, vet, pet: pet, appointment: appointment, filename: "pet-\(index).m4a")
                visits[pet] = started.visitID
                try await expectRecordings(completed: index, step: "after initiating pet \(index)")
                let bytes = F.bytes(2_000 + index * 100, seed: UInt8(index + 1))
                audio[pet] = bytes
                try await F.upload(app, started, bytes: bytes)
                try await expectRecordings(completed: index, step: "after uploading pet \(index)")
                let completed = try await F.complete(app, vet, started.visitID, body: ["file_size_bytes": bytes.count])
                #expect(completed.status == .ok, "\(completed)")
                try await expectRecordings(completed: index + 1, step: "after completing pet \(index)")
            }

            // Exactly three visit rows, one per pet, each with its own pet and the appointment.
            #expect(try await F.visitRows(app, appointment: appointment) == 3)
            for pet in pets { #expect(try await F.visitRows(app, appointment: appointment, pet: pet) == 1) }
            #expect(Set(visits.values).count == 3)
            let listed = try await app.get(F.appointmentVisitsPath(appointment), token: vet)
            #expect(listed.status == .ok)
            #expect(listed.json.count == 3)
            for item in listed.json.array ?? [] {
                let pet = try #require(item["pet_id"].string.flatMap(UUID.init(uuidString:)))
                #expect(item["uuid"].string == visits[pet])
                #expect(item["appointment_id"].string == appointment.lowercased)
                #expect(item["metadata"]["appointment_id"].string == appointment.lowercased)
                #expect(item["practice_id"].string == Demo.practiceID.lowercased)
            }
            // Each visit plays back its own pet's bytes, stored under its own pet's folder.
            for pet in pets {
                let visitID = try #require(visits[pet])
                try await F.expectPlayback(app, vet, visitID, bytes: try #require(audio[pet]))
                #expect(F.storedKeys(app, pet: pet).count == 1)
            }
        }
    }

    /// The same with seed 000's own endpoint, the legacy multipart upload.
    @Test func oneLegacyUploadPerPetGivesThreeVisits() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let pets = Demo.appointmentPets(1)
            var visits: [String] = []
            for (index, pet) in pets.enumerated() {
                let response = try await F.legacyUpload(
                    app, vet, appointment: appointment, pet: pet, bytes: F.bytes(900, seed: UInt8(index)))
                #expect(response.status == .created, "\(response)")
                #expect(response.json["pet_id"].string == pet.lowercased)
                #expect(response.json["appointment_id"].string == appointment.lowercased)
                let visitID = try #require(response.json["visit_id"].string)
                visits.append(visitID)
                let shown = F.recordings(try await app.get(F.appointmentPath(appointment), token: vet))
                for (other, otherPet) in pets.enumerated() {
                    let recording = shown[otherPet.lowercased] ?? JSONNode(nil)
                    if other <= index {
                        #expect(recording["visit_id"].string == visits[other])
                    } else {
                        #expect(recording.isNull, "pet \(other) after the upload of pet \(index): \(recording)")
                    }
                }
            }
            #expect(Set(visits).count == 3)
            #expect(try await F.visitRows(app, appointment: appointment) == 3)
            for (index, pet) in pets.enumerated() {
                let visit = try await F.visit(app, vet, visits[index])
                #expect(visit.json["pet_id"].string == pet.lowercased)
                #expect(visit.json["appointment_id"].string == appointment.lowercased)
                #expect(visit.json["state"].string == "processing")
            }
        }
    }
}
