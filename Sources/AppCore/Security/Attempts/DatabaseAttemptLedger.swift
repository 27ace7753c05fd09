import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// The ledger shared by every process on one PostgreSQL database (tables of `M0002_CreateAttemptLedger`).
///
/// Each key has a row in `attempt_keys`. A reservation or settlement first upserts the rows of all its keys in one
/// statement, in a fixed order, which row-locks them until commit: two processes reserving the same key run one after
/// the other, and the second sees the first's pending attempt. The attempts themselves are rows of `attempt_events`.
/// Every step touches all keys of the request in one statement, so a login holds its locks for a handful of round
/// trips, whatever the number of limits.
public final class DatabaseAttemptLedger: AttemptLedger {
    /// Old events and idle keys are removed every this many settlements (per process).
    private static let pruneEvery = 500
    private static let retention: TimeInterval = 2 * 86_400
    private let settlements = NIOLockedValueBox(0)

    public init() {}

    public func reserve(_ keys: [AttemptKey], hold: Bool, now: Date, on db: any Database) async throws -> AttemptDecision {
        let keys = Array(Set(keys)).sorted()
        guard !keys.isEmpty else { return .granted(AttemptTicket(id: UUID(), keys: [])) }
        return try await db.transaction { db in
            let sql = db.sql
            let blocks = try await Self.lock(keys, now: now, on: sql)
            var windows = try await Self.windows(of: keys, now: now, on: sql)
            var wait: Int?
            for key in keys {
                windows[key, default: AttemptWindow()].blockedUntil = blocks[key] ?? nil
                if let seconds = windows[key, default: AttemptWindow()].retryAfter(key.rule, now: now) {
                    wait = max(wait ?? 0, seconds)
                }
            }
            if let wait { return .refused(retryAfter: wait) }
            let ticket = AttemptTicket(id: UUID(), keys: keys)
            let rows = keys.map { key in
                SQLQueryString("(\(bind: ticket.id), \(bind: key.rule.name), \(bind: key.value), \(bind: now), \(bind: hold))")
            }
            try await sql.raw("""
                INSERT INTO attempt_events (ticket, rule, attempt_key, at, pending) VALUES \(rows.joined(separator: ", "))
                """).run()
            if !hold { try await Self.applyLockouts(keys, now: now, on: sql) }
            return .granted(ticket)
        }
    }

    public func settle(
        _ ticket: AttemptTicket, counting: [AttemptKey], clearing: [AttemptKey], now: Date, on db: any Database
    ) async throws {
        let keys = Array(Set(ticket.keys + clearing)).sorted()
        guard !keys.isEmpty else { return }
        let counted = ticket.keys.filter { counting.contains($0) }
        try await db.transaction { db in
            let sql = db.sql
            _ = try await Self.lock(keys, now: now, on: sql)
            if !counted.isEmpty {
                try await sql.raw("""
                    UPDATE attempt_events SET pending = FALSE, at = \(bind: now)
                    WHERE ticket = \(bind: ticket.id) AND (rule, attempt_key) IN (\(Self.list(counted)))
                    """).run()
            }
            try await sql.raw("DELETE FROM attempt_events WHERE ticket = \(bind: ticket.id) AND pending = TRUE").run()
            try await Self.applyLockouts(counted, now: now, on: sql)
            if !clearing.isEmpty {
                try await sql.raw("""
                    DELETE FROM attempt_events WHERE (rule, attempt_key) IN (\(Self.list(clearing))) AND pending = FALSE
                    """).run()
                try await sql.raw("""
                    UPDATE attempt_keys SET blocked_until = NULL WHERE (rule, attempt_key) IN (\(Self.list(clearing)))
                    """).run()
            }
        }
        let due = settlements.withLockedValue { count -> Bool in
            count += 1
            return count % Self.pruneEvery == 0
        }
        if due { try await prune(now: now, on: db) }
    }

    /// Removes events past any window and keys idle for the retention time. A key row is only deleted while nobody
    /// uses it: a concurrent reservation refreshes `last_seen` under the row lock, and the DELETE re-checks it.
    func prune(now: Date, on db: any Database) async throws {
        let before = now.addingTimeInterval(-Self.retention)
        try await db.sql.raw("DELETE FROM attempt_events WHERE at < \(bind: before)").run()
        try await db.sql.raw("""
            DELETE FROM attempt_keys
            WHERE last_seen < \(bind: before) AND (blocked_until IS NULL OR blocked_until < \(bind: now))
            """).run()
    }

    /// `(rule, key), …` for an `IN` list.
    private static func list(_ keys: [AttemptKey]) -> SQLQueryString {
        keys.map { SQLQueryString("(\(bind: $0.rule.name), \(bind: $0.value))") }.joined(separator: ", ")
    }

    /// Creates or touches the rows of `keys` (sorted), which locks them until the transaction ends; their blocks.
    private static func lock(_ keys: [AttemptKey], now: Date, on sql: any SQLDatabase) async throws -> [AttemptKey: Date?] {
        let rows = keys.map { SQLQueryString("(\(bind: $0.rule.name), \(bind: $0.value), \(bind: now))") }
        let locked = try await sql.raw("""
            INSERT INTO attempt_keys (rule, attempt_key, last_seen) VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (rule, attempt_key) DO UPDATE SET last_seen = EXCLUDED.last_seen
            RETURNING rule, attempt_key, blocked_until
            """).all()
        var blocks: [AttemptKey: Date?] = [:]
        for row in locked {
            let rule = try row.decode(column: "rule", as: String.self)
            let value = try row.decode(column: "attempt_key", as: String.self)
            if let key = keys.first(where: { $0.rule.name == rule && $0.value == value }) {
                blocks[key] = try row.decode(column: "blocked_until", as: Date?.self)
            }
        }
        return blocks
    }

    /// The live counted and pending attempts of each key (read after the keys are locked).
    private static func windows(
        of keys: [AttemptKey], now: Date, on sql: any SQLDatabase
    ) async throws -> [AttemptKey: AttemptWindow] {
        let longest = keys.map(\.rule.window).max() ?? 0
        let since = now.addingTimeInterval(-max(longest, AttemptWindow.pendingLifetime))
        let rows = try await sql.raw("""
            SELECT rule, attempt_key, at, pending FROM attempt_events
            WHERE (rule, attempt_key) IN (\(list(keys))) AND at > \(bind: since)
            """).all()
        var windows: [AttemptKey: AttemptWindow] = [:]
        for row in rows {
            let rule = try row.decode(column: "rule", as: String.self)
            let value = try row.decode(column: "attempt_key", as: String.self)
            guard let key = keys.first(where: { $0.rule.name == rule && $0.value == value }) else { continue }
            let at = try row.decode(column: "at", as: Date.self)
            if try row.decode(column: "pending", as: Bool.self) {
                if now.timeIntervalSince(at) < AttemptWindow.pendingLifetime { windows[key, default: AttemptWindow()].pending += 1 }
            } else {
                windows[key, default: AttemptWindow()].counted.append(at)
            }
        }
        return windows
    }

    /// Lockout rules whose counted attempts reached the limit block their key and start its count afresh.
    private static func applyLockouts(_ keys: [AttemptKey], now: Date, on sql: any SQLDatabase) async throws {
        let lockoutKeys = keys.filter { $0.rule.lockout != nil }
        guard !lockoutKeys.isEmpty else { return }
        let windows = try await windows(of: lockoutKeys, now: now, on: sql)
        for key in lockoutKeys {
            guard let until = windows[key]?.lockoutReached(key.rule, now: now) else { continue }
            try await sql.raw("""
                UPDATE attempt_keys SET blocked_until = \(bind: until)
                WHERE rule = \(bind: key.rule.name) AND attempt_key = \(bind: key.value)
                """).run()
            try await sql.raw("""
                DELETE FROM attempt_events
                WHERE rule = \(bind: key.rule.name) AND attempt_key = \(bind: key.value) AND pending = FALSE
                """).run()
        }
    }
}
