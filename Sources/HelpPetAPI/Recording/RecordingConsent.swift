import AppCore
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
    /// practice requires one and there is none. `earlier` is the consent already stored in the slot's scope.
    static func resolve(
        confirmed: Bool?, caller: Caller, required: Bool, earlier: JSONValue?, now: Date
    ) throws -> JSONValue? {
        if confirmed == true {
            return .object([
                "confirmed_by": .string(caller.id.lowercased), "confirmed_at": .string(WireTime.format(now)),
            ])
        }
        if earlier == nil && required { throw refusal() }
        return earlier
    }
}
