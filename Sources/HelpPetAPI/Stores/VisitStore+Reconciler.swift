import AppCore
import Fluent
import Foundation
import SQLKit

extension VisitStore {
    /// `new` recording visits due for a storage check, never-checked first: a presigned upload whose URL was issued
    /// between `presignedIssuedFrom` and `until`, or a legacy (multipart) reservation that expired before
    /// `reservationExpiredBefore`.
    func reconcileCandidates(
        now: Date, presignedIssuedFrom: Date, until presignedUntil: Date, reservationExpiredBefore: Date, limit: Int
    ) async throws -> [Visit] {
        try await db.sql.raw("""
            SELECT * FROM visits
            WHERE source = 'recording' AND state = 'new' AND storage_key IS NOT NULL
              AND (reconcile_after IS NULL OR reconcile_after <= \(bind: now))
              AND ((upload_method = 'presigned_post'
                    AND upload_url_issued_at BETWEEN \(bind: presignedIssuedFrom) AND \(bind: presignedUntil))
                OR (upload_method = 'multipart'
                    AND (reserved_at IS NULL OR reserved_at < \(bind: reservationExpiredBefore))))
            ORDER BY reconcile_after IS NOT NULL, reconcile_after, id
            LIMIT \(literal: limit)
            """).all().map { try $0.decode(fluentModel: Visit.self) }
    }
}
