import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `POST /visit-transcripts/audio/upload/initiate` (contract §4.10): the field table, then the checks in order
/// (404 Pet, 404 Appointment, 400 not associated, 400 inactive, practice errors, 409 cancelled). Nothing is
/// created by a refused initiate.
@Suite struct RecordingInitiateValidationTests {
    typealias F = RecordingFixtures

    static func base(_ changes: [String: Any?] = [:], removing: [String] = []) -> [String: Any?] {
        var body: [String: Any?] = ["pet_id": Demo.pet(1).lowercased, "filename": "bella.m4a"]
        body.merge(changes) { _, new in new }
        for key in removing { body.removeValue(forKey: key) }
        return body
    }

    static let durationMessage = "estimated_duration_seconds must be greater than 0 and at most 14400"

    /// One case per field rule, in the field table's order; the first failing field is reported.
    static var fieldCases: [(body: [String: Any?], detail: String)] { [
        (base(removing: ["pet_id"]), "pet_id is required"),
        (base(["pet_id": nil]), "pet_id cannot be null"),
        (base(["pet_id": "abc"]), "Invalid pet ID format"),
        (base(["pet_id": ""]), "Invalid pet ID format"),
        (base(["pet_id": "d30000000000400080000000000000001"]), "Invalid pet ID format"),
        (base(["pet_id": "{d3000000-0000-4000-8000-000000000001}"]), "Invalid pet ID format"),
        (base(["pet_id": "abc"], removing: ["filename"]), "Invalid pet ID format"),
        (base(removing: ["filename"]), "filename is required"),
        (base(["filename": nil]), "filename cannot be null"),
        (base(["filename": 5]), "filename must be a string"),
        (base(["filename": "   "]), "filename must not be empty"),
        (base(["filename": String(repeating: "a", count: 256)]), "filename must be at most 255 characters"),
        (base(["filename": "bella\u{0}.m4a"]), "filename contains invalid characters"),
        (base(["content_type": "bad"], removing: ["filename"]), "filename is required"),
        (base(["content_type": "audio/x-aiff"]), "Invalid content_type: 'audio/x-aiff'. \(F.allowedTypes)"),
        (base(["content_type": "AUDIO/M4A"]), "Invalid content_type: 'AUDIO/M4A'. \(F.allowedTypes)"),
        (base(["content_type": "audio/m4a; codecs=mp4a"]), "Invalid content_type: 'audio/m4a; codecs=mp4a'. \(F.allowedTypes)"),
        (base(["content_type": " audio/m4a"]), "Invalid content_type: ' audio/m4a'. \(F.allowedTypes)"),
        (base(["content_type": "video/mp4"]), "Invalid content_type: 'video/mp4'. \(F.allowedTypes)"),
        (base(["content_type": ""]), "Invalid content_type: ''. \(F.allowedTypes)"),
        (base(["content_type": 5]), "content_type must be a string"),
        (base(["content_type": nil]), "content_type cannot be null"),
        (base(["content_type": "bad", "estimated_duration_seconds": 0]), "Invalid content_type: 'bad'. \(F.allowedTypes)"),
        (base(["estimated_duration_seconds": 0]), durationMessage),
        (base(["estimated_duration_seconds": -1]), durationMessage),
        (base(["estimated_duration_seconds": -0.5]), durationMessage),
        (base(["estimated_duration_seconds": 14_400.5]), durationMessage),
        (base(["estimated_duration_seconds": 100_000]), durationMessage),
        (base(["estimated_duration_seconds": "180"]), "estimated_duration_seconds must be a number"),
        (base(["estimated_duration_seconds": true]), "estimated_duration_seconds must be a number"),
        (base(["estimated_duration_seconds": 0, "appointment_id": ""]), durationMessage),
        (base(["appointment_id": ""]), "Invalid appointment ID format"),
        (base(["appointment_id": "nope"]), "Invalid appointment ID format"),
        (base(["appointment_id": 5]), "Invalid appointment ID format"),
        (base(["appointment_id": "", "replace_existing": "yes"]), "Invalid appointment ID format"),
        (base(["replace_existing": "true"]), "replace_existing must be a boolean"),
        (base(["replace_existing": 1]), "replace_existing must be a boolean"),
        (base(["replace_existing": nil]), "replace_existing cannot be null"),
        (base(["replace_existing": "x", "practice_id": "x"]), "replace_existing must be a boolean"),
        (base(["practice_id": "x"]), "Invalid practice ID format"),
        (base(["practice_id": ""]), "Invalid practice ID format"),
    ] }

    @Test func fieldErrorsInTableOrder() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for (body, detail) in Self.fieldCases {
                let response = try await app.post(F.initiatePath, token: vet, json: body)
                expectError(response, .badRequest, detail)
            }
            #expect(try await F.visitRows(app, pet: Demo.pet(1)) == 0, "no visit is created by a refused initiate")
        }
    }

    /// §3.1: "Anything else → 400 Invalid content_type: '{value}'. Allowed: …" — whatever the value's length.
    @Test func anOverlongContentTypeIsAnInvalidContentType() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let value = "audio/" + String(repeating: "x", count: 200)
            let response = try await app.post(F.initiatePath, token: vet, json: Self.base(["content_type": value]))
            expectError(response, .badRequest, "Invalid content_type: '\(value)'. \(F.allowedTypes)")
        }
    }

    @Test func boundaryValuesAreAccepted() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let accepted: [[String: Any?]] = [
                Self.base(["pet_id": Demo.pet(1).uuidString.uppercased(), "estimated_duration_seconds": 14_400]),
                Self.base(["estimated_duration_seconds": 0.001, "content_type": "audio/flac"]),
                Self.base(["estimated_duration_seconds": nil, "appointment_id": nil, "practice_id": nil]),
                Self.base(["filename": "  " + String(repeating: "b", count: 255) + "  ", "replace_existing": false]),
                Self.base(["unknown_key": [1, 2, 3], "appointmentId": "ignored"]),
            ]
            for body in accepted {
                let response = try await app.post(F.initiatePath, token: vet, json: body)
                #expect(response.status == .ok, "\(body): \(response)")
            }
            let visit = try await F.visit(app, vet, try #require(
                try await app.post(F.initiatePath, token: vet, json: Self.base()).json["visit_id"].string))
            #expect(visit.json["metadata"]["filename"].string == "bella.m4a")
            #expect(visit.json["metadata"]["content_type"].string == "audio/m4a", "the default content type")
            #expect(visit.json["metadata"]["estimated_duration_seconds"].isNull)
        }
    }

    @Test func bodySyntaxRoleGateAndAuthentication() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await BodySyntaxChecks.expectRefused(app, .POST, F.initiatePath, token: vet)
            let owner = try await app.token(for: Demo.owner1)
            expectError(try await app.post(F.initiatePath, token: owner, json: Self.base()), .forbidden, F.staffOnly)
            let anonymous = try await app.post(F.initiatePath, json: Self.base())
            expectError(anonymous, .unauthorized, "Not authenticated")
        }
    }

    /// `/`, `\`, `"` and the control characters U+0001–U+001F and U+007F–U+009F become `_`; the name is trimmed.
    @Test func filenamesAreSanitized() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let sent = "  appt/1\\pet \"Bella\"\u{1}\u{9}\u{1F}\u{7F}\u{80}\u{9F}\u{A0}é.m4a  "
            let expected = "appt_1_pet _Bella_______\u{A0}é.m4a"
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), filename: sent)
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["metadata"]["filename"].string == expected)
            try await F.upload(app, started, bytes: F.bytes(100))
            let playback = try await F.playback(app, vet, started.visitID)
            #expect(playback.json["filename"].string == expected)
            let fetched = try await F.fetch(app, try #require(playback.json["presigned_url"].string))
            let disposition = fetched.headers.first(name: .contentDisposition) ?? ""
            #expect(disposition.hasPrefix("inline; filename=\""), "\(disposition)")
            #expect(disposition.contains("filename*=UTF-8''"), "non-ASCII names add filename* (§7.4): \(disposition)")
        }
    }

    /// Checks after field validation, in the contract's order.
    @Test func referencedEntitiesInOrder() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment1 = Demo.appointmentID(1, app)
            let unknownPet = UUID(), unknownAppointment = UUID()

            expectError(try await F.initiate(app, vet, pet: unknownPet), .notFound, "Pet not found")
            expectError(
                try await F.initiate(app, vet, pet: unknownPet, appointment: unknownAppointment), .notFound, "Pet not found")
            expectError(
                try await F.initiate(app, vet, pet: Demo.pet(1), appointment: unknownAppointment), .notFound,
                "Appointment not found")
            let rocky = Demo.pet(5)
            let notAssociated = "Pet \(rocky.lowercased) is not associated with appointment \(appointment1.lowercased)"
            let rockyResponse = try await F.initiate(app, vet, pet: rocky, appointment: appointment1)
            expectError(rockyResponse, .badRequest, notAssociated)
            #expect(rockyResponse.json["visit_id"].isAbsent)

            // Inactive pets: "not associated" is checked first, then "inactive".
            for pet in [rocky, Demo.pet(4)] {
                let deactivated = try await app.delete("/api/v1/pets/\(pet.lowercased)", token: vet)
                #expect(deactivated.status == .ok, "\(deactivated)")
            }
            expectError(try await F.initiate(app, vet, pet: rocky, appointment: appointment1), .badRequest, notAssociated)
            let inactive = "Pet \(Demo.pet(4).lowercased) is inactive"
            expectError(
                try await F.initiate(app, vet, pet: Demo.pet(4), appointment: Demo.appointmentID(2, app)), .badRequest,
                inactive)
            expectError(try await F.initiate(app, vet, pet: Demo.pet(4)), .badRequest, inactive)
            // Inactive comes before the cancelled appointment.
            let cancelled = try await app.delete(F.appointmentPath(Demo.appointmentID(2, app)), token: vet)
            #expect(cancelled.status == .ok, "\(cancelled)")
            expectError(
                try await F.initiate(app, vet, pet: Demo.pet(4), appointment: Demo.appointmentID(2, app)), .badRequest,
                inactive)
            #expect(try await F.visitRows(app, pet: rocky) == 0)
            #expect(try await F.visitRows(app, pet: Demo.pet(4)) == 0)
        }
    }

    @Test func practiceRules() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let other = try await OtherPractice.create(app)
            let appointment1 = Demo.appointmentID(1, app)
            let mismatch = "practice_id does not match the appointment's practice"

            // Members: the practice is their own; another id is 404 (§2.5).
            expectError(
                try await F.initiate(app, vet, pet: Demo.pet(1), extra: ["practice_id": other.practiceID]), .notFound,
                "Practice not found")
            // With an appointment the practice must be the appointment's.
            expectError(
                try await F.initiate(app, vet, pet: Demo.pet(1), appointment: appointment1, extra: ["practice_id": other.practiceID]),
                .badRequest, mismatch)
            expectError(
                try await F.initiate(app, admin, pet: Demo.pet(1), appointment: appointment1, extra: ["practice_id": other.practiceID]),
                .badRequest, mismatch)
            expectError(
                try await F.initiate(app, admin, pet: Demo.pet(1), appointment: appointment1, extra: ["practice_id": UUID().lowercased]),
                .badRequest, mismatch)
            // ADMIN without appointment: practice resolution.
            expectError(
                try await F.initiate(app, admin, pet: Demo.pet(2), extra: ["practice_id": UUID().lowercased]), .notFound,
                "Practice not found")
            expectError(
                try await F.initiate(app, admin, pet: Demo.pet(2), extra: ["practice_id": other.practiceID]), .badRequest,
                "Pet owner is not a client of this practice")
            #expect(try await F.visitRows(app, pet: Demo.pet(1)) == 0)
            #expect(try await F.visitRows(app, pet: Demo.pet(2)) == 0)

            let matching = try await F.initiate(
                app, vet, pet: Demo.pet(1), appointment: appointment1, extra: ["practice_id": Demo.practiceID.lowercased])
            #expect(matching.status == .ok, "\(matching)")
            let resolved = try await F.initiate(app, admin, pet: Demo.pet(2))
            #expect(resolved.status == .ok, "the owner's single practice: \(resolved)")
            let visit = try await F.visit(app, admin, try #require(resolved.json["visit_id"].string))
            #expect(visit.json["practice_id"].string == Demo.practiceID.lowercased)
            #expect(visit.json["created_by"].string == Demo.admin.id.lowercased)
        }
    }

    @Test func cancelledAppointmentsTakeNoRecordings() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let cancelled = try await app.delete(F.appointmentPath(appointment), token: vet)
            #expect(cancelled.status == .ok, "\(cancelled)")
            for pet in Demo.appointmentPets(1) {
                expectError(
                    try await F.initiate(app, vet, pet: pet, appointment: appointment), .conflict,
                    "Cannot record audio for a cancelled appointment")
            }
            // The pet's day slot (no appointment) is unaffected.
            let unscheduled = try await F.initiate(app, vet, pet: Demo.pet(1))
            #expect(unscheduled.status == .ok)
            #expect(try await F.visitRows(app, appointment: appointment) == 0)
        }
    }
}
