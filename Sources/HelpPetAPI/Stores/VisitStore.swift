import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// The recording columns a playback needs.
struct PlaybackRow: Decodable, Sendable {
    let source: String
    let storageKey: String?
    let metadata: [String: JSONValue]

    enum CodingKeys: String, CodingKey {
        case source
        case storageKey = "storage_key"
        case metadata
    }
}

/// Statements of the visits aggregate used by the recording read path.
struct VisitStore: Sendable {
    let db: any Database

    /// `GET /visit-transcripts/audio/playback/{id}`: the visit's recording columns if the caller may see the visit
    /// (CallerScope, inside the one statement); nil otherwise.
    func playback(_ id: UUID, for caller: Caller) async throws -> PlaybackRow? {
        if let rows = try await db.prepared(PlaybackByID(id: id, reach: BoundReach(caller)), decoding: PlaybackRow.self) {
            return rows.first
        }
        return try await db.sql.raw("""
            SELECT v.source, v.storage_key, v.metadata FROM visits v
            WHERE v.id = \(bind: id) AND \(CallerScope.visit("v", caller: caller))
            """).first(decoding: PlaybackRow.self)
    }
}

extension VisitStore {
    /// `playback(_:for:)` prepared on PostgreSQL.
    private struct PlaybackByID: ScopedByID {
        static let sql = """
            SELECT v.source, v.storage_key, v.metadata FROM visits v
            WHERE v.id = $1 AND \(BoundReach.petScopedRecord("v", kind: 2))
            """
        let id: UUID
        let reach: BoundReach
    }
}

/// The visit writes of staff's re-transcription and transcript edits.
extension VisitStore {
    /// Staff's re-transcription: back to `processing` with the new job in the metadata.
    func markProcessing(_ id: UUID, metadata: SQLQueryString, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE visits SET state = 'processing', metadata = \(metadata), updated_at = \(bind: now)
            WHERE id = \(bind: id)
            """).run()
    }

    /// Staff's edit of a transcript.
    func updateTranscript(
        _ id: UUID, metadata: SQLQueryString, fullText: String, summary: String?, state: VisitState, now: Date
    ) async throws {
        try await db.sql.raw("""
            UPDATE visits SET metadata = \(metadata), full_text = \(bind: fullText), summary = \(bind: summary),
                state = \(bind: state.rawValue), updated_at = \(bind: now)
            WHERE id = \(bind: id)
            """).run()
    }
}
