import AppCore
import Fluent
import Foundation
import SQLKit

/// Status changes as one conditional write: applied only if the row still has the status the decision was based
/// on, so concurrent changes cannot both win.
enum AppointmentStatusChange {
    static func apply(
        _ id: UUID, from: AppointmentStatus, to: AppointmentStatus, now: Date, on db: any Database
    ) async throws -> AppointmentRecord? {
        let rows = try await db.sql.raw("""
            UPDATE ad_appointments SET status = \(bind: to.rawValue), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status = \(bind: from.rawValue)
            RETURNING id
            """).all()
        guard !rows.isEmpty else { return nil }
        return try await AppointmentRecord.find(id, on: db)
    }
}
