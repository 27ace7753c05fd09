import AppCore
import Fluent
import Foundation
import SQLKit

/// A job this process holds the lease of.
public struct ClaimedJob: Sendable, Equatable {
    public var id: UUID
    public var visitID: UUID
    public var storageKey: String
    /// Including this attempt.
    public var attempts: Int
    public var owner: String
}

/// The worker's side of `transcription_jobs` (contract §5.1): claim with a lease, renew it, put a failed attempt
/// back with a backoff, release on shutdown. Applying a result, the final failure and discarding stale jobs
/// happen in the product's transaction that also changes the visit.
public struct TranscriptionJobStore: Sendable {
    public static let maxAttempts = 3
    public let owner: String
    public let leaseSeconds: Int
    public let retryDelays: [Int]

    public init(owner: String, leaseSeconds: Int, retryDelays: [Int]) {
        self.owner = owner
        self.leaseSeconds = leaseSeconds
        self.retryDelays = retryDelays
    }

    /// Claims the oldest job that is `queued` and due, or `running` with an expired lease (its worker died):
    /// `FOR UPDATE SKIP LOCKED` on PostgreSQL, so several workers never take the same row; a conditional update
    /// inside `BEGIN IMMEDIATE` on SQLite.
    public func claim(now: Date, on db: any Database) async throws -> ClaimedJob? {
        // Each claim has its own owner token, so a re-queued job claimed again by this same process is a new lease.
        let owner = "\(self.owner)/\(UUID().uuidString.prefix(8).lowercased())"
        let expires = now.addingTimeInterval(TimeInterval(leaseSeconds))
        // A plain read first, so an idle poll never takes SQLite's write lock (or opens a PostgreSQL transaction).
        let due = try await db.sql.raw("""
            SELECT id FROM transcription_jobs
            WHERE (status = 'queued' AND available_at <= \(bind: now))
               OR (status = 'running' AND lease_expires_at < \(bind: now))
            LIMIT 1
            """).first()
        guard due != nil else { return nil }
        return try await db.writeTransaction { db -> ClaimedJob? in
            let candidate: UUID
            if db.engine == .postgres {
                guard let row = try await db.sql.raw("""
                    SELECT id FROM transcription_jobs
                    WHERE (status = 'queued' AND available_at <= \(bind: now))
                       OR (status = 'running' AND lease_expires_at < \(bind: now))
                    ORDER BY available_at, created_at, id
                    LIMIT 1
                    FOR UPDATE SKIP LOCKED
                    """).first() else { return nil }
                candidate = try row.decode(column: "id", as: UUID.self)
            } else {
                guard let row = try await db.sql.raw("""
                    SELECT id FROM transcription_jobs
                    WHERE (status = 'queued' AND available_at <= \(bind: now))
                       OR (status = 'running' AND lease_expires_at < \(bind: now))
                    ORDER BY available_at, created_at, id
                    LIMIT 1
                    """).first() else { return nil }
                candidate = try row.decode(column: "id", as: UUID.self)
            }
            guard let row = try await db.sql.raw("""
                UPDATE transcription_jobs SET status = 'running', lease_owner = \(bind: owner),
                    lease_expires_at = \(bind: expires), attempts = attempts + 1, updated_at = \(bind: now)
                WHERE id = \(bind: candidate) AND ((status = 'queued' AND available_at <= \(bind: now))
                       OR (status = 'running' AND lease_expires_at < \(bind: now)))
                RETURNING id, visit_id, storage_key, attempts
                """).first() else { return nil }
            return ClaimedJob(
                id: try row.decode(column: "id", as: UUID.self),
                visitID: try row.decode(column: "visit_id", as: UUID.self),
                storageKey: try row.decode(column: "storage_key", as: String.self),
                attempts: try row.decode(column: "attempts", as: Int.self), owner: owner)
        }
    }

    /// Extends the lease; false when this process no longer holds the job (it expired and another worker took
    /// it, or the job was re-queued, discarded or deleted meanwhile).
    public func renew(_ job: ClaimedJob, now: Date, on db: any Database) async throws -> Bool {
        let rows = try await db.sql.raw("""
            UPDATE transcription_jobs SET lease_expires_at = \(bind: now.addingTimeInterval(TimeInterval(leaseSeconds))),
                updated_at = \(bind: now)
            WHERE id = \(bind: job.id) AND status = 'running' AND lease_owner = \(bind: job.owner)
                AND attempts = \(bind: job.attempts)
            RETURNING id
            """).all()
        return !rows.isEmpty
    }

    /// A failed attempt that is not the last: back to `queued` after 30 s, then 120 s (configurable).
    public func retryLater(_ job: ClaimedJob, error: String, now: Date, on db: any Database) async throws {
        let delay = retryDelays[min(max(job.attempts - 1, 0), retryDelays.count - 1)]
        try await db.sql.raw("""
            UPDATE transcription_jobs SET status = 'queued', available_at = \(bind: now.addingTimeInterval(TimeInterval(delay))),
                lease_owner = NULL, lease_expires_at = NULL, last_error = \(bind: String(error.prefix(500))),
                updated_at = \(bind: now)
            WHERE id = \(bind: job.id) AND status = 'running' AND lease_owner = \(bind: job.owner)
                AND attempts = \(bind: job.attempts)
            """).run()
    }

    /// Shutdown in the middle of a job: it goes back to `queued` at once and the attempt does not count.
    public func release(_ job: ClaimedJob, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE transcription_jobs SET status = 'queued', available_at = \(bind: now), attempts = attempts - 1,
                lease_owner = NULL, lease_expires_at = NULL, updated_at = \(bind: now)
            WHERE id = \(bind: job.id) AND status = 'running' AND lease_owner = \(bind: job.owner)
                AND attempts = \(bind: job.attempts)
            """).run()
    }
}
