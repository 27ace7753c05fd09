import AppCore
import Foundation
import Testing
import VaporTesting

/// The app's onboarding as APIManager runs it: `signUp` (a `[String: String]` body, plain `JSONEncoder`, no token),
/// `joinPractice` / `createPractice` with the token kept from the signup answer, then `getCurrentUser` decoding `User`.
@Suite struct OnboardingAppFlowTests {
    static func signUp(_ app: Application, kind: ClientKind, username: String) async throws -> String {
        let body = try JSONEncoder().encode([
            "username": username, "password": "app-password-1", "email": "\(username)@clinic.example",
            "full_name": "Dana Example", "role": "VET_STAFF",
        ])
        let response = try await AppClient(app: app, token: nil, kind: kind).raw(.POST, "/api/v1/auth/signup", body: body)
        #expect(response.status == .created, "\(response)")
        // What signUp reads: `access_token` at the top level, via JSONSerialization.
        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return try #require(object["access_token"] as? String)
    }

    @Test func theAppSignsUpAsksToJoinAndDecodesThePendingUser() async throws {
        try await withTestApp { app in
            let token = try await Self.signUp(app, kind: .legacy, username: "dana")
            let client = AppClient(app: app, token: token, kind: .legacy)
            let join = try await client.raw(.PUT, "/api/v1/auth/me/practice",
                body: try JSONEncoder().encode(["practice_id": Demo.practiceID.lowercased]))
            #expect(join.status == .ok, "\(join)")
            let user = try await client.get("/api/v1/auth/me", as: App.User.self)
            #expect(user.role == .pendingInvite && user.practiceId == nil && user.isActive)
            #expect(user.fullName == "Dana Example" && user.username == "dana")
            // The standard profile names the state PENDING (no seed role fits a user outside every practice).
            let standard = try await AppClient(app: app, token: token, kind: .standard).raw(.GET, "/api/v1/auth/me")
            #expect(standard.json["role"].string == "PENDING")
        }
    }

    @Test func theAppCreatesItsPracticeWhenSelfServiceIsAllowed() async throws {
        try await withTestApp(env: ["HELPPET_SELF_SERVICE_PRACTICES": "true"]) { app in
            let token = try await Self.signUp(app, kind: .legacy, username: "founder")
            let client = AppClient(app: app, token: token, kind: .legacy)
            let request = App.CreatePracticeRequest(
                name: "Founder Vet", address: "2 Elm St", phone: nil, email: nil, website: "https://founder.example",
                licenseNumber: nil, specialties: ["Feline"], description: nil, acceptsNewPatients: true)
            let created = try await client.raw(.POST, "/api/v1/practices/", body: try AppCoding.plainSnakeCaseEncoder.encode(request))
            #expect(created.status == .created, "\(created)")
            let object = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            let uuid = try #require(object["uuid"] as? String)
            let join = try await client.raw(.PUT, "/api/v1/auth/me/practice", body: try JSONEncoder().encode(["practice_id": uuid]))
            #expect(join.status == .ok, "\(join)")
            let user = try await client.get("/api/v1/auth/me", as: App.User.self)
            #expect(user.role == .vetStaff && user.practiceId == uuid)
            let practice = try await client.get("/api/v1/practices/\(uuid)", as: App.Practice.self)
            #expect(practice.name == "Founder Vet")
        }
    }
}
