import AppCore
import Fluent
import Foundation
import Vapor

/// One pet of the appointment page, with its visit for this appointment (at most one, C10).
package struct ClinicAppointmentPet: Sendable {
    package let id: UUID
    package let name: String
    package let species: String
    package let breed: String?
    package let visitID: UUID?
    /// `none`, `uploading` (initiated, not completed), `processing`, `transcribed`, `failed` or `notes`.
    package let recordingState: String
    /// A completed recording exists (so recording again replaces it, `replace_existing: true`).
    package let hasRecording: Bool
    package let previousRecordings: Int
    package let transcriptionNote: String?
}

/// Who confirmed that the owner agreed to being recorded, as the server stored it (`metadata.recording_consent`).
package struct ClinicRecordingConsent: Sendable {
    package let confirmedBy: String?
    package let confirmedAt: String?
}

package struct ClinicAppointmentDetail: Sendable {
    package let id: UUID
    package let practice: SchedulePractice
    package let start: Date
    package let durationMinutes: Int
    package let type: String
    package let status: String
    package let title: String
    package let description: String?
    package let notes: String?
    package let vetID: UUID?
    package let vetName: String?
    package let ownerID: UUID
    package let ownerName: String
    package let ownerPhone: String?
    package let ownerEmail: String
    package let pets: [ClinicAppointmentPet]
    /// The owner's agreement recorded on any of this appointment's visits (asked once, before the first recording).
    package let consent: ClinicRecordingConsent?
    /// The practice's setting: recording needs the owner's confirmed agreement (else it is optional).
    package let consentRequired: Bool
}

/// The appointment page's read, scoped like `GET /appointments/{id}`: staff of the practice and ADMIN (owners have
/// their own pages); anyone else gets the API's 404.
package enum ClinicAppointment {
    package static func detail(request: Request, id: UUID) async throws -> ClinicAppointmentDetail {
        let caller = try request.caller
        try caller.requireStaff()
        let rows = try await AppointmentConsoleStore(db: request.db).appointment(id, for: caller)
        guard let first = rows.first else { throw APIError.appointmentNotFound }
        var consent: ClinicRecordingConsent?
        let pets: [ClinicAppointmentPet] = rows.compactMap { row in
            guard let petID = row.petID, let name = row.petName else { return nil }
            let metadata = row.visitMetadata ?? [:]
            if consent == nil, case .object(let stored)? = metadata["recording_consent"] {
                consent = ClinicRecordingConsent(
                    confirmedBy: stored["confirmed_by"].flatMap(Self.string),
                    confirmedAt: stored["confirmed_at"].flatMap(Self.string))
            }
            var previous = 0
            if case .array(let list)? = metadata["previous_recordings"] { previous = list.count }
            let state = recordingState(visitID: row.visitID, state: row.visitState, source: row.visitSource)
            return ClinicAppointmentPet(
                id: petID, name: name, species: row.petSpecies ?? "", breed: row.petBreed, visitID: row.visitID,
                recordingState: state,
                hasRecording: ["processing", "transcribed", "failed"].contains(state) || previous > 0,
                previousRecordings: previous, transcriptionNote: metadata["transcription_note"].flatMap(Self.string))
        }
        return ClinicAppointmentDetail(
            id: first.id,
            practice: SchedulePractice(
                id: first.practiceID, name: first.practiceName,
                timezone: TimeZone.stored(first.practiceTimezone)),
            start: first.appointmentDate, durationMinutes: first.durationMinutes, type: first.appointmentType,
            status: first.status, title: first.title, description: first.description, notes: first.notes,
            vetID: first.assignedVetUserID, vetName: first.vetName, ownerID: first.ownerID,
            ownerName: "\(first.ownerFirstName) \(first.ownerLastName)", ownerPhone: first.ownerPhone,
            ownerEmail: first.ownerEmail, pets: pets, consent: consent,
            consentRequired: first.recordingConsentRequired)
    }

    /// The practice's active vets (the page's "assigned vet" choice).
    package static func vets(request: Request, practiceID: UUID) async throws -> [ScheduleVet] {
        try await BoardStore(db: request.db).vets(practice: practiceID).map { ScheduleVet(id: $0.id, name: $0.fullName) }
    }

    /// The board's words for a visit's recording, for any visit (a pending reservation is `uploading`).
    static func recordingState(visitID: UUID?, state: String?, source: String?) -> String {
        guard visitID != nil else { return "none" }
        if source == VisitSource.manual.rawValue { return "notes" }
        switch VisitState(rawValue: state ?? "") {
        case .new?: return "uploading"
        case .processing?: return "processing"
        case .processed?: return "transcribed"
        case .failed?: return "failed"
        case nil: return "none"
        }
    }

    static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
}
