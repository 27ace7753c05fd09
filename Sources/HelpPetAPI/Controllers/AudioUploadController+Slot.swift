import AppCore
import Fluent
import Foundation
import ObjectStorage
import SQLKit
import Transcription
import Vapor

/// The slot table of contract §4.10. Each outcome is a write that is conditional on the row as read; a request
/// that loses a race re-reads the slot and applies the table again, so N identical initiates converge on one row.
extension AudioUploadController {
    static func applySlotRules(_ context: InitiateContext, req: Request) async throws -> InitiateResponse {
        let storage = req.recordingStorage
        for _ in 0..<8 {
            guard let visit = try await findSlotVisit(context, on: req.db) else {
                if let created = try await createVisit(context, req: req) { return created }
                continue
            }
            switch visit.state {
            case .new:
                if RecordingConflict.hasLiveLegacyReservation(visit, now: context.now) {
                    throw RecordingConflict.uploadInProgress(visit)
                }
                let landed = try await SlotLanding.find(visitID: visit.id!, storage: storage, on: req.db)
                if !landed.isEmpty {
                    // An upload already landed (under any key issued for this slot): never discard it; complete
                    // with it and answer as for a recording.
                    try await RecordingCompletion.settle(
                        visitID: visit.id!, landed: landed, source: .reinitiate, details: .none,
                        actor: context.caller.id, now: context.now, on: req.db, metrics: req.core.metrics)
                    continue
                }
                if let reissued = try await reissue(visit, context, req: req) { return reissued }
            case .processing, .processed, .failed:
                guard context.request.replaceExisting else { throw RecordingConflict.exists(visit) }
                if let replaced = try await replace(visit, context, req: req) { return replaced }
            }
        }
        // Only reachable under pathological contention; the client may simply retry.
        throw APIError.serviceUnavailable
    }

    /// The visit of the slot: per (appointment, pet) (C10), or per (pet, practice, local day) without one (C12).
    static func findSlotVisit(_ context: InitiateContext, on db: any Database) async throws -> Visit? {
        let query = Visit.query(on: db).filter(\.$petID == context.pet.id!)
        if let appointment = context.appointment {
            query.filter(\.$appointmentID == appointment.id!)
        } else {
            query.filter(\.$appointmentID == nil).filter(\.$source == VisitSource.recording.rawValue)
                .filter(\.$practiceID == context.practice.id!)
                .filter(\.$recordingDay == recordingDay(context).description)
        }
        return try await query.first()
    }

    static func recordingDay(_ context: InitiateContext) -> CalendarDay {
        LocalDay.day(containing: context.now, in: context.practice.timeZone)
    }

    /// The metadata of a fresh upload URL for the visit's attempt.
    static func uploadMetadata(
        _ context: InitiateContext, key: String, attempt: Int, bucket: String
    ) -> [String: JSONValue] {
        var metadata: [String: JSONValue] = [
            "s3_key": .string(key), "s3_bucket": .string(bucket), "filename": .string(context.request.filename),
            "content_type": .string(context.request.contentType.value),
            "estimated_duration_seconds": context.request.estimatedDuration.map { .number($0) } ?? .null,
            "uploaded_by": .string(context.caller.id.lowercased), "upload_method": .string("presigned_post"),
            "attempt": .integer(Int64(attempt)), "upload_url_issued_at": .string(WireTime.format(context.now)),
        ]
        if let appointment = context.appointment { metadata["appointment_id"] = .string(appointment.id!.lowercased) }
        if let consent = context.consent { metadata[RecordingConsent.metadataKey] = consent }
        return metadata
    }

    static func response(visitID: UUID, key: String, presigned: PresignedPost, bucket: String) -> InitiateResponse {
        InitiateResponse(
            visit_id: visitID.lowercased, upload_url: presigned.url, upload_fields: presigned.fieldMap, s3_key: key,
            bucket: bucket, expires_in: RecordingStorage.uploadURLLifetime)
    }

    /// No visit yet: insert one under the slot's unique index; nil when a concurrent request inserted first.
    static func createVisit(_ context: InitiateContext, req: Request) async throws -> InitiateResponse? {
        let storage = req.recordingStorage
        let visitID = UUID()
        let now = context.now
        let key = RecordingKey.make(
            issuedAt: now, petID: context.pet.id!, visitID: visitID, attempt: 1,
            fileExtension: context.request.contentType.fileExtension)
        // Presigning is local computation; doing it first means a failure leaves no orphan row.
        let presigned = storage.presignUpload(key: key, contentType: context.request.contentType.value, for: req)
        var initial = uploadMetadata(context, key: key, attempt: 1, bucket: storage.bucket)
        initial["upload_initiated_at"] = .string(WireTime.format(now))
        let metadata = initial
        let appointmentID = context.appointment?.id
        let visitDate = context.appointment?.appointmentDate ?? now
        let day: String? = appointmentID == nil ? recordingDay(context).description : nil

        let inserted: Bool
        do {
            inserted = try await req.db.writeTransaction { db -> Bool in
                if let appointmentID {
                    // Serializes with a concurrent replacement of the appointment's pets (§4.5).
                    try await AppointmentStore.lock(appointmentID, .forShare, on: db)
                }
                let inserted = try await VisitStore.insertRecordingSlot(
                    id: visitID, petID: context.pet.id!, practiceID: context.practice.id!, appointmentID: appointmentID,
                    visitDate: visitDate, recordingDay: day, key: key, metadata: metadata, createdBy: context.caller.id,
                    now: now, on: db)
                guard inserted else { return false }
                try await recordIntent(visitID: visitID, key: key, attempt: 1, context, on: db)
                return true
            }
        } catch where DatabaseFailure.isConstraintViolation(error) && !DatabaseFailure.isUniqueViolation(error) {
            // The pet left the appointment between the check and the insert (C11).
            if let appointment = context.appointment { try await requirePet(context.pet, in: appointment, on: req.db) }
            throw error
        }
        guard inserted else { return nil }
        return response(visitID: visitID, key: key, presigned: presigned, bucket: storage.bucket)
    }

    /// A pending upload whose object has not arrived: same visit, fresh URL (R5). Nil when the row changed meanwhile.
    static func reissue(_ visit: Visit, _ context: InitiateContext, req: Request) async throws -> InitiateResponse? {
        let storage = req.recordingStorage
        let now = context.now
        let currentKey = visit.storageKey ?? RecordingKey.make(
            issuedAt: now, petID: visit.petID, visitID: visit.id!, attempt: visit.attempt ?? 1,
            fileExtension: context.request.contentType.fileExtension)
        let key = RecordingKey.fileExtension(of: currentKey) == context.request.contentType.fileExtension
            ? currentKey : RecordingKey.replacingExtension(of: currentKey, with: context.request.contentType.fileExtension)
        let presigned = storage.presignUpload(key: key, contentType: context.request.contentType.value, for: req)
        let attempt = visit.attempt ?? 1

        // Under the slot's row lock: a concurrent reissue of the same key (another URL time) does not matter, so it
        // is not compared; comparing it made 32 sustained initiates on one slot lose the race eight times in a
        // row around second boundaries (503). A new legacy reservation, a completion or another key
        // does matter: then the slot table is applied again.
        let updated = try await req.db.writeTransaction { db -> Bool in
            guard let current = try await VisitRows.locked(visit.id!, on: db), current.state == .new,
                current.reservedAt == visit.reservedAt, current.storageKey == visit.storageKey
            else { return false }
            var patch = MetadataPatch()
            patch.set = uploadMetadata(context, key: key, attempt: attempt, bucket: storage.bucket)
            if current.metadata["upload_initiated_at"] == nil {
                patch.set["upload_initiated_at"] = .string(WireTime.format(now))
            }
            try await VisitStore.issueUpload(
                visit.id!, key: key, metadata: try patch.sqlValue(current: current.metadata, on: db),
                replacingAttempt: nil, now: now, on: db)
            // A key with another extension is a new intent; the earlier key's URL stays valid and is still
            // looked under (docs/recording-safety.md).
            try await recordIntent(visitID: visit.id!, key: key, attempt: attempt, context, on: db)
            return true
        }
        return updated ? response(visitID: visit.id!, key: key, presigned: presigned, bucket: storage.bucket) : nil
    }

    /// Records the key this initiate hands out (an `upload_intents` row), in the transaction that writes the visit.
    static func recordIntent(
        visitID: UUID, key: String, attempt: Int, _ context: InitiateContext, on db: any Database
    ) async throws {
        try await UploadIntents.record(
            visitID: visitID, key: key, attempt: attempt, contentType: context.request.contentType.value,
            filename: context.request.filename, method: "presigned_post", issuedAt: context.now,
            lifetime: TimeInterval(RecordingStorage.uploadURLLifetime), on: db)
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
    static func replace(_ visit: Visit, _ context: InitiateContext, req: Request) async throws -> InitiateResponse? {
        let storage = req.recordingStorage
        let now = context.now
        let attempt = (visit.attempt ?? 1) + 1
        let key = RecordingKey.make(
            issuedAt: now, petID: visit.petID, visitID: visit.id!, attempt: attempt,
            fileExtension: context.request.contentType.fileExtension)
        let presigned = storage.presignUpload(key: key, contentType: context.request.contentType.value, for: req)

        let updated = try await req.db.writeTransaction { db -> Bool in
            guard let current = try await VisitRows.locked(visit.id!, on: db), current.state == visit.state,
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
            for key in keysMovedOnReplace {
                if let value = current.metadata[key] { entry[key] = value }
                patch.remove.insert(key)
            }
            for key in ["file_size_bytes", "duration_seconds", "upload_completed_at"] where entry[key] == nil {
                entry[key] = .null
            }
            var previous: [JSONValue] = []
            if case .array(let existing)? = current.metadata["previous_recordings"] { previous = existing }
            previous.append(.object(entry))
            patch.set = uploadMetadata(context, key: key, attempt: attempt, bucket: storage.bucket)
            patch.set["previous_recordings"] = .array(previous)
            patch.set["upload_initiated_at"] = .string(WireTime.format(now))
            for key in patch.set.keys { patch.remove.remove(key) }

            try await VisitStore.issueUpload(
                visit.id!, key: key, metadata: try patch.sqlValue(current: current.metadata, on: db),
                replacingAttempt: attempt, now: now, on: db)
            // Earlier keys can no longer become the current recording; objects landing there are still kept.
            try await UploadIntents.supersedeUnsettled(visitID: visit.id!, now: now, on: db)
            try await recordIntent(visitID: visit.id!, key: key, attempt: attempt, context, on: db)
            // A queued job of the replaced recording would only produce a stale result (§5.1).
            if let oldKey = current.storageKey {
                try await TranscriptionJobStore.discardQueued(visitID: visit.id!, storageKey: oldKey, now: now, on: db)
            }
            return true
        }
        return updated ? response(visitID: visit.id!, key: key, presigned: presigned, bucket: storage.bucket) : nil
    }
}
