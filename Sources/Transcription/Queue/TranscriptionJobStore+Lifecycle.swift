import AppCore
import Fluent
import Foundation
import SQLKit

/// The product's side of `transcription_jobs`: the statements run inside the transaction that changes the visit
/// (queue, discard, finish), and the reconciler's reads. With the worker's lease statements in
/// `TranscriptionJobStore.swift`, these are every statement on the table.
extension TranscriptionJobStore {
    /// The values of `transcription_jobs.status` (M0108).
    public enum Status: String, CaseIterable, Sendable {
        case queued, running, done, failed, discarded
    }

    /// Puts the job of `(visitID, storageKey)` back to `queued` with no attempts, inserting the row only when none
    /// exists (one row per visit and key, re-queued in place), and returns its id.
    public static func requeue(visitID: UUID, storageKey: String, now: Date, on db: any Database) async throws -> UUID {
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
    public static func isLive(visitID: UUID, storageKey: String, on db: any Database) async throws -> Bool {
        try await db.sql.raw("""
            SELECT id FROM transcription_jobs
            WHERE visit_id = \(bind: visitID) AND storage_key = \(bind: storageKey) AND status IN ('queued', 'running')
            """).first() != nil
    }

    /// A visit taken out of `processing` by hand: its waiting or running job is discarded, so a new transcription may
    /// start at once and a late result is never applied.
    public static func discardLive(visitID: UUID, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE transcription_jobs SET status = 'discarded', lease_owner = NULL, lease_expires_at = NULL,
                updated_at = \(bind: now)
            WHERE visit_id = \(bind: visitID) AND status IN ('queued', 'running')
            """).run()
    }

    /// A queued job of a replaced recording would only produce a stale result.
    public static func discardQueued(visitID: UUID, storageKey: String, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE transcription_jobs SET status = 'discarded', updated_at = \(bind: now)
            WHERE visit_id = \(bind: visitID) AND storage_key = \(bind: storageKey) AND status = 'queued'
            """).run()
    }

    /// A claimed job found stale before it was worked on.
    public static func discardClaimed(jobID: UUID, owner: String, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE transcription_jobs SET status = 'discarded', lease_owner = NULL, lease_expires_at = NULL,
                updated_at = \(bind: now)
            WHERE id = \(bind: jobID) AND status = 'running' AND lease_owner = \(bind: owner)
            """).run()
    }

    /// Whether this worker still holds the job; inside a write transaction the row stays locked until it ends
    /// (`FOR UPDATE` on PostgreSQL; SQLite's `BEGIN IMMEDIATE` already holds the write lock).
    public static func holds(jobID: UUID, owner: String, on db: any Database) async throws -> Bool {
        let lock = db.engine == .postgres ? " FOR UPDATE" : ""
        return try await db.sql.raw("""
            SELECT id FROM transcription_jobs
            WHERE id = \(bind: jobID) AND status = 'running' AND lease_owner = \(bind: owner)\(unsafeRaw: lock)
            """).first() != nil
    }

    /// The job's last state: done, failed or discarded, with the error that ended it.
    public static func finish(_ jobID: UUID, as status: Status, error: String?, now: Date, on db: any Database)
        async throws
    {
        try await db.sql.raw("""
            UPDATE transcription_jobs SET status = \(bind: status.rawValue), lease_owner = NULL, lease_expires_at = NULL,
                last_error = \(bind: error), updated_at = \(bind: now)
            WHERE id = \(bind: jobID)
            """).run()
    }

    /// Visits still `processing` whose current key has no queued or running job (at most 500 per call).
    public static func processingVisitsWithoutLiveJob(on db: any Database) async throws -> [(visitID: UUID, key: String)] {
        try await db.sql.raw("""
            SELECT v.id, v.storage_key FROM visits v
            WHERE v.state = 'processing' AND v.storage_key IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM transcription_jobs j WHERE j.visit_id = v.id AND j.storage_key = v.storage_key
                  AND j.status IN ('queued', 'running'))
            LIMIT 500
            """).all().map {
            (try $0.decode(column: "id", as: UUID.self), try $0.decode(column: "storage_key", as: String.self))
        }
    }

    /// How many jobs are in each status (every status present, zero included).
    public static func countsByStatus(on db: any Database) async throws -> [Status: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Status.allCases.map { ($0, 0) })
        for row in try await db.sql.raw("SELECT status, COUNT(*) AS n FROM transcription_jobs GROUP BY status").all() {
            guard let status = Status(rawValue: try row.decode(column: "status", as: String.self)) else { continue }
            counts[status] = try row.decode(column: "n", as: Int.self)
        }
        return counts
    }
}
