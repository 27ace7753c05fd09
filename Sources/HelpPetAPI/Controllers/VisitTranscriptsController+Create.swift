import AppCore
import Fluent
import Foundation
import Vapor

extension VisitTranscriptsController {
    static let earliestVisitDate: Int64 = 946_684_800

    /// A manual transcript: typed or imported text, already `processed`, with no recording and no appointment.
    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let fields = try req.jsonObject()
        let petID = try fields.requiredUUID("pet_id", kind: .pet)
        let now = req.now
        let visitDate = try fields.requiredUnixSeconds("visit_date")
        let latest = Int64(now.timeIntervalSince1970) + 86_400
        guard (Self.earliestVisitDate...latest).contains(visitDate) else {
            throw APIError.badRequest(
                "visit_date must be between 946684800 and the current time plus 86400 seconds")
        }
        let fullText = try fields.requiredString("full_text", trim: false, max: 200_000)
        let summary = try fields.optionalString("summary", trim: false, max: 10_000).valueIfPresent
        let url = try fields.optionalHTTPURL("audio_transcript_url", max: 1000).valueIfPresent
        let metadata = try VisitMetadata.read(fields) ?? [:]
        if let appointment = fields.object["appointment_id"], !appointment.isNull {
            throw APIError.badRequest(
                "appointment_id cannot be set on a manual transcript; use the audio upload flow")
        }
        let requestedPractice = try fields.optionalUUID("practice_id", kind: .practice).valueIfPresent
        let pet = try await req.visibility.pet(petID, for: caller)
        let practice = try await req.practices.resolveForPet(pet, requested: requestedPractice, caller: caller)

        let visit = Visit()
        visit.id = UUID()
        visit.petID = petID
        visit.practiceID = practice.id!
        visit.appointmentID = nil
        visit.source = VisitSource.manual.rawValue
        visit.stateValue = VisitState.processed.rawValue
        visit.visitDate = Date(timeIntervalSince1970: TimeInterval(visitDate))
        visit.recordingDay = nil
        visit.fullText = fullText
        visit.summary = summary
        visit.audioTranscriptURL = url
        visit.storageKey = nil
        visit.metadata = metadata
        visit.createdBy = caller.id
        visit.createdAt = now
        visit.updatedAt = now
        try await req.visits.insert(visit)
        return try JSONResponse.make(Self.response(visit, caller: caller, req: req), status: .created)
    }
}
