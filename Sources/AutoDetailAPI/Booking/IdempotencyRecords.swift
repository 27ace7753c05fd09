import AppCore
import Fluent
import Foundation
import SQLKit

/// Idempotency records (contract §3.8): rows older than 24 hours are ignored (and purged by the cleanup job).
enum IdempotencyRecords {
    /// The appointment of an earlier request with this key: the same body → replay; another body → 409.
    static func find(_ claim: IdempotencyClaim, now: Date, on db: any Database) async throws -> UUID? {
        let row = try await db.sql.raw("""
            SELECT request_hash, appointment_id FROM ad_idempotency_records
            WHERE credential_id = \(bind: claim.credentialID) AND idempotency_key = \(bind: claim.key)
                AND created_at > \(bind: now.addingTimeInterval(-IdempotencyClaim.lifetime))
            """).first(decoding: EarlierRequest.self, keyDecodingStrategy: .convertFromSnakeCase)
        guard let row else { return nil }
        guard row.requestHash == claim.requestHash else {
            throw APIError.conflict("Idempotency-Key was already used with a different request")
        }
        return row.appointmentId
    }

    /// Inside the booking transaction; an expired row with the same key is replaced (one upsert on the primary key
    /// `(credential_id, idempotency_key)`).
    static func save(_ claim: IdempotencyClaim, appointmentID: UUID, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            INSERT INTO ad_idempotency_records (credential_id, idempotency_key, request_hash, appointment_id, created_at)
            VALUES (\(bind: claim.credentialID), \(bind: claim.key), \(bind: claim.requestHash), \(bind: appointmentID),
                \(bind: now))
            ON CONFLICT (credential_id, idempotency_key) DO UPDATE SET request_hash = excluded.request_hash,
                appointment_id = excluded.appointment_id, created_at = excluded.created_at
            """).run()
    }

    private struct EarlierRequest: Decodable {
        let requestHash: String
        let appointmentId: UUID
    }

    static func purge(olderThan cutoff: Date, on db: any Database) async throws {
        try await db.sql.raw("DELETE FROM ad_idempotency_records WHERE created_at <= \(bind: cutoff)").run()
    }
}
