import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `POST /api/v1/upload/audio` (contract §4.11): multipart parts, type inference, every error in order (nothing is
/// stored and no spool file is left when one is answered), the 201 body, takeovers and the declared-size 413.
@Suite struct RecordingLegacyUploadTests {
    typealias F = RecordingFixtures

    @Test func aLegacyUploadCreatesACompletedVisit() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let bytes = F.bytes(12_345)
            let response = try await F.legacyUpload(
                app, vet, appointment: appointment.lowercased, pet: Demo.pet(2).lowercased, bytes: bytes,
                extraText: [("bucket_name", "some-other-bucket"), ("unknown_part", "ignored")])
            #expect(response.status == .created, "\(response)")
            #expect(response.json.keys == ["message", "file_url", "file_key", "visit_id", "pet_id", "appointment_id"])
            #expect(response.json["message"].string == "File uploaded successfully")
            #expect(response.json["pet_id"].string == Demo.pet(2).lowercased)
            #expect(response.json["appointment_id"].string == appointment.lowercased)
            let visitID = try #require(response.json["visit_id"].string)
            let key = try #require(response.json["file_key"].string)
            #expect(key.range(
                of: #"^visit-recordings/\d{4}/\d{2}/\d{2}/pet-\#(Demo.pet(2).lowercased)/\#(visitID)-1\.m4a$"#,
                options: .regularExpression) != nil, "\(key)")
            #expect(response.json["file_url"].string == "\(F.baseURL)/storage/\(F.bucket)/\(key)", "the configured bucket")
            #expect(F.objectBytes(app, key: key) == bytes)

            let visit = try await F.visit(app, vet, visitID)
            #expect(visit.json["state"].string == "processing")
            #expect(visit.json["audio_transcript_url"].string == response.json["file_url"].string)
            #expect(visit.json["created_by"].string == Demo.vet1.id.lowercased)
            let metadata = visit.json["metadata"]
            #expect(metadata["s3_key"].string == key)
            #expect(metadata["s3_bucket"].string == F.bucket)
            #expect(metadata["upload_method"].string == "multipart")
            #expect(metadata["completion_source"].string == "multipart")
            #expect(metadata["file_size_bytes"].int == bytes.count)
            #expect(metadata["content_type"].string == "audio/m4a")
            #expect(metadata["filename"].string == "visit.m4a")
            #expect(metadata["attempt"].int == 1)
            #expect(metadata["appointment_id"].string == appointment.lowercased)
            #expect(metadata["uploaded_by"].string == Demo.vet1.id.lowercased)
            let jobs = try await F.jobs(app, visit: visitID)
            #expect(jobs.map(\.status) == ["queued"])
            #expect(metadata["transcription_job_id"].string == jobs.first?.id.lowercased)
            let row = try #require(try await F.visitRow(app, visitID))
            #expect(row.reservedAt == nil)
            #expect(try await F.eventually { F.temporaryFiles(app).isEmpty }, "spool: \(F.temporaryFiles(app))")
        }
    }

    @Test func formErrorsInOrder() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app).lowercased
            let bella = Demo.pet(1).lowercased
            let audio = F.bytes(100)
            let both = "Both appointment_id and pet_id are required for visit recording"
            func upload(
                appointment: String? = appointment, pet: String? = bella, bytes: [UInt8] = audio,
                type: String? = "audio/m4a", filename: String? = "visit.m4a", extra: [(String, String)] = [],
                parts: Int = 1
            ) async throws -> TestResponse {
                try await F.legacyUpload(
                    app, vet, appointment: appointment, pet: pet, bytes: bytes, contentType: type, filename: filename,
                    extraText: extra, audioParts: parts)
            }

            // Content type of the request.
            let form = F.multipart(text: [("appointment_id", appointment), ("pet_id", bella)], files: [
                F.FilePart(name: "audio", filename: "a.m4a", contentType: "audio/m4a", bytes: audio),
            ])
            for type in [nil, "application/json", "text/plain", "multipart/mixed; boundary=x"] as [String?] {
                let response = try await F.send(app, .POST, F.legacyPath, token: vet, body: form.body, contentType: type)
                expectError(response, .badRequest, "Content-Type must be multipart/form-data")
            }
            expectError(
                try await upload(extra: [("bucket_name", String(repeating: "b", count: 1025))]), .badRequest,
                "bucket_name must be at most 1024 characters")
            // Ids.
            expectError(try await upload(appointment: nil), .badRequest, both)
            expectError(try await upload(pet: nil), .badRequest, both)
            expectError(try await upload(appointment: nil, pet: nil, parts: 0), .badRequest, both)
            expectError(try await upload(appointment: ""), .badRequest, both)
            expectError(try await upload(pet: ""), .badRequest, both)
            expectError(try await upload(appointment: "abc", pet: "def"), .badRequest, "Invalid appointment ID format")
            expectError(try await upload(pet: "def"), .badRequest, "Invalid pet ID format")
            expectError(try await upload(pet: "def", parts: 0), .badRequest, "Invalid pet ID format")
            // The audio part.
            expectError(try await upload(parts: 0), .badRequest, "audio file is required")
            let fileNamedFile = F.multipart(text: [("appointment_id", appointment), ("pet_id", bella)], files: [
                F.FilePart(name: "file", filename: "a.m4a", contentType: "audio/m4a", bytes: audio),
            ])
            expectError(
                try await F.send(app, .POST, F.legacyPath, token: vet, body: fileNamedFile.body, contentType: fileNamedFile.contentType),
                .badRequest, "audio file is required")
            expectError(try await upload(parts: 2), .badRequest, "Exactly one audio file is required")
            expectError(try await upload(type: "text/plain", parts: 2), .badRequest, "Exactly one audio file is required")
            expectError(try await upload(type: "text/plain"), .badRequest, "File must be an audio file")
            expectError(try await upload(type: "video/mp4", filename: "a.mp4"), .badRequest, "File must be an audio file")
            expectError(
                try await upload(type: "application/octet-stream", filename: "notes.txt"), .badRequest,
                "File must be an audio file")
            expectError(try await upload(type: nil, filename: "blob"), .badRequest, "File must be an audio file")
            expectError(try await upload(type: nil, filename: nil), .badRequest, "File must be an audio file")
            expectError(
                try await upload(type: "audio/x-aiff"), .badRequest, "Invalid content_type: 'audio/x-aiff'. \(F.allowedTypes)")
            expectError(try await upload(bytes: [], type: "audio/x-aiff"), .badRequest,
                        "Invalid content_type: 'audio/x-aiff'. \(F.allowedTypes)")
            expectError(try await upload(bytes: []), .badRequest, "Audio file is empty")
            expectError(
                try await upload(pet: UUID().lowercased, bytes: []), .badRequest, "Audio file is empty")

            #expect(try await F.visitRows(app, pet: Demo.pet(1)) == 0)
            #expect(F.storedKeys(app, pet: Demo.pet(1)) == [])
            #expect(try await F.eventually { F.temporaryFiles(app).isEmpty }, "spool: \(F.temporaryFiles(app))")
        }
    }

    @Test func referencedEntitiesAndStateInOrder() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment1 = Demo.appointmentID(1, app)
            let audio = F.bytes(100)
            func upload(_ appointment: UUID, _ pet: UUID) async throws -> TestResponse {
                try await F.legacyUpload(app, vet, appointment: appointment, pet: pet, bytes: audio)
            }
            expectError(try await upload(UUID(), UUID()), .notFound, "Pet not found")
            expectError(try await upload(appointment1, UUID()), .notFound, "Pet not found")
            expectError(try await upload(UUID(), Demo.pet(1)), .notFound, "Appointment not found")
            let rocky = Demo.pet(5)
            expectError(
                try await upload(appointment1, rocky), .badRequest,
                "Pet \(rocky.lowercased) is not associated with appointment \(appointment1.lowercased)")
            #expect(try await app.delete("/api/v1/pets/\(Demo.pet(4).lowercased)", token: vet).status == .ok)
            expectError(
                try await upload(Demo.appointmentID(2, app), Demo.pet(4)), .badRequest,
                "Pet \(Demo.pet(4).lowercased) is inactive")
            let appointment3 = Demo.appointmentID(3, app)
            #expect(try await app.delete(F.appointmentPath(appointment3), token: vet).status == .ok)
            expectError(try await upload(appointment3, rocky), .conflict, "Cannot record audio for a cancelled appointment")

            // Outside the caller's visibility, and the role gate.
            let other = try await OtherPractice.create(app)
            let foreign = try await F.legacyUpload(app, other.vetToken, appointment: appointment1, pet: Demo.pet(1), bytes: audio)
            expectError(foreign, .notFound, "Pet not found")
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await F.legacyUpload(app, owner, appointment: appointment1, pet: Demo.pet(1), bytes: audio), .forbidden,
                F.staffOnly)

            for pet in [Demo.pet(1), Demo.pet(4), rocky] {
                #expect(try await F.visitRows(app, pet: pet) == 0)
                #expect(F.storedKeys(app, pet: pet) == [])
            }
            #expect(try await F.eventually { F.temporaryFiles(app).isEmpty }, "spool: \(F.temporaryFiles(app))")
        }
    }

    /// Missing or `application/octet-stream` part types are inferred from the file name (case-insensitive).
    @Test func partTypesAreInferredFromTheFileName() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let cases: [(UUID, UUID, String?, String, String, String)] = [
                (Demo.appointmentID(1, app), Demo.pet(1), "application/octet-stream", "Bella.MP3", "audio/mpeg", "mp3"),
                (Demo.appointmentID(1, app), Demo.pet(2), nil, "max.wav", "audio/wav", "wav"),
                (Demo.appointmentID(1, app), Demo.pet(3), "application/octet-stream", "mittens.mp4", "audio/mp4", "m4a"),
                (Demo.appointmentID(2, app), Demo.pet(4), nil, "fluffy.Flac", "audio/flac", "flac"),
                (Demo.appointmentID(3, app), Demo.pet(5), "audio/x-m4a", "rocky.bin", "audio/x-m4a", "m4a"),
            ]
            for (appointment, pet, sentType, filename, storedType, ext) in cases {
                let response = try await F.legacyUpload(
                    app, vet, appointment: appointment, pet: pet, bytes: F.bytes(50), contentType: sentType, filename: filename)
                #expect(response.status == .created, "\(filename): \(response)")
                #expect(response.json["file_key"].string?.hasSuffix("-1.\(ext)") == true, "\(filename): \(response)")
                let visit = try await F.visit(app, vet, try #require(response.json["visit_id"].string))
                #expect(visit.json["metadata"]["content_type"].string == storedType, "\(filename)")
                #expect(visit.json["metadata"]["filename"].string == filename)
            }
        }
    }

    /// The part's file name is sanitized like initiate's and cut to 255 characters; without one: `recording.{ext}`.
    @Test func fileNamesAreSanitizedAndDefaulted() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let cases: [(UUID, String?, String)] = [
                (Demo.pet(1), #"appt/1\bella \"x\".m4a"#, "appt_1_bella _x_.m4a"),
                (Demo.pet(2), String(repeating: "n", count: 300) + ".m4a", String(repeating: "n", count: 255)),
                (Demo.pet(3), nil, "recording.m4a"),
            ]
            for (pet, sent, stored) in cases {
                let response = try await F.legacyUpload(
                    app, vet, appointment: appointment, pet: pet, bytes: F.bytes(20), filename: sent)
                #expect(response.status == .created, "\(response)")
                let visit = try await F.visit(app, vet, try #require(response.json["visit_id"].string))
                #expect(visit.json["metadata"]["filename"].string == stored)
            }
        }
    }

    /// A slot visit that is pending a presigned upload is taken over; while its URL may still be used (< 3600 s)
    /// the takeover moves to the next attempt, afterwards it keeps the attempt (with its own extension).
    @Test func pendingPresignedVisitsAreTakenOver() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let fresh = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            let stale = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            clock.advance(by: 3_000)
            let fresh2 = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)  // URL re-issued
            #expect(fresh2.visitID == fresh.visitID)
            clock.advance(by: 700)  // Bella's URL is 700 s old, Max's 3700 s

            let bella = try await F.legacyUpload(app, vet, appointment: appointment, pet: Demo.pet(1), bytes: F.bytes(40))
            #expect(bella.status == .created, "\(bella)")
            #expect(bella.json["visit_id"].string == fresh.visitID)
            #expect(bella.json["file_key"].string?.hasSuffix("\(fresh.visitID)-2.m4a") == true, "\(bella)")
            #expect(!F.objectExists(app, key: fresh.key))

            let max = try await F.legacyUpload(
                app, vet, appointment: appointment, pet: Demo.pet(2), bytes: F.bytes(40), contentType: "audio/mpeg",
                filename: "max.mp3")
            #expect(max.status == .created, "\(max)")
            #expect(max.json["visit_id"].string == stale.visitID)
            #expect(max.json["file_key"].string == String(stale.key.dropLast(".m4a".count)) + ".mp3", "\(max)")
            let visit = try await F.visit(app, vet, stale.visitID)
            #expect(visit.json["metadata"]["attempt"].int == 1)
            #expect(visit.json["metadata"]["upload_method"].string == "multipart")
            #expect(visit.json["metadata"]["completion_source"].string == "multipart")
            #expect(try await F.visitRows(app, appointment: appointment) == 2)
        }
    }

    /// A pending visit whose object already landed is completed (`reinitiate`) and the upload is refused (R6/R13).
    @Test func aLandedPresignedUploadWinsOverALegacyUpload() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let started = try await F.initiated(app, vet, pet: Demo.pet(3), appointment: appointment)
            try await F.upload(app, started, bytes: F.bytes(555))
            let legacy = try await F.legacyUpload(app, vet, appointment: appointment, pet: Demo.pet(3), bytes: F.bytes(10))
            expectError(legacy, .conflict, "Recording already exists for this appointment and pet. Visit ID: \(started.visitID)")
            #expect(legacy.json["visit_id"].string == started.visitID)
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["state"].string == "processing")
            #expect(visit.json["metadata"]["completion_source"].string == "reinitiate")
            #expect(visit.json["metadata"]["file_size_bytes"].int == 555)
            #expect(F.storedKeys(app, pet: Demo.pet(3)) == [started.key])
        }
    }

    /// 413 `File size too large. Maximum 100MB allowed.` at once when the declared Content-Length exceeds
    /// 105906176 bytes: the server answers after a few bytes of the body, over a real socket.
    @Test func aDeclaredContentLengthOverTheLimitIsRefusedAtOnce() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await app.whileListening { port in
                let boundary = "----limit"
                let prefix = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"pet_id\"\r\n\r\n".utf8)
                for declared in [105_906_177, 500_000_000] {
                    let head = "POST \(F.legacyPath) HTTP/1.1\r\nHost: \(F.host)\r\nAuthorization: Bearer \(vet)\r\n"
                        + "Content-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(declared)\r\n\r\n"
                    let answer = try await RawHTTP.exchangeOnThread(port: port, head: head, bodyPrefix: prefix)
                    #expect(answer.status == 413, "\(answer.text)")
                    #expect(answer.text.contains(#"{"detail":"File size too large. Maximum 100MB allowed."}"#), "\(answer.text)")
                }
            }
            #expect(try await F.eventually { F.temporaryFiles(app).isEmpty })
        }
    }
}
