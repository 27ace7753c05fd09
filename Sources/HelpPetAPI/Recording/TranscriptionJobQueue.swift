import AppCore
import Fluent
import Foundation
import SQLKit

/// The `transcription_jobs` rows (contract §5.1): one row per (visit, storage key), re-queued in place.
enum TranscriptionJobQueue {
    /// Puts the job of `(visitID, storageKey)` back to `queued` with no attempts, inserting the row only when none
    /// exists (C16), and returns its id. Call it inside the transaction that changes the visit.
    static func requeue(visitID: UUID, storageKey: String, now: Date, on db: any Database) async throws -> UUID {
        try await db.sql.raw("""
            INSERT INTO transcription_jobs (id, visit_id, storage_key, status, attempts, available_at, created_at, updated_at)
            VALUES (\(bind: UUID()), \(bind: visitID), \(bind: storageKey), 'queued', 0, \(bind: now), \(bind: now), \(bind: now))
            ON CONFLICT DO NOTHING
            """).run()
        let rows = try await db.sql.raw("""
            UPDATE transcription_jobs SET status = 'queued', attempts = 0, available_at = \(bind: now),
                lease_owner = NULL, lease_expires_at = NULL, last_error = NULL, updated_at = \(bind: now)
            WHERE visit_id = \(bind: visitID) AND storage_key = \(bind: storageKey)
            RETURNING id
            """).all()
        guard let row = rows.first else { throw APIError(.internalServerError, "transcription job row missing") }
        return try row.decode(column: "id", as: UUID.self)
    }

    /// True when the job of the key is waiting or being worked on.
    static func isLive(visitID: UUID, storageKey: String, on db: any Database) async throws -> Bool {
        let rows = try await db.sql.raw("""
            SELECT id FROM transcription_jobs
            WHERE visit_id = \(bind: visitID) AND storage_key = \(bind: storageKey) AND status IN ('queued', 'running')
            """).all()
        return !rows.isEmpty
    }

    /// A visit left `processing` by hand (PUT to `failed` or `processed`): its waiting or running job is
    /// `discarded` in the same transaction, so `/transcribe` is possible at once and a late result is never applied.
    static func discardLive(visitID: UUID, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE transcription_jobs SET status = 'discarded', lease_owner = NULL, lease_expires_at = NULL,
                updated_at = \(bind: now)
            WHERE visit_id = \(bind: visitID) AND status IN ('queued', 'running')
            """).run()
    }
}

extension TranscriptionJobQueue {
    /// A queued job of a replaced recording would only produce a stale result (§5.1).
    static func discardQueued(visitID: UUID, storageKey: String, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE transcription_jobs SET status = 'discarded', updated_at = \(bind: now)
            WHERE visit_id = \(bind: visitID) AND storage_key = \(bind: storageKey) AND status = 'queued'
            """).run()
    }
}
