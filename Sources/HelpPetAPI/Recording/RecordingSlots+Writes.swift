import AppCore
import Fluent
import Foundation
import ObjectStorage
import Transcription

/// The writes of the slot table: a new visit, a fresh URL for a pending one, the next attempt of a finished one.
/// Presigning is local computation and happens before the transaction, so a failure leaves no orphan row.
extension RecordingSlots {
    /// The metadata of a fresh upload URL for the visit's attempt.
    func uploadMetadata(_ context: Initiation, key: String, attempt: Int) -> [String: JSONValue] {
        var metadata: [String: JSONValue] = [
            "s3_key": .string(key), "s3_bucket": .string(storage.bucket), "filename": .string(context.request.filename),
            "content_type": .string(context.request.contentType.value),
            "estimated_duration_seconds": context.request.estimatedDuration.map { .number($0) } ?? .null,
            "uploaded_by": .string(context.caller.id.lowercased), "upload_method": .string("presigned_post"),
            "attempt": .integer(Int64(attempt)), "upload_url_issued_at": .string(WireTime.format(context.now)),
        ]
        if let appointment = context.appointment { metadata["appointment_id"] = .string(appointment.id!.lowercased) }
        if let consent = context.consent { metadata[RecordingConsent.metadataKey] = consent }
        return metadata
    }

    /// No visit yet: insert one under the slot's unique index; nil when a concurrent request inserted first.
    func createVisit(_ context: Initiation) async throws -> InitiateRecordingResponse? {
        let visitID = UUID()
        let now = context.now
        let key = RecordingKey.make(
            issuedAt: now, petID: context.pet.id!, visitID: visitID, attempt: 1,
            fileExtension: context.request.contentType.fileExtension)
        // Presigning is local computation; doing it first means a failure leaves no orphan row.
        let presigned = storage.presignUpload(key: key, contentType: context.request.contentType.value, baseURL: baseURL)
        var initial = uploadMetadata(context, key: key, attempt: 1)
        initial["upload_initiated_at"] = .string(WireTime.format(now))
        let metadata = initial
        let appointmentID = context.appointment?.id
        let visitDate = context.appointment?.appointmentDate ?? now
        let day = context.slot.recordingDay

        let inserted: Bool
        do {
            inserted = try await db.writeTransaction { db -> Bool in
                if let appointmentID {
                    // Serializes with a concurrent replacement of the appointment's pets (§4.5).
                    try await AppointmentStore(db: db).lock(appointmentID, .forShare)
                }
                let inserted = try await VisitStore(db: db).insertRecordingSlot(
                    id: visitID, petID: context.pet.id!, practiceID: context.practice.id!, appointmentID: appointmentID,
                    visitDate: visitDate, recordingDay: day, key: key, metadata: metadata, createdBy: context.caller.id,
                    now: now)
                guard inserted else { return false }
                try await recordIntent(visitID: visitID, key: key, attempt: 1, context, on: db)
                return true
            }
        } catch where DatabaseFailure.isConstraintViolation(error) && !DatabaseFailure.isUniqueViolation(error) {
            // The pet left the appointment between the check and the insert (C11).
            if let appointment = context.appointment { try await requirePet(context.pet, in: appointment) }
            throw error
        }
        guard inserted else { return nil }
        return InitiateRecordingResponse(visitID: visitID, key: key, presigned: presigned, bucket: storage.bucket)
    }

    /// A pending upload whose object has not arrived: same visit, fresh URL (R5). Nil when the row changed meanwhile.
    func reissue(_ visit: Visit, _ context: Initiation) async throws -> InitiateRecordingResponse? {
        let now = context.now
        let currentKey = visit.storageKey ?? RecordingKey.make(
            issuedAt: now, petID: visit.petID, visitID: visit.id!, attempt: visit.attempt ?? 1,
            fileExtension: context.request.contentType.fileExtension)
        let key = RecordingKey.fileExtension(of: currentKey) == context.request.contentType.fileExtension
            ? currentKey : RecordingKey.replacingExtension(of: currentKey, with: context.request.contentType.fileExtension)
        let presigned = storage.presignUpload(key: key, contentType: context.request.contentType.value, baseURL: baseURL)
        let attempt = visit.attempt ?? 1

        // Under the slot's row lock: a concurrent reissue of the same key (another URL time) does not matter, so it
        // is not compared; comparing it made 32 sustained initiates on one slot lose the race eight times in a
        // row around second boundaries (503). A new legacy reservation, a completion or another key
        // does matter: then the slot table is applied again.
        let updated = try await db.writeTransaction { db -> Bool in
            guard let current = try await VisitStore(db: db).lockedRow(visit.id!), current.state == .new,
                current.reservedAt == visit.reservedAt, current.storageKey == visit.storageKey
            else { return false }
            var patch = MetadataPatch()
            patch.set = uploadMetadata(context, key: key, attempt: attempt)
            if current.metadata["upload_initiated_at"] == nil {
                patch.set["upload_initiated_at"] = .string(WireTime.format(now))
            }
            try await VisitStore(db: db).issueUpload(
                visit.id!, key: key, metadata: try patch.sqlValue(current: current.metadata, on: db),
                replacingAttempt: nil, now: now)
            // A key with another extension is a new intent; the earlier key's URL stays valid and is still
            // looked under (docs/recording-safety.md).
            try await recordIntent(visitID: visit.id!, key: key, attempt: attempt, context, on: db)
            return true
        }
        return updated
            ? InitiateRecordingResponse(visitID: visit.id!, key: key, presigned: presigned, bucket: storage.bucket) : nil
    }

    /// Records the key this initiate hands out (an `upload_intents` row), in the transaction that writes the visit.
    func recordIntent(visitID: UUID, key: String, attempt: Int, _ context: Initiation, on db: any Database) async throws {
        try await UploadIntentStore(db: db).record(
            visitID: visitID, key: key, attempt: attempt, contentType: context.request.contentType.value,
            filename: context.request.filename, method: "presigned_post", issuedAt: context.now,
            lifetime: TimeInterval(RecordingStorage.uploadURLLifetime))
    }

    /// Top-level keys of a recording that move into its `previous_recordings` entry when it is replaced.
    static let keysMovedOnReplace = [
        "upload_completed_at", "completion_source", "file_size_bytes", "client_file_size_bytes", "duration_seconds",
        "device_metadata", "transcription_job_id", "transcription_engine", "transcription_model",
        "transcription_completed_at", "transcription_failed_at", "transcription_error", "transcript_length",
        "transcript_segments", "language", "audio_duration_seconds", "real_time_factor", "summary_status",
        "transcription_note", "vocabulary_corrections", "transcription_progress", "summary_approved_by",
        "summary_approved_at", "clinical_note", "previous_transcripts",
    ]

    /// `replace_existing: true` on a finished recording: same visit, next attempt, new key; the old recording is
    /// kept in `previous_recordings` and its object stays in storage (R8). Nil when the row changed meanwhile.
    func replace(_ visit: Visit, _ context: Initiation) async throws -> InitiateRecordingResponse? {
        let now = context.now
        let attempt = (visit.attempt ?? 1) + 1
        let key = RecordingKey.make(
            issuedAt: now, petID: visit.petID, visitID: visit.id!, attempt: attempt,
            fileExtension: context.request.contentType.fileExtension)
        let presigned = storage.presignUpload(key: key, contentType: context.request.contentType.value, baseURL: baseURL)

        let updated = try await db.writeTransaction { db -> Bool in
            guard let current = try await VisitStore(db: db).lockedRow(visit.id!), current.state == visit.state,
                current.storageKey == visit.storageKey, current.attempt == visit.attempt
            else { return false }
            var entry: [String: JSONValue] = [
                "attempt": .integer(Int64(current.attempt ?? 1)),
                "s3_key": current.storageKey.map { .string($0) } ?? .null,
                "filename": current.metadata["filename"] ?? .null,
                "content_type": current.metadata["content_type"] ?? .null,
                "state": .string(current.stateValue), "full_text": .string(current.fullText),
                "summary": current.summary.map { .string($0) } ?? .null,
                "replaced_at": .string(WireTime.format(now)), "replaced_by": .string(context.caller.id.lowercased),
            ]
            var patch = MetadataPatch()
            for key in Self.keysMovedOnReplace {
                if let value = current.metadata[key] { entry[key] = value }
                patch.remove.insert(key)
            }
            for key in ["file_size_bytes", "duration_seconds", "upload_completed_at"] where entry[key] == nil {
                entry[key] = .null
            }
            var previous: [JSONValue] = []
            if case .array(let existing)? = current.metadata["previous_recordings"] { previous = existing }
            previous.append(.object(entry))
            patch.set = uploadMetadata(context, key: key, attempt: attempt)
            patch.set["previous_recordings"] = .array(previous)
            patch.set["upload_initiated_at"] = .string(WireTime.format(now))
            for key in patch.set.keys { patch.remove.remove(key) }

            try await VisitStore(db: db).issueUpload(
                visit.id!, key: key, metadata: try patch.sqlValue(current: current.metadata, on: db),
                replacingAttempt: attempt, now: now)
            // Earlier keys can no longer become the current recording; objects landing there are still kept.
            try await UploadIntentStore(db: db).supersedeUnsettled(visitID: visit.id!, now: now)
            try await recordIntent(visitID: visit.id!, key: key, attempt: attempt, context, on: db)
            // A queued job of the replaced recording would only produce a stale result (§5.1).
            if let oldKey = current.storageKey {
                try await TranscriptionJobStore.discardQueued(visitID: visit.id!, storageKey: oldKey, now: now, on: db)
            }
            return true
        }
        return updated
            ? InitiateRecordingResponse(visitID: visit.id!, key: key, presigned: presigned, bucket: storage.bucket) : nil
    }
}
