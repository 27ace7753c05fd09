import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// The recording invariants of contract §6, each with the test the contract states, in process. R11 (the
/// reconciler) is in RecordingReconcilerTests. The concurrency rules (R3, R10, R18, R21) run here with concurrent requests
/// against one in-process application; their two-process versions live in Concurrency/.
@Suite struct RecordingInvariantsTests {
    typealias F = RecordingFixtures

    /// As a real client does: a `503` with `Retry-After` (the pool-wait rule, which a loaded 2-core machine can hit
    /// when many requests start at once) is retried after the advised delay, at most 20 times. The races these tests
    /// check are between requests that reach the database, not between the machine and the pool timeout.
    static func retryingUnavailable(_ request: () async throws -> TestResponse) async throws -> TestResponse {
        var response = try await request()
        for _ in 0..<20 where response.status == .serviceUnavailable {
            let delay = response.headers.first(name: "Retry-After").flatMap(Double.init) ?? 1
            try await Task.sleep(for: .seconds(delay))
            response = try await request()
        }
        return response
    }

    /// Runs `count` copies of `request` concurrently (each retried on 503) and returns the responses.
    static func concurrently(
        _ count: Int, _ request: @escaping @Sendable (Int) async throws -> TestResponse
    ) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for i in 0..<count { group.addTask { try await retryingUnavailable { try await request(i) } } }
            var all: [TestResponse] = []
            for try await response in group { all.append(response) }
            return all
        }
    }

    @Test func r01OneVisitPerPetPerRecording() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            var started: [F.Initiated] = []
            for pet in Demo.appointmentPets(1) {
                started.append(try await F.initiated(app, vet, pet: pet, appointment: appointment))
            }
            #expect(Set(started.map(\.visitID)).count == 3)
            for (pet, initiated) in zip(Demo.appointmentPets(1), started) {
                let visit = try await F.visit(app, vet, initiated.visitID)
                #expect(visit.json["pet_id"].string == pet.lowercased)
                #expect(visit.json["appointment_id"].string == appointment.lowercased)
            }
            #expect(try await app.get(F.appointmentVisitsPath(appointment, "include_pending=true"), token: vet).json.count == 3)
            #expect(try await app.get(F.appointmentVisitsPath(appointment), token: vet).json.count == 0, "all pending")

            try await F.upload(app, started[0], bytes: F.bytes(100))
            #expect(try await F.complete(app, vet, started[0].visitID).status == .ok)
            let shown = F.recordings(try await app.get(F.appointmentPath(appointment), token: vet))
            #expect(shown[Demo.pet(1).lowercased]?["visit_id"].string == started[0].visitID)
            #expect(shown[Demo.pet(2).lowercased]?.isNull == true)
            #expect(shown[Demo.pet(3).lowercased]?.isNull == true)
            let listed = try await app.get(F.appointmentVisitsPath(appointment), token: vet)
            #expect(listed.json.ids == [started[0].visitID])
        }
    }

    @Test func r02ThePetMustBePartOfTheAppointment() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let detail =
                "Pet d3000000-0000-4000-8000-000000000005 is not associated with appointment \(appointment.lowercased)"
            expectError(try await F.initiate(app, vet, pet: Demo.pet(5), appointment: appointment), .badRequest, detail)
            expectError(
                try await F.legacyUpload(app, vet, appointment: appointment, pet: Demo.pet(5), bytes: F.bytes(10)),
                .badRequest, detail)
            #expect(try await F.visitRows(app, pet: Demo.pet(5)) == 0)
            #expect(try await F.visitRows(app, appointment: appointment) == 0)
            #expect(F.storedKeys(app, pet: Demo.pet(5)) == [])
        }
    }

    @Test func r03OneVisitPerAppointmentAndPetUnderConcurrentInitiates() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let responses = try await Self.concurrently(10) { _ in
                try await F.initiate(app, vet, pet: Demo.pet(1), appointment: appointment)
            }
            #expect(responses.allSatisfy { $0.status == .ok }, "\(responses.map(\.description))")
            #expect(Set(responses.map { $0.json["visit_id"].string ?? "" }).count == 1)
            #expect(try await F.visitRows(app, appointment: appointment, pet: Demo.pet(1)) == 1)
            #expect(try await F.visitRows(app, pet: Demo.pet(1)) == 1)
        }
    }

    /// 2025-01-15T18:00:00Z is 10:00 in Los Angeles, 2025-01-16T07:30:00Z is 23:30 on the 15th, and
    /// 2025-01-16T08:30:00Z is 00:30 on the 16th.
    @Test func r04OneAppointmentlessRecordingPerPetPracticeAndLocalDay() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_736_964_000))
        try await F.withApp(clock: clock) { app in
            let fluffy = Demo.pet(4)
            let morning = try await F.initiated(app, try await app.token(for: Demo.vet1), pet: fluffy)
            clock.set(Date(timeIntervalSince1970: 1_737_012_600))
            // Tokens expire by the server clock: one issued now.
            let vet = try await app.token(for: Demo.vet1)
            let lateEvening = try await F.initiated(app, vet, pet: fluffy)
            #expect(lateEvening.visitID == morning.visitID)
            try await F.upload(app, lateEvening, bytes: F.bytes(256))
            #expect(try await F.complete(app, vet, morning.visitID).status == .ok)

            let again = try await F.initiate(app, vet, pet: fluffy)
            expectError(
                again, .conflict,
                "Audio recording already exists for pet d3000000-0000-4000-8000-000000000004 today. Visit ID: \(morning.visitID)")
            #expect(again.json["visit_id"].string == morning.visitID)

            clock.set(Date(timeIntervalSince1970: 1_737_016_200))
            let nextDay = try await F.initiated(app, try await app.token(for: Demo.vet1), pet: fluffy)
            #expect(nextDay.visitID != morning.visitID)
            #expect(try await F.visitRow(app, nextDay.visitID)?.recordingDay == "2025-01-16")
            #expect(try await F.visitRow(app, morning.visitID)?.recordingDay == "2025-01-15")
            #expect(try await F.visitRows(app, pet: fluffy) == 2)
        }
    }

    @Test func r05ReinitiateIsIdempotentWhileTheUploadIsPending() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let first = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            clock.advance(by: 1)
            let second = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            #expect(second.visitID == first.visitID)
            #expect(second.key == first.key)
            #expect(second.fields["x-amz-date"] != first.fields["x-amz-date"])
            #expect(second.fields["x-amz-signature"] != first.fields["x-amz-signature"])
            #expect(try await F.visitRows(app, pet: Demo.pet(1)) == 1)
            let visits = try await app.get(
                "/api/v1/visit-transcripts/pet/\(Demo.pet(1).lowercased)?include_pending=true", token: vet)
            #expect(visits.headers.first(name: "X-Total-Count") == "2", "the demo manual visit and this one")

            let mpeg = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, contentType: "audio/mpeg")
            #expect(mpeg.visitID == first.visitID)
            #expect(mpeg.key.hasSuffix("-1.mp3"), "\(mpeg.key)")
            #expect(try await F.visitRows(app, pet: Demo.pet(1)) == 1)
        }
    }

    @Test func r06ALandedUploadIsNeverDiscarded() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let started = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            try await F.upload(app, started, bytes: F.bytes(4_096))
            let again = try await F.initiate(app, vet, pet: Demo.pet(2), appointment: appointment)
            expectError(again, .conflict, "Recording already exists for this appointment and pet. Visit ID: \(started.visitID)")
            #expect(again.json["visit_id"].string == started.visitID)
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["state"].string == "processing")
            #expect(visit.json["metadata"]["completion_source"].string == "reinitiate")
            #expect(visit.json["metadata"]["file_size_bytes"].int == 4_096)
            #expect(try await F.jobs(app, visit: started.visitID).map(\.status) == ["queued"])
            #expect(F.objectExists(app, key: started.key))
        }
    }

    @Test func r07CompletedRecordingsConflict() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(3), appointment: appointment)
            let before = try await F.visit(app, vet, visitID)
            let jobsBefore = try await F.jobs(app, visit: visitID)
            let conflict = try await F.initiate(app, vet, pet: Demo.pet(3), appointment: appointment)
            expectError(conflict, .conflict, "Recording already exists for this appointment and pet. Visit ID: \(visitID)")
            #expect(conflict.json["visit_id"].string == visitID)
            #expect(conflict.json.keys == ["detail", "visit_id"])
            #expect(try await F.visit(app, vet, visitID).json.value == before.json.value)
            #expect(try await F.visitRows(app, appointment: appointment) == 1)
            #expect(try await F.jobs(app, visit: visitID) == jobsBefore)
        }
    }

    @Test func r08ReplaceKeepsHistory() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            let oldBytes = F.bytes(1_500, seed: 3)
            try await F.upload(app, started, bytes: oldBytes)
            #expect(try await F.complete(app, vet, started.visitID).status == .ok)
            #expect(try await app.put(F.visitPath(started.visitID), token: vet, json: ["state": "processed"]).status == .ok)
            let typed = try await app.put(F.visitPath(started.visitID), token: vet, json: ["full_text": "Old transcript"])
            #expect(typed.status == .ok, "\(typed)")

            let replaced = try await F.initiate(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: true)
            #expect(replaced.status == .ok, "\(replaced)")
            #expect(replaced.json["visit_id"].string == started.visitID)
            let newKey = try #require(replaced.json["s3_key"].string)
            #expect(newKey.hasSuffix("-2.m4a"))
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["state"].string == "new")
            #expect(visit.json["audio_transcript_url"].isNull)
            #expect(visit.json["full_text"].string == "")
            let previous = visit.json["metadata"]["previous_recordings"]
            #expect(previous.count == 1)
            #expect(previous[0]["attempt"].int == 1)
            #expect(previous[0]["s3_key"].string == started.key)
            #expect(previous[0]["full_text"].string == "Old transcript")
            #expect(previous[0]["state"].string == "processed")
            #expect(F.objectBytes(app, key: started.key) == oldBytes, "the old object stays in storage")
            expectError(try await F.playback(app, vet, started.visitID), .notFound, "Audio file not found")

            let newBytes = F.bytes(900, seed: 9)
            let uploaded = try await F.uploadToPresignedPost(app, replaced, bytes: newBytes)
            #expect(uploaded.status == .noContent)
            try await F.expectPlayback(app, vet, started.visitID, bytes: newBytes)
        }
    }

    @Test func r09CompleteVerifiesTheUpload() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            expectError(try await F.complete(app, vet, started.visitID), .conflict, "Audio file has not been uploaded yet")
            #expect(try await F.visit(app, vet, started.visitID).json["state"].string == "new")
            try await F.upload(app, started, bytes: F.bytes(2_048_576))
            let completed = try await F.complete(app, vet, started.visitID, body: ["file_size_bytes": 100])
            #expect(completed.status == .ok, "\(completed)")
            #expect(completed.json["state"].string == "processing")
            #expect(completed.json["metadata"]["file_size_bytes"].int == 2_048_576)
            #expect(completed.json["metadata"]["client_file_size_bytes"].int == 100)
            #expect(completed.json["audio_transcript_url"].string == "\(F.baseURL)/storage/\(F.bucket)/\(started.key)")
        }
    }

    @Test func r10CompleteIsIdempotentAndRaceSafe() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            // Sequential: a second complete (any body) answers the first response unchanged.
            let single = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            try await F.upload(app, single, bytes: F.bytes(10))
            let first = try await F.complete(app, vet, single.visitID, body: ["duration_seconds": 5])
            let second = try await F.complete(app, vet, single.visitID, body: ["duration_seconds": 50, "file_size_bytes": 3])
            #expect(first.status == .ok && second.status == .ok)
            #expect(second.json.value == first.json.value)
            #expect(second.json["updated_at"].string == first.json["updated_at"].string)

            // Concurrent: five completes, one transition, one job.
            let raced = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            try await F.upload(app, raced, bytes: F.bytes(20))
            let visitID = raced.visitID
            let responses = try await Self.concurrently(5) { i in
                try await F.complete(app, vet, visitID, body: ["duration_seconds": Double(i + 1)])
            }
            #expect(responses.allSatisfy { $0.status == .ok }, "\(responses.map(\.description))")
            #expect(responses.allSatisfy { $0.json.value == responses.first?.json.value }, "every caller sees the one transition")
            #expect(responses.first?.json["state"].string == "processing")
            let jobs = try await F.jobs(app, visit: visitID)
            #expect(jobs.count == 1)
            #expect(jobs.first?.status == "queued")
            #expect(responses.first?.json["metadata"]["transcription_job_id"].string == jobs.first?.id.lowercased)
            #expect(F.metric(app, #"helppet_recordings_completed_total{source="client"}"#) == 2, "one per transition")
        }
    }

    @Test func r12StaleTranscriptionJobsAreDiscardedOnReplace() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            try await F.upload(app, started, bytes: F.bytes(100))
            #expect(try await F.complete(app, vet, started.visitID).status == .ok)
            let oldJob = try #require(try await F.jobs(app, visit: started.visitID).first)
            #expect(oldJob.status == "queued")

            let replaced = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: true)
            let jobs = try await F.jobs(app, visit: started.visitID)
            #expect(jobs == [F.JobRow(id: oldJob.id, storageKey: started.key, status: "discarded", attempts: oldJob.attempts)])
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["state"].string == "new")
            #expect(visit.json["full_text"].string == "")

            // The new recording gets its own job; the stale one stays discarded.
            try await F.upload(app, replaced, bytes: F.bytes(200))
            #expect(try await F.complete(app, vet, started.visitID).status == .ok)
            let after = try await F.jobs(app, visit: started.visitID)
            #expect(after.count == 2)
            #expect(after.first { $0.storageKey == started.key }?.status == "discarded")
            #expect(after.first { $0.storageKey == replaced.key }?.status == "queued")
        }
    }

    @Test func r13LegacyDuplicatesAreRejectedBeforeStoring() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let first = try await F.legacyUpload(app, vet, appointment: appointment, pet: Demo.pet(2), bytes: F.bytes(300))
            #expect(first.status == .created)
            let visitID = try #require(first.json["visit_id"].string)
            let presignedVisit = try await F.recorded(app, vet, pet: Demo.pet(3), appointment: appointment)
            let storedMax = F.storedKeys(app, pet: Demo.pet(2))
            let storedMittens = F.storedKeys(app, pet: Demo.pet(3))
            #expect(storedMax.count == 1 && storedMittens.count == 1)

            for (pet, existing) in [(Demo.pet(2), visitID), (Demo.pet(3), presignedVisit)] {
                let duplicate = try await F.legacyUpload(app, vet, appointment: appointment, pet: pet, bytes: F.bytes(400))
                expectError(duplicate, .conflict, "Recording already exists for this appointment and pet. Visit ID: \(existing)")
                #expect(duplicate.json["visit_id"].string == existing)
            }
            #expect(F.storedKeys(app, pet: Demo.pet(2)) == storedMax)
            #expect(F.storedKeys(app, pet: Demo.pet(3)) == storedMittens)
            #expect(try await F.eventually { F.temporaryFiles(app).isEmpty }, "\(F.temporaryFiles(app))")
        }
    }

    @Test func r14RecordingNeverChangesAppointmentStatus() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let before = try await app.get(F.appointmentPath(appointment), token: vet)
            clock.advance(by: 60)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            clock.advance(by: 60)
            try await F.upload(app, started, bytes: F.bytes(100))
            clock.advance(by: 60)
            #expect(try await F.complete(app, vet, started.visitID).status == .ok)
            clock.advance(by: 60)
            let legacy = try await F.legacyUpload(app, vet, appointment: appointment, pet: Demo.pet(2), bytes: F.bytes(100))
            #expect(legacy.status == .created)
            let after = try await app.get(F.appointmentPath(appointment), token: vet)
            #expect(after.json["status"].string == before.json["status"].string)
            #expect(after.json["status"].string == "scheduled")
            #expect(after.json["updated_at"].string == before.json["updated_at"].string)
        }
    }

    @Test func r15PracticeIsolation() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            let other = try await OtherPractice.create(app)
            let appointment = Demo.appointmentID(1, app)
            let bellaBytes = F.bytes(700)
            let bella = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment, bytes: bellaBytes)
            let fluffy = try await F.recorded(app, vet, pet: Demo.pet(4), appointment: Demo.appointmentID(2, app))
            let pending = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            try await F.upload(app, pending, bytes: F.bytes(10))

            // A member of another practice.
            expectError(try await F.initiate(app, other.vetToken, pet: Demo.pet(1)), .notFound, "Pet not found")
            expectError(
                try await F.initiate(app, other.vetToken, pet: Demo.pet(1), appointment: appointment), .notFound, "Pet not found")
            for visit in [bella, pending.visitID] {
                expectError(try await F.complete(app, other.vetToken, visit), .notFound, "Visit not found")
                expectError(try await F.playback(app, other.vetToken, visit), .notFound, "Visit not found")
            }
            #expect(try await F.visit(app, vet, pending.visitID).json["state"].string == "new", "untouched")

            // PET_OWNER owner1 (Bella's owner, not Fluffy's).
            expectError(try await F.initiate(app, owner, pet: Demo.pet(1), appointment: appointment), .forbidden, F.staffOnly)
            expectError(try await F.complete(app, owner, pending.visitID), .forbidden, F.staffOnly)
            try await F.expectPlayback(app, owner, bella, bytes: bellaBytes)
            expectError(try await F.playback(app, owner, fluffy), .notFound, "Visit not found")
        }
    }

    @Test func r16AVisitBelongsToItsAppointmentsPractice() async throws {
        try await F.withApp { app in
            let admin = try await app.token(for: Demo.admin)
            let started = try await F.initiated(app, admin, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let visit = try await F.visit(app, admin, started.visitID)
            #expect(visit.json["practice_id"].string == Demo.practiceID.lowercased)
            #expect(visit.json["created_by"].string == Demo.admin.id.lowercased)
        }
    }

    @Test func r17RecordedPetsStayOnTheirAppointment() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let bella = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            let mittens = try await F.initiated(app, vet, pet: Demo.pet(3), appointment: appointment)
            let before = try await app.get(F.appointmentPath(appointment), token: vet)

            let refused = try await app.put(F.appointmentPath(appointment), token: vet, json: [
                "pet_ids": [Demo.pet(2).lowercased, Demo.pet(3).lowercased],
            ])
            expectError(
                refused, .conflict,
                "Cannot remove pet d3000000-0000-4000-8000-000000000001 from the appointment: a recording exists for it")
            #expect(try await app.get(F.appointmentPath(appointment), token: vet).json.value == before.json.value, "nothing changed")
            #expect(try await F.visit(app, vet, mittens.visitID).status == .ok)

            let accepted = try await app.put(F.appointmentPath(appointment), token: vet, json: [
                "pet_ids": [Demo.pet(1).lowercased, Demo.pet(2).lowercased],
            ])
            #expect(accepted.status == .ok, "\(accepted)")
            #expect(accepted.json["pets"].ids == [Demo.pet(1).lowercased, Demo.pet(2).lowercased])
            expectError(try await F.visit(app, vet, mittens.visitID), .notFound, "Visit not found")
            #expect(try await F.visitRows(app, appointment: appointment, pet: Demo.pet(3)) == 0)
            #expect(try await F.visit(app, vet, bella).json["state"].string == "processing")
            let rows = try await app.db.sql.raw("""
                SELECT pet_id, position FROM appointment_pets WHERE appointment_id = \(bind: appointment) ORDER BY position
                """).all()
            let positions = try rows.map { (try $0.decode(column: "pet_id", as: UUID.self), try $0.decode(column: "position", as: Int.self)) }
            #expect(positions.map(\.0) == [Demo.pet(1), Demo.pet(2)])
            #expect(positions.map(\.1) == [0, 1])
        }
    }

    @Test func r18MetadataIsMergedAndServerKeysAreProtected() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let bytes = F.bytes(640)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), bytes: bytes)
            let key = try #require(try await F.visit(app, vet, visitID).json["metadata"]["s3_key"].string)

            let added = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["chief_complaint": "Limping"]])
            #expect(added.status == .ok, "\(added)")
            #expect(added.json["metadata"]["chief_complaint"].string == "Limping")
            #expect(added.json["metadata"]["s3_key"].string == key)
            try await F.expectPlayback(app, vet, visitID, bytes: bytes)

            let removed = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["chief_complaint": nil]])
            #expect(removed.status == .ok)
            #expect(removed.json["metadata"]["chief_complaint"].isAbsent)
            #expect(removed.json["metadata"]["s3_key"].string == key)

            _ = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["vitals": ["hr": 80, "rr": 20]]])
            let nested = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["vitals": ["temp": 38.5]]])
            #expect(nested.json["metadata"]["vitals"].keys == ["temp"], "a nested object is replaced whole")

            for managed in ["s3_key", "summary_status", "file_size_bytes", "previous_recordings"] {
                let refused = try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": [managed: "x"]])
                expectError(refused, .badRequest, "metadata key '\(managed)' is managed by the server")
            }
            #expect(try await F.visit(app, vet, visitID).json["metadata"]["s3_key"].string == key)

            let responses = try await Self.concurrently(2) { i in
                try await app.put(F.visitPath(visitID), token: vet, json: ["metadata": ["key_\(i)": "value \(i)"]])
            }
            #expect(responses.allSatisfy { $0.status == .ok }, "\(responses.map(\.description))")
            let merged = try await F.visit(app, vet, visitID).json["metadata"]
            #expect(merged["key_0"].string == "value 0")
            #expect(merged["key_1"].string == "value 1")
            #expect(merged["vitals"]["temp"].double == 38.5)
            #expect(merged["s3_key"].string == key)
        }
    }

    @Test func r19CancelledAppointmentsTakeNoRecordings() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(4, app)
            let cancelled = try await app.delete(F.appointmentPath(appointment), token: vet)
            #expect(cancelled.json["status"].string == "cancelled")
            let detail = "Cannot record audio for a cancelled appointment"
            expectError(try await F.initiate(app, vet, pet: Demo.pet(6), appointment: appointment), .conflict, detail)
            expectError(
                try await F.legacyUpload(app, vet, appointment: appointment, pet: Demo.pet(6), bytes: F.bytes(10)), .conflict,
                detail)
            #expect(try await F.visitRows(app, pet: Demo.pet(6)) == 0)
        }
    }

    @Test func r20DeletingAVisitFreesItsSlot() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let appointment = Demo.appointmentID(1, app)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            let deleted = try await app.delete(F.visitPath(visitID), token: admin)
            #expect(deleted.status == .ok, "\(deleted)")
            let next = try await F.initiate(app, vet, pet: Demo.pet(1), appointment: appointment)
            #expect(next.status == .ok, "\(next)")
            let nextID = try #require(next.json["visit_id"].string)
            #expect(nextID != visitID)
            #expect(try await F.visitRows(app, appointment: appointment, pet: Demo.pet(1)) == 1)

            // Likewise for a day slot.
            let dayVisit = try await F.recorded(app, vet, pet: Demo.pet(4))
            #expect(try await app.delete(F.visitPath(dayVisit), token: admin).status == .ok)
            let nextDay = try await F.initiated(app, vet, pet: Demo.pet(4))
            #expect(nextDay.visitID != dayVisit)
        }
    }

    @Test func r21ParallelLegacyUploadsHaveOneWinner() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)

            // No visit yet (Max).
            let max = Demo.pet(2)
            let responses = try await Self.concurrently(10) { i in
                try await F.legacyUpload(app, vet, appointment: appointment, pet: max, bytes: F.bytes(2_000, seed: UInt8(i)))
            }
            try Self.expectOneWinner(responses)
            let winner = try #require(responses.first { $0.status == .created })
            #expect(F.storedKeys(app, pet: max) == [try #require(winner.json["file_key"].string)])
            #expect(try await F.visitRows(app, appointment: appointment, pet: max) == 1)

            // A pending presigned upload within the hour (Mittens): the winner takes attempt 2.
            let mittens = Demo.pet(3)
            let started = try await F.initiated(app, vet, pet: mittens, appointment: appointment)
            let raced = try await Self.concurrently(10) { i in
                try await F.legacyUpload(app, vet, appointment: appointment, pet: mittens, bytes: F.bytes(2_000, seed: UInt8(i)))
            }
            try Self.expectOneWinner(raced)
            let mittensWinner = try #require(raced.first { $0.status == .created })
            #expect(mittensWinner.json["visit_id"].string == started.visitID)
            let key = try #require(mittensWinner.json["file_key"].string)
            #expect(key.hasSuffix("\(started.visitID)-2.m4a"), "\(key)")
            #expect(F.storedKeys(app, pet: mittens) == [key])
            #expect(!F.objectExists(app, key: started.key), "nothing at the -1 key")
            #expect(try await F.eventually { F.temporaryFiles(app).isEmpty }, "\(F.temporaryFiles(app))")
        }
    }

    static func expectOneWinner(_ responses: [TestResponse], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let winners = responses.filter { $0.status == .created }
        #expect(winners.count == 1, "\(responses.map(\.description))", sourceLocation: sourceLocation)
        let visitID = try #require(winners.first?.json["visit_id"].string, sourceLocation: sourceLocation)
        for loser in responses where loser.status != .created {
            #expect(loser.status == .conflict, "\(loser)", sourceLocation: sourceLocation)
            #expect(loser.json["visit_id"].string == visitID, "\(loser)", sourceLocation: sourceLocation)
            let detail = loser.detail ?? ""
            #expect(
                detail == "Recording upload already in progress for this appointment and pet. Visit ID: \(visitID)"
                    || detail == "Recording already exists for this appointment and pet. Visit ID: \(visitID)",
                "\(loser)", sourceLocation: sourceLocation)
        }
    }
}
