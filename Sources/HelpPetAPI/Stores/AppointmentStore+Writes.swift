import AppCore
import Fluent
import Foundation

/// The appointment lists and writes of `/appointments`.
extension AppointmentStore {
    /// The appointment's pets, in their order.
    func petIDs(of id: UUID) async throws -> [UUID] {
        try await AppointmentPet.query(on: db).filter(\.$id.$appointmentID == id).sort(\.$position).all()
            .map(\.id!.petID)
    }

    /// A new appointment and its pets in the order given. Call it inside the transaction that books it.
    func insert(_ appointment: Appointment, pets petIDs: [UUID]) async throws {
        try await appointment.create(on: db)
        for (position, petID) in petIDs.enumerated() {
            try await addPet(petID, at: position, to: appointment.id!)
        }
    }

    func addPet(_ petID: UUID, at position: Int, to id: UUID) async throws {
        let link = AppointmentPet()
        link.id = .init(appointmentID: id, petID: petID)
        link.position = position
        try await link.create(on: db)
    }

    /// Saves the changed fields of an appointment read as a tracked model.
    func save(_ appointment: Appointment) async throws {
        try await appointment.update(on: db)
    }

    /// One page of an owner's appointments, newest first (then id), with the total; `practiceID` limits them to
    /// one practice (a member sees only their own practice's).
    func page(ofOwner ownerID: UUID, inPractice practiceID: UUID?, range: Range<Int>) async throws
        -> (appointments: [Appointment], total: Int)
    {
        let builder = Appointment.query(on: db).filter(\.$petOwnerID == ownerID)
        if let practiceID { builder.filter(\.$practiceID == practiceID) }
        let total = try await builder.count()
        let items = try await builder.sort(\.$appointmentDate, .descending).sort(\.$id).range(range).all()
        return (items, total)
    }

    /// One page of a practice's appointments by start (then id), with the total; `startingIn` limits them to the
    /// appointments that start in that window (one local day).
    func page(ofPractice practiceID: UUID, startingIn window: Range<Date>?, range: Range<Int>) async throws
        -> (appointments: [Appointment], total: Int)
    {
        let builder = Appointment.query(on: db).filter(\.$practiceID == practiceID)
        if let window {
            builder.filter(\.$appointmentDate >= window.lowerBound).filter(\.$appointmentDate < window.upperBound)
        }
        let total = try await builder.count()
        let items = try await builder.sort(\.$appointmentDate).sort(\.$id).range(range).all()
        return (items, total)
    }
}
