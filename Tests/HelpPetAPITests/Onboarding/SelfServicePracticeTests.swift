import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /practices` by a non-admin: a pending user's self-service practice, only when the server allows it.
@Suite struct SelfServicePracticeTests {
    static var body: [String: Any?] { ["name": "Corner Vet", "address": "1 Main St", "specialties": [String]()] }

    @Test func byDefaultOnlyAnAdministratorCreatesPractices() async throws {
        try await withTestApp { app in
            let pending = try await Onboarding.signUp(app, "founder")
            expectError(try await app.post("/api/v1/practices", token: pending.token, json: Self.body), .forbidden,
                "Creating a practice requires an administrator: self-service practices are disabled on this server")
            // Members and pet owners keep the contract's answer, whatever the setting.
            expectError(try await app.post("/api/v1/practices", token: try await app.token(for: Demo.vet1), json: Self.body),
                .forbidden, "Administrator access required")
            let admin = try await app.post("/api/v1/practices", token: try await app.token(for: Demo.admin),
                json: ["name": "By Admin"])
            expectError(admin, .badRequest, "timezone is required")
        }
    }

    @Test func whenAllowedAPendingUserCreatesAPracticeAndBecomesItsFirstMember() async throws {
        try await withTestApp(env: ["HELPPET_SELF_SERVICE_PRACTICES": "true"]) { app in
            let pending = try await Onboarding.signUp(app, "founder", role: "VET")
            let created = try await app.post("/api/v1/practices", token: pending.token, json: Self.body)
            #expect(created.status == .created, "\(created)")
            let practiceID = try #require(created.json["id"].string)
            #expect(created.json["timezone"].string == "UTC", "the app sends no time zone")
            #expect(created.json["admin_user_id"].string == pending.id)

            let me = try await app.get("/api/v1/auth/me", token: pending.token)
            #expect(me.json["role"].string == "VET" && me.json["practice_id"].string == practiceID, "\(me)")
            // The app then "joins" the practice it created: already done.
            let join = try await app.put(Onboarding.joinPath, token: pending.token, json: ["practice_id": practiceID])
            #expect(join.status == .ok, "\(join)")
            #expect(try await app.get("/api/v1/practices/\(practiceID)", token: pending.token).status == .ok)
            // One practice per founder: they are a member now.
            expectError(try await app.post("/api/v1/practices", token: pending.token, json: Self.body), .forbidden,
                "Administrator access required")
            expectError(try await app.post("/api/v1/practices", token: try await app.token(for: Demo.vet1), json: Self.body),
                .forbidden, "Administrator access required")

            let bad = try await Onboarding.signUp(app, "sloppy")
            expectError(try await app.post("/api/v1/practices", token: bad.token, json: ["name": "X", "timezone": "Mars/Base"]),
                .badRequest, "Invalid timezone: 'Mars/Base'")
            expectError(try await app.post("/api/v1/practices", token: bad.token, json: ["address": "nowhere"]),
                .badRequest, "name is required")
            #expect(try await app.get("/api/v1/auth/me", token: bad.token).json["role"].string == "PENDING")
        }
    }
}
