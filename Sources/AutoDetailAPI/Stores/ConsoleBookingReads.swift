import AppCore
import Fluent
import Foundation
import SQLKit

/// The studio console's own reads of `ad_appointments`, each one statement; the API's reads are in
/// `BookingStore.swift`.
extension BookingStore {
    /// The bookings list: the admin filters of §4.7.4 plus a service, ascending by start, at most `limit` rows.
    func consoleList(_ filter: AppointmentFilter, serviceID: UUID?, limit: Int) async throws -> [AppointmentRow] {
        var conditions = filter.conditions(engine: db.engine)
        if let serviceID { conditions.append("a.service_id = \(bind: serviceID)") }
        let whereClause: SQLQueryString = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try await db.sql.raw("""
            SELECT \(unsafeRaw: AppointmentRow.columns) FROM ad_appointments a\(whereClause)
            ORDER BY a.start_at ASC, a.id ASC LIMIT \(bind: limit)
            """).all(decoding: AppointmentRow.self, with: Self.rowDecoding)
    }

    /// Work started or finished since `since` that lacks a before (`defect`) or an after (`work`) photo, newest
    /// first, with which of the two are missing.
    func missingPhotos(since: Date, limit: Int) async throws -> [(AppointmentRow, missingBefore: Bool, missingAfter: Bool)] {
        let rows = try await db.sql.raw("""
            SELECT \(unsafeRaw: AppointmentRow.columns),
                (SELECT COUNT(*) FROM ad_photos p WHERE p.appointment_id = a.id AND p.kind = 'defect') AS before_count,
                (SELECT COUNT(*) FROM ad_photos p WHERE p.appointment_id = a.id AND p.kind = 'work') AS after_count
            FROM ad_appointments a
            WHERE a.status IN ('in_progress', 'done') AND a.start_at >= \(bind: since)
                AND (NOT EXISTS (SELECT 1 FROM ad_photos p WHERE p.appointment_id = a.id AND p.kind = 'defect')
                  OR NOT EXISTS (SELECT 1 FROM ad_photos p WHERE p.appointment_id = a.id AND p.kind = 'work'))
            ORDER BY a.start_at DESC, a.id LIMIT \(bind: limit)
            """).all()
        return try rows.map { row in
            let counts = try row.decode(model: PhotoCounts.self, with: Self.rowDecoding)
            return (try row.decode(model: AppointmentRow.self, with: Self.rowDecoding),
                    counts.beforeCount == 0, counts.afterCount == 0)
        }
    }

    /// Bookings still `new` (not confirmed) that start at or after `from`, soonest first.
    func unconfirmed(from: Date, limit: Int) async throws -> [AppointmentRow] {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: AppointmentRow.columns) FROM ad_appointments a
            WHERE a.status = 'new' AND a.start_at >= \(bind: from)
            ORDER BY a.start_at, a.id LIMIT \(bind: limit)
            """).all(decoding: AppointmentRow.self, with: Self.rowDecoding)
    }

    private struct PhotoCounts: Decodable {
        let beforeCount: Int
        let afterCount: Int
    }
}
