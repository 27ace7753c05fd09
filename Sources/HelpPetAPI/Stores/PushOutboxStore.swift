import AppCore
import Fluent
import Foundation
import SQLKit

/// A notification this process holds the lease of.
package struct ClaimedPush: Sendable, Equatable {
    package var id: UUID
    package var userID: UUID
    package var kind: String
    package var createdAt: Date
    /// Including this attempt.
    package var attempts: Int
    package var owner: String
}

/// An active device of the notification's user.
package struct PushDevice: Sendable, Equatable {
    package var id: UUID
    package var token: String
}

/// Counts per status, for the tests.
package struct PushOutboxCounts: Sendable, Equatable {
    package var queued = 0
    package var sending = 0
    package var sent = 0
    package var failed = 0
    package var skipped = 0

    package init(queued: Int = 0, sending: Int = 0, sent: Int = 0, failed: Int = 0, skipped: Int = 0) {
        self.queued = queued
        self.sending = sending
        self.sent = sent
        self.failed = failed
        self.skipped = skipped
    }
}

/// Every delivery statement on `notification_outbox` and `push_deliveries` (M0129), the shape of `MailOutboxStore`:
/// claim with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL, a conditional update inside `BEGIN IMMEDIATE` on
/// SQLite), mark sent, back off, dead-letter; plus the per-device record of what APNs accepted.
package struct PushOutboxStore: Sendable {
    package let db: any Database

    package init(db: any Database) { self.db = db }

    /// Claims the oldest due notification: `queued` and due, or `sending` with an expired lease (its worker died).
    package func claim(owner processOwner: String, leaseSeconds: Int, now: Date) async throws -> ClaimedPush? {
        let owner = "\(processOwner)/\(UUID().uuidString.prefix(8).lowercased())"
        let lease = OutboxLease(
            table: "notification_outbox",
            due: "status = 'queued' AND (available_at IS NULL OR available_at <= \(bind: now))",
            order: "created_at, id", returning: "id, user_id, kind, created_at, attempts")
        let expires = now.addingTimeInterval(TimeInterval(leaseSeconds))
        guard let claimed = try await lease.claim(owner: owner, expires: expires, now: now, on: db) else { return nil }
        return ClaimedPush(
            id: try claimed.decode(column: "id", as: UUID.self),
            userID: try claimed.decode(column: "user_id", as: UUID.self),
            kind: try claimed.decode(column: "kind", as: String.self),
            createdAt: try claimed.decode(column: "created_at", as: Date.self),
            attempts: try claimed.decode(column: "attempts", as: Int.self), owner: owner)
    }

    /// The payload's string values (the keys the app's handler reads), through the model so both engines' JSON
    /// columns decode alike.
    package func payload(of push: ClaimedPush) async throws -> [String: String] {
        guard let entry = try await NotificationOutboxEntry.find(push.id, on: db) else { return [:] }
        var values: [String: String] = [:]
        for (key, value) in entry.payload {
            if case .string(let text) = value { values[key] = text }
        }
        return values
    }

    /// The user's active devices this notification has not reached yet.
    package func pendingDevices(of push: ClaimedPush) async throws -> [PushDevice] {
        try await db.sql.raw("""
            SELECT id, device_token FROM device_tokens
            WHERE user_id = \(bind: push.userID) AND is_active = \(bind: true) AND device_type = 'ios'
              AND id NOT IN (SELECT device_token_id FROM push_deliveries WHERE notification_id = \(bind: push.id))
            ORDER BY created_at, id
            """).all().map {
            PushDevice(id: try $0.decode(column: "id", as: UUID.self), token: try $0.decode(column: "device_token", as: String.self))
        }
    }

    /// APNs accepted the notification for this device; `apns-id` is kept as the record.
    package func recordDelivery(of push: ClaimedPush, to device: PushDevice, apnsID: String?, now: Date) async throws {
        try await db.sql.raw("""
            INSERT INTO push_deliveries (id, notification_id, device_token_id, apns_id, sent_at)
            VALUES (\(bind: UUID()), \(bind: push.id), \(bind: device.id), \(bind: apnsID), \(bind: now))
            ON CONFLICT DO NOTHING
            """).run()
    }

    /// APNs said the token is no longer valid; only that token (a device that registered another one meanwhile keeps it).
    package func deactivate(_ device: PushDevice, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE device_tokens SET is_active = \(bind: false), updated_at = \(bind: now)
            WHERE id = \(bind: device.id) AND device_token = \(bind: device.token)
            """).run()
    }

    /// Done: every device reached (or none left to reach).
    package func markSent(_ push: ClaimedPush, now: Date) async throws {
        try await finish(push, status: "sent", error: nil, now: now)
    }

    /// No active device: nothing to send, nothing failed.
    package func markSkipped(_ push: ClaimedPush, reason: String, now: Date) async throws {
        try await finish(push, status: "skipped", error: reason, now: now)
    }

    /// Dead letter: a permanent failure, or the last allowed attempt failed. The reason is kept.
    package func markFailed(_ push: ClaimedPush, error: String, now: Date) async throws {
        try await finish(push, status: "failed", error: error, now: now)
    }

    private func finish(_ push: ClaimedPush, status: String, error: String?, now: Date) async throws {
        let sentAt: Date? = status == "sent" ? now : nil
        try await db.sql.raw("""
            UPDATE notification_outbox SET status = \(bind: status), sent_at = \(bind: sentAt), lease_owner = NULL,
                lease_expires_at = NULL, last_error = \(bind: error.map { String($0.prefix(1000)) }), updated_at = \(bind: now)
            WHERE id = \(bind: push.id) AND status = 'sending' AND lease_owner = \(bind: push.owner)
            """).run()
    }

    /// A transient failure: back to `queued`, due after `delay`.
    package func retryLater(_ push: ClaimedPush, error: String, delay: TimeInterval, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE notification_outbox SET status = 'queued', available_at = \(bind: now.addingTimeInterval(delay)),
                lease_owner = NULL, lease_expires_at = NULL, last_error = \(bind: String(error.prefix(1000))),
                updated_at = \(bind: now)
            WHERE id = \(bind: push.id) AND status = 'sending' AND lease_owner = \(bind: push.owner)
            """).run()
    }

    package func counts() async throws -> PushOutboxCounts {
        var counts = PushOutboxCounts()
        for row in try await db.sql.raw("SELECT status, COUNT(*) AS n FROM notification_outbox GROUP BY status").all() {
            let n = try row.decode(column: "n", as: Int.self)
            switch try row.decode(column: "status", as: String.self) {
            case "queued": counts.queued = n
            case "sending": counts.sending = n
            case "sent": counts.sent = n
            case "failed": counts.failed = n
            case "skipped": counts.skipped = n
            default: break
            }
        }
        return counts
    }
}
