import AppCore
import Foundation
import Vapor

extension MedicalRecordsController {
    /// Version 1 of a new record, in the practice resolved for the pet (§2.5).
    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let fields = try req.jsonObject()
        let petID = try fields.requiredUUID("pet_id", kind: .pet)
        let input = try MedicalRecordRequest(fields, creating: true)
        let requestedPractice = try fields.optionalUUID("practice_id", kind: .practice).valueIfPresent
        let pet = try await req.visibility.pet(petID, for: caller)
        let practice = try await req.practices.resolveForPet(pet, requested: requestedPractice, caller: caller)

        let record = input.makeRecord(
            petID: petID, practiceID: practice.id!, zone: practice.timeZone, createdBy: caller.id, now: req.now)
        try await req.medicalRecords.insert(record)
        return try JSONResponse.make(
            MedicalRecordPresenter.response(for: record, in: practice, now: req.now), status: .created)
    }
}
