import AppCore
import Fluent
import Foundation

/// The recording flow of contract §4.10 as one service that takes values: initiate a pet's slot (create, reissue
/// or replace its visit and hand out a presigned POST) and complete it once the object is in storage. Controllers
/// parse, authorise, call and encode; nothing here sees a request.
struct RecordingSlots: Sendable {
    let db: any Database
    let storage: RecordingStorage
    let metrics: MetricsRegistry
    /// Scheme and host the presigned URLs are built on (`PUBLIC_BASE_URL`, or the request's own).
    let baseURL: String

    /// Everything the slot table needs once the checks have passed.
    struct Initiation: Sendable {
        let request: InitiateRecordingRequest
        let caller: Caller
        let pet: Pet
        let appointment: Appointment?
        let practice: Practice
        let slot: RecordingSlot
        let now: Date
        /// `metadata.recording_consent` to write (nil: leave what is stored).
        let consent: JSONValue?
    }

    /// Checks the pet, appointment, practice and consent, then applies the slot table.
    func initiate(_ request: InitiateRecordingRequest, caller: Caller, now: Date) async throws
        -> InitiateRecordingResponse
    {
        let visibility = VisibilityStore(db: db)
        let pet = try await visibility.pet(request.petID, for: caller)
        var appointment: Appointment?
        if let appointmentID = request.appointmentID {
            let found = try await visibility.appointment(appointmentID, for: caller)
            try await requirePet(pet, in: found)
            appointment = found
        }
        guard pet.isActive else { throw APIError.badRequest("Pet \(pet.id!.lowercased) is inactive") }
        let practice: Practice
        if let appointment {
            if let requested = request.practiceID, requested != appointment.practiceID {
                throw APIError.badRequest("practice_id does not match the appointment's practice")
            }
            guard let found = try await PracticeStore(db: db).practice(appointment.practiceID) else {
                throw APIError.practiceNotFound
            }
            practice = found
        } else {
            practice = try await PracticeStore(db: db).resolveForPet(pet, requested: request.practiceID, caller: caller)
        }
        if appointment?.status == .cancelled { throw APIError.recordingCancelledAppointment }
        let slot = RecordingSlot(
            petID: pet.id!, appointmentID: appointment?.id, practiceID: practice.id!, zone: practice.timeZone, now: now)
        let reading = try await VisitStore(db: db).reading(slot, metadataKey: RecordingConsent.metadataKey)
        let consent = try RecordingConsent.resolve(
            confirmed: request.ownerConsentConfirmed, caller: caller, required: practice.recordingConsentRequired,
            earlier: reading.stored, now: now)
        return try await applySlotTable(
            Initiation(
                request: request, caller: caller, pet: pet, appointment: appointment, practice: practice, slot: slot,
                now: now, consent: consent),
            firstRead: reading)
    }

    /// The slot table. Each outcome is a write that is conditional on the row as read; a request that loses a race
    /// re-reads the slot and applies the table again, so N identical initiates converge on one row. `firstRead` is
    /// the slot as the checks already read it, used for the first pass.
    func applySlotTable(_ initiation: Initiation, firstRead: SlotReading? = nil) async throws
        -> InitiateRecordingResponse
    {
        var known = firstRead
        for _ in 0..<8 {
            let found: Visit?
            if let reading = known {
                found = reading.visit
                known = nil
            } else {
                found = try await VisitStore(db: db).visit(in: initiation.slot)
            }
            guard let visit = found else {
                if let created = try await createVisit(initiation) { return created }
                continue
            }
            switch visit.state {
            case .new:
                if RecordingConflict.hasLiveLegacyReservation(visit, now: initiation.now) {
                    throw RecordingConflict.uploadInProgress(visit)
                }
                let landed = try await SlotLanding.find(visitID: visit.id!, storage: storage, on: db)
                if !landed.isEmpty {
                    // An upload already landed (under any key issued for this slot): never discard it; complete
                    // with it and answer as for a recording.
                    try await RecordingCompletion.settle(
                        visitID: visit.id!, landed: landed, source: .reinitiate, details: .none,
                        actor: initiation.caller.id, now: initiation.now, on: db, metrics: metrics)
                    continue
                }
                if let reissued = try await reissue(visit, initiation) { return reissued }
            case .processing, .processed, .failed:
                guard initiation.request.replaceExisting else { throw RecordingConflict.exists(visit) }
                if let replaced = try await replace(visit, initiation) { return replaced }
            }
        }
        // Only reachable under pathological contention; the client may simply retry.
        throw APIError.serviceUnavailable
    }

    /// Settles the visit's upload with whatever object landed under any key issued for its slot (idempotent), and
    /// returns the visit as it is afterwards, whoever won a concurrent completion. 409 while nothing has landed.
    func complete(_ visit: Visit, details: CompletionDetails, caller: Caller, now: Date) async throws -> Visit {
        guard visit.state == .new else { return visit }
        let landed = try await SlotLanding.find(visitID: visit.id!, storage: storage, on: db)
        try await RecordingCompletion.settle(
            visitID: visit.id!, landed: landed, source: .client, details: details, actor: caller.id, now: now, on: db,
            metrics: metrics)
        guard let current = try await VisitStore(db: db).currentRow(visit.id!) else { throw APIError.visitNotFound }
        guard current.state != .new else { throw APIError.audioNotUploaded }
        return current
    }

    /// 400 when the pet is not one of the appointment's pets (the database also guarantees it).
    func requirePet(_ pet: Pet, in appointment: Appointment) async throws {
        guard try await AppointmentStore(db: db).hasPet(pet.id!, appointment: appointment.id!) else {
            throw APIError.badRequest(
                "Pet \(pet.id!.lowercased) is not associated with appointment \(appointment.id!.lowercased)")
        }
    }
}
