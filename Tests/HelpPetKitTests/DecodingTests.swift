import Foundation
import Testing

@testable import HelpPetKit

/// Every model decoded from JSON captured from the running server (fetched here, never hand-written), with the
/// decoder HelpPetKit uses; then encoded and decoded again unchanged.
@Suite("Decoding: every model against the running server's JSON", .timeLimit(.minutes(20)))
struct DecodingTests {
    /// GETs raw JSON through HelpPetKit.
    private func raw(_ client: HelpPetClient, _ path: String, _ query: [(String, String)] = []) async throws -> Data {
        try await client.sendRaw(Request<JSONValue>(path: path, query: query))
    }

    /// Decodes `data` as `T` with HelpPetKit's decoder, checks an encode/decode round trip, and returns it.
    private func decode<T: Codable & Equatable>(_ type: T.Type, _ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        let value = try HelpPetCoding.makeDecoder().decode(T.self, from: data)
        let again = try HelpPetCoding.makeDecoder().decode(T.self, from: HelpPetCoding.makeEncoder().encode(value))
        #expect(again == value, "round trip of \(T.self)", sourceLocation: sourceLocation)
        return value
    }

    @Test("auth, dashboards, appointments, pets, medical records and transcripts")
    func readModels() async throws {
        try await withServer { server in
            let client = server.client()
            let loginData = try await client.sendRaw(
                Request<JSONValue>(
                    method: .post, path: "/api/v1/auth/token",
                    body: .form([("username", "vet1"), ("password", "password123")]), requiresAuthentication: false))
            let login = try decode(LoginResponse.self, loginData)
            #expect(login.tokenType == "bearer")
            #expect(login.expiresIn == 28_800)
            try await client.setToken(StoredToken(accessToken: login.accessToken))

            let user = try decode(User.self, try await raw(client, "/api/v1/auth/me"))
            #expect(user.id == Demo.vet1)
            #expect(user.role == .vetStaff)
            #expect(user.practiceId == Demo.practice)
            #expect(user.petOwnerId == nil)
            #expect(user.createdAt != nil)

            let dashboard = try decode(DashboardResponse.self, try await raw(client, "/api/v1/dashboard/vet/\(Demo.vet1)/today"))
            #expect(dashboard.appointmentsToday.count == 3)
            #expect(dashboard.remainingCount == 3)
            #expect(dashboard.timezone == "America/Los_Angeles")
            let date = try #require(dashboard.date)
            let multiPet = try #require(dashboard.appointmentsToday.first { $0.pets.count == 3 })
            #expect(multiPet.pets.map(\.name) == ["Bella", "Max", "Mittens"])
            #expect(multiPet.pets.map(\.id) == [Demo.bella, Demo.max, Demo.mittens])
            #expect(multiPet.pets.allSatisfy { $0.recording == nil })
            #expect(multiPet.status == .scheduled)
            #expect(multiPet.durationMinutes == 60)
            #expect(multiPet.notes == nil)
            // The appointment instant lies inside the practice-local day of the dashboard.
            #expect(HelpPetCoding.formatDay(multiPet.appointmentDate, in: TimeZone(identifier: "America/Los_Angeles")!) == date)

            let schedule = try decode(VetSchedule.self, try await raw(client, "/api/v1/dashboard/vet/\(Demo.vet1)", [("date", date)]))
            #expect(schedule.todayAppointments.map(\.id) == dashboard.appointmentsToday.map(\.id))
            #expect(schedule.stats.appointmentsToday == 3)

            let appointment = try decode(Appointment.self, try await raw(client, "/api/v1/appointments/\(multiPet.id)"))
            #expect(appointment == multiPet)
            #expect(appointment.pet(withId: Demo.max.uppercased())?.name == "Max")

            let pet = try decode(Pet.self, try await raw(client, "/api/v1/pets/\(Demo.bella)"))
            #expect(pet.name == "Bella")
            #expect(pet.dateOfBirth == "2020-03-15")
            #expect(pet.weight == 65.5)
            #expect(pet.owner.fullName == "John Smith")
            #expect(pet.registrationDate == "2020-04-01")

            let records = try decode(
                MedicalRecordsResponse.self, try await raw(client, "/api/v1/medical-records/pet/\(Demo.bella)"))
            #expect(records.total == 2)
            #expect(records.currentRecordsCount == 1)
            #expect(records.historicalRecordsCount == 1)
            #expect(records.records.first?.id == Demo.bellaRecordV2)
            #expect(records.records.first?.version == 2)
            #expect(records.records.first?.medications == ["DHPP Vaccine", "Rabies Vaccine"])
            #expect(records.records.last?.isCurrent == false)
            let history = try decode(
                MedicalRecordsResponse.self, try await raw(client, "/api/v1/medical-records/pet/\(Demo.bella)/history"))
            #expect(history.records.map(\.version) == [2, 1])
            let detail = try decode(MedicalRecord.self, try await raw(client, "/api/v1/medical-records/\(Demo.maxRecord)"))
            #expect(detail.pet?.name == "Max")
            #expect(detail.createdByUser?.fullName == "Dr. Sarah Johnson")
            #expect(detail.diagnosis == "Healthy")
            #expect(detail.medications.isEmpty)

            let transcripts = try decode(
                [VisitTranscript].self, try await raw(client, "/api/v1/visit-transcripts/pet/\(Demo.bella)"))
            let manual = try #require(transcripts.first { $0.uuid == Demo.manualVisit })
            #expect(manual.state == .processed)
            #expect(manual.appointmentId == nil)
            #expect(manual.audioTranscriptUrl == nil)
            #expect(manual.metadata["chief_complaint"] == "Annual wellness exam")
            #expect(manual.metadata["duration_minutes"]?.intValue == 25)
            // visit_date is unix seconds: 10:00 practice-local, 30 days before today.
            #expect(manual.visitDate < Date())
            #expect(manual.visitDate > Date().addingTimeInterval(-32 * 86_400))
            let single = try decode(VisitTranscript.self, try await raw(client, "/api/v1/visit-transcripts/\(Demo.manualVisit)"))
            #expect(single == manual)

            // The typed client methods decode the same answers.
            #expect(try await client.me() == user)
            #expect(try await client.appointment(id: multiPet.id) == appointment)
            #expect(try await client.pet(id: Demo.bella) == pet)
            #expect(try await client.medicalRecord(id: Demo.maxRecord) == detail)
            #expect(try await client.medicalRecordHistory(petId: Demo.bella) == history)
            #expect(try await client.visitTranscripts(petId: Demo.bella) == transcripts)
            #expect(try await client.schedule(vetId: Demo.vet1, date: date) == schedule)
        }
    }

    @Test("recording flow: initiate, complete, playback and legacy answers; free-form keys survive convertFromSnakeCase")
    func recordingModels() async throws {
        try await withServer { server in
            let client = try await server.loggedInClient()
            let appointment = try #require(try await client.today().appointmentsToday.first { $0.pets.count == 3 })
            let file = try Recordings.make(bytes: 64_000, name: "bella.m4a")
            defer { Recordings.remove(file) }

            let initiateBody = AudioUploadRequest(
                petId: Demo.bella, filename: "appointment_\(appointment.id.prefix(8))_pet_bella.m4a",
                estimatedDurationSeconds: 180.5, appointmentId: appointment.id)
            let initiateData = try await client.sendRaw(
                try Request<JSONValue>(method: .post, path: "/api/v1/visit-transcripts/audio/upload/initiate", json: initiateBody))
            let ticket = try decode(AudioUploadResponse.self, initiateData)
            try ticket.validate()
            #expect(ticket.expiresIn == 3600)
            #expect(ticket.uploadFields["Content-Type"] == "audio/m4a")
            #expect(ticket.uploadFields["key"] == ticket.s3Key)
            #expect(ticket.uploadFields["x-amz-signature"] != nil)

            // Seed 002 decodes with .convertFromSnakeCase and no CodingKeys: upload_fields keeps its keys.
            struct Seed002AudioUploadResponse: Decodable {
                let visitId: String
                let uploadUrl: String
                let uploadFields: [String: String]
                let s3Key: String
                let bucket: String
                let expiresIn: Int
            }
            let snake = JSONDecoder()
            snake.keyDecodingStrategy = .convertFromSnakeCase
            let seed002 = try snake.decode(Seed002AudioUploadResponse.self, from: initiateData)
            #expect(seed002.uploadFields == ticket.uploadFields)
            #expect(seed002.uploadFields["Content-Type"] == "audio/m4a")
            let wholeBody = try snake.decode(JSONValue.self, from: initiateData)
            #expect(wholeBody["upload_fields"]?["Content-Type"] == "audio/m4a")
            #expect(wholeBody["s3_key"]?.stringValue == ticket.s3Key)

            #expect(try await client.uploadRecording(fileAt: file, using: ticket) == .uploaded)

            let completeBody = AudioUploadCompleteRequest(
                fileSizeBytes: 64_000, durationSeconds: 185.3,
                deviceMetadata: ["device_model": "iPhone 15 Pro", "ios_version": "17.2.1", "Sample-Rate": 44_100])
            let completeData = try await client.sendRaw(
                try Request<JSONValue>(
                    method: .post, path: "/api/v1/visit-transcripts/audio/upload/complete/\(ticket.visitId)",
                    json: completeBody))
            let visit = try decode(VisitTranscript.self, completeData)
            #expect(visit.uuid == ticket.visitId)
            #expect(visit.petId == Demo.bella)
            #expect(visit.appointmentId == appointment.id)
            #expect(visit.practiceId == Demo.practice)
            #expect(visit.state == .processing)
            #expect(visit.visitDate == appointment.appointmentDate)
            #expect(visit.storageKey == ticket.s3Key)
            #expect(visit.fileSizeBytes == 64_000)
            #expect(visit.metadata["device_metadata"]?["Sample-Rate"]?.intValue == 44_100)
            #expect(visit.metadata["device_metadata"]?["ios_version"] == "17.2.1")
            #expect(visit.metadata["duration_seconds"]?.doubleValue == 185.3)
            #expect(visit.audioTranscriptUrl?.hasSuffix(ticket.s3Key) == true)

            // Seed 002's VisitTranscript (no CodingKeys, .convertFromSnakeCase): metadata keeps s3_key.
            struct Seed002VisitTranscript: Decodable {
                let uuid: String
                let petId: String
                let fullText: String
                let metadata: [String: JSONValue]
                let state: String
            }
            let seedVisit = try snake.decode(Seed002VisitTranscript.self, from: completeData)
            #expect(seedVisit.petId == Demo.bella)
            #expect(seedVisit.metadata["s3_key"]?.stringValue == ticket.s3Key)
            #expect(seedVisit.metadata["s3Key"] == nil)
            #expect(seedVisit.metadata["device_metadata"]?["device_model"] == "iPhone 15 Pro")
            // …and writes them back unchanged with .convertToSnakeCase.
            let snakeEncoder = JSONEncoder()
            snakeEncoder.keyEncodingStrategy = .convertToSnakeCase
            let reencoded = try JSONDecoder().decode(JSONValue.self, from: snakeEncoder.encode(seedVisit.metadata))
            #expect(reencoded["s3_key"]?.stringValue == ticket.s3Key)
            #expect(reencoded["device_metadata"]?["Sample-Rate"]?.intValue == 44_100)

            let playback = try decode(
                AudioPlaybackResponse.self, try await raw(client, "/api/v1/visit-transcripts/audio/playback/\(ticket.visitId)"))
            #expect(playback.visitId == ticket.visitId)
            #expect(playback.expiresIn == 900)
            #expect(playback.filename == initiateBody.filename)

            // The appointment now reports Bella's recording, and only hers.
            let updated = try decode(Appointment.self, try await raw(client, "/api/v1/appointments/\(appointment.id)"))
            #expect(updated.pets[0].recording == PetSummary.Recording(visitId: ticket.visitId, state: .processing))
            #expect(updated.pets[1].recording == nil && updated.pets[2].recording == nil)

            let legacy = try await client.legacyUploadAudio(fileAt: file, appointmentId: appointment.id, petId: Demo.max)
            let legacyAgain = try HelpPetCoding.makeDecoder().decode(
                LegacyAudioUploadResponse.self, from: HelpPetCoding.makeEncoder().encode(legacy))
            #expect(legacyAgain == legacy)
            #expect(legacy.petId == Demo.max)
            #expect(legacy.appointmentId == appointment.id)
            let legacyVisitId = try #require(legacy.visitId)
            let legacyVisit = try decode(
                VisitTranscript.self, try await raw(client, "/api/v1/visit-transcripts/\(legacyVisitId)"))
            #expect(legacyVisit.audioTranscriptUrl == legacy.fileUrl)
            #expect(legacyVisit.storageKey == legacy.fileKey)
            #expect(legacyVisit.fileSizeBytes == 64_000)
        }
    }
}
