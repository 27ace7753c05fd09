import AppCore
import Fluent
import Foundation
import Vapor

/// One timed piece of a transcript (`metadata.transcript_segments`, as the engine gave it).
package struct ClinicTranscriptSegment: Sendable {
    package let start: Double
    package let end: Double
    package let text: String
}

/// A correction appended to an approved note.
package struct ConsoleAddendum: Sendable {
    package let authorName: String
    package let text: String
    package let createdAt: Date
}

package struct ClinicVisitDetail: Sendable {
    package let id: UUID
    package let petID: UUID
    package let petName: String
    package let petSpecies: String
    package let ownerName: String
    package let practice: SchedulePractice
    package let appointmentID: UUID?
    package let appointmentTitle: String?
    /// `recording` or `manual`.
    package let source: String
    /// The API's VisitState: `new`, `processing`, `processed`, `failed`.
    package let state: String
    package let visitDate: Date
    package let fullText: String
    package let summary: String?
    /// `draft` (written by the worker, not yet approved), `approved`, or nil.
    package let summaryStatus: String?
    /// A recording was completed, so playback can answer (it still checks storage).
    package let hasAudio: Bool
    package let segments: [ClinicTranscriptSegment]
    package let metadata: [String: JSONValue]
    package let createdByName: String?
    package let createdAt: Date
    package let updatedAt: Date
    /// When the note was approved; nil while it is a draft.
    package let approvedAt: String?
    package let addenda: [ConsoleAddendum]
    /// The structured draft (`metadata.clinical_note`): sections whose sentences point at the audio.
    package let note: StoredClinicalNote?
}

/// The visit page's read. Staff of the visit's practice and ADMIN only: owners read approved notes on their own
/// pages, and anyone else gets the API's 404 `Visit not found`.
package enum ClinicVisit {
    package static func detail(request: Request, id: UUID) async throws -> ClinicVisitDetail {
        let caller = try request.caller
        let notFound = APIError.visitNotFound
        guard caller.role.isStaff else { throw notFound }
        guard let found = try await VisitConsoleStore(db: request.db).visit(id, for: caller) else { throw notFound }
        let row = found.visit, around = found.context
        var segments: [ClinicTranscriptSegment] = []
        if case .array(let list)? = row.metadata["transcript_segments"] {
            for item in list {
                guard case .object(let segment) = item, let start = number(segment["start"]),
                    case .string(let text)? = segment["text"]
                else { continue }
                segments.append(ClinicTranscriptSegment(start: start, end: number(segment["end"]) ?? start, text: text))
            }
        }
        var summaryStatus: String?
        if case .string(let status)? = row.metadata["summary_status"] { summaryStatus = status }
        let state = VisitState(rawValue: row.state)
        return ClinicVisitDetail(
            id: row.id, petID: row.petID, petName: around.petName, petSpecies: around.petSpecies,
            ownerName: "\(around.ownerFirstName) \(around.ownerLastName)",
            practice: SchedulePractice(
                id: row.practiceID, name: around.practiceName,
                timezone: TimeZone.stored(around.practiceTimezone)),
            appointmentID: row.appointmentID, appointmentTitle: around.appointmentTitle, source: row.source,
            state: row.state, visitDate: row.visitDate, fullText: row.fullText, summary: row.summary,
            summaryStatus: summaryStatus,
            hasAudio: row.source == VisitSource.recording.rawValue && row.storageKey != nil && state != .new,
            segments: segments, metadata: row.metadata, createdByName: around.createdByName,
            createdAt: row.createdAt, updatedAt: row.updatedAt,
            approvedAt: { if case .string(let at)? = row.metadata["summary_approved_at"] { at } else { nil } }(),
            addenda: try await addenda(request: request, visitID: id), note: StoredClinicalNote(row.metadata))
    }

    /// The printable discharge page's read: whoever may read the visit (the pet's owner included), once the note is
    /// approved; the API's 404 and 409 otherwise.
    package static func discharge(request: Request, id: UUID) async throws -> DischargeInstructions {
        try await VisitStore(db: request.db).dischargeInstructions(id, caller: try request.caller).instructions
    }

    /// The addenda of a visit the caller may read (owners: only of an approved note, where they exist at all).
    package static func addenda(request: Request, visitID: UUID) async throws -> [ConsoleAddendum] {
        try await VisitAddendumStore(db: request.db).list(visit: visitID).map {
            ConsoleAddendum(authorName: $0.authorName, text: $0.text, createdAt: $0.createdAt)
        }
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let n)?: return n
        case .integer(let n)?: return Double(n)
        default: return nil
        }
    }
}
