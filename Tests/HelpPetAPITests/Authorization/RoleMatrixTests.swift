import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// The role matrix of contract §2.7 (with the visibility rules of §2.5 and the 403 details of §2.6) for every
/// implemented endpoint: users, practices, dashboard, appointments, pet owners, pets, medical records and visit
/// transcripts. The recording endpoints (initiate, upload, complete, playback, transcribe, visit DELETE) have their
/// cross-tenant matrix in CrossTenantAudioTests.
///
/// Each line of `matrix` is one endpoint with its five cells; every cell runs as its own test case on a fresh
/// application. The callers:
///
/// | caller | who | data addressed |
/// |---|---|---|
/// | `admin` | ADMIN | Emily Davis (owner 2), Fluffy (pet 4), appointment 2, record 4, a visit of Fluffy, the demo practice |
/// | `member` | vet1, member of the demo practice | the same |
/// | `otherMember` | vet9, member of another practice | the same |
/// | `owner` | owner1 (John Smith) | their own data: owner 1, Bella (pet 1), appointment 1, record 2, the demo visit, the demo practice |
/// | `ownerOnOthers` | owner1 | Emily Davis's data as above, and a practice John is not a client of |
///
/// Write requests carry bodies that would succeed for a caller allowed to make them; a refused request must leave
/// the database untouched (same row counts, no row stamped at the request's time), an accepted write must change it.
@Suite struct RoleMatrixTests {
    enum Caller: String, Sendable, CaseIterable {
        case admin, member, otherMember, owner, ownerOnOthers

        var label: String {
            switch self {
            case .admin: return "ADMIN"
            case .member: return "vet1 (same practice)"
            case .otherMember: return "vet9 (other practice)"
            case .owner: return "owner1 (own data)"
            case .ownerOnOthers: return "owner1 (Emily Davis's data)"
            }
        }
    }

    enum Outcome: Sendable, CustomStringConvertible {
        case ok, created
        case forbidden(String)
        case notFound(String)

        static let adminOnly = Outcome.forbidden("Administrator access required")
        static let staffOnly = Outcome.forbidden("Veterinary staff or administrator access required")
        static let ownDashboardOnly = Outcome.forbidden("Access denied. Can only view your own dashboard.")

        var status: HTTPStatus {
            switch self {
            case .ok: return .ok
            case .created: return .created
            case .forbidden: return .forbidden
            case .notFound: return .notFound
            }
        }

        var detail: String? {
            switch self {
            case .ok, .created: return nil
            case .forbidden(let d), .notFound(let d): return d
            }
        }

        var description: String { "\(status.code)" + (detail.map { " \($0)" } ?? "") }
    }

    /// The ids a row addresses, chosen by its caller (see the table above).
    struct World: Sendable {
        let caller: Caller
        let otherPracticeID: String
        let fluffyVisitID: String
        let appointment1: String
        let appointment2: String

        var ownData: Bool { caller == .owner }
        var owner: String { Demo.owner(ownData ? 1 : 2).lowercased }
        var pet: String { Demo.pet(ownData ? 1 : 4).lowercased }
        var appointment: String { ownData ? appointment1 : appointment2 }
        var record: String { Demo.record(ownData ? 2 : 4).lowercased }
        var visit: String { ownData ? Demo.visitID.lowercased : fluffyVisitID }
        var practice: String { caller == .ownerOnOthers ? otherPracticeID : Demo.practiceID.lowercased }
        var vet1: String { Demo.vet1.id.lowercased }
        /// ADMIN must name a practice where members may omit it (§2.5 practice resolution).
        var practiceForAdmin: [String: Any?] { caller == .admin ? ["practice_id": Demo.practiceID.lowercased] : [:] }
    }

    struct Endpoint: Sendable {
        let name: String
        let method: HTTPMethod
        let path: @Sendable (World) -> String
        let body: (@Sendable (World) -> [String: Any?])?

        init(_ name: String, _ method: HTTPMethod = .GET, body: (@Sendable (World) -> [String: Any?])? = nil,
             path: @escaping @Sendable (World) -> String) {
            self.name = name
            self.method = method
            self.path = path
            self.body = body
        }

        var isWrite: Bool { method != .GET }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let endpoint: Endpoint
        let caller: Caller
        let outcome: Outcome
        var testDescription: String { "\(endpoint.name) as \(caller.label) → \(outcome)" }
    }

    /// One line per endpoint: the cells for ADMIN, vet1, vet9, owner1 on own data, owner1 on Emily Davis's data.
    static func line(
        _ endpoint: Endpoint, _ admin: Outcome, _ member: Outcome, _ otherMember: Outcome, _ owner: Outcome,
        _ ownerOnOthers: Outcome
    ) -> [Row] {
        zip(Caller.allCases, [admin, member, otherMember, owner, ownerOnOthers]).map {
            Row(endpoint: endpoint, caller: $0, outcome: $1)
        }
    }

    static let appointmentNotFound = Outcome.notFound("Appointment not found")
    static let ownerNotFound = Outcome.notFound("Pet owner not found")
    static let petNotFound = Outcome.notFound("Pet not found")
    static let practiceNotFound = Outcome.notFound("Practice not found")
    static let recordNotFound = Outcome.notFound("Medical record not found")
    static let visitNotFound = Outcome.notFound("Visit not found")

    static let lines: [[Row]] = [
        //                                                   ADMIN     vet1      vet9                   owner1 own  owner1 other
        line(Endpoint("GET /auth/me") { _ in "/auth/me" }, .ok, .ok, .ok, .ok, .ok),

        line(Endpoint("GET /users") { _ in "/users" }, .ok, .adminOnly, .adminOnly, .adminOnly, .adminOnly),
        line(Endpoint("GET /users/{id}") { w in "/users/\(w.vet1)" }, .ok, .adminOnly, .adminOnly, .adminOnly, .adminOnly),
        line(Endpoint("POST /users", .POST, body: { _ in [
            "username": "matrix.user", "password": "password123", "email": "matrix.user@helppet.ai",
            "full_name": "Matrix User", "role": "VET_STAFF", "practice_id": Demo.practiceID.lowercased,
        ] }) { _ in "/users" }, .created, .adminOnly, .adminOnly, .adminOnly, .adminOnly),
        line(Endpoint("PUT /users/{id}", .PUT, body: { _ in ["full_name": "Dr. Michael Chen, DVM"] }) { _ in
            "/users/\(Demo.vet2.id.lowercased)"
        }, .ok, .adminOnly, .adminOnly, .adminOnly, .adminOnly),

        line(Endpoint("GET /practices") { _ in "/practices" }, .ok, .ok, .ok, .ok, .ok),
        line(Endpoint("GET /practices/{id}") { w in "/practices/\(w.practice)" },
             .ok, .ok, practiceNotFound, .ok, practiceNotFound),
        line(Endpoint("POST /practices", .POST, body: { _ in ["name": "Matrix Clinic", "timezone": "UTC"] }) { _ in
            "/practices"
        }, .created, .adminOnly, .adminOnly, .adminOnly, .adminOnly),
        line(Endpoint("PUT /practices/{id}", .PUT, body: { _ in ["phone": "+1-555-000-0000"] }) { w in
            "/practices/\(w.practice)"
        }, .ok, .adminOnly, .adminOnly, .adminOnly, .adminOnly),

        line(Endpoint("GET /dashboard/vet/{id}") { w in "/dashboard/vet/\(w.vet1)" },
             .ok, .ok, .ownDashboardOnly, .staffOnly, .staffOnly),
        line(Endpoint("GET /dashboard/vet/{id}/today") { w in "/dashboard/vet/\(w.vet1)/today" },
             .ok, .ok, .ownDashboardOnly, .staffOnly, .staffOnly),

        line(Endpoint("POST /appointments", .POST, body: { w in ([
            "pet_owner_id": w.owner, "pet_ids": [w.pet], "appointment_date": "2030-05-01T16:00:00Z", "title": "Matrix visit",
        ] as [String: Any?]).merging(w.practiceForAdmin) { _, new in new } }) { _ in "/appointments" },
             .created, .created, ownerNotFound, .staffOnly, .staffOnly),
        line(Endpoint("GET /appointments/{id}") { w in "/appointments/\(w.appointment)" },
             .ok, .ok, appointmentNotFound, .ok, appointmentNotFound),
        line(Endpoint("PUT /appointments/{id}", .PUT, body: { _ in ["notes": "Matrix note"] }) { w in
            "/appointments/\(w.appointment)"
        }, .ok, .ok, appointmentNotFound, .staffOnly, .staffOnly),
        line(Endpoint("DELETE /appointments/{id}", .DELETE) { w in "/appointments/\(w.appointment)" },
             .ok, .ok, appointmentNotFound, .staffOnly, .staffOnly),
        line(Endpoint("GET /appointments/pet-owner/{id}") { w in "/appointments/pet-owner/\(w.owner)" },
             .ok, .ok, ownerNotFound, .ok, ownerNotFound),
        line(Endpoint("GET /appointments/practice/{id}") { w in "/appointments/practice/\(w.practice)" },
             .ok, .ok, practiceNotFound, .staffOnly, .staffOnly),

        line(Endpoint("GET /pet-owners") { _ in "/pet-owners" }, .ok, .ok, .ok, .staffOnly, .staffOnly),
        line(Endpoint("POST /pet-owners", .POST, body: { w in ([
            "first_name": "Matrix", "last_name": "Owner", "email": "matrix.owner@example.com",
        ] as [String: Any?]).merging(w.practiceForAdmin) { _, new in new } }) { _ in "/pet-owners" },
             .created, .created, .created, .staffOnly, .staffOnly),
        line(Endpoint("GET /pet-owners/{id}") { w in "/pet-owners/\(w.owner)" },
             .ok, .ok, ownerNotFound, .ok, ownerNotFound),
        line(Endpoint("PUT /pet-owners/{id}", .PUT, body: { _ in ["address": "1 Matrix Way"] }) { w in
            "/pet-owners/\(w.owner)"
        }, .ok, .ok, ownerNotFound, .staffOnly, .staffOnly),
        line(Endpoint("POST /pet-owners/{id}/practices", .POST, body: { w in ["practice_id": w.otherPracticeID] }) { w in
            "/pet-owners/\(w.owner)/practices"
        }, .ok, .adminOnly, .adminOnly, .adminOnly, .adminOnly),

        line(Endpoint("POST /pets", .POST, body: { w in ["owner_id": w.owner, "name": "Matrix", "species": "cat"] }) { _ in
            "/pets"
        }, .created, .created, ownerNotFound, .staffOnly, .staffOnly),
        line(Endpoint("GET /pets/{id}") { w in "/pets/\(w.pet)" }, .ok, .ok, petNotFound, .ok, petNotFound),
        line(Endpoint("GET /pets/owner/{id}") { w in "/pets/owner/\(w.owner)" }, .ok, .ok, ownerNotFound, .ok, ownerNotFound),
        line(Endpoint("PUT /pets/{id}", .PUT, body: { _ in ["weight": 11.25] }) { w in "/pets/\(w.pet)" },
             .ok, .ok, petNotFound, .staffOnly, .staffOnly),
        line(Endpoint("DELETE /pets/{id}", .DELETE) { w in "/pets/\(w.pet)" }, .ok, .ok, petNotFound, .staffOnly, .staffOnly),

        line(Endpoint("GET /medical-records/pet/{id}") { w in "/medical-records/pet/\(w.pet)" },
             .ok, .ok, petNotFound, .ok, petNotFound),
        line(Endpoint("GET /medical-records/pet/{id}/history") { w in "/medical-records/pet/\(w.pet)/history" },
             .ok, .ok, petNotFound, .ok, petNotFound),
        line(Endpoint("GET /medical-records/{id}") { w in "/medical-records/\(w.record)" },
             .ok, .ok, recordNotFound, .ok, recordNotFound),
        line(Endpoint("POST /medical-records", .POST, body: { w in [
            "pet_id": w.pet, "record_type": "checkup", "title": "Matrix exam",
        ] }) { _ in "/medical-records" }, .created, .created, petNotFound, .staffOnly, .staffOnly),
        line(Endpoint("PUT /medical-records/{id}", .PUT, body: { _ in ["notes": "Matrix amendment"] }) { w in
            "/medical-records/\(w.record)"
        }, .ok, .ok, recordNotFound, .staffOnly, .staffOnly),

        line(Endpoint("GET /visit-transcripts/pet/{id}") { w in "/visit-transcripts/pet/\(w.pet)" },
             .ok, .ok, petNotFound, .ok, petNotFound),
        line(Endpoint("GET /visit-transcripts/{id}") { w in "/visit-transcripts/\(w.visit)" },
             .ok, .ok, visitNotFound, .ok, visitNotFound),
        line(Endpoint("POST /visit-transcripts", .POST, body: { w in [
            "pet_id": w.pet, "visit_date": 1_736_960_400, "full_text": "Matrix transcript",
        ] as [String: Any?] }) { _ in "/visit-transcripts" }, .created, .created, petNotFound, .staffOnly, .staffOnly),
        line(Endpoint("PUT /visit-transcripts/{id}", .PUT, body: { _ in ["summary": "Matrix summary"] }) { w in
            "/visit-transcripts/\(w.visit)"
        }, .ok, .ok, visitNotFound, .staffOnly, .staffOnly),
        line(Endpoint("GET /visit-transcripts/appointments/{id}/visits") { w in
            "/visit-transcripts/appointments/\(w.appointment)/visits"
        }, .ok, .ok, appointmentNotFound, .ok, appointmentNotFound),
    ]

    static let matrix: [Row] = lines.flatMap { $0 }

    @Test(arguments: matrix)
    func cell(_ row: Row) async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let other = try await OtherPractice.create(app)
            let fluffyVisit = try await VisitFixtures.create(
                app, token: try await app.token(for: Demo.admin), ["pet_id": Demo.pet(4).lowercased])
            let world = World(
                caller: row.caller, otherPracticeID: other.practiceID, fluffyVisitID: fluffyVisit,
                appointment1: Demo.appointmentID(1, app).lowercased, appointment2: Demo.appointmentID(2, app).lowercased)
            let token: String
            switch row.caller {
            case .admin: token = try await app.token(for: Demo.admin)
            case .member: token = try await app.token(for: Demo.vet1)
            case .otherMember: token = other.vetToken
            case .owner, .ownerOnOthers: token = try await app.token(for: Demo.owner1)
            }

            // Every write of this request is stamped at or after `requestTime`.
            clock.advance(by: 10)
            let requestTime = clock.now()
            let before = try await DatabaseFingerprint.take(app, since: requestTime)
            let path = "/api/v1" + row.endpoint.path(world)
            let response: TestResponse
            if let body = row.endpoint.body {
                response = try await app.send(
                    row.endpoint.method, path, token: token, body: JSONBody.encode(body(world)), contentType: .json)
            } else {
                response = try await app.send(row.endpoint.method, path, token: token)
            }
            let after = try await DatabaseFingerprint.take(app, since: requestTime)

            #expect(response.status == row.outcome.status, "\(row.endpoint.method) \(path): \(response)")
            if let detail = row.outcome.detail {
                expectError(response, row.outcome.status, detail)
            }
            if row.endpoint.isWrite {
                if row.outcome.detail != nil {
                    #expect(after == before, "a refused write changed the database: \(before) → \(after)")
                    #expect(after.rowsWrittenSince == 0)
                } else {
                    #expect(after != before, "an accepted write changed nothing")
                }
            }
        }
    }
}

/// Row counts of the HelpPet tables plus the number of rows stamped (`updated_at`, or `created_at` for the link
/// table) at or after an instant. Equal fingerprints before and after a request mean it wrote nothing.
struct DatabaseFingerprint: Equatable, CustomStringConvertible {
    static let tables: [(name: String, stamp: String?)] = [
        ("users", "updated_at"), ("practices", "updated_at"), ("pet_owners", "updated_at"),
        ("pet_owner_practices", "created_at"), ("pets", "updated_at"), ("appointments", "updated_at"),
        ("appointment_pets", nil), ("medical_records", "updated_at"), ("visits", "updated_at"),
        ("transcription_jobs", "updated_at"),
    ]

    var counts: [String: Int] = [:]
    var stamped: [String: Int] = [:]

    var rowsWrittenSince: Int { stamped.values.reduce(0, +) }
    var description: String { "counts \(counts.sorted { $0.key < $1.key }), stamped \(stamped.filter { $0.value > 0 })" }

    static func take(_ app: Application, since: Date) async throws -> DatabaseFingerprint {
        var fingerprint = DatabaseFingerprint()
        for (table, stamp) in tables {
            let count = try await app.db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()
            fingerprint.counts[table] = try count?.decode(column: "n", as: Int.self) ?? -1
            if let stamp {
                let recent = try await app.db.sql.raw(
                    "SELECT COUNT(*) AS n FROM \(ident: table) WHERE \(ident: stamp) >= \(bind: since)").first()
                fingerprint.stamped[table] = try recent?.decode(column: "n", as: Int.self) ?? -1
            }
        }
        return fingerprint
    }
}
