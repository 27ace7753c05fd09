import AppCore
import Foundation
import Vapor

extension MedicalRecordsController {
    static let notCurrent = APIError.conflict("Only the current version of a medical record can be amended")

    /// An amendment supersedes the addressed version and inserts the next one; nothing is overwritten in place.
    @Sendable func amend(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("record_id", .medicalRecord)
        let fields = try req.jsonObject()
        let input = try MedicalRecordRequest(fields, creating: false)
        guard fields.containsAny(of: MedicalRecordRequest.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        let old = try await req.visibility.medicalRecord(id, for: caller)
        try fields.requireUnchanged("id", current: id.lowercased)
        try fields.requireUnchanged("original_id", current: old.originalID.lowercased)
        try fields.requireUnchanged("version", current: String(old.version))
        try fields.requireUnchanged("pet_id", current: old.petID.lowercased)
        try fields.requireUnchanged("practice_id", current: old.practiceID.lowercased)
        // A client echoing a version that was current when it read it has lost a race: that is the 409 below.
        if old.isCurrent { try fields.requireUnchanged("is_current", current: "true") }
        try fields.requireUnchanged("created_by", current: old.createdBy.lowercased)

        let now = req.now
        // The foreign key guarantees the practice.
        guard let practice = try await req.practices.practice(old.practiceID) else {
            throw APIError.medicalRecordNotFound
        }
        let next = input.amendment(of: old, zone: practice.timeZone, createdBy: caller.id, now: now)
        do {
            guard try await req.medicalRecords.amend(id, with: next, now: now) else { throw Self.notCurrent }
        } catch where DatabaseFailure.isUniqueViolation(error) {
            // C15 (one current version per lineage) or C14 caught a race the conditional update did not.
            throw Self.notCurrent
        }
        return try JSONResponse.make(MedicalRecordPresenter.response(for: next, in: practice, now: now))
    }
}
