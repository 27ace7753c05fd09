import AppCore
import Fluent
import Foundation
import ObjectStorage
import SQLKit

/// Step 2 of the legacy upload (contract §4.11): claims the (appointment, pet) slot in one short transaction
/// before anything is stored, so parallel uploads have exactly one winner and the losers store nothing.
struct LegacyReservation: Sendable {
    let visitID: UUID
    let key: String
    /// True when this request inserted the row (released by deleting it), false when it took over a `new` visit.
    let inserted: Bool
    /// The reservation stamp this request wrote; the release only touches the row while it still holds it.
    let reservedAt: Date

    static let takeoverURLWindow: TimeInterval = 3600

    static func reserve(
        pet: Pet, appointment: Appointment, upload: LegacyAudioUploadController.Upload, caller: Caller, now: Date,
        slots: RecordingSlots
    ) async throws -> LegacyReservation {
        let storage = slots.storage
        for _ in 0..<8 {
            let visit = try await VisitStore(db: slots.db).visit(in: .appointment(appointment.id!, petID: pet.id!))
            guard let visit else {
                if let created = try await insert(pet: pet, appointment: appointment, upload: upload, caller: caller,
                                                  now: now, slots: slots) {
                    return created
                }
                continue
            }
            guard visit.state == .new else { throw RecordingConflict.exists(visit) }
            if RecordingConflict.hasLiveLegacyReservation(visit, now: now) {
                throw RecordingConflict.uploadInProgress(visit)
            }
            let landed = try await SlotLanding.find(visitID: visit.id!, storage: storage, on: slots.db)
            if !landed.isEmpty {
                // A presigned upload of this slot already landed: completed with it, this upload is a duplicate
                // (409 on the next pass, from the re-read row).
                try await RecordingCompletion.settle(
                    visitID: visit.id!, landed: landed, source: .reinitiate, details: .none, actor: caller.id,
                    now: now, on: slots.db, metrics: slots.metrics)
                continue
            }
            if let taken = try await takeOver(visit, upload: upload, caller: caller, now: now, slots: slots) { return taken }
        }
        throw APIError.serviceUnavailable
    }

    static func metadata(
        key: String, attempt: Int, upload: LegacyAudioUploadController.Upload, appointment: Appointment,
        caller: Caller, bucket: String, now: Date
    ) -> [String: JSONValue] {
        [
            "s3_key": .string(key), "s3_bucket": .string(bucket), "filename": .string(upload.filename),
            "content_type": .string(upload.contentType.value), "uploaded_by": .string(caller.id.lowercased),
            "upload_method": .string("multipart"), "attempt": .integer(Int64(attempt)),
            "appointment_id": .string(appointment.id!.lowercased), "upload_initiated_at": .string(WireTime.format(now)),
        ]
    }

    static func insert(
        pet: Pet, appointment: Appointment, upload: LegacyAudioUploadController.Upload, caller: Caller, now: Date,
        slots: RecordingSlots
    ) async throws -> LegacyReservation? {
        let visitID = UUID()
        let key = RecordingKey.make(
            issuedAt: now, petID: pet.id!, visitID: visitID, attempt: 1, fileExtension: upload.contentType.fileExtension)
        let metadata = metadata(
            key: key, attempt: 1, upload: upload, appointment: appointment, caller: caller,
            bucket: slots.storage.bucket, now: now)
        let inserted = try await slots.db.writeTransaction { db -> Bool in
            try await AppointmentStore(db: db).lock(appointment.id!, .forShare)
            guard try await VisitStore(db: db).insertLegacyReservation(
                id: visitID, petID: pet.id!, practiceID: appointment.practiceID, appointmentID: appointment.id!,
                visitDate: appointment.appointmentDate, key: key, metadata: metadata, createdBy: caller.id, now: now)
            else { return false }
            try await recordIntent(visitID: visitID, key: key, attempt: 1, upload: upload, now: now, on: db)
            return true
        }
        return inserted ? LegacyReservation(visitID: visitID, key: key, inserted: true, reservedAt: now) : nil
    }

    /// Takes over a `new` visit with no live reservation. While a presigned URL may still be used (issued less
    /// than an hour ago), the takeover moves to the next attempt so the legacy upload never writes a key that URL
    /// can write.
    static func takeOver(
        _ visit: Visit, upload: LegacyAudioUploadController.Upload, caller: Caller, now: Date, slots: RecordingSlots
    ) async throws -> LegacyReservation? {
        let urlMayBeLive = visit.uploadURLIssuedAt.map { now.timeIntervalSince($0) < takeoverURLWindow } ?? false
        let attempt = (visit.attempt ?? 1) + (urlMayBeLive ? 1 : 0)
        let key: String
        if urlMayBeLive || visit.storageKey == nil {
            key = RecordingKey.make(
                issuedAt: now, petID: visit.petID, visitID: visit.id!, attempt: attempt,
                fileExtension: upload.contentType.fileExtension)
        } else {
            key = RecordingKey.replacingExtension(of: visit.storageKey!, with: upload.contentType.fileExtension)
        }
        let bucket = slots.storage.bucket
        let taken = try await slots.db.writeTransaction { db -> Bool in
            guard let current = try await VisitStore(db: db).lockedRow(visit.id!), current.state == .new,
                current.reservedAt == visit.reservedAt, current.uploadURLIssuedAt == visit.uploadURLIssuedAt,
                current.storageKey == visit.storageKey
            else { return false }
            guard let appointmentID = current.appointmentID,
                let appointment = try await AppointmentStore(db: db).model(appointmentID)
            else { return false }
            var patch = MetadataPatch()
            patch.set = metadata(
                key: key, attempt: attempt, upload: upload, appointment: appointment, caller: caller, bucket: bucket,
                now: now)
            try await VisitStore(db: db).reserveForLegacyUpload(
                visit.id!, key: key, attempt: attempt, metadata: try patch.sqlValue(current: current.metadata, on: db),
                now: now)
            try await recordIntent(visitID: visit.id!, key: key, attempt: attempt, upload: upload, now: now, on: db)
            return true
        }
        return taken ? LegacyReservation(visitID: visit.id!, key: key, inserted: false, reservedAt: now) : nil
    }

    /// The key this upload will be stored under, as an upload intent (written by the server itself while the
    /// reservation lives), in the transaction that reserves the slot.
    static func recordIntent(
        visitID: UUID, key: String, attempt: Int, upload: LegacyAudioUploadController.Upload, now: Date,
        on db: any Database
    ) async throws {
        try await UploadIntentStore(db: db).record(
            visitID: visitID, key: key, attempt: attempt, contentType: upload.contentType.value,
            filename: upload.filename, method: "multipart", issuedAt: now, lifetime: UploadIntentStore.legacyLifetime)
    }

    /// Storing failed: an inserted row goes away; a taken-over visit stays `new` with its reservation released,
    /// so an immediate retry can take it over again.
    func release(on db: any Database) async throws {
        if inserted {
            try await VisitStore(db: db).deleteLegacyReservation(visitID, reservedAt: reservedAt)
        } else {
            try await VisitStore(db: db).releaseLegacyReservation(visitID, reservedAt: reservedAt)
        }
    }
}
