import AppCore
import Fluent
import Foundation
import SQLKit

/// The visit writes of the recording lifecycle outside the controllers: the legacy upload's reservation, completion,
/// the reconciler and the transcription worker. With `VisitStore`'s controller writes, every statement that writes
/// `visits` is in this store (visits are written in one place). Each runs inside the caller's transaction,
/// after the caller locked and checked the row; the `WHERE` conditions repeat what the caller checked, so a statement
/// never changes a row that moved on meanwhile.
extension VisitStore {
    // MARK: Rows written whole

    /// A manual transcript (`POST /visit-transcripts`), built by the controller.
    func insert(_ visit: Visit) async throws {
        try await visit.create(on: db)
    }

    /// An ADMIN's delete of a visit (its jobs cascade; its upload intents are left dead, visit_id NULL).
    func delete(_ visit: Visit) async throws {
        try await visit.delete(on: db)
    }

    /// The visits of `petIDs` in an appointment, for the caller to check before `deleteVisits`.
    func visits(ofAppointment id: UUID, pets petIDs: [UUID]) async throws -> [Visit] {
        try await Visit.query(on: db).filter(\.$appointmentID == id).filter(\.$petID ~~ petIDs).all()
    }

    /// Pets removed from an appointment take their pending visits with them.
    func deleteVisits(_ visits: [Visit]) async throws {
        for visit in visits { try await visit.delete(on: db) }
    }

    // MARK: Legacy upload reservation

    /// The legacy upload's own slot: `INSERT … ON CONFLICT DO NOTHING RETURNING id`, reserved now; false when the
    /// slot exists already.
    func insertLegacyReservation(
        id: UUID, petID: UUID, practiceID: UUID, appointmentID: UUID, visitDate: Date, key: String,
        metadata: [String: JSONValue], createdBy: UUID, now: Date
    ) async throws -> Bool {
        let rows = try await db.sql.raw("""
            INSERT INTO visits (id, pet_id, practice_id, appointment_id, source, state, visit_date, full_text,
                storage_key, attempt, upload_method, reserved_at, metadata, created_by, created_at, updated_at)
            VALUES (\(bind: id), \(bind: petID), \(bind: practiceID), \(bind: appointmentID),
                'recording', 'new', \(bind: visitDate), '', \(bind: key), 1, 'multipart',
                \(bind: now), \(try jsonValue(metadata)), \(bind: createdBy), \(bind: now),
                \(bind: now))
            ON CONFLICT DO NOTHING RETURNING id
            """).all()
        return !rows.isEmpty
    }

    /// A legacy upload takes over a `new` visit: its key, attempt and reservation.
    func reserveForLegacyUpload(
        _ id: UUID, key: String, attempt: Int, metadata: SQLQueryString, now: Date
    ) async throws {
        try await db.sql.raw("""
            UPDATE visits SET storage_key = \(bind: key), attempt = \(bind: attempt), upload_method = 'multipart',
                reserved_at = \(bind: now), reconcile_after = NULL, metadata = \(metadata), updated_at = \(bind: now)
            WHERE id = \(bind: id)
            """).run()
    }

    /// Storing failed: the slot the legacy upload inserted goes away (only that reservation's).
    func deleteLegacyReservation(_ id: UUID, reservedAt: Date) async throws {
        try await db.sql.raw("""
            DELETE FROM visits WHERE id = \(bind: id) AND state = 'new' AND reserved_at = \(bind: reservedAt)
            """).run()
    }

    /// Storing failed on a taken-over visit: it stays `new`, its reservation released.
    func releaseLegacyReservation(_ id: UUID, reservedAt: Date) async throws {
        try await db.sql.raw("""
            UPDATE visits SET reserved_at = NULL WHERE id = \(bind: id) AND state = 'new'
                AND reserved_at = \(bind: reservedAt)
            """).run()
    }

    // MARK: Completion and the reconciler

    /// The recording landed under `key`: the visit goes to `processing`.
    func markUploaded(
        _ id: UUID, key: String, uploadMethod: String, metadata: SQLQueryString, now: Date
    ) async throws {
        try await db.sql.raw("""
            UPDATE visits SET state = 'processing', storage_key = \(bind: key),
                upload_method = \(bind: uploadMethod), reserved_at = NULL, reconcile_after = NULL,
                metadata = \(metadata), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND state = 'new'
            """).run()
    }

    /// A metadata change of the server's own (previous recordings, the job id, progress), with or without
    /// `updated_at` (the worker's progress and a re-queued job are not changes a user made).
    func setMetadata(
        _ id: UUID, _ metadata: SQLQueryString, touching now: Date?, onlyWhileProcessingAt key: String? = nil
    ) async throws {
        let touch: SQLQueryString = now.map { ", updated_at = \(bind: $0)" } ?? ""
        let guardState: SQLQueryString = key.map { " AND state = 'processing' AND storage_key = \(bind: $0)" } ?? ""
        try await db.sql.raw("""
            UPDATE visits SET metadata = \(metadata)\(touch) WHERE id = \(bind: id)\(guardState)
            """).run()
    }

    /// A pending slot whose every upload URL expired with nothing uploaded: removed, unless it changed meanwhile.
    func deleteAbandonedSlot(
        _ id: UUID, key: String, uploadURLIssuedAt: Date?, reservedAt: Date?
    ) async throws {
        try await db.sql.raw("""
            DELETE FROM visits WHERE id = \(bind: id) AND state = 'new' AND storage_key = \(bind: key)
                AND upload_url_issued_at IS NOT DISTINCT FROM \(bind: uploadURLIssuedAt)
                AND reserved_at IS NOT DISTINCT FROM \(bind: reservedAt)
            """).run()
    }

    /// The reconciler looks again at `at`; an expired legacy reservation is released.
    func reconcileLater(_ id: UUID, key: String, at: Date) async throws {
        try await db.sql.raw("""
            UPDATE visits SET reconcile_after = \(bind: at),
                reserved_at = CASE WHEN upload_method = 'multipart' THEN NULL ELSE reserved_at END
            WHERE id = \(bind: id) AND state = 'new' AND storage_key = \(bind: key)
            """).run()
    }

    // MARK: Transcription results

    /// The worker's transcript: `processed`, only while the visit still waits for it at `key`.
    func markProcessed(
        _ id: UUID, key: String, fullText: String, summary: String?, metadata: SQLQueryString, now: Date
    ) async throws {
        try await db.sql.raw("""
            UPDATE visits SET state = 'processed', full_text = \(bind: fullText), summary = \(bind: summary),
                metadata = \(metadata), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND state = 'processing' AND storage_key = \(bind: key)
            """).run()
    }

    /// The last attempt failed: `failed`, only while the visit still waits for it at `key`.
    func markFailed(
        _ id: UUID, key: String, metadata: SQLQueryString, now: Date
    ) async throws {
        try await db.sql.raw("""
            UPDATE visits SET state = 'failed', metadata = \(metadata), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND state = 'processing' AND storage_key = \(bind: key)
            """).run()
    }
}
