import AppCore
import Fluent
import Foundation

/// The owner's agreement to being recorded: `metadata.recording_consent` =
/// `{"confirmed_by": user id, "confirmed_at": datetime}`, written by the server from the caller and its clock when an
/// initiate says `owner_consent_confirmed: true` (never taken from the client's metadata: the key is server-managed).
/// It is asked once per appointment: a later initiate for another pet of the same appointment carries the first
/// confirmation over, with its original confirmer and time.
enum RecordingConsent {
    static let metadataKey = "recording_consent"

    static func refusal() -> APIError {
        APIError.badRequest(
            "This practice records only with the owner's agreement: confirm it with owner_consent_confirmed: true")
    }

    /// The consent to store on the visit being initiated (nil: none to write; what is stored stays), or 400 when the
    /// practice requires one and there is none.
    static func resolve(
        confirmed: Bool?, caller: Caller, practice: Practice, appointment: Appointment?, pet: Pet, now: Date,
        on db: any Database
    ) async throws -> JSONValue? {
        if confirmed == true {
            return .object([
                "confirmed_by": .string(caller.id.lowercased), "confirmed_at": .string(WireTime.format(now)),
            ])
        }
        let earlier = try await existing(appointment: appointment, pet: pet, practice: practice, now: now, on: db)
        if earlier == nil && practice.recordingConsentRequired { throw refusal() }
        return earlier
    }

    /// A confirmation already stored for the appointment (any of its visits), or for the pet's day slot.
    static func existing(
        appointment: Appointment?, pet: Pet, practice: Practice, now: Date, on db: any Database
    ) async throws -> JSONValue? {
        let query = Visit.query(on: db)
        if let appointment {
            query.filter(\.$appointmentID == appointment.id!)
        } else {
            query.filter(\.$petID == pet.id!).filter(\.$appointmentID == nil)
                .filter(\.$source == VisitSource.recording.rawValue).filter(\.$practiceID == practice.id!)
                .filter(\.$recordingDay == LocalDay.day(containing: now, in: practice.timeZone).description)
        }
        for visit in try await query.sort(\.$createdAt).all() {
            if let consent = visit.metadata[metadataKey], case .object = consent { return consent }
        }
        return nil
    }
}
