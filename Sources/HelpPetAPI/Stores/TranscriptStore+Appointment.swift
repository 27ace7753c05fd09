import AppCore
import Fluent
import Foundation

extension TranscriptStore {
    /// `GET /visit-transcripts/appointments/{id}/visits`: the total and one page of the appointment's visits (one pet's
    /// when `petID` is given) in the lists' order (`visit_date`, `created_at` descending, then id). Pending
    /// reservations are left out unless `includePending`. The caller's sight of the appointment is checked before:
    /// an appointment's visits all belong to its practice, so seeing the appointment is seeing its visits.
    func listForAppointment(
        _ appointmentID: UUID, petID: UUID?, includePending: Bool, page: Pagination
    ) async throws -> (visits: [Visit], total: Int) {
        let builder = Visit.query(on: db).filter(\.$appointmentID == appointmentID)
        if let petID { builder.filter(\.$petID == petID) }
        if !includePending { builder.filter(VisitFilters.notPending(on: db)) }
        let total = try await builder.count()
        let visits = try await builder.sort(\.$visitDate, .descending).sort(\.$createdAt, .descending).sort(\.$id)
            .range(page.range).all()
        return (visits, total)
    }
}
