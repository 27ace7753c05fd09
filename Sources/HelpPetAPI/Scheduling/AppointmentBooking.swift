import AppCore
import Fluent
import Foundation

/// Booking and changing appointments (`POST`, `PUT` and `DELETE /appointments`): the pets and the vet are checked,
/// the write and what it notifies (the owner's email, the vet's push) commit together, and a change is judged
/// against the row as it is once locked.
struct AppointmentBooking: Sendable {
    let db: any Database
    /// `MAIL_FROM`.
    let mailFrom: String
    let metrics: MetricsRegistry?

    /// Every pet must exist and belong to the owner; pets in `mustBeActive` must be active. Returns the pets.
    func checkPets(_ ids: [UUID], mustBeActive: Set<UUID>, ownerID: UUID) async throws -> [Pet] {
        let pets = try await PetStore(db: db).pets(ids)
        guard pets.count == ids.count, pets.allSatisfy({ $0.ownerID == ownerID }) else {
            throw APIError.badRequest("One or more pets not found or don't belong to this owner")
        }
        let byID = Dictionary(uniqueKeysWithValues: pets.map { ($0.id!, $0) })
        for id in ids where mustBeActive.contains(id) && byID[id]?.isActive == false {
            throw APIError.badRequest("Pet \(id.lowercased) is inactive")
        }
        return pets
    }

    func checkVet(_ vetID: UUID, practiceID: UUID) async throws {
        let vet = try await UserStore(db: db).find(vetID)
        guard let vet, vet.isActive, vet.role.isMember, vet.practiceID == practiceID else {
            throw APIError.badRequest(
                "assigned_vet_user_id must reference an active VET or VET_STAFF user of the practice")
        }
    }

    /// Stores a new appointment with its pets (in the order given) and, in the same transaction, the owner's
    /// confirmation email and, when booked for another vet, a push to that vet's devices (docs/notifications.md).
    func book(
        _ appointment: Appointment, pets: [Pet], ownerName: String, bookedBy bookerID: UUID, now: Date
    ) async throws {
        let (mailFrom, metrics) = (mailFrom, metrics)
        try await db.writeTransaction { tx in
            try await AppointmentStore(db: tx).insert(appointment, pets: pets.map { $0.id! })
            if let vetID = appointment.assignedVetUserID, vetID != bookerID {
                try await NotificationOutboxStore(db: tx).appointmentBooked(
                    appointment, for: vetID, ownerName: ownerName, petNames: pets.map(\.name), now: now,
                    metrics: metrics)
            }
            try await AppointmentEmails(db: tx, mailFrom: mailFrom, metrics: metrics)
                .enqueue(.appointmentConfirmation, appointment: appointment, now: now)
        }
    }

    /// Applies the changes atomically against the row as it is once locked, so of two concurrent status changes
    /// the second is judged against the first one's result. `profile` decides the legacy app's extra transitions.
    /// A cancellation or a new time enqueues the owner's email in the same transaction.
    func apply(_ changes: AppointmentUpdateRequest, to current: Appointment, profile: ClientProfile, now: Date)
        async throws -> Appointment
    {
        let id = current.id!
        let currentPetIDs = try await AppointmentStore(db: db).petIDs(of: id)
        if let petIDs = changes.petIDs {
            let added = Set(petIDs).subtracting(currentPetIDs)
            _ = try await checkPets(petIDs, mustBeActive: added, ownerID: current.petOwnerID)
        }
        if case .value(let vetID) = changes.vet { try await checkVet(vetID, practiceID: current.practiceID) }

        let (mailFrom, metrics) = (mailFrom, metrics)
        return try await db.writeTransaction { tx in
            let appointments = AppointmentStore(db: tx)
            try await appointments.lock(id, .forUpdate)
            guard let appointment = try await appointments.model(id) else { throw APIError.appointmentNotFound }
            let stored = appointment.status
            if let target = changes.status,
                AppointmentStatusTransitions.outcome(from: stored, to: target, profile: profile) == .refused
            {
                throw APIError.conflict("Cannot change appointment status from \(stored.rawValue) to \(target.rawValue)")
            }
            let storedPetIDs = try await appointments.petIDs(of: id)
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
                try await Self.replacePets(of: id, stored: storedPetIDs, with: petIDs, on: tx)
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
                try await appointments.save(appointment)
            }
            // The vet's reminder follows the start: a moved appointment's old one, or a closed one's, is not sent.
            if appointment.appointmentDate != previousStart || appointment.status != stored {
                let open = appointment.status == .scheduled || appointment.status == .confirmed
                try await PushOutboxStore(db: tx).withdrawStaleReminders(
                    ofAppointment: appointment.id!, currentStart: open ? appointment.appointmentDate : nil, now: now)
            }
            let emails = AppointmentEmails(db: tx, mailFrom: mailFrom, metrics: metrics)
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
    /// request. Positions are parked at negative values first so `(appointment_id, position)` never collides.
    private static func replacePets(of id: UUID, stored: [UUID], with petIDs: [UUID], on db: any Database)
        async throws
    {
        let appointments = AppointmentStore(db: db)
        let removed = stored.filter { !petIDs.contains($0) }
        if !removed.isEmpty {
            let visits = try await VisitStore(db: db).visits(ofAppointment: id, pets: removed)
            if let recorded = visits.first(where: { !$0.isPending }) {
                throw APIError.conflict(
                    "Cannot remove pet \(recorded.petID.lowercased) from the appointment: a recording exists for it")
            }
            try await VisitStore(db: db).deleteVisits(visits)
            try await appointments.deletePetLinks(of: id, pets: removed)
        }
        try await appointments.parkPetPositions(of: id)
        for (position, petID) in petIDs.enumerated() {
            if stored.contains(petID) {
                try await appointments.setPetPosition(position, pet: petID, of: id)
            } else {
                try await appointments.addPet(petID, at: position, to: id)
            }
        }
    }
}
