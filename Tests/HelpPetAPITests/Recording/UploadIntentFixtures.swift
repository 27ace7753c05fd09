import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// Views of the `upload_intents` rows (docs/recording-safety.md) and the steps the upload-safety suites share.
extension RecordingFixtures {
    struct IntentRow: Equatable {
        let storageKey: String
        let status: String
        let visitID: UUID?
    }

    /// The upload intents of a visit, by key.
    static func intents(_ app: Application, visit: String) async throws -> [IntentRow] {
        try await intents(app, "SELECT * FROM upload_intents WHERE visit_id = \(bind: try uuid(visit)) ORDER BY storage_key")
    }

    /// The upload intent of one key (whatever its visit), if any.
    static func intent(_ app: Application, key: String) async throws -> IntentRow? {
        try await intents(app, "SELECT * FROM upload_intents WHERE storage_key = \(bind: key)").first
    }

    static func intents(_ app: Application, _ query: SQLQueryString) async throws -> [IntentRow] {
        try await app.db.sql.raw(query).all().map {
            IntentRow(
                storageKey: try $0.decode(column: "storage_key", as: String.self),
                status: try $0.decode(column: "status", as: String.self),
                visitID: try $0.decode(column: "visit_id", as: UUID?.self))
        }
    }

    /// `DELETE /visit-transcripts/{id}` as ADMIN, which must answer 200.
    static func deleteVisit(_ app: Application, _ visitID: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let admin = try await app.token(for: Demo.admin)
        let deleted = try await send(app, .DELETE, visitPath(visitID), token: admin)
        #expect(deleted.status == .ok, "delete: \(deleted)", sourceLocation: sourceLocation)
    }

    /// The S3 error code of an embedded-store answer.
    static func s3ErrorCode(_ response: TestResponse) -> String? {
        let text = String(decoding: response.body, as: UTF8.self)
        guard let start = text.range(of: "<Code>"), let end = text.range(of: "</Code>") else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}
