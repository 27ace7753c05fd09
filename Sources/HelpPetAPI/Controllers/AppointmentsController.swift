import AppCore
import Fluent
import Foundation
import Vapor

/// Appointments: reads, creation and the two lists. Updates and cancellation live in `+Update`.
struct AppointmentsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let appointments = routes.grouped("appointments")
        appointments.post(use: create)
        appointments.get(":appointment_id", use: show)
        appointments.put(":appointment_id", use: update)
        appointments.delete(":appointment_id", use: cancel)
        appointments.get("pet-owner", ":owner_id", use: listForOwner)
        appointments.get("practice", ":practice_id", use: listForPractice)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("appointment_id", .appointment)
        // One statement: the appointment, its pets and their recordings, scoped to the caller (AppointmentStore).
        guard let appointment = try await req.appointments.appointment(id, for: caller) else {
            throw APIError.appointmentNotFound
        }
        return try JSONResponse.make(appointment)
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let fields = try req.jsonObject()
        let requestedPractice = try fields.optionalUUID("practice_id", kind: .practice).valueIfPresent
        let ownerID = try fields.requiredUUID("pet_owner_id", kind: .petOwner)
        let vetID = try fields.optionalUUID("assigned_vet_user_id", kind: .user).valueIfPresent
        let date = try fields.requiredDateTime("appointment_date")
        let duration = try fields.optionalInteger("duration_minutes", range: 5...480).valueIfPresent ?? 30
        let type = try fields.optionalEnum("appointment_type", AppointmentType.self).valueIfPresent ?? .checkup
        let status = try fields.optionalEnum("status", AppointmentStatus.self).valueIfPresent ?? .scheduled
        guard status == .scheduled || status == .confirmed else {
            throw APIError.badRequest("status must be scheduled or confirmed when creating an appointment")
        }
        let title = try fields.requiredString("title", max: 200)
        let description = try fields.optionalString("description", trim: false, max: 2000).valueIfPresent
        let notes = try fields.optionalString("notes", trim: false, max: 5000).valueIfPresent
        guard let petIDs = try fields.uuidArray("pet_ids", kind: .pet, maxCount: 20) else {
            throw APIError.badRequest("pet_ids is required")
        }

        let practice = try await req.practices.resolveWithoutPet(requested: requestedPractice, caller: caller)
        guard practice.isActive else { throw APIError.conflict("Practice is inactive") }
        let practiceID = practice.id!
        guard let owner = try await req.petOwners.owner(ownerID) else { throw APIError.petOwnerNotFound }
        let isClient = try await req.visibility.isClient(owner: ownerID, of: practiceID)
        if !isClient {
            if caller.isMember { throw APIError.petOwnerNotFound }
            throw APIError.notAClientOfPractice
        }
        let booking = req.appointmentBooking
        let found = try await booking.checkPets(petIDs, mustBeActive: Set(petIDs), ownerID: ownerID)
        if let vetID { try await booking.checkVet(vetID, practiceID: practiceID) }

        let now = req.now
        let appointment = Appointment()
        appointment.id = UUID()
        appointment.practiceID = practiceID
        appointment.petOwnerID = ownerID
        appointment.assignedVetUserID = vetID
        appointment.createdByUserID = caller.id
        appointment.appointmentDate = date
        appointment.durationMinutes = Int(duration)
        appointment.appointmentType = type.rawValue
        appointment.statusValue = status.rawValue
        appointment.title = title
        appointment.description = description
        appointment.notes = notes
        appointment.createdAt = now
        appointment.updatedAt = now
        let byID = Dictionary(uniqueKeysWithValues: found.map { ($0.id!, $0) })
        let pets = petIDs.compactMap { byID[$0] }
        try await booking.book(appointment, pets: pets, ownerName: owner.fullName, bookedBy: caller.id, now: now)
        let summaries = pets.map {
            PetSummaryResponse(id: $0.id!.lowercased, name: $0.name, species: $0.species, breed: $0.breed, recording: nil)
        }
        return try JSONResponse.make(AppointmentResponse(appointment, pets: summaries), status: .created)
    }

    @Sendable func listForOwner(req: Request) async throws -> Response {
        let caller = try req.caller
        let ownerID = try req.pathID("owner_id", .petOwner)
        let page = try req.queryParameters.pagination()
        _ = try await req.visibility.petOwner(ownerID, for: caller)
        let (items, total) = try await req.appointments.page(
            ofOwner: ownerID, inPractice: caller.isMember ? caller.practiceID! : nil, range: page.range)
        return try JSONResponse.page(try await req.appointments.responses(for: items), total: total)
    }

    @Sendable func listForPractice(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let practiceID = try req.pathID("practice_id", .practice)
        let query = req.queryParameters
        let day = try query.day()
        let page = try query.pagination()
        let practice = try await req.visibility.practice(practiceID, for: caller)
        let (items, total) = try await req.appointments.page(
            ofPractice: practiceID, startingIn: day.map { LocalDay.window(of: $0, in: practice.timeZone) },
            range: page.range)
        return try JSONResponse.page(try await req.appointments.responses(for: items), total: total)
    }
}
