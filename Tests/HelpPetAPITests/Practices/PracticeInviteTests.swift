import AppCore
import Foundation
@testable import HelpPetAPI
import SQLKit
import Testing
import VaporTesting

/// Practice invitations (docs/invitations.md) on the test's database engine (SQLite, or PostgreSQL with
/// `DATABASE_URL`): who may invite, the email with the code, acceptance by the invited address only, and the
/// refusals of used, revoked, expired, duplicate invitations and wrong codes.
@Suite struct PracticeInviteTests {
    static func invitesPath(_ practice: UUID = Demo.practiceID) -> String {
        "/api/v1/practices/\(practice.lowercased)/invites"
    }

    /// A VET of `practice`, made by the ADMIN; answers their token.
    static func vet(_ app: Application, _ username: String, practice: UUID = Demo.practiceID) async throws -> String {
        let admin = try await app.token(for: Demo.admin)
        let created = try await app.post("/api/v1/users", token: admin, json: [
            "username": username, "password": "long-enough-pw", "email": "\(username)@example.com",
            "full_name": "Dr. \(username)", "role": "VET", "practice_id": practice.lowercased,
        ])
        #expect(created.status == .created, "\(created)")
        return try await app.token(for: UUID(uuidString: try #require(created.json["id"].string))!)
    }

    static func secondPractice(_ app: Application) async throws -> UUID {
        let admin = try await app.token(for: Demo.admin)
        let clinic = try await app.post("/api/v1/practices", token: admin, json: ["name": "Second Clinic", "timezone": "UTC"])
        #expect(clinic.status == .created, "\(clinic)")
        return UUID(uuidString: try #require(clinic.json["id"].string))!
    }

    /// The code, read from the queued email as the invited person would (it is stored nowhere else).
    static func code(_ app: Application, to recipient: String) async throws -> String {
        let rows = try await app.db.sql.raw("""
            SELECT raw_message FROM mail_outbox WHERE kind = 'practice_invitation' AND recipient = \(bind: recipient)
            ORDER BY created_at DESC
            """).all()
        let raw = try #require(try rows.first?.decode(column: "raw_message", as: String.self))
        let match = try #require(raw.firstMatch(of: #/Code: ([A-Z2-9]{12})/#))
        return String(match.1)
    }

    @Test func anAdminsInvitationLetsAPendingUserWithThatAddressJoinAsVetStaff() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let created = try await app.post(Self.invitesPath(), token: admin, json: ["email": "Joiner@Example.com"])
            #expect(created.status == .created, "\(created)")
            #expect(created.json["status"].string == "pending" && created.json["email"].string == "joiner@example.com")
            #expect(created.json["code"].string == nil && created.json["code_hash"].string == nil)
            let id = try #require(created.json["id"].string)
            let code = try await Self.code(app, to: "joiner@example.com")
            // Only the code's hash is stored.
            let stored = try await app.db.sql.raw("SELECT code_hash FROM practice_invites").all()
                .map { try $0.decode(column: "code_hash", as: String.self) }
            #expect(stored == [ConsoleCredentials.hash(code)] && !stored.contains(code))

            // The public view: the practice, no code, no address.
            let shown = try await app.get("/api/v1/invites/\(id)")
            #expect(shown.status == .ok, "\(shown)")
            #expect(shown.json["practice_name"].string != nil && shown.json["role"].string == "VET_STAFF")
            #expect(shown.json["status"].string == "pending")
            #expect(!shown.text.contains("joiner@example.com") && !shown.text.contains(code))

            let joiner = try await Onboarding.signUp(app, "joiner")
            let accepted = try await app.post("/api/v1/invites/\(id)/accept", token: joiner.token, json: ["invite_code": code])
            #expect(accepted.status == .ok, "\(accepted)")
            #expect(accepted.json["role"].string == "VET_STAFF")
            #expect(accepted.json["practice_id"].string == Demo.practiceID.lowercased)
            // The signup's token now passes the membership gate.
            let practice = try await app.get("/api/v1/practices/\(Demo.practiceID.lowercased)", token: joiner.token)
            #expect(practice.status == .ok, "\(practice)")

            expectError(
                try await app.post("/api/v1/invites/\(id)/accept", token: joiner.token, json: ["invite_code": code]),
                .gone, "This invitation has already been used")
            let listed = try await app.get(Self.invitesPath(), token: admin)
            #expect(listed.json.array?.map { $0["status"].string } == ["accepted"])
            #expect(listed.json[0]["accepted_by"].string == joiner.id)
        }
    }

    @Test func anAdminInvitesToAnyPracticeAVetOnlyToTheirOwnOtherRolesNever() async throws {
        try await withTestApp { app in
            let other = try await Self.secondPractice(app)
            let admin = try await app.token(for: Demo.admin)
            #expect(try await app.post(Self.invitesPath(other), token: admin, json: ["email": "a@example.com"]).status == .created)
            let vet = try await Self.vet(app, "drvet")
            #expect(try await app.post(Self.invitesPath(), token: vet, json: ["email": "b@example.com"]).status == .created)
            #expect(try await app.get(Self.invitesPath(), token: vet).json.array?.count == 1)
            expectError(try await app.post(Self.invitesPath(other), token: vet, json: ["email": "c@example.com"]),
                        .notFound, "Practice not found")
            expectError(try await app.get(Self.invitesPath(other), token: vet), .notFound, "Practice not found")
            let staff = try await app.token(for: Demo.vet2)
            expectError(try await app.post(Self.invitesPath(), token: staff, json: ["email": "d@example.com"]),
                        .forbidden, "Administrator or veterinarian access required")
            expectError(try await app.get(Self.invitesPath(), token: staff),
                        .forbidden, "Administrator or veterinarian access required")
            let owner = try await app.token(for: Demo.owner1)
            expectError(try await app.post(Self.invitesPath(), token: owner, json: ["email": "d@example.com"]),
                        .forbidden, "Administrator or veterinarian access required")
            let pending = try await Onboarding.signUp(app, "waiting")
            #expect(try await app.post(Self.invitesPath(), token: pending.token, json: ["email": "d@example.com"]).status == .forbidden)
            #expect(try await app.post(Self.invitesPath(), json: ["email": "d@example.com"]).status == .unauthorized)
        }
    }

    @Test func oneOpenInvitationPerAddressAndRevokedOrUsedOnesAreRefused() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let first = try await app.post(Self.invitesPath(), token: admin, json: ["email": "twice@example.com"])
            let id = try #require(first.json["id"].string)
            let code = try await Self.code(app, to: "twice@example.com")
            expectError(try await app.post(Self.invitesPath(), token: admin, json: ["email": "TWICE@example.com"]),
                        .conflict, "An invitation for this address is already pending")
            // The same address may be invited to another practice.
            let other = try await Self.secondPractice(app)
            #expect(try await app.post(Self.invitesPath(other), token: admin, json: ["email": "twice@example.com"]).status == .created)

            let revoked = try await app.delete("\(Self.invitesPath())/\(id)", token: admin)
            #expect(revoked.status == .noContent, "\(revoked)")
            expectError(try await app.delete("\(Self.invitesPath())/\(id)", token: admin),
                        .conflict, "This invitation has already been revoked")
            // Revoking through another practice's path is a 404.
            expectError(try await app.delete("\(Self.invitesPath(other))/\(id)", token: admin), .notFound, "Invitation not found")
            let twice = try await Onboarding.signUp(app, "twice")
            expectError(try await app.post("/api/v1/invites/\(id)/accept", token: twice.token, json: ["invite_code": code]),
                        .gone, "This invitation has been revoked")
            #expect(try await app.get("/api/v1/invites/\(id)").json["status"].string == "revoked")
            // A revoked invitation no longer blocks a new one.
            #expect(try await app.post(Self.invitesPath(), token: admin, json: ["email": "twice@example.com"]).status == .created)
        }
    }

    @Test func anExpiredInvitationIsRefusedAndGivesWayToANewOne() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_790_000_000))
        try await withTestApp(clock: clock) { app in
            let admin = try await app.token(for: Demo.admin)
            let first = try await app.post(Self.invitesPath(), token: admin, json: ["email": "late@example.com", "expiration_days": 1])
            #expect(first.status == .created, "\(first)")
            let id = try #require(first.json["id"].string)
            let code = try await Self.code(app, to: "late@example.com")
            let late = try await Onboarding.signUp(app, "late")
            clock.advance(by: 86_400 + 1)
            // Tokens of a day later (the ones above may have expired meanwhile).
            let lateToken = try await app.token(for: UUID(uuidString: late.id)!)
            let laterAdmin = try await app.token(for: Demo.admin)
            #expect(try await app.get("/api/v1/invites/\(id)").json["status"].string == "expired")
            expectError(try await app.post("/api/v1/invites/\(id)/accept", token: lateToken, json: ["invite_code": code]),
                        .gone, "This invitation has expired")
            #expect(try await app.post(Self.invitesPath(), token: laterAdmin, json: ["email": "late@example.com"]).status == .created)
        }
    }

    @Test func onlyTheInvitedAddressWithTheRightCodeJoinsAndWrongCodesAreLimited() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let created = try await app.post(Self.invitesPath(), token: admin, json: ["email": "guess@example.com"])
            let id = try #require(created.json["id"].string)
            let code = try await Self.code(app, to: "guess@example.com")
            let stranger = try await Onboarding.signUp(app, "stranger")
            expectError(try await app.post("/api/v1/invites/\(id)/accept", token: stranger.token, json: ["invite_code": code]),
                        .forbidden, "This invitation was sent to another email address")
            let guess = try await Onboarding.signUp(app, "guess")
            for _ in 0..<5 {
                expectError(try await app.post("/api/v1/invites/\(id)/accept", token: guess.token, json: ["invite_code": "AAAAAAAAAAAA"]),
                            .forbidden, "Invalid invitation code")
            }
            // Locked now, even with the right code.
            let locked = try await app.post("/api/v1/invites/\(id)/accept", token: guess.token, json: ["invite_code": code])
            #expect(locked.status == .tooManyRequests, "\(locked)")
            #expect(locked.headers.first(name: "Retry-After") != nil)
            #expect(try await app.get("/api/v1/auth/me", token: guess.token).json["role"].string != "VET_STAFF")
        }
    }

    @Test func membersAdminsAndOwnersCannotAcceptAndBadInputIsA400() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            expectError(try await app.post(Self.invitesPath(), token: admin, json: ["email": "vet1@helppet.ai"]),
                        .conflict, "This address already belongs to a member of this practice")
            let other = try await Self.secondPractice(app)
            let created = try await app.post(Self.invitesPath(other), token: admin, json: ["email": "vet1@helppet.ai"])
            let id = try #require(created.json["id"].string)
            let code = try await Self.code(app, to: "vet1@helppet.ai")
            let vet1 = try await app.token(for: Demo.vet1)
            expectError(try await app.post("/api/v1/invites/\(id)/accept", token: vet1, json: ["invite_code": code]),
                        .conflict, "You already belong to a practice; an administrator can move you to another one")
            // The refusal did not use the invitation up.
            #expect(try await app.get("/api/v1/invites/\(id)").json["status"].string == "pending")

            for body: [String: Any?] in [[:], ["email": "not-an-address"], ["email": "a@b.c", "expiration_days": 0],
                                          ["email": "a@b.c", "expiration_days": 31], ["email": "a@b.c", "expiration_days": "7"]] {
                let bad = try await app.post(Self.invitesPath(), token: admin, json: body)
                #expect(bad.status == .badRequest, "\(body): \(bad)")
            }
            expectError(try await app.get("/api/v1/invites/not-a-uuid"), .badRequest, "Invalid invitation ID format")
            expectError(try await app.get("/api/v1/invites/\(UUID().uuidString.lowercased())"), .notFound, "Invitation not found")
            let missing = try await app.post("/api/v1/invites/\(id)/accept", token: vet1, json: [:])
            #expect(missing.status == .badRequest, "\(missing)")
            #expect(try await app.post("/api/v1/invites/\(id)/accept", json: ["invite_code": code]).status == .unauthorized)
        }
    }
}
