import AppCore
import Fluent
import Foundation
import SQLKit

/// The recording columns a playback needs.
struct PlaybackRow: Decodable, Sendable {
    let source: String
    let storage_key: String?
    let metadata: [String: JSONValue]
}

/// Statements of the visits aggregate used by the recording read path.
enum VisitStore {
    /// `GET /visit-transcripts/audio/playback/{id}`: the visit's recording columns if the caller may see the visit
    /// (CallerScope, inside the one statement); nil otherwise.
    static func playback(_ id: UUID, for caller: Caller, on db: any Database) async throws -> PlaybackRow? {
        try await db.sql.raw("""
            SELECT v.source, v.storage_key, v.metadata FROM visits v
            WHERE v.id = \(bind: id) AND \(CallerScope.visit("v", caller: caller))
            """).first(decoding: PlaybackRow.self)
    }
}
