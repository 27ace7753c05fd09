import AppCore
import Foundation

/// What a staff edit of a transcript (`PUT /visit-transcripts/{id}`) may do to a visit in its current state.
enum TranscriptEditRules {
    /// The state changes a PUT may make (§5.1); everything else belongs to the recording flows and the worker.
    static let putTransitions: Set<[VisitState]> = [
        [.processing, .processed], [.processing, .failed], [.failed, .processing], [.failed, .processed],
    ]

    /// The 409s of a PUT, in the contract's order. `objectPresent`: the recording was found in storage (asked only
    /// for failed → processing).
    static func checkState(_ change: VisitTranscriptUpdateRequest, of visit: Visit, objectPresent: Bool) throws {
        let from = visit.state
        if let to = change.state, to != from, !putTransitions.contains([from, to]) {
            throw APIError.conflict("Cannot change visit state from \(from.rawValue) to \(to.rawValue)")
        }
        // The worker owns the text while it transcribes; it would overwrite (or discard) a concurrent edit.
        if change.fullText != nil && from == .processing {
            throw APIError.transcriptionInProgress
        }
        if change.state == .processing && from == .failed && (visit.storageKey == nil || !objectPresent) {
            throw APIError.audioNotUploaded
        }
    }
}
