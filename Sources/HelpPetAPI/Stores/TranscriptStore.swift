import AppCore
import Fluent
import Foundation
import PostgresNIO
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
        let prepared = TranscriptsOfPet(
            petID: petID, reach: BoundReach(caller), state: state?.rawValue, includePending: includePending,
            limit: limit, offset: offset)
        if let rows = try await db.prepared(prepared, decoding: VisitPageRow.self) {
            return rows.first.map { ($0.total, rows.compactMap(\.visit)) }
        }
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

    /// `listForPet` prepared on PostgreSQL: the state filter and the pending rule are bound values.
    private struct TranscriptsOfPet: PageOfPet {
        private static let filter = """
            pet_id = $1 AND \(BoundReach.practiceRows("visits", kind: 2)) AND ($4::text IS NULL OR state = $4)
                AND ($5 OR \(VisitFilters.notPendingSQL(engine: .postgres, table: "visits")))
            """
        static let sql = """
            SELECT counts.total, \(TranscriptStore.visitColumns)
            FROM pets p
            CROSS JOIN (SELECT COUNT(*) AS total FROM visits WHERE \(filter)) counts
            LEFT JOIN (SELECT * FROM visits WHERE \(filter)
                ORDER BY visit_date DESC, created_at DESC, id LIMIT $6 OFFSET $7) v ON 1 = 1
            WHERE p.id = $1 AND \(BoundReach.pet("p", kind: 2))
            ORDER BY v.visit_date DESC, v.created_at DESC, v.id
            """
        static let bindingDataTypes: [PostgresDataType] = [.uuid] + BoundReach.dataTypes + [.text, .bool, .int8, .int8]
        let petID: UUID
        let reach: BoundReach
        let state: String?
        let includePending: Bool
        let limit: Int
        let offset: Int

        func bindFilters(into bindings: inout PostgresBindings) {
            if let state { bindings.append(state) } else { bindings.appendNull() }
            bindings.append(includePending)
        }
    }
}
