import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// `PUT /appointments/{id}` (partial update, status transitions, pet diff) and `DELETE` (= cancel).
extension AppointmentsController {
    static let updatableKeys = [
        "assigned_vet_user_id", "appointment_date", "duration_minutes", "appointment_type", "status", "title",
        "description", "notes", "pet_ids",
    ]

    /// The validated body of an update; `nil` / `.absent` = unchanged.
    struct Changes: Sendable {
        var vet: FieldPatch<UUID> = .absent
        var date: Date?
        var duration: Int?
        var type: AppointmentType?
        var status: AppointmentStatus?
        var title: String?
        var description: FieldPatch<String> = .absent
        var notes: FieldPatch<String> = .absent
        var petIDs: [UUID]?

        init() {}

        init(_ fields: FieldReader) throws {
            vet = try fields.optionalUUID("assigned_vet_user_id", kind: .user)
            date = try fields.optionalDateTime("appointment_date")
            duration = try fields.optionalInteger("duration_minutes", range: 5...480).valueIfPresent.map { Int($0) }
            type = try fields.optionalEnum("appointment_type", AppointmentType.self).valueIfPresent
            status = try fields.optionalEnum("status", AppointmentStatus.self).valueIfPresent
            title = try fields.optionalString("title", min: 1, max: 200, nullable: false).valueIfPresent
            description = try fields.optionalString("description", trim: false, max: 2000)
            notes = try fields.optionalString("notes", trim: false, max: 5000)
            petIDs = try fields.uuidArray("pet_ids", kind: .pet, maxCount: 20)
        }
    }

    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("appointment_id", .appointment)
        let fields = try req.jsonObject()
        let changes = try Changes(fields)
        guard fields.containsAny(of: Self.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        let current = try await req.visibility.appointment(id, for: caller)
        try fields.requireUnchanged("id", current: id.lowercased)
        try fields.requireUnchanged("practice_id", current: current.practiceID.lowercased)
        try fields.requireUnchanged("pet_owner_id", current: current.petOwnerID.lowercased)
        let updated = try await Self.apply(
            changes, to: current, profile: ClientProfile(headers: req.headers), now: req.now,
            mailFrom: req.application.core.config.mail.from, metrics: req.application.core.metrics, on: req.db)
        return try JSONResponse.make(try await req.appointments.response(for: updated))
    }

    @Sendable func cancel(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("appointment_id", .appointment)
        let current = try await req.visibility.appointment(id, for: caller)
        var changes = Changes()
        changes.status = .cancelled
        let updated = try await Self.apply(
            changes, to: current, profile: .standard, now: req.now, mailFrom: req.application.core.config.mail.from,
            metrics: req.application.core.metrics, on: req.db)
        return try JSONResponse.make(try await req.appointments.response(for: updated))
    }

    /// Applies the changes atomically against the row as it is once locked, so of two concurrent status changes
    /// the second is judged against the first one's result. `profile` decides the legacy app's extra transitions.
    /// A cancellation or a new time enqueues the owner's email in the same transaction (`mailFrom` is `MAIL_FROM`).
    static func apply(
        _ changes: Changes, to current: Appointment, profile: ClientProfile, now: Date, mailFrom: String,
        metrics: MetricsRegistry? = nil, on db: any Database
    ) async throws
        -> Appointment
    {
        let id = current.id!
        let currentPetIDs = try await AppointmentPet.query(on: db).filter(\.$id.$appointmentID == id).all()
            .map(\.id!.petID)
        if let petIDs = changes.petIDs {
            let added = Set(petIDs).subtracting(currentPetIDs)
            try await checkPets(petIDs, mustBeActive: added, ownerID: current.petOwnerID, on: db)
        }
        if case .value(let vetID) = changes.vet { try await checkVet(vetID, practiceID: current.practiceID, on: db) }

        return try await db.writeTransaction { db in
            try await AppointmentStore(db: db).lock(id, .forUpdate)
            guard let appointment = try await Appointment.find(id, on: db) else {
                throw APIError.appointmentNotFound
            }
            let stored = appointment.status
            if let target = changes.status,
                AppointmentStatusTransitions.outcome(from: stored, to: target, profile: profile) == .refused
            {
                throw APIError.conflict("Cannot change appointment status from \(stored.rawValue) to \(target.rawValue)")
            }
            let links = try await AppointmentPet.query(on: db).filter(\.$id.$appointmentID == id)
                .sort(\.$position).all()
            let storedPetIDs = links.map(\.id!.petID)
            // Compared as a set: the app sends the pets of a Set in any order, and a reorder is not a change.
            let petsChange = changes.petIDs.map { Set($0) != Set(storedPetIDs) } ?? false

            let structuralChange =
                petsChange
                || (changes.status.map { $0 != stored } ?? false)
                || (changes.vet.isAbsent ? false : changes.vet.applied(to: appointment.assignedVetUserID) != appointment.assignedVetUserID)
                || (changes.date.map { $0 != appointment.appointmentDate } ?? false)
                || (changes.duration.map { $0 != appointment.durationMinutes } ?? false)
                || (changes.type.map { $0.rawValue != appointment.appointmentType } ?? false)
            if AppointmentStatusTransitions.isClosed(stored) && structuralChange {
                throw APIError.conflict("Cannot modify a \(stored.rawValue) appointment")
            }
            if petsChange, let petIDs = changes.petIDs {
                try await replacePets(of: id, stored: storedPetIDs, with: petIDs, on: db)
            }

            let previousStart = appointment.appointmentDate
            let previousDuration = appointment.durationMinutes
            appointment.setIfChanged(\.assignedVetUserID, changes.vet.applied(to: appointment.assignedVetUserID))
            if let date = changes.date { appointment.setIfChanged(\.appointmentDate, date) }
            if let duration = changes.duration { appointment.setIfChanged(\.durationMinutes, duration) }
            if let type = changes.type { appointment.setIfChanged(\.appointmentType, type.rawValue) }
            if let status = changes.status { appointment.setIfChanged(\.statusValue, status.rawValue) }
            if let title = changes.title { appointment.setIfChanged(\.title, title) }
            appointment.setIfChanged(\.description, changes.description.applied(to: appointment.description))
            appointment.setIfChanged(\.notes, changes.notes.applied(to: appointment.notes))
            if appointment.hasChanges || petsChange {
                appointment.updatedAt = now
                try await appointment.update(on: db)
            }
            // The vet's reminder follows the start: a moved appointment's old one, or a closed one's, is not sent.
            if appointment.appointmentDate != previousStart || appointment.status != stored {
                let open = appointment.status == .scheduled || appointment.status == .confirmed
                try await PushOutboxStore(db: db).withdrawStaleReminders(
                    ofAppointment: appointment.id!, currentStart: open ? appointment.appointmentDate : nil, now: now)
            }
            let emails = AppointmentEmails(db: db, mailFrom: mailFrom, metrics: metrics)
            if appointment.status == .cancelled, stored != .cancelled {
                try await emails.enqueue(.appointmentCancelled, appointment: appointment, now: now)
            } else if !AppointmentStatusTransitions.isClosed(appointment.status),
                appointment.appointmentDate != previousStart || appointment.durationMinutes != previousDuration
            {
                try await emails.enqueue(
                    .appointmentRescheduled, appointment: appointment,
                    previousStart: appointment.appointmentDate != previousStart ? previousStart : nil, now: now)
            }
            return appointment
        }
    }

    /// Applies a new pet list as a diff. A removed pet's pending visit goes with it; a real recording blocks the
    /// request. Positions are parked at negative values first so `(appointment_id, position)` (C8) never collides.
    static func replacePets(of id: UUID, stored: [UUID], with petIDs: [UUID], on db: any Database) async throws {
        let removed = stored.filter { !petIDs.contains($0) }
        if !removed.isEmpty {
            let visits = try await VisitStore(db: db).visits(ofAppointment: id, pets: removed)
            if let recorded = visits.first(where: { !$0.isPending }) {
                throw APIError.conflict(
                    "Cannot remove pet \(recorded.petID.lowercased) from the appointment: a recording exists for it")
            }
            try await VisitStore(db: db).deleteVisits(visits)
            try await AppointmentStore(db: db).deletePetLinks(of: id, pets: removed)
        }
        try await AppointmentStore(db: db).parkPetPositions(of: id)
        for (position, petID) in petIDs.enumerated() {
            if stored.contains(petID) {
                try await AppointmentStore(db: db).setPetPosition(position, pet: petID, of: id)
            } else {
                let link = AppointmentPet()
                link.id = .init(appointmentID: id, petID: petID)
                link.position = position
                try await link.create(on: db)
            }
        }
    }
}
