import Fluent
import Foundation
import SQLKit

/// Leases of single-instance background tasks (`task_leases`): a run proceeds only while its process holds the
/// row. Claimed in a short transaction under `pg_try_advisory_xact_lock` on PostgreSQL and `BEGIN IMMEDIATE`
/// on SQLite, so two processes never both believe they hold it.
public enum TaskLease {
    public static func claim(
        _ name: String, owner: String, duration: TimeInterval, now: Date, on db: any Database
    ) async throws -> Bool {
        try await db.writeTransaction { db in
            if db.engine == .postgres {
                let row = try await db.sql.raw(
                    "SELECT pg_try_advisory_xact_lock(hashtext(\(bind: "task_lease:" + name))) AS locked").first()
                guard try row?.decode(column: "locked", as: Bool.self) == true else { return false }
            }
            let rows = try await db.sql.raw("""
                INSERT INTO task_leases (name, owner, expires_at) VALUES (\(bind: name), \(bind: owner),
                    \(bind: now.addingTimeInterval(duration)))
                ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
                WHERE task_leases.expires_at < \(bind: now) OR task_leases.owner = \(bind: owner)
                RETURNING name
                """).all()
            return !rows.isEmpty
        }
    }
}

extension TaskLease {
    /// Ends a lease early (at the end of a run), so a process that restarts after a crash of another one does not
    /// wait for the dead owner's lease to expire unless that owner died in the middle of a run.
    public static func release(_ name: String, owner: String, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE task_leases SET expires_at = \(bind: now) WHERE name = \(bind: name) AND owner = \(bind: owner)
            """).run()
    }
}

extension TaskLease {
    /// Thrown out of `whileHolding` when a renewal finds the lease taken by another process (this one stalled past
    /// its expiry); the body is cancelled so two runs never overlap for longer than one renewal interval.
    public struct Lost: Error, Sendable {}

    /// Extends a lease this process still holds; false when it expired and another process claimed it.
    public static func renew(
        _ name: String, owner: String, duration: TimeInterval, now: Date, on db: any Database
    ) async throws -> Bool {
        let rows = try await db.sql.raw("""
            UPDATE task_leases SET expires_at = \(bind: now.addingTimeInterval(duration))
            WHERE name = \(bind: name) AND owner = \(bind: owner)
            RETURNING name
            """).all()
        return !rows.isEmpty
    }

    /// Runs `body` under the lease, renewing it every third of `duration` while the body runs and releasing it at
    /// the end; nil when another process holds it. A short `duration` then bounds how long a crashed holder blocks
    /// the others, however long a healthy run takes.
    public static func whileHolding<T: Sendable>(
        _ name: String, owner: String, duration: TimeInterval, now: @escaping @Sendable () -> Date,
        on db: any Database, body: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        guard try await claim(name, owner: owner, duration: duration, now: now(), on: db) else { return nil }
        do {
            let result = try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    while true {
                        try await Task.sleep(for: .seconds(duration / 3))
                        guard try await renew(name, owner: owner, duration: duration, now: now(), on: db) else {
                            throw Lost()
                        }
                    }
                }
                defer { group.cancelAll() }
                // The renewer only ever ends by throwing, so the first value is the body's.
                return try await group.next()!
            }
            try await release(name, owner: owner, now: now(), on: db)
            return result
        } catch let error as Lost {
            throw error
        } catch {
            try? await release(name, owner: owner, now: now(), on: db)
            throw error
        }
    }
}

/// A unique name for this process, used as lease and job owner.
public enum ProcessIdentity {
    public static let current: String = {
        let host = ProcessInfo.processInfo.hostName
        return "\(host):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8).lowercased())"
    }()
}
