import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

// Helpers shared by the pet-owner, pet, medical-record, visit-transcript and role-matrix suites
// (PetOwners/, Pets/, MedicalRecords/, VisitTranscripts/, Authorization/). They only use the public test harness
// (Support/) and raw SQL; nothing here changes how the server behaves.

/// Key sets of the representations of contract §4.0: "All keys are always present".
enum ClinicalKeys {
    // Each set is the contract's keys plus the keys added for the shipped iPhone app (docs/iphone-app-compatibility.md)
    // (docs/iphone-app-compatibility.md): responses gain keys, never lose or change one.
    static let petOwner: Set<String> = [
        "id", "first_name", "last_name", "full_name", "email", "phone", "address", "user_id", "practice_ids", "pets",
        "created_at", "updated_at",
        "uuid", "secondary_phone", "emergency_contact", "preferred_communication", "notifications_enabled",
    ]
    static let ownedPet: Set<String> = ["id", "name", "species", "breed"]
    static let pet: Set<String> = [
        "id", "owner_id", "name", "species", "breed", "color", "gender", "date_of_birth", "weight", "microchip_number",
        "allergies", "is_active", "registration_date", "owner", "created_at", "updated_at",
        "microchip_id", "spayed_neutered", "medications", "medical_notes", "emergency_contact", "emergency_phone",
        "age_years", "display_name",
    ]
    static let petOwnerBrief: Set<String> = ["id", "first_name", "last_name", "email", "phone", "full_name", "user_id"]
    /// The app's keys of a medical record (ClinicalKeys.medicalRecord includes them).
    static let medicalRecordAppKeys: Set<String> = [
        "visit_date", "follow_up_required", "created_by_user_id", "treatment", "is_follow_up_due", "days_since_visit",
        "veterinarian_name", "clinic_name", "weight", "temperature", "cost", "medical_data",
    ]
    static let medicalRecord: Set<String> = Set([
        "id", "original_id", "version", "pet_id", "practice_id", "record_type", "title", "description", "diagnosis",
        "treatment_plan", "medications", "notes", "follow_up_date", "is_current", "created_by", "created_at",
        "updated_at",
    ]).union(medicalRecordAppKeys)
    static let medicalRecordDetail: Set<String> = medicalRecord.union(["pet", "created_by_user"])
    static let envelope: Set<String> = ["records", "total", "current_records_count", "historical_records_count"]
    static let visitTranscript: Set<String> = [
        "uuid", "pet_id", "appointment_id", "practice_id", "visit_date", "full_text", "audio_transcript_url", "metadata",
        "summary", "state", "created_at", "updated_at", "created_by",
    ]
    /// An item of the visits of a pet: a visit plus the iPhone app's two keys.
    static let petVisitListItem: Set<String> = visitTranscript.union(["has_audio", "chief_complaint"])
}

/// The contract's examples are compared exactly after the keys added for the iPhone app are taken out again
/// (the added keys are asserted by ClinicalKeys and the IPhoneApp suites).
enum ContractExample {
    /// `value` without `keys` in its top-level object, or in each object of its `records` list; `nested` strips keys
    /// of a nested object (`owner` of a pet).
    static func withoutAppKeys(_ value: JSONValue?, _ keys: Set<String>, nested: [String: Set<String>] = [:]) -> JSONValue? {
        guard case .object(var object)? = value else { return value }
        for key in keys { object[key] = nil }
        for (name, nestedKeys) in nested {
            if case .object(var inner)? = object[name] {
                for key in nestedKeys { inner[key] = nil }
                object[name] = .object(inner)
            }
        }
        if case .array(let records)? = object["records"] {
            object["records"] = .array(records.map { withoutAppKeys($0, keys) ?? $0 })
        }
        return .object(object)
    }

    static let petAppKeys: Set<String> = ClinicalKeys.pet.subtracting([
        "id", "owner_id", "name", "species", "breed", "color", "gender", "date_of_birth", "weight", "microchip_number",
        "allergies", "is_active", "registration_date", "owner", "created_at", "updated_at",
    ])
    static let petOwnerAppKeys: Set<String> = [
        "uuid", "secondary_phone", "emergency_contact", "preferred_communication", "notifications_enabled",
    ]
}

/// The pagination errors of contract §1.11, as `(query, detail)`.
enum PaginationCases {
    static let invalid: [(query: String, detail: String)] = [
        ("limit=0", "limit must be between 1 and 200"),
        ("limit=201", "limit must be between 1 and 200"),
        ("limit=-5", "limit must be between 1 and 200"),
        ("limit=abc", "limit must be an integer"),
        ("limit=2.5", "limit must be an integer"),
        ("limit=", "limit must be an integer"),
        ("offset=-1", "offset must be at least 0"),
        ("offset=x", "offset must be an integer"),
        ("offset=1.5", "offset must be an integer"),
    ]

    /// Sends every invalid pagination query to `path` (which may already carry a query) and expects its 400.
    static func expectRefused(
        _ app: Application, _ path: String, token: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let separator = path.contains("?") ? "&" : "?"
        for (query, detail) in invalid {
            let response = try await app.get(path + separator + query, token: token)
            #expect(response.status == .badRequest, "\(path) \(query): \(response)", sourceLocation: sourceLocation)
            #expect(response.detail == detail, "\(path) \(query): \(response)", sourceLocation: sourceLocation)
        }
        for query in ["limit=1", "limit=200", "offset=0", "offset=100000"] {
            let response = try await app.get(path + separator + query, token: token)
            #expect(response.status == .ok, "\(path) \(query): \(response)", sourceLocation: sourceLocation)
        }
    }
}

/// The body errors of contract §1.3 for a JSON endpoint (checked after the role gate, before any lookup).
enum BodySyntaxChecks {
    static func expectRefused(
        _ app: Application, _ method: HTTPMethod, _ path: String, token: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let cases: [(String, HTTPMediaType?, String)] = [
            ("{}", .plainText, "Content-Type must be application/json"),
            ("{}", nil, "Content-Type must be application/json"),
            ("{", .json, "Malformed JSON body"),
            ("[]", .json, "Request body must be a JSON object"),
            ("null", .json, "Request body must be a JSON object"),
            ("\"x\"", .json, "Request body must be a JSON object"),
            ("", .json, "Request body is required"),
        ]
        for (body, type, detail) in cases {
            let response = try await app.sendRaw(method, path, token: token, body: body, contentType: type)
            #expect(response.status == .badRequest, "\(method) \(path) \(body): \(response)", sourceLocation: sourceLocation)
            #expect(response.detail == detail, "\(method) \(path) \(body): \(response)", sourceLocation: sourceLocation)
        }
        let charset = try await app.send(
            method, path, token: token, headers: ["Content-Type": "application/json; charset=utf-8"], body: "{")
        #expect(charset.detail == "Malformed JSON body", "a charset parameter is allowed", sourceLocation: sourceLocation)
    }
}

extension Application {
    /// The ManualClock the test application was started with.
    func manualClock(sourceLocation: SourceLocation = #_sourceLocation) throws -> ManualClock {
        try #require(core.clock as? ManualClock, "start the app with withTestApp(clock: ManualClock(...))",
                     sourceLocation: sourceLocation)
    }
}

/// A ManualClock at the current time, whole seconds (the seed runs at that instant).
func clinicalClock(_ start: Date = Date()) -> ManualClock {
    ManualClock(Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down)))
}

extension TestResponse {
    var totalCount: String? { headers.first(name: "X-Total-Count") }
}

/// Ids as the server emits them.
extension Array where Element == UUID {
    var lowercasedIDs: [String] { map(\.lowercased) }
}

/// Raw SQL for states the API cannot produce yet (recording visits, draft summaries, worker states).
enum VisitSQL {
    /// Sets a visit's `state` directly (what the audio flows and the transcription worker do).
    static func setState(_ app: Application, _ visit: UUID, _ state: String) async throws {
        try await app.db.sql.raw("UPDATE visits SET state = \(bind: state) WHERE id = \(bind: visit)").run()
    }

    /// Replaces a visit's metadata with `json` (engine-appropriate: `jsonb` on PostgreSQL, text on SQLite).
    static func setMetadata(_ app: Application, _ visit: UUID, json: String) async throws {
        if app.db.engine == .postgres {
            try await app.db.sql.raw("UPDATE visits SET metadata = \(bind: json)::jsonb WHERE id = \(bind: visit)").run()
        } else {
            try await app.db.sql.raw("UPDATE visits SET metadata = \(bind: json) WHERE id = \(bind: visit)").run()
        }
    }

    /// Inserts a recording visit as the audio flows would leave it. With an appointment the pet must be one of its
    /// pets (C11); without one, `recordingDay` is required (C12). A `new` visit without `previous_recordings` in its
    /// metadata is *pending* (§4.10).
    @discardableResult
    static func insertRecording(
        _ app: Application, pet: UUID, appointment: UUID?, state: String, visitDate: Date,
        createdAt: Date, recordingDay: String? = nil, metadataJSON: String = "{}",
        practice: UUID = Demo.practiceID, createdBy: UUID = Demo.vet1.id, id: UUID = UUID()
    ) async throws -> UUID {
        let key = "visit-recordings/test/pet-\(pet.lowercased)/\(id.lowercased)-1.m4a"
        let metadata: SQLQueryString = app.db.engine == .postgres ? "\(bind: metadataJSON)::jsonb" : "\(bind: metadataJSON)"
        try await app.db.sql.raw("""
            INSERT INTO visits (id, pet_id, practice_id, appointment_id, source, state, visit_date, recording_day,
                                full_text, summary, audio_transcript_url, storage_key, attempt, upload_method,
                                upload_url_issued_at, reserved_at, reconcile_after, metadata, created_by, created_at,
                                updated_at)
            VALUES (\(bind: id), \(bind: pet), \(bind: practice), \(bind: appointment), 'recording', \(bind: state),
                    \(bind: visitDate), \(bind: recordingDay), \(bind: ""), NULL, NULL, \(bind: key), 1, 'presigned_post',
                    \(bind: createdAt), NULL, NULL, \(metadata), \(bind: createdBy), \(bind: createdAt),
                    \(bind: createdAt))
            """).run()
        return id
    }
}

/// A second practice ("Other Clinic", America/New_York) with a VET member, like `AppointmentFixtures.otherPractice`,
/// but the member's token is minted without a login, so it also works when the server clock is far from the real
/// time (tokens are checked against the real time).
enum OtherPractice {
    struct Handle {
        let practiceID: String
        let vetID: UUID
        let vetToken: String
    }

    static func create(_ app: Application, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Handle {
        let admin = try await app.token(for: Demo.admin)
        let practice = try await app.post("/api/v1/practices", token: admin, json: [
            "name": "Other Clinic", "timezone": "America/New_York",
        ])
        #expect(practice.status == .created, "\(practice)", sourceLocation: sourceLocation)
        let practiceID = try #require(practice.json["id"].string, sourceLocation: sourceLocation)
        let user = try await app.post("/api/v1/users", token: admin, json: [
            "username": "vet9", "password": "password999", "email": "vet9@other.example", "full_name": "Dr. Other",
            "role": "VET", "practice_id": practiceID,
        ])
        #expect(user.status == .created, "\(user)", sourceLocation: sourceLocation)
        let vetID = try #require(user.json["id"].string.flatMap(UUID.init(uuidString:)), sourceLocation: sourceLocation)
        return Handle(practiceID: practiceID, vetID: vetID, vetToken: try await app.token(for: vetID))
    }
}
