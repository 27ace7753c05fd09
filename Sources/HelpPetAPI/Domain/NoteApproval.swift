import AppCore
import Foundation

/// Issue 18: approving a visit's note (any `PUT` with `summary`, as the contract has always said) records who approved
/// it and when, and locks it: a later `summary` is refused, corrections go into addenda (append-only). A new
/// recording of the visit (replace) starts a new note; the approved one moves into `previous_recordings` with its
/// approval.
enum NoteApproval {
    static func isApproved(_ metadata: [String: JSONValue]) -> Bool {
        metadata["summary_status"] == .string("approved")
    }

    /// Sending the approved text again is allowed and changes nothing: apps send whole objects back.
    static func requireNotApproved(_ visit: Visit, newSummary: String?) throws {
        guard isApproved(visit.metadata), newSummary != visit.summary else { return }
        throw APIError.conflict(
            "The note is approved and can no longer be changed. Add an addendum with "
                + "POST /api/v1/visit-transcripts/\(visit.id!.lowercased)/addenda")
    }

    static func approvalKeys(by userID: UUID, at now: Date) -> [String: JSONValue] {
        ["summary_status": .string("approved"), "summary_approved_by": .string(userID.lowercased),
         "summary_approved_at": .string(WireTime.format(now))]
    }
}
