import AppCore
import Fluent
import Foundation
import SQLKit

/// The SQL of visit transcripts' reads (the visits aggregate seen as transcripts).
struct TranscriptStore: Sendable {
    let db: any Database

    static let visitColumns = """
        v.id, v.pet_id, v.practice_id, v.appointment_id, v.source, v.state, v.visit_date, v.full_text, v.summary,
        v.audio_transcript_url, v.storage_key, v.metadata, v.created_by, v.created_at, v.updated_at
        """

    /// `GET /visit-transcripts/pet/{id}` in one statement: the pet's visibility (CallerScope), the total and one
    /// page in the lists' order (`visit_date`, `created_at` descending, then id). Nil when the pet is not visible.
    /// Members see only their practice's visits of a pet they can see; owners all visits of their pets. Pending
    /// reservations are left out unless `includePending`.
    func listForPet(
        _ petID: UUID, for caller: Caller, state: VisitState?, includePending: Bool, limit: Int, offset: Int
    ) async throws -> (total: Int, visits: [VisitRow])? {
        var filter: SQLQueryString = "pet_id = \(bind: petID) AND \(CallerScope.practiceRows("visits", caller: caller))"
        if let state { filter += " AND state = \(bind: state.rawValue)" }
        if !includePending { filter += " AND \(unsafeRaw: VisitFilters.notPendingSQL(on: db, table: "visits"))" }
        let rows = try await db.sql.raw("""
            SELECT counts.total, \(unsafeRaw: Self.visitColumns)
            FROM pets p
            CROSS JOIN (SELECT COUNT(*) AS total FROM visits WHERE \(filter)) counts
            LEFT JOIN (SELECT * FROM visits WHERE \(filter)
                ORDER BY visit_date DESC, created_at DESC, id LIMIT \(bind: limit) OFFSET \(bind: offset)) v ON 1 = 1
            WHERE p.id = \(bind: petID) AND \(CallerScope.pet("p", caller: caller))
            ORDER BY v.visit_date DESC, v.created_at DESC, v.id
            """).all(decoding: VisitPageRow.self)
        guard let first = rows.first else { return nil }
        return (first.total, rows.compactMap(\.visit))
    }
}
