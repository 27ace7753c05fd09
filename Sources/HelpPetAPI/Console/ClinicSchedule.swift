import AppCore
import Fluent
import Foundation
import Vapor

/// A pet on an appointment card, with where its recording is.
package struct SchedulePet: Sendable {
    package let id: UUID
    package let name: String
    package let species: String
    package let visitID: UUID?
    /// `none`, `uploading`, `processing`, `transcribed`, `failed` or `notes` (a visit written by hand).
    package let recordingState: String
}

package struct ScheduleAppointment: Sendable {
    package let id: UUID
    package let start: Date
    package let durationMinutes: Int
    package let status: String
    package let title: String
    package let type: String
    package let ownerID: UUID
    package let ownerName: String
    package let vetID: UUID?
    package let vetName: String?
    package let pets: [SchedulePet]
}

package struct ScheduleVet: Sendable {
    package let id: UUID
    package let name: String
}

package struct SchedulePractice: Sendable {
    package let id: UUID
    package let name: String
    package let timezone: TimeZone
}

/// What the day board and the week calendar show: the practice's appointments in a window of local days.
package struct ScheduleWindow: Sendable {
    package let practice: SchedulePractice
    /// Every practice the caller may switch to (an ADMIN: all; staff: their own).
    package let practices: [SchedulePractice]
    package let firstDay: CalendarDay
    package let days: Int
    package let appointments: [ScheduleAppointment]
    package let vets: [ScheduleVet]
}

/// The schedule reads of the clinic console, scoped like the API: a vet sees their practice, an ADMIN any practice.
package enum ClinicSchedule {
    /// `practiceID`: the ADMIN's choice (ignored for staff); `day`: nil means today in the practice's zone.
    /// `withAppointments: false` reads only the practices and the day (a page whose board is already rendered).
    package static func window(
        request: Request, practiceID requested: UUID?, day requestedDay: CalendarDay?, days: Int,
        withAppointments: Bool = true
    ) async throws -> ScheduleWindow {
        let caller = try request.caller
        try caller.requireStaff()
        // Staff see their own practice only, so only an ADMIN's page reads the whole list (to switch between them).
        var practiceRows: [BoardStore.PracticeRow] = []
        if caller.isAdmin {
            practiceRows = try await BoardStore(db: request.db).practices()
        } else if let own = caller.practiceID, let practice = try await BoardStore(db: request.db).practice(own) {
            practiceRows = [practice]
        }
        let allowed = practiceRows.map {
            SchedulePractice(id: $0.id, name: $0.name, timezone: TimeZone.stored($0.timezone))
        }
        let practice: SchedulePractice
        if let requested, let chosen = allowed.first(where: { $0.id == requested }) {
            practice = chosen
        } else if let own = allowed.first(where: { $0.id == caller.practiceID }) ?? allowed.first {
            practice = own
        } else {
            throw APIError.notFound("No practice to show. An administrator has to create one first.")
        }
        let first = requestedDay ?? LocalDay.day(containing: request.now, in: practice.timezone)
        let window = range(of: first, days: days, in: practice.timezone)
        let rows = withAppointments
            ? try await BoardStore(db: request.db).appointments(practice: practice.id, window: window) : []
        let vets = withAppointments ? try await BoardStore(db: request.db).vets(practice: practice.id) : []
        return ScheduleWindow(
            practice: practice, practices: allowed, firstDay: first, days: days, appointments: group(rows),
            vets: vets.map { ScheduleVet(id: $0.id, name: $0.fullName) })
    }

    /// A stamp that changes whenever anything the board of these days shows changes (BoardStore.version); nil when
    /// the caller has no practice to show.
    package static func version(
        request: Request, practiceID requested: UUID?, day requestedDay: CalendarDay?, days: Int
    ) async throws -> String? {
        let caller = try request.caller
        try caller.requireStaff()
        let practiceID = caller.isAdmin ? (requested ?? caller.practiceID) : caller.practiceID
        guard let practiceID, let zone = try await request.readPathCaches.zone(of: practiceID, on: request.db)
        else { return nil }
        let first = requestedDay ?? LocalDay.day(containing: request.now, in: zone.zone)
        let board = "\(practiceID.lowercased)|\(first)|\(days)|"
        let (db, now) = (request.db, request.now)
        let stamp = try await request.readPathCaches.boardStamps.value(for: board) {
            try await BoardStore(db: db).version(
                practice: practiceID, window: range(of: first, days: days, in: zone.zone), now: now)
        }
        return board + (stamp ?? "")
    }

    static func range(of first: CalendarDay, days: Int, in zone: TimeZone) -> Range<Date> {
        LocalDay.start(of: first, in: zone)..<LocalDay.start(of: first.adding(days: days), in: zone)
    }

    static func group(_ rows: [BoardStore.Row]) -> [ScheduleAppointment] {
        var order: [UUID] = []
        var firstRow: [UUID: BoardStore.Row] = [:]
        var pets: [UUID: [SchedulePet]] = [:]
        for row in rows {
            if firstRow[row.id] == nil {
                order.append(row.id)
                firstRow[row.id] = row
            }
            if let petID = row.petID, let name = row.petName {
                pets[row.id, default: []].append(SchedulePet(
                    id: petID, name: name, species: row.petSpecies ?? "", visitID: row.visitID,
                    recordingState: recordingState(row)))
            }
        }
        return order.map { id in
            let row = firstRow[id]!
            return ScheduleAppointment(
                id: id, start: row.appointmentDate, durationMinutes: row.durationMinutes, status: row.status,
                title: row.title, type: row.appointmentType, ownerID: row.ownerID,
                ownerName: "\(row.ownerFirstName) \(row.ownerLastName)", vetID: row.assignedVetUserID,
                vetName: row.vetName, pets: pets[id] ?? [])
        }
    }

    static func recordingState(_ row: BoardStore.Row) -> String {
        guard row.visitID != nil else { return "none" }
        if row.visitSource == VisitSource.manual.rawValue { return "notes" }
        switch VisitState(rawValue: row.visitState ?? "") {
        case .new?: return "uploading"
        case .processing?: return "processing"
        case .processed?: return "transcribed"
        case .failed?: return "failed"
        case nil: return "none"
        }
    }
}
