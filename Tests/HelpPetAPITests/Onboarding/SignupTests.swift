import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /auth/signup`: public, rate-limited, creates an active user with no practice (role PENDING).
@Suite struct SignupTests {
    @Test func aSignupCreatesAnActivePendingUserWithoutAPracticeAndAnswersAToken() async throws {
        try await withTestApp { app in
            let response = try await app.post(Onboarding.signupPath, json: Onboarding.body("newvet", role: "VET"))
            #expect(response.status == .created, "\(response)")
            let json = response.json
            #expect(json["role"].string == "PENDING")
            #expect(json["requested_role"].string == "VET")
            #expect(json["practice_id"].isNull && json["is_active"].bool == true)
            #expect(json["token_type"].string == "bearer" && json["expires_in"].int != nil)
            let token = try #require(json["access_token"].string)
            let me = try await app.get("/api/v1/auth/me", token: token)
            #expect(me.status == .ok && me.json["username"].string == "newvet", "\(me)")
            // The password works for a normal login too.
            _ = try await app.login("newvet", "long-enough-pw")
        }
    }

    @Test func theRoleDefaultsToVetStaffAndOnlyMemberRolesMayBeAskedFor() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "true"]) { app in
            let plain = try await app.post(Onboarding.signupPath, json: Onboarding.body("norole", role: nil))
            #expect(plain.status == .created && plain.json["requested_role"].string == "VET_STAFF", "\(plain)")
            for role in ["ADMIN", "SYSTEM_ADMIN", "PET_OWNER", "PENDING", "vet"] {
                let refused = try await app.post(Onboarding.signupPath, json: Onboarding.body("x\(role.lowercased())", role: role))
                expectError(refused, .badRequest,
                    "Invalid role: '\(role)'. Allowed: VET_STAFF, VET (a signup cannot ask for ADMIN or PET_OWNER)")
            }
            let users = try await app.get("/api/v1/users?role=ADMIN", token: try await app.token(for: Demo.admin))
            #expect(users.json.array?.count == 1, "no signup became an administrator")
        }
    }

    @Test func badSignupsGetClearMessages() async throws {
        try await withTestApp(env: ["DISABLE_RATE_LIMITS": "true"]) { app in
            _ = try await Onboarding.signUp(app, "taken")
            var sameName = Onboarding.body("taken")
            sameName["email"] = "other@example.com"
            expectError(try await app.post(Onboarding.signupPath, json: sameName), .conflict, "Username already registered")
            var sameEmail = Onboarding.body("fresh")
            sameEmail["email"] = "TAKEN@example.com"
            expectError(try await app.post(Onboarding.signupPath, json: sameEmail), .conflict, "Email already registered")
            expectError(try await app.post(Onboarding.signupPath, json: Onboarding.body("vet1")), .conflict,
                "Username already registered")
            var short = Onboarding.body("shorty")
            short["password"] = "123456"
            expectError(try await app.post(Onboarding.signupPath, json: short), .badRequest,
                "password must be between 8 and 72 bytes")
            var spaced = Onboarding.body("has space")
            spaced["email"] = "space@example.com"
            expectError(try await app.post(Onboarding.signupPath, json: spaced), .badRequest,
                "username may only contain letters, digits, '.', '_', '-', '@' and '+'")
            // The app's newer onboarding uses the email address as the username.
            var emailName = Onboarding.body("x")
            emailName["username"] = "dr.jones+clinic@example.com"
            emailName["email"] = "dr.jones+clinic@example.com"
            #expect(try await app.post(Onboarding.signupPath, json: emailName).status == .created)
            var noEmail = Onboarding.body("noemail")
            noEmail["email"] = nil
            expectError(try await app.post(Onboarding.signupPath, json: noEmail), .badRequest, "email is required")
            let notJSON = try await app.sendRaw(.POST, Onboarding.signupPath, body: "username=a", contentType: .urlEncodedForm)
            expectError(notJSON, .badRequest, "Content-Type must be application/json")
            var unknownPractice = Onboarding.body("lost")
            unknownPractice["practice_id"] = UUID().uuidString
            expectError(try await app.post(Onboarding.signupPath, json: unknownPractice), .notFound, "Practice not found")
        }
    }

    @Test func signupsAreRateLimitedPerClientAddress() async throws {
        try await withTestApp { app in
            for n in 0..<10 {
                let allowed = try await app.post(Onboarding.signupPath, json: Onboarding.body(n < 5 ? "user\(n)" : "vet1"))
                #expect(allowed.status == (n < 5 ? .created : .conflict), "failed signups count too: \(allowed)")
            }
            let refused = try await app.post(Onboarding.signupPath, json: Onboarding.body("user99"))
            #expect(refused.status == .tooManyRequests, "\(refused)")
            #expect(refused.detail?.hasPrefix("Too many signups from this address.") == true)
            #expect(refused.headers.first(name: "Retry-After").flatMap(Int.init) != nil)
        }
    }
}
