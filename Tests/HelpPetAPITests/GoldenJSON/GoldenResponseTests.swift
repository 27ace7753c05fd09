import AppCore
import Foundation
@testable import HelpPetAPI
import NIOCore
import SQLKit
import ServerTestSupport
import Testing
import VaporTesting

/// Golden JSON of every HelpPet route in both client profiles: the contract's (`standard`) and the
/// shipped iPhone app's (`ios-legacy`, selected by the app's `User-Agent: HelpPetAI/…`). One scenario on a fixed dataset (the demo data
/// of contract §8 on a fixed day, plus what the scenario creates through the API) sends every request once per
/// profile; each response is normalised (docs/golden-json.md) and compared with
/// `Tests/HelpPetAPITests/Golden/<profile>/<METHOD>_<path>.json`. `GOLDEN_RECORD=1` rewrites the files.
@Suite("Golden JSON (HelpPet)")
struct GoldenResponseTests {
    /// The fixed instant of the scenario: a Tuesday, 10:00 in the demo practice's zone (America/Los_Angeles, PDT).
    static let fixedNow = Date(timeIntervalSince1970: 1_773_162_000)  // 2026-03-10T17:00:00Z

    static let env: [String: String] = RecordingFixtures.env.merging([
        "STORAGE_ACCESS_KEY_ID": "GOLDENACCESSKEY00001",
        "STORAGE_SECRET_ACCESS_KEY": "golden-secret-access-key-0123456789abcdef",
    ]) { _, new in new }

    enum Profile: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case standard
        case iosLegacy = "ios-legacy"

        /// The legacy profile as the shipped app selects it: its `User-Agent` (`HelpPetAI/<build> CFNetwork/… Darwin/…`;
        /// `X-HelpPet-Client: ios-legacy` selects the same profile: LegacyProfileMappingTests cover both).
        var headers: HTTPHeaders {
            self == .iosLegacy ? ["User-Agent": "HelpPetAI/412 CFNetwork/1494.0.7 Darwin/23.4.0"] : [:]
        }
        var testDescription: String { rawValue }
    }

    @Test("every HelpPet route answers its golden JSON", arguments: Profile.allCases)
    func goldens(_ profile: Profile) async throws {
        let book = GoldenBook(directory: GoldenBook.directory(profile: profile.rawValue))
        let clock = ManualClock(Self.fixedNow)
        let registered = try await withTestApp(env: Self.env, clock: clock) { app in
            let session = Session(app: app, book: book, profile: profile, clock: clock)
            try await Self.scenario(session)
            return DocumentedAPI.helpPet.registeredOperations(app)
        }
        // A route without a golden entry fails here (and so does a golden for a route that no longer exists).
        let covered = Set(book.operations)
        let missing = registered.subtracting(covered).sorted()
        let list = missing.map { "  \($0)" }.joined(separator: "\n")
        #expect(missing.isEmpty, "routes without a golden entry (add a request to GoldenResponseTests.scenario):\n\(list)")
        for problem in try book.finish() { Issue.record(Comment(rawValue: problem)) }
    }

    /// One client of the scenario: every request goes through the whole middleware chain with the profile's headers
    /// and is added to the book under its route template.
    struct Session {
        let app: Application
        let book: GoldenBook
        let profile: Profile
        /// Advanced by one second before each request, so rows made by different requests never tie on their
        /// timestamps (lists ordered by time are then the same on every run and engine).
        let clock: ManualClock

        @discardableResult
        func call(
            _ method: HTTPMethod, _ template: String, _ params: [String: String] = [:], query: String = "",
            token: String?, json: [String: Any?]? = nil, raw: (body: [UInt8], contentType: String)? = nil,
            headers extra: HTTPHeaders = [:], _ label: String, bodyNote: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> TestResponse {
            var path = template
            for (name, value) in params { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
            #expect(!path.contains("{"), "unfilled parameter in \(template)", sourceLocation: sourceLocation)
            if !query.isEmpty { path += "?" + query }
            clock.advance(by: 1)
            var headers = profile.headers
            for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
            if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
            var body: [UInt8] = []
            if let json {
                body = Array(JSONBody.encode(json).utf8)
                headers.replaceOrAdd(name: .contentType, value: "application/json")
            } else if let raw {
                body = raw.body
                headers.replaceOrAdd(name: .contentType, value: raw.contentType)
            }
            let request = TestingHTTPRequest(
                method: method, url: URI(string: path), headers: headers, body: ByteBuffer(bytes: body))
            let response = try await app.testing().performTest(request: request)
            var out = response.body
            let data = out.readData(length: out.readableBytes) ?? Data()
            book.add(
                .init(method: method.rawValue, path: template), label: label, request: "\(method.rawValue) \(path)",
                status: Int(response.status.code), contentType: response.headers.first(name: .contentType), body: data,
                bodyNote: bodyNote)
            return TestResponse(status: response.status, headers: response.headers, body: data)
        }
    }

    /// The fixed dataset and every request, in an order where each step's inputs exist.
    static func scenario(_ s: Session) async throws {
        let app = s.app
        let book = s.book
        let admin = try await app.token(for: Demo.admin)
        let vet = try await app.token(for: Demo.vet1)
        let vet2 = try await app.token(for: Demo.vet2)
        let owner = try await app.token(for: Demo.owner1)
        let practice = Demo.practiceID.lowercased
        // The dataset's ids are kept verbatim: the demo data's (contract §8) and the demo appointments' (UUIDv5 of
        // the fixed day).
        book.fix((1...5).map { Demo.appointmentID($0, app).lowercased })
        book.fix([Demo.practiceID, Demo.admin.id, Demo.vet1.id, Demo.vet2.id, Demo.owner1.id, Demo.visitID].map(\.lowercased)
            + (1...4).map { Demo.owner($0).lowercased } + (1...7).map { Demo.pet($0).lowercased }
            + (1...4).map { Demo.record($0).lowercased })
        let bella = Demo.pet(1).lowercased
        let max = Demo.pet(2).lowercased
        let appointment1 = Demo.appointmentID(1, app).lowercased

        // Shared surface.
        try await s.call(.GET, "/health", token: nil, "liveness")
        try await s.call(.GET, "/health/ready", token: nil, "readiness (transcription off)")
        try await s.call(.GET, "/api/v1/health", token: nil, "liveness under /api/v1")
        try await s.call(.GET, "/metrics", token: nil, "Prometheus text", bodyNote: "Prometheus text format, not JSON")
        try await s.call(.GET, "/openapi.json", token: nil, "the OpenAPI document",
                         bodyNote: "the committed openapi.yaml as JSON: pinned by OpenAPIRouteCoverageTests")
        try await s.call(.GET, "/api/v1/no-such-route", token: nil, "unknown route (404 error body)")

        // Auth.
        try await s.call(.POST, "/api/v1/auth/token", token: nil,
                         json: ["username": "vet1", "password": "password123"], "log in")
        try await s.call(.POST, "/api/v1/auth/token", token: nil,
                         json: ["username": "vet1", "password": "wrong-password"], "wrong password (401)")
        try await s.call(.POST, "/api/v1/auth/token", token: nil, raw: (Array("{".utf8), "application/json"),
                         "malformed JSON (400)")
        try await s.call(.GET, "/api/v1/auth/me", token: vet, "vet1")
        try await s.call(.GET, "/api/v1/auth/me", token: admin, "admin (role mapped in the legacy profile)")
        try await s.call(.GET, "/api/v1/auth/me", token: nil, "no token (401)")
        // A forgotten password: the same 202 for every address (this one has no account, so nothing is sent and the
        // scenario's tokens stay valid), and a token that no email ever carried.
        try await s.call(.POST, "/api/v1/auth/password-reset", token: nil, json: ["email": "nobody@example.com"],
                         "ask for a reset link (202 for every address)")
        try await s.call(.POST, "/api/v1/auth/password-reset/confirm", token: nil,
                         json: ["token": "not-an-emailed-token", "new_password": "long-enough-pw"], "unknown link (400)")
        let signup = try await s.call(.POST, "/api/v1/auth/signup", token: nil, json: [
            "username": "goldennew", "password": "long-enough-pw", "email": "goldennew@example.com",
            "full_name": "Golden Newcomer", "role": "VET",
        ], "sign up")
        book.label(signup.json["id"].string, "signup-user")
        let pendingToken = signup.json["access_token"].string ?? ""
        try await s.call(.GET, "/api/v1/auth/me", token: pendingToken, "pending user")
        try await s.call(.PUT, "/api/v1/auth/me/practice", token: pendingToken, json: ["practice_id": practice],
                         "ask to join the demo practice")

        // Practices.
        try await s.call(.GET, "/api/v1/practices", token: nil, "public directory")
        try await s.call(.GET, "/api/v1/practices", token: admin, "admin")
        let clinic = try await s.call(.POST, "/api/v1/practices", token: admin, json: [
            "name": "Golden Clinic", "timezone": "Europe/Paris", "phone": "+33 1 23 45 67 89",
            "email": "desk@golden.example", "address": "1 Rue de Rivoli",
        ], "create")
        book.label(clinic.json["id"].string, "golden-clinic")
        let clinicID = clinic.json["id"].string ?? ""
        try await s.call(.POST, "/api/v1/practices", token: vet, json: ["name": "X", "timezone": "UTC"],
                         "vet may not (403)")
        try await s.call(.POST, "/api/v1/practices", token: admin, json: ["name": "X", "timezone": "Mars/Base"],
                         "invalid timezone (400)")
        try await s.call(.GET, "/api/v1/practices/{practice_id}", ["practice_id": practice], token: vet, "demo practice")
        try await s.call(.PUT, "/api/v1/practices/{practice_id}", ["practice_id": clinicID], token: admin,
                         json: ["phone": "+33 1 00 00 00 00"], "update")
        try await s.call(.GET, "/api/v1/practices/{practice_id}/vocabulary", ["practice_id": practice], token: vet,
                         "empty")
        try await s.call(.PUT, "/api/v1/practices/{practice_id}/vocabulary", ["practice_id": practice], token: vet,
                         json: ["terms": ["Zylkene", "Bravecto Plus", "Cerenia 16 mg"]], "replace")
        try await s.call(.GET, "/api/v1/practices/{practice_id}/note-templates", ["practice_id": practice],
                         token: vet, "built-in templates")
        try await s.call(.GET, "/api/v1/practices/{practice_id}/note-templates/{template_key}",
                         ["practice_id": practice, "template_key": "soap"], token: vet, "soap")
        let sections: [[String: Any?]] = [
            ["key": "history", "title": "History", "hint": "What the owner says", "collects": ["subjective"]],
            ["key": "exam", "title": "Exam and assessment", "collects": ["objective", "assessment"]],
            ["key": "plan", "title": "Plan", "collects": ["plan"]],
        ]
        try await s.call(.PUT, "/api/v1/practices/{practice_id}/note-templates/{template_key}",
                         ["practice_id": practice, "template_key": "dental"], token: admin,
                         json: ["title": "Short dental", "sections": sections], "new version")
        try await s.call(.PUT, "/api/v1/practices/{practice_id}/note-templates/{template_key}",
                         ["practice_id": practice, "template_key": "dental"], token: vet,
                         json: ["sections": sections], "vet may not (403)")

        // Users.
        try await s.call(.GET, "/api/v1/users", token: admin, "list")
        let staff = try await s.call(.POST, "/api/v1/users", token: admin, json: [
            "username": "goldenstaff", "password": "long-enough-pw", "email": "staff@golden.example",
            "full_name": "Golden Staff", "role": "VET_STAFF", "practice_id": practice,
        ], "create VET_STAFF")
        book.label(staff.json["id"].string, "staff-user")
        let newAdmin = try await s.call(.POST, "/api/v1/users", token: admin, json: [
            "username": "goldenadmin", "password": "long-enough-pw", "email": "admin2@golden.example",
            "full_name": "Golden Admin", "role": "ADMIN",
        ], "create ADMIN (role mapped in the legacy profile)")
        book.label(newAdmin.json["id"].string, "admin-user")
        try await s.call(.POST, "/api/v1/users", token: admin, json: [
            "username": "bad", "password": "long-enough-pw", "email": "bad@example.com", "full_name": "B",
            "role": "PENDING",
        ], "invalid role (400)")
        try await s.call(.GET, "/api/v1/users/{user_id}", ["user_id": Demo.vet2.id.lowercased], token: admin, "vet2")
        try await s.call(.GET, "/api/v1/users/{user_id}", ["user_id": signup.json["id"].string ?? ""], token: admin,
                         "pending user (role mapped in the legacy profile)")
        try await s.call(.PUT, "/api/v1/users/{user_id}", ["user_id": staff.json["id"].string ?? ""], token: admin,
                         json: ["full_name": "Golden Staff Renamed"], "rename")
        try await s.call(.GET, "/api/v1/users/{user_id}", ["user_id": Demo.vet2.id.lowercased], token: vet,
                         "vet may not (403)")

        // Pet owners (both spellings of the path).
        try await s.call(.GET, "/api/v1/pet-owners", token: vet, "list")
        let grace = try await s.call(.POST, "/api/v1/pet-owners", token: vet, json: [
            "first_name": "Grace", "last_name": "Hopper", "email": "grace.hopper@example.com",
            "phone": "+1 (555) 010-9999", "address": "1 Navy Way",
        ], "create")
        book.label(grace.json["id"].string, "owner-grace")
        let graceID = grace.json["id"].string ?? ""
        try await s.call(.POST, "/api/v1/pet-owners", token: vet, json: ["first_name": "No"], "missing last_name (400)")
        try await s.call(.GET, "/api/v1/pet-owners/{owner_id}", ["owner_id": Demo.owner(1).lowercased], token: vet,
                         "John Smith")
        try await s.call(.PUT, "/api/v1/pet-owners/{owner_id}", ["owner_id": graceID], token: vet,
                         json: ["phone": "+1 (555) 010-0000"], "update")
        try await s.call(.POST, "/api/v1/pet-owners/{owner_id}/practices", ["owner_id": graceID],
                         token: admin, json: ["practice_id": clinicID], "add a practice")
        try await s.call(.GET, "/api/v1/pet_owners", token: vet, "list (alias)")
        let ada = try await s.call(.POST, "/api/v1/pet_owners", token: vet, json: [
            "first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com",
        ], "create (alias)")
        book.label(ada.json["id"].string, "owner-ada")
        let adaID = ada.json["id"].string ?? ""
        try await s.call(.GET, "/api/v1/pet_owners/{owner_id}", ["owner_id": adaID], token: vet, "Ada (alias)")
        try await s.call(.PUT, "/api/v1/pet_owners/{owner_id}", ["owner_id": adaID], token: vet,
                         json: ["address": "12 St James's Square"], "update (alias)")
        try await s.call(.POST, "/api/v1/pet_owners/{owner_id}/practices", ["owner_id": adaID],
                         token: admin, json: ["practice_id": clinicID], "add a practice (alias)")

        // Pets.
        let biscuit = try await s.call(.POST, "/api/v1/pets", token: vet, json: [
            "owner_id": graceID, "name": "Biscuit", "species": "dog", "breed": "Beagle", "color": "Tricolour",
            "gender": "female", "weight": 12.5, "date_of_birth": "2020-04-01", "microchip_id": "985112345678901",
        ], "create")
        book.label(biscuit.json["id"].string, "pet-biscuit")
        let biscuitID = biscuit.json["id"].string ?? ""
        let crumb = try await s.call(.POST, "/api/v1/pets", token: vet, json: [
            "owner_id": graceID, "name": "Crumb", "species": "cat",
        ], "create (minimal)")
        book.label(crumb.json["id"].string, "pet-crumb")
        try await s.call(.POST, "/api/v1/pets", token: vet, json: ["name": "Nobody"], "missing owner (400)")
        try await s.call(.GET, "/api/v1/pets/{pet_id}", ["pet_id": bella], token: vet, "Bella")
        try await s.call(.GET, "/api/v1/pets/{pet_id}", ["pet_id": "00000000-0000-4000-8000-000000000000"], token: vet,
                         "unknown (404)")
        try await s.call(.GET, "/api/v1/pets/{pet_id}", ["pet_id": "not-a-uuid"], token: vet, "malformed id (400)")
        try await s.call(.PUT, "/api/v1/pets/{pet_id}", ["pet_id": biscuitID], token: vet,
                         json: ["weight": 13, "medical_notes": "Allergic to chicken"], "update")
        try await s.call(.DELETE, "/api/v1/pets/{pet_id}", ["pet_id": crumb.json["id"].string ?? ""], token: vet,
                         "deactivate")
        try await s.call(.GET, "/api/v1/pets/owner/{owner_id}", ["owner_id": graceID], token: vet, "Grace's pets")
        try await s.call(.GET, "/api/v1/pets/owner/{owner_id}", ["owner_id": Demo.owner(1).lowercased], token: owner,
                         "owner1's own pets")

        // Appointments (multi-pet).
        let booked = try await s.call(.POST, "/api/v1/appointments", token: vet, json: [
            "practice_id": practice, "pet_owner_id": Demo.owner(1).lowercased,
            "assigned_vet_user_id": Demo.vet1.id.lowercased, "appointment_date": "2026-03-12T17:30:00Z",
            "duration_minutes": 45, "appointment_type": "checkup", "title": "Annual checkup",
            "description": "Both dogs", "notes": "Bring records", "pet_ids": [bella, max],
        ], "create with two pets")
        book.label(booked.json["id"].string, "appointment-new")
        let bookedID = booked.json["id"].string ?? ""
        let extra = try await s.call(.POST, "/api/v1/appointments", token: vet, json: [
            "practice_id": practice, "pet_owner_id": graceID, "assigned_vet_user_id": Demo.vet2.id.lowercased,
            "appointment_date": "2026-03-13T16:00:00Z", "title": "Biscuit check", "pet_ids": [biscuitID],
        ], "create (another vet)")
        book.label(extra.json["id"].string, "appointment-extra")
        try await s.call(.POST, "/api/v1/appointments", token: vet, json: [
            "practice_id": practice, "pet_owner_id": Demo.owner(1).lowercased, "appointment_date": "soon",
            "title": "X", "pet_ids": [bella],
        ], "bad date (400)")
        try await s.call(.GET, "/api/v1/appointments/{appointment_id}", ["appointment_id": appointment1], token: vet,
                         "demo appointment 1")
        try await s.call(.GET, "/api/v1/appointments/{appointment_id}", ["appointment_id": bookedID], token: owner,
                         "owner reads their appointment")
        try await s.call(.PUT, "/api/v1/appointments/{appointment_id}", ["appointment_id": bookedID], token: vet,
                         json: ["title": "Annual checkup and vaccines", "status": "confirmed"], "update")
        try await s.call(.DELETE, "/api/v1/appointments/{appointment_id}",
                         ["appointment_id": extra.json["id"].string ?? ""], token: vet, "cancel")
        try await s.call(.GET, "/api/v1/appointments/pet-owner/{owner_id}", ["owner_id": Demo.owner(1).lowercased],
                         token: vet, "owner 1")
        try await s.call(.GET, "/api/v1/appointments/practice/{practice_id}", ["practice_id": practice],
                         query: "date=2026-03-10", token: vet, "the seed day")
        try await s.call(.GET, "/api/v1/appointments/practice/{practice_id}", ["practice_id": practice],
                         query: "date=10-03-2026", token: vet, "bad date (400)")
        try await s.call(.GET, "/api/v1/dashboard/vet/{vet_user_id}", ["vet_user_id": Demo.vet1.id.lowercased],
                         query: "date=2026-03-12", token: vet, "a day")
        try await s.call(.GET, "/api/v1/dashboard/vet/{vet_user_id}/today",
                         ["vet_user_id": Demo.vet1.id.lowercased], token: vet, "today")

        // Availability.
        let window = try await s.call(.POST, "/api/v1/scheduling-unix/vet-availability", token: vet, json: [
            "vet_user_id": Demo.vet1.id.lowercased, "practice_id": practice,
            "start_at": "2026-03-11T16:00:00Z", "end_at": "2026-03-12T00:00:00Z", "availability_type": "AVAILABLE",
        ], "create")
        book.label(window.json["id"].string, "availability")
        let windowID = window.json["id"].string ?? ""
        try await s.call(.GET, "/api/v1/scheduling-unix/vet-availability/{id}", ["id": Demo.vet1.id.lowercased],
                         query: "date=2026-03-11&timezone=America/Los_Angeles", token: vet, "a vet's day")
        try await s.call(.GET, "/api/v1/scheduling-unix/vet-availability/{id}", ["id": Demo.vet1.id.lowercased],
                         query: "date=2026-03-11&timezone=America/Los_Angeles&slots=true", token: vet, "slots")
        try await s.call(.PUT, "/api/v1/scheduling-unix/vet-availability/{id}", ["id": windowID], token: vet,
                         json: ["availability_type": "SURGERY_BLOCK", "notes": "Spay clinic"], "update")
        try await s.call(.DELETE, "/api/v1/scheduling-unix/vet-availability/{id}", ["id": windowID], token: vet,
                         "delete")

        // Medical records.
        try await s.call(.GET, "/api/v1/medical-records/pet/{pet_id}", ["pet_id": bella], token: vet, "Bella")
        try await s.call(.GET, "/api/v1/medical-records/pet/{pet_id}", ["pet_id": bella],
                         query: "include_historical=true&latest_only=false", token: vet, "Bella with history")
        try await s.call(.GET, "/api/v1/medical-records/pet/{pet_id}/history", ["pet_id": bella], token: vet,
                         "Bella's lineages")
        try await s.call(.GET, "/api/v1/medical-records/{record_id}", ["record_id": Demo.record(2).lowercased],
                         token: owner, "owner reads record 2")
        let record = try await s.call(.POST, "/api/v1/medical-records", token: vet, json: [
            "pet_id": bella, "record_type": "checkup", "title": "Golden exam", "description": "Routine",
            "diagnosis": "Healthy", "treatment": "None", "medications": ["Apoquel 16 mg", "Fish oil"],
            "visit_date": "2026-03-10T17:00:00Z", "follow_up_required": true, "follow_up_date": "2026-09-10",
            "weight": 25.5, "temperature": 101.5, "cost": 120, "notes": "Good girl",
            "medical_data": ["heart_rate": 90],
        ], "create (medications list joined in the legacy profile)")
        book.label(record.json["id"].string, "record-new")
        try await s.call(.POST, "/api/v1/medical-records", token: vet, json: ["pet_id": bella],
                         "missing fields (400)")
        try await s.call(.PUT, "/api/v1/medical-records/{record_id}", ["record_id": record.json["id"].string ?? ""],
                         token: vet, json: ["diagnosis": "Mild dermatitis", "medications": ["Apoquel 16 mg"]],
                         "amend (new version)")

        // Visit transcripts: the manual one, a transcribed recording with an approved note and addenda.
        let manual = try await s.call(.POST, "/api/v1/visit-transcripts", token: vet, json: [
            "pet_id": max, "visit_date": 1_773_160_000, "full_text": "Max is doing well.",
            "metadata": ["chief_complaint": "Recheck"],
        ], "manual transcript")
        book.label(manual.json["uuid"].string ?? manual.json["id"].string, "visit-manual")
        let manualID = manual.json["uuid"].string ?? manual.json["id"].string ?? ""
        try await s.call(.GET, "/api/v1/visit-transcripts/{visit_id}", ["visit_id": Demo.visitID.lowercased],
                         token: vet, "the demo visit")
        try await s.call(.PUT, "/api/v1/visit-transcripts/{visit_id}", ["visit_id": manualID], token: vet,
                         json: ["metadata": ["chief_complaint": "Recheck of the ear"]], "update metadata")

        let transcribed = try await ClinicalNoteTests.transcribed(app, vet)
        book.label(transcribed, "visit-recorded")
        try await s.call(.GET, "/api/v1/visit-transcripts/{visit_id}", ["visit_id": transcribed], token: vet,
                         "transcribed recording with its draft note")
        try await s.call(.POST, "/api/v1/visit-transcripts/{visit_id}/addenda", ["visit_id": transcribed], token: vet,
                         json: ["text": "Too early"], "before approval (409)")
        try await s.call(.GET, "/api/v1/visit-transcripts/{visit_id}/discharge-instructions",
                         ["visit_id": transcribed], token: owner, "before approval (409)")
        let corrected = try await s.call(.PUT, "/api/v1/visit-transcripts/{visit_id}/note", ["visit_id": transcribed],
                         token: vet, json: [
                             "medications": [
                                 ["name": "amoxicillin", "dose": 250, "unit": "mg", "route": "oral",
                                  "frequency": "twice daily", "duration": "10 days"],
                                 ["name": "meloxicam", "dose": 1.5, "unit": "mg", "frequency": "once daily"],
                             ],
                             "follow_up": ["interval_days": 14, "reason": "ear"],
                         ], "correct the drafted note")
        try await s.call(.PUT, "/api/v1/visit-transcripts/{visit_id}/note", ["visit_id": transcribed], token: vet,
                         json: ["vitals": ["weight": ["value": 25, "unit": "stone"]]], "bad correction (400)")
        try await s.call(.PUT, "/api/v1/visit-transcripts/{visit_id}/note", ["visit_id": manualID], token: vet,
                         json: ["follow_up": nil], "a visit without a drafted note (409)")
        try await s.call(.PUT, "/api/v1/visit-transcripts/{visit_id}", ["visit_id": transcribed], token: vet,
                         json: ["summary": corrected.json["summary"].string ?? ""], "approve the note as corrected")
        try await s.call(.PUT, "/api/v1/visit-transcripts/{visit_id}/note", ["visit_id": transcribed], token: vet,
                         json: ["follow_up": nil], "approved note is locked (409)")
        try await s.call(.PUT, "/api/v1/visit-transcripts/{visit_id}", ["visit_id": transcribed], token: vet,
                         json: ["summary": "Changed my mind."], "approved note is locked (409)")
        try await s.call(.POST, "/api/v1/visit-transcripts/{visit_id}/addenda", ["visit_id": transcribed], token: vet,
                         json: ["text": "Culture came back: Malassezia."], "addendum")
        try await s.call(.GET, "/api/v1/visit-transcripts/{visit_id}/addenda", ["visit_id": transcribed],
                         token: owner, "owner reads the addenda")
        try await s.call(.GET, "/api/v1/visit-transcripts/{visit_id}/discharge-instructions",
                         ["visit_id": transcribed], token: owner, "owner reads the discharge instructions")
        try await s.call(.GET, "/api/v1/visit-transcripts/{visit_id}", ["visit_id": transcribed], token: owner,
                         "owner's view of the approved visit")
        try await s.call(.GET, "/api/v1/visit-transcripts/pet/{pet_id}", ["pet_id": bella], token: vet, "Bella's visits")
        try await s.call(.GET, "/api/v1/visit-transcripts/appointments/{appointment_id}/visits",
                         ["appointment_id": appointment1], query: "pet_id=\(bella)", token: vet,
                         "appointment 1, Bella")
        try await s.call(.POST, "/api/v1/visit-transcripts/{visit_id}/transcribe", ["visit_id": transcribed],
                         token: vet, "transcribe again (engine off)")

        // The recording flow v2 for Max in appointment 1, and the legacy upload for Mittens.
        let initiated = try await s.call(.POST, "/api/v1/visit-transcripts/audio/upload/initiate", token: vet, json: [
            "pet_id": max, "appointment_id": appointment1, "filename": "max.m4a", "content_type": "audio/m4a",
            "estimated_duration_seconds": 120,
        ], "initiate")
        let maxVisit = initiated.json["visit_id"].string ?? ""
        book.label(maxVisit, "visit-max")
        try await s.call(.POST, "/api/v1/visit-transcripts/audio/upload/initiate", token: vet, json: [
            "pet_id": max, "filename": "max.exe", "content_type": "application/x-msdownload",
        ], "unsupported type (400)")
        // The client's upload to the embedded store (the store's own route, pinned here too: a presigned POST form).
        let fields = RecordingFixtures.Initiated(response: initiated).fields
        let upload = RecordingFixtures.multipart(
            text: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
            files: [.init(name: "file", filename: "max.m4a", contentType: "audio/m4a",
                          bytes: RecordingFixtures.bytes(2048))])
        let uploaded = try await s.call(.POST, "/storage/{bucket}", ["bucket": RecordingFixtures.bucket], token: nil,
                                        raw: (upload.body, upload.contentType),
                                        headers: ["Host": RecordingFixtures.host], "presigned POST of the recording")
        #expect(uploaded.status == .noContent, "upload: \(uploaded)")
        try await s.call(.POST, "/api/v1/visit-transcripts/audio/upload/complete/{visit_id}", ["visit_id": maxVisit],
                         token: vet, json: [:], "complete")
        try await s.call(.GET, "/api/v1/visit-transcripts/audio/playback/{visit_id}", ["visit_id": maxVisit],
                         token: vet, "playback")
        let form = RecordingFixtures.multipart(
            text: [("appointment_id", appointment1), ("pet_id", Demo.pet(3).lowercased)],
            files: [.init(name: "audio", filename: "mittens.m4a", contentType: "audio/m4a",
                          bytes: RecordingFixtures.bytes(1024, seed: 3))])
        let legacy = try await s.call(.POST, "/api/v1/upload/audio", token: vet,
                                      raw: (form.body, form.contentType), "legacy multipart upload")
        book.label(legacy.json["visit_id"].string, "visit-mittens")

        try await s.call(.DELETE, "/api/v1/visit-transcripts/{visit_id}", ["visit_id": manualID], token: admin,
                         "delete the manual transcript")
        try await s.call(.DELETE, "/api/v1/visit-transcripts/{visit_id}", ["visit_id": manualID], token: vet,
                         "vet may not (403)")

        // Device tokens.
        let deviceToken = String(repeating: "ab12", count: 16)
        try await s.call(.POST, "/api/v1/device-tokens/register", token: vet2,
                         json: ["device_token": deviceToken, "platform": "ios"], "register")
        try await s.call(.POST, "/api/v1/device-tokens/register", token: vet2, json: ["device_token": "xyz"],
                         "not hexadecimal (400)")
        try await s.call(.GET, "/api/v1/device-tokens", token: vet2, "list")
        try await s.call(.DELETE, "/api/v1/device-tokens/unregister", token: vet2,
                         json: ["device_token": deviceToken], "unregister")

        try await invitations(s, admin: admin, staff: vet2)
    }

    /// Practice invitations, last, so the ids they make come after every other golden's. The code is read from the
    /// queued email, the only place it exists.
    static func invitations(_ s: Session, admin: String, staff: String) async throws {
        let book = s.book
        let practice = Demo.practiceID.lowercased
        let invite = try await s.call(.POST, "/api/v1/practices/{practice_id}/invites", ["practice_id": practice],
                                      token: admin, json: ["email": "invitee@example.com", "expiration_days": 3], "invite")
        let inviteID = invite.json["id"].string ?? ""
        book.label(inviteID, "invite")
        try await s.call(.POST, "/api/v1/practices/{practice_id}/invites", ["practice_id": practice], token: admin,
                         json: ["email": "invitee@example.com"], "already pending (409)")
        try await s.call(.POST, "/api/v1/practices/{practice_id}/invites", ["practice_id": practice], token: staff,
                         json: ["email": "other@example.com"], "VET_STAFF may not (403)")
        let revokable = try await s.call(.POST, "/api/v1/practices/{practice_id}/invites", ["practice_id": practice],
                                         token: admin, json: ["email": "revoked@example.com"], "a second one")
        book.label(revokable.json["id"].string, "invite-revoked")
        try await s.call(.DELETE, "/api/v1/practices/{practice_id}/invites/{invite_id}",
                         ["practice_id": practice, "invite_id": revokable.json["id"].string ?? ""], token: admin, "revoke")
        try await s.call(.DELETE, "/api/v1/practices/{practice_id}/invites/{invite_id}",
                         ["practice_id": practice, "invite_id": revokable.json["id"].string ?? ""], token: admin,
                         "already revoked (409)")
        try await s.call(.GET, "/api/v1/practices/{practice_id}/invites", ["practice_id": practice], token: admin, "list")
        try await s.call(.GET, "/api/v1/invites/{invite_id}", ["invite_id": inviteID], token: nil, "public view")
        try await s.call(.GET, "/api/v1/invites/{invite_id}", ["invite_id": "not-a-uuid"], token: nil, "malformed id (400)")

        let signup = try await s.call(.POST, "/api/v1/auth/signup", token: nil, json: [
            "username": "goldeninvitee", "password": "long-enough-pw", "email": "invitee@example.com",
            "full_name": "Golden Invitee",
        ], "sign up (the invited address)")
        book.label(signup.json["id"].string, "invitee-user")
        let token = signup.json["access_token"].string ?? ""
        let raw = try await s.app.db.sql.raw("""
            SELECT raw_message FROM mail_outbox WHERE kind = 'practice_invitation' AND recipient = 'invitee@example.com'
            """).first()?.decode(column: "raw_message", as: String.self) ?? ""
        let code = raw.firstMatch(of: #/Code: ([A-Z2-9]{12})/#).map { String($0.1) } ?? ""
        try await s.call(.POST, "/api/v1/invites/{invite_id}/accept", ["invite_id": inviteID], token: token,
                         json: ["invite_code": "WRONGCODE234"], "wrong code (403)")
        try await s.call(.POST, "/api/v1/invites/{invite_id}/accept", ["invite_id": inviteID], token: token,
                         json: ["invite_code": code], "accept")
        try await s.call(.POST, "/api/v1/invites/{invite_id}/accept", ["invite_id": inviteID], token: token,
                         json: ["invite_code": code], "already used (410)")
    }
}
