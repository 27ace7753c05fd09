import AppCore
import Foundation
import Testing
import VaporTesting

/// Builders for the visit-transcript tests (contract §4.9, non-audio parts).
enum VisitFixtures {
    static let demo = "/api/v1/visit-transcripts/\(Demo.visitID.lowercased)"
    static func path(_ id: String) -> String { "/api/v1/visit-transcripts/\(id)" }
    static func list(pet n: Int, _ query: String = "") -> String {
        "/api/v1/visit-transcripts/pet/\(Demo.pet(n).lowercased)\(query)"
    }
    static func appointmentVisits(_ id: UUID, _ query: String = "") -> String {
        "/api/v1/visit-transcripts/appointments/\(id.lowercased)/visits\(query)"
    }

    static let allowedStates = "Allowed: new, processing, processed, failed"

    /// `visit_date` of the demo visit: 10:00 practice-local, 30 days before the seed day (§8).
    static func demoVisitDate(_ app: Application) -> Int {
        Int(LocalDay.instant(on: app.seedDay.adding(days: -30), hour: 10, minute: 0, in: Demo.zone).timeIntervalSince1970)
    }

    /// A valid manual-transcript body for Bella.
    static func body(_ changes: [String: Any?] = [:], visitDate: Int = 1_736_960_400) -> [String: Any?] {
        var body: [String: Any?] = [
            "pet_id": Demo.pet(1).lowercased, "visit_date": visitDate, "full_text": "Patient seen for a recheck.",
        ]
        body.merge(changes) { _, new in new }
        return body
    }

    /// Creates a manual visit and returns its id.
    @discardableResult
    static func create(
        _ app: Application, token: String, _ changes: [String: Any?] = [:], visitDate: Int = 1_736_960_400,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let response = try await app.post("/api/v1/visit-transcripts", token: token, json: body(changes, visitDate: visitDate))
        #expect(response.status == .created, "\(response)", sourceLocation: sourceLocation)
        return try #require(response.json["uuid"].string, sourceLocation: sourceLocation)
    }

    /// The server-managed metadata keys of §4.0, in the contract's order.
    static let managedKeys = [
        "s3_key", "s3_bucket", "filename", "content_type", "estimated_duration_seconds", "uploaded_by", "upload_method",
        "attempt", "appointment_id", "upload_initiated_at", "upload_url_issued_at", "upload_completed_at",
        "completion_source", "file_size_bytes", "client_file_size_bytes", "duration_seconds", "device_metadata",
        "previous_recordings", "transcription_job_id", "transcription_engine", "transcription_model",
        "transcription_completed_at", "transcription_failed_at", "transcription_error", "transcript_length",
        "transcript_segments", "language", "audio_duration_seconds", "real_time_factor", "summary_status",
    ]

    /// A metadata object whose compact serialization is exactly `bytes` bytes: `{"blob":"aaa…"}`.
    static func metadata(serializedBytes bytes: Int) -> [String: Any?] {
        ["blob": String(repeating: "a", count: bytes - #"{"blob":""}"#.utf8.count)]
    }

    /// A metadata object with `count` top-level keys.
    static func metadata(keys count: Int) -> [String: Any?] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", $0) })
    }
}
