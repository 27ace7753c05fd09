import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// The slot table of initiate (contract §4.10): create; live legacy reservation → 409; `new` with the object →
/// completed first (`reinitiate`); `new` without it → same visit, fresh URL; finished → 409 or replace.
@Suite struct RecordingInitiateSlotRulesTests {
    typealias F = RecordingFixtures

    @Test func anAppointmentSlotVisitIsCreatedPending() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let started = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment, filename: "max.m4a")
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.status == .ok, "a pending visit can be read by id: \(visit)")
            #expect(visit.json.keys == ClinicalKeys.visitTranscript)
            #expect(visit.json["state"].string == "new")
            #expect(visit.json["pet_id"].string == Demo.pet(2).lowercased)
            #expect(visit.json["appointment_id"].string == appointment.lowercased)
            #expect(visit.json["practice_id"].string == Demo.practiceID.lowercased)
            #expect(visit.json["created_by"].string == Demo.vet1.id.lowercased)
            #expect(visit.json["full_text"].string == "")
            #expect(visit.json["summary"].isNull)
            #expect(visit.json["audio_transcript_url"].isNull)
            #expect(visit.json["metadata"]["appointment_id"].string == appointment.lowercased)
            let shown = try await app.get(F.appointmentPath(appointment), token: vet)
            let date = try #require(shown.json["appointment_date"].string.flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(visit.json["visit_date"].int == Int(date.timeIntervalSince1970), "the appointment's start")
            let row = try #require(try await F.visitRow(app, started.visitID))
            #expect(row.recordingDay == nil)
            #expect(row.uploadMethod == "presigned_post")
            #expect(row.attempt == 1)
            #expect(row.storageKey == started.key)
            #expect(started.key.hasSuffix("/pet-\(Demo.pet(2).lowercased)/\(started.visitID)-1.m4a"))

            // Pending: listed only with include_pending=true, never an appointment pet's recording.
            #expect(try await app.get(F.appointmentVisitsPath(appointment), token: vet).json.count == 0)
            #expect(try await app.get(F.appointmentVisitsPath(appointment, "include_pending=true"), token: vet).json.count == 1)
            let petList = try await app.get("/api/v1/visit-transcripts/pet/\(Demo.pet(2).lowercased)", token: vet)
            #expect(!petList.json.ids.contains(started.visitID))
            let petPending = try await app.get(
                "/api/v1/visit-transcripts/pet/\(Demo.pet(2).lowercased)?include_pending=true", token: vet)
            #expect(petPending.json.ids.contains(started.visitID))
            #expect(F.recordings(shown)[Demo.pet(2).lowercased]?.isNull == true)
        }
    }

    @Test func aDaySlotVisitRecordsThePracticeLocalDay() async throws {
        // 2025-01-16T06:30:00Z is 22:30 on the 15th in Los Angeles: the UTC and the local day differ.
        let clock = ManualClock(Date(timeIntervalSince1970: 1_737_009_000))
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(4))
            let row = try #require(try await F.visitRow(app, started.visitID))
            #expect(row.recordingDay == "2025-01-15")
            #expect(started.key.hasPrefix("visit-recordings/2025/01/16/"), "keys are dated by the UTC day of issue (§7.2)")
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["visit_date"].int == 1_737_009_000, "without appointment: the initiate instant")
            #expect(visit.json["appointment_id"].isNull)
        }
    }

    /// `new` with a live legacy reservation (upload_method multipart, reserved_at < 15 min) → 409 "in progress";
    /// once the reservation is stale, initiate takes the same visit back with a fresh URL.
    @Test func aLiveLegacyReservationBlocksInitiate() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let started = try await F.initiated(app, vet, pet: Demo.pet(3), appointment: appointment)
            let id = try F.uuid(started.visitID)
            let reservedAt = clock.now().addingTimeInterval(-14 * 60)
            try await F.exec(app, """
                UPDATE visits SET upload_method = 'multipart', reserved_at = \(bind: reservedAt) WHERE id = \(bind: id)
                """)
            let detail = "Recording upload already in progress for this appointment and pet. Visit ID: \(started.visitID)"
            for replace in [false, true] {
                let blocked = try await F.initiate(app, vet, pet: Demo.pet(3), appointment: appointment, replaceExisting: replace)
                expectError(blocked, .conflict, detail)
                #expect(blocked.json["visit_id"].string == started.visitID)
                #expect(blocked.json.keys == ["detail", "visit_id"])
            }
            let legacy = try await F.legacyUpload(app, vet, appointment: appointment, pet: Demo.pet(3), bytes: F.bytes(10))
            expectError(legacy, .conflict, detail)
            #expect(legacy.json["visit_id"].string == started.visitID)
            #expect(F.storedKeys(app, pet: Demo.pet(3)) == [])

            clock.advance(by: 2 * 60)  // the reservation is now 16 minutes old
            let again = try await F.initiated(app, vet, pet: Demo.pet(3), appointment: appointment)
            #expect(again.visitID == started.visitID)
            let row = try #require(try await F.visitRow(app, started.visitID))
            #expect(row.uploadMethod == "presigned_post")
            #expect(row.reservedAt == nil)
            #expect(try await F.visitRows(app, appointment: appointment) == 1)
        }
    }

    /// `new`, object absent: the same row gets a fresh URL; the key is reused while the extension is unchanged;
    /// filename, content type and estimate follow the request; `upload_initiated_at` stays, `upload_url_issued_at`
    /// moves; `reserved_at` and `reconcile_after` are cleared.
    @Test func reinitiateWithoutTheObjectReissuesTheSameVisit() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let first = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, filename: "one.m4a")
            let firstVisit = try await F.visit(app, vet, first.visitID)
            let id = try F.uuid(first.visitID)
            try await F.exec(app, """
                UPDATE visits SET reconcile_after = \(bind: clock.now().addingTimeInterval(600)) WHERE id = \(bind: id)
                """)
            clock.advance(by: 5)
            let second = try await F.initiate(
                app, vet, pet: Demo.pet(1), appointment: appointment, filename: "two.wav", contentType: "audio/x-wav",
                estimatedDuration: 42)
            #expect(second.status == .ok)
            #expect(second.json["visit_id"].string == first.visitID)
            let wavKey = try #require(second.json["s3_key"].string)
            #expect(wavKey == String(first.key.dropLast(".m4a".count)) + ".wav", "same attempt, new extension")
            #expect(second.json["upload_fields"]["Content-Type"].string == "audio/x-wav")
            let visit = try await F.visit(app, vet, first.visitID)
            let metadata = visit.json["metadata"]
            #expect(metadata["filename"].string == "two.wav")
            #expect(metadata["content_type"].string == "audio/x-wav")
            #expect(metadata["estimated_duration_seconds"].double == 42)
            #expect(metadata["s3_key"].string == wavKey)
            #expect(metadata["attempt"].int == 1)
            #expect(metadata["upload_initiated_at"].string == firstVisit.json["metadata"]["upload_initiated_at"].string)
            #expect(metadata["upload_url_issued_at"].string != firstVisit.json["metadata"]["upload_url_issued_at"].string)
            let row = try #require(try await F.visitRow(app, first.visitID))
            #expect(row.reconcileAfter == nil)
            #expect(row.reservedAt == nil)
            #expect(row.storageKey == wavKey)

            // The new URL uploads to the new key; complete finds it there.
            let bytes = F.bytes(321)
            let uploaded = try await F.uploadToPresignedPost(app, second, bytes: bytes)
            #expect(uploaded.status == .noContent, "\(uploaded)")
            let completed = try await F.complete(app, vet, first.visitID)
            #expect(completed.json["state"].string == "processing")
            #expect(completed.json["metadata"]["file_size_bytes"].int == 321)
            let playback = try await F.playback(app, vet, first.visitID)
            let fetched = try await F.fetch(app, try #require(playback.json["presigned_url"].string))
            #expect(fetched.headers.first(name: .contentType) == "audio/wav")
            #expect(Array(fetched.body) == bytes)
        }
    }

    /// Every finished state conflicts without `replace_existing`, with the appointment-slot or the day-slot text.
    @Test func finishedRecordingsConflictInEveryState() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            let dayVisitID = try await F.recorded(app, vet, pet: Demo.pet(4))
            for state in ["processing", "failed", "processed"] {
                if state != "processing" {
                    for id in [visitID, dayVisitID] {
                        if state == "processed" {
                            // failed → processed is a PUT transition too.
                            #expect(try await app.put(F.visitPath(id), token: vet, json: ["state": "processed"]).status == .ok)
                        } else {
                            #expect(try await app.put(F.visitPath(id), token: vet, json: ["state": "failed"]).status == .ok)
                        }
                    }
                }
                let conflict = try await F.initiate(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: false)
                expectError(
                    conflict, .conflict, "Recording already exists for this appointment and pet. Visit ID: \(visitID)")
                #expect(conflict.json["visit_id"].string == visitID)
                let dayConflict = try await F.initiate(app, vet, pet: Demo.pet(4))
                expectError(
                    dayConflict, .conflict,
                    "Audio recording already exists for pet \(Demo.pet(4).lowercased) today. Visit ID: \(dayVisitID)")
                #expect(dayConflict.json["visit_id"].string == dayVisitID)
                #expect(try await F.visit(app, vet, visitID).json["state"].string == state)
            }
        }
    }

    /// `new` with the object present and `replace_existing: true`: the landed upload is first completed
    /// (`reinitiate`), then replaced, so it is kept as a previous recording instead of being discarded.
    @Test func aLandedUploadIsCompletedBeforeItIsReplaced() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let started = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            try await F.upload(app, started, bytes: F.bytes(777))
            let replaced = try await F.initiate(app, vet, pet: Demo.pet(2), appointment: appointment, replaceExisting: true)
            #expect(replaced.status == .ok, "\(replaced)")
            #expect(replaced.json["visit_id"].string == started.visitID)
            #expect(replaced.json["s3_key"].string?.hasSuffix("\(started.visitID)-2.m4a") == true)
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["state"].string == "new")
            let previous = visit.json["metadata"]["previous_recordings"]
            #expect(previous.count == 1)
            #expect(previous[0]["attempt"].int == 1)
            #expect(previous[0]["s3_key"].string == started.key)
            #expect(previous[0]["completion_source"].string == "reinitiate")
            #expect(previous[0]["file_size_bytes"].int == 777)
            #expect(previous[0]["state"].string == "processing")
            #expect(F.objectExists(app, key: started.key))
        }
    }

    /// Replace moves the recording's keys into `previous_recordings`, keeps client keys, and can repeat.
    @Test func replaceKeepsHistoryAcrossAttempts() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let first = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, filename: "first.m4a")
            try await F.upload(app, first, bytes: F.bytes(100))
            let completed = try await F.complete(app, vet, first.visitID, body: [
                "file_size_bytes": 99, "duration_seconds": 12.5, "device_metadata": ["device_model": "iPhone"],
            ])
            #expect(completed.status == .ok)
            let edited = try await app.put(F.visitPath(first.visitID), token: vet, json: [
                "metadata": ["chief_complaint": "Limping"], "summary": "Vet summary",
            ])
            #expect(edited.status == .ok, "\(edited)")

            let second = try await F.initiated(
                app, vet, pet: Demo.pet(1), appointment: appointment, filename: "second.mp3", contentType: "audio/mpeg",
                replaceExisting: true)
            #expect(second.visitID == first.visitID)
            #expect(second.key.hasSuffix("\(first.visitID)-2.mp3"))
            let visit = try await F.visit(app, vet, first.visitID)
            #expect(visit.json["state"].string == "new")
            #expect(visit.json["audio_transcript_url"].isNull)
            #expect(visit.json["full_text"].string == "")
            #expect(visit.json["summary"].isNull)
            let metadata = visit.json["metadata"]
            #expect(metadata["chief_complaint"].string == "Limping", "client keys stay")
            #expect(metadata["attempt"].int == 2)
            #expect(metadata["s3_key"].string == second.key)
            #expect(metadata["filename"].string == "second.mp3")
            for moved in [
                "upload_completed_at", "completion_source", "file_size_bytes", "client_file_size_bytes", "duration_seconds",
                "device_metadata", "transcription_job_id", "summary_status",
            ] {
                #expect(metadata[moved].isAbsent, "\(moved) moves into previous_recordings")
            }
            let entry = metadata["previous_recordings"][0]
            #expect(metadata["previous_recordings"].count == 1)
            for key in [
                "attempt", "s3_key", "filename", "content_type", "file_size_bytes", "duration_seconds", "upload_completed_at",
                "state", "full_text", "summary", "replaced_at", "replaced_by",
            ] {
                #expect(!entry[key].isAbsent, "previous_recordings entry lacks \(key): \(entry)")
            }
            #expect(entry["attempt"].int == 1)
            #expect(entry["s3_key"].string == first.key)
            #expect(entry["filename"].string == "first.m4a")
            #expect(entry["file_size_bytes"].int == 100)
            #expect(entry["client_file_size_bytes"].int == 99)
            #expect(entry["duration_seconds"].double == 12.5)
            #expect(entry["device_metadata"]["device_model"].string == "iPhone")
            #expect(entry["summary"].string == "Vet summary")
            #expect(entry["summary_status"].string == "approved")
            #expect(entry["state"].string == "processing")
            #expect(entry["replaced_by"].string == Demo.vet1.id.lowercased)

            // Initiating again while the replacement waits for its file re-issues the same key (a `new` visit).
            let reissued = try await F.initiated(
                app, vet, pet: Demo.pet(1), appointment: appointment, filename: "second.mp3", contentType: "audio/mpeg")
            #expect(reissued.visitID == first.visitID)
            #expect(reissued.key == second.key)
            #expect(try await F.visit(app, vet, first.visitID).json["metadata"]["previous_recordings"].count == 1)

            // A replaced visit waiting for its file is not pending: it is listed and shown on the appointment.
            #expect(try await app.get(F.appointmentVisitsPath(appointment), token: vet).json.ids == [first.visitID])
            let shown = F.recordings(try await app.get(F.appointmentPath(appointment), token: vet))
            #expect(shown[Demo.pet(1).lowercased]?["state"].string == "new")

            // Upload and complete attempt 2, then replace again: attempt 3, two history entries.
            try await F.upload(app, second, bytes: F.bytes(200))
            #expect(try await F.complete(app, vet, first.visitID).json["state"].string == "processing")
            let third = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: true)
            #expect(third.key.hasSuffix("\(first.visitID)-3.m4a"))
            let history = try await F.visit(app, vet, first.visitID).json["metadata"]["previous_recordings"]
            #expect(history.count == 2)
            #expect(history[1]["attempt"].int == 2)
            #expect(history[1]["s3_key"].string == second.key)
            #expect(history[1]["content_type"].string == "audio/mpeg")
            #expect(F.objectExists(app, key: first.key) && F.objectExists(app, key: second.key))
            #expect(try await F.visitRows(app, appointment: appointment) == 1)
        }
    }
}
