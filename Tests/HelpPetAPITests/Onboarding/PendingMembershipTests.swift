import AppCore
import Foundation
import Testing
import VaporTesting

/// Joining a practice (`PUT /auth/me/practice`) only asks; a pending user sees nothing of any practice until an ADMIN
/// admits them with `PUT /users/{id}` and `practice_id`.
@Suite struct PendingMembershipTests {
    /// One request of every list/get family that shows practice data; each is 403 for a pending user.
    static func practiceReads(_ app: Application) -> [String] {
        let vet = Demo.vet1.id.lowercased, owner = Demo.owner(1).lowercased, pet = Demo.pet(1).lowercased
        return [
            "/api/v1/practices", "/api/v1/practices/\(Demo.practiceID.lowercased)",
            "/api/v1/appointments/practice/\(Demo.practiceID.lowercased)",
            "/api/v1/appointments/\(Demo.appointmentID(1, app).lowercased)",
            "/api/v1/appointments/pet-owner/\(owner)",
            "/api/v1/pet-owners", "/api/v1/pet_owners", "/api/v1/pet-owners/\(owner)",
            "/api/v1/pets/owner/\(owner)", "/api/v1/pets/\(pet)",
            "/api/v1/medical-records/pet/\(pet)", "/api/v1/medical-records/pet/\(pet)/history",
            "/api/v1/medical-records/\(Demo.record(1).lowercased)",
            "/api/v1/visit-transcripts/pet/\(pet)", "/api/v1/visit-transcripts/\(Demo.visitID.lowercased)",
            "/api/v1/visit-transcripts/appointments/\(Demo.appointmentID(1, app).lowercased)/visits",
            "/api/v1/visit-transcripts/audio/playback/\(Demo.visitID.lowercased)",
            "/api/v1/dashboard/vet/\(vet)", "/api/v1/dashboard/vet/\(vet)/today",
            "/api/v1/scheduling-unix/vet-availability/\(vet)",
            "/api/v1/users", "/api/v1/users/\(vet)",
        ]
    }

    @Test func aPendingUserSeesNothingOfAnyPracticeEvenAfterAskingToJoin() async throws {
        try await withTestApp { app in
            let pending = try await Onboarding.signUp(app, "waiting")
            let join = try await app.put(Onboarding.joinPath, token: pending.token, json: ["practice_id": Demo.practiceID.uuidString])
            #expect(join.status == .ok, "\(join)")
            #expect(join.json["role"].string == "PENDING" && join.json["practice_id"].isNull)
            #expect(join.json["requested_practice_id"].string == Demo.practiceID.lowercased)
            for path in Self.practiceReads(app) {
                expectError(try await app.get(path, token: pending.token), .forbidden,
                    "Your account is waiting for an administrator to approve your practice membership")
            }
            // Writes are refused the same way, before their bodies are read.
            let create = try await app.post("/api/v1/pet-owners", token: pending.token, json: ["first_name": "A", "last_name": "B"])
            expectError(create, .forbidden, "Your account is waiting for an administrator to approve your practice membership")
            // What a pending user may still do: read themselves and manage their device tokens.
            #expect(try await app.get("/api/v1/auth/me", token: pending.token).json["role"].string == "PENDING")
            #expect(try await app.get("/api/v1/device-tokens", token: pending.token).status == .ok)
        }
    }

    @Test func anAdminAdmitsAPendingUserWithPutUsersAndTheirTokenKeepsWorking() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let pending = try await Onboarding.signUp(app, "joiner", role: "VET")
            _ = try await app.put(Onboarding.joinPath, token: pending.token, json: ["practice_id": Demo.practiceID.uuidString])

            // The default list keeps the contract's four roles; the pending ones are listed when asked for.
            let all = try await app.get("/api/v1/users?limit=200", token: admin)
            #expect(all.json.array?.contains { $0["username"].string == "joiner" } == false)
            let waiting = try await app.get("/api/v1/users?role=PENDING", token: admin)
            #expect(waiting.json.array?.map { $0["username"].string } == ["joiner"], "\(waiting)")
            #expect(waiting.json[0]["requested_practice_id"].string == Demo.practiceID.lowercased)

            let admitted = try await app.put("/api/v1/users/\(pending.id)", token: admin, json: ["practice_id": Demo.practiceID.uuidString])
            #expect(admitted.status == .ok, "\(admitted)")
            #expect(admitted.json["role"].string == "VET", "the role asked for at signup")
            #expect(admitted.json["practice_id"].string == Demo.practiceID.lowercased)
            #expect(admitted.json.keys.contains("requested_practice_id") == false)

            let appointments = try await app.get("/api/v1/appointments/practice/\(Demo.practiceID.lowercased)", token: pending.token)
            #expect(appointments.status == .ok, "admission does not void the signup token: \(appointments)")
            let join = try await app.put(Onboarding.joinPath, token: pending.token, json: ["practice_id": Demo.practiceID.uuidString])
            #expect(join.status == .ok, "joining the practice one belongs to is a no-op")
        }
    }

    @Test func joinRequestsAreValidatedAndNeverAssignable() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "true"]) { app in
            let admin = try await app.token(for: Demo.admin)
            let pending = try await Onboarding.signUp(app, "asker")
            expectError(try await app.put(Onboarding.joinPath, token: pending.token, json: [:]), .badRequest,
                "practice_id is required")
            expectError(try await app.put(Onboarding.joinPath, token: pending.token, json: ["practice_id": UUID().uuidString]),
                .notFound, "Practice not found")
            let inactive = try await app.post("/api/v1/practices", token: admin, json: ["name": "Closed", "timezone": "UTC", "is_active": false])
            let inactiveID = try #require(inactive.json["id"].string)
            expectError(try await app.put(Onboarding.joinPath, token: pending.token, json: ["practice_id": inactiveID]),
                .notFound, "Practice not found")
            let withdrawn = try await app.put(Onboarding.joinPath, token: pending.token, json: ["practice_id": nil])
            #expect(withdrawn.status == .ok && withdrawn.json.keys.contains("requested_practice_id") == false)

            let vet = try await app.token(for: Demo.vet1)
            expectError(try await app.put(Onboarding.joinPath, token: vet, json: ["practice_id": inactiveID]), .conflict,
                "You already belong to a practice; an administrator can move you to another one")
            expectError(try await app.put(Onboarding.joinPath, token: admin, json: ["practice_id": inactiveID]), .conflict,
                "Administrators do not belong to a practice")
            expectError(try await app.put(Onboarding.joinPath, token: try await app.token(for: Demo.owner1),
                json: ["practice_id": inactiveID]), .forbidden, "Pet owners cannot join a practice as staff")
            expectError(try await app.put(Onboarding.joinPath, json: ["practice_id": inactiveID]), .unauthorized, "Not authenticated")

            // PENDING is reached only by signing up: an ADMIN can neither create nor demote into it.
            let create = try await app.post("/api/v1/users", token: admin, json: [
                "username": "made", "password": "long-enough-pw", "email": "made@example.com", "full_name": "M",
                "role": "PENDING",
            ])
            expectError(create, .badRequest, "Invalid role: 'PENDING'. Allowed: VET_STAFF, VET, ADMIN, PET_OWNER")
            let demote = try await app.put("/api/v1/users/\(Demo.vet2.id.lowercased)", token: admin, json: ["role": "PENDING"])
            expectError(demote, .badRequest, "Invalid role: 'PENDING'. Allowed: VET_STAFF, VET, ADMIN, PET_OWNER")
        }
    }
}
