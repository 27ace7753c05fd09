import AppCore
import Foundation
import Testing
import VaporTesting

/// `PUT /api/v1/users/{user_id}` (contract §4.2, PUT semantics of §1.7).
@Suite struct UserUpdateTests {
    static func path(_ user: Demo.Login) -> String { "/api/v1/users/\(user.id.uuidString.lowercased())" }

    @Test func partialUpdate() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let before = try await app.get(Self.path(Demo.vet1), token: admin)
            let response = try await app.put(Self.path(Demo.vet1), token: admin, json: [
                "email": "  sarah@example.com ", "full_name": " Sarah Johnson ",
            ])
            #expect(response.status == .ok, "\(response)")
            #expect(response.json.keys == CurrentUserTests.userKeys)
            #expect(response.json["email"].string == "sarah@example.com")
            #expect(response.json["full_name"].string == "Sarah Johnson")
            // Unchanged fields stay.
            for key in ["id", "username", "role", "practice_id", "pet_owner_id", "is_active", "created_at"] {
                #expect(response.json[key].value == before.json[key].value, "\(key)")
            }
            let updated = try #require(response.json["updated_at"].string.flatMap { WireTime.parse($0) == .invalid ? nil : $0 })
            #expect(updated >= (before.json["updated_at"].string ?? ""))
            let fetched = try await app.get(Self.path(Demo.vet1), token: admin)
            #expect(fetched.json.value == response.json.value)
        }
    }

    @Test func wholeObjectWithImmutableFieldsRepeatedIsAccepted() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let owner = try await app.get(Self.path(Demo.owner1), token: admin)
            var body: [String: Any?] = [:]
            for key in owner.json.keys { body[key] = Self.any(owner.json[key]) }
            body["full_name"] = "John Q. Smith"
            body["id"] = Demo.owner1.id.uuidString.uppercased()  // same id, other case
            let response = try await app.put(Self.path(Demo.owner1), token: admin, json: body)
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["full_name"].string == "John Q. Smith")
            #expect(response.json["pet_owner_id"].string == Demo.owner(1).uuidString.lowercased())
        }
    }

    @Test func roleAndPracticeChanges() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let vet = try await app.put(Self.path(Demo.vet2), token: admin, json: ["role": "VET"])
            #expect(vet.status == .ok, "\(vet)")
            #expect(vet.json["role"].string == "VET")
            let toAdmin = try await app.put(Self.path(Demo.vet2), token: admin, json: ["role": "ADMIN", "practice_id": nil])
            #expect(toAdmin.status == .ok, "\(toAdmin)")
            #expect(toAdmin.json["practice_id"].isNull)
            let back = try await app.put(Self.path(Demo.vet2), token: admin, json: [
                "role": "VET_STAFF", "practice_id": Demo.practiceID.uuidString.lowercased(),
            ])
            #expect(back.status == .ok, "\(back)")
            #expect(back.json["practice_id"].string == Demo.practiceID.uuidString.lowercased())
        }
    }

    @Test func errors() async throws {
        let practice = Demo.practiceID.uuidString.lowercased()
        let cases: [(String, Demo.Login, [String: Any?], HTTPStatus, String)] = [
            ("empty", Demo.vet1, [:], .badRequest, "At least one updatable field is required"),
            ("unknown keys only", Demo.vet1, ["nickname": "x"], .badRequest, "At least one updatable field is required"),
            ("immutable only", Demo.vet1, ["username": "vet1"], .badRequest, "At least one updatable field is required"),
            ("email invalid", Demo.vet1, ["email": "nope"], .badRequest, "email must be a valid email address"),
            ("email null", Demo.vet1, ["email": nil], .badRequest, "email cannot be null"),
            ("full_name null", Demo.vet1, ["full_name": nil], .badRequest, "full_name cannot be null"),
            ("full_name blank", Demo.vet1, ["full_name": ""], .badRequest, "full_name must not be empty"),
            ("full_name long", Demo.vet1, ["full_name": String(repeating: "x", count: 101)], .badRequest,
             "full_name must be at most 100 characters"),
            ("role unknown", Demo.vet1, ["role": "BOSS"], .badRequest,
             "Invalid role: 'BOSS'. Allowed: VET_STAFF, VET, ADMIN, PET_OWNER"),
            ("role null", Demo.vet1, ["role": nil], .badRequest, "role cannot be null"),
            ("practice malformed", Demo.vet1, ["practice_id": "x"], .badRequest, "Invalid practice ID format"),
            ("is_active string", Demo.vet1, ["is_active": "false"], .badRequest, "is_active must be a boolean"),
            ("password short", Demo.vet1, ["password": "short"], .badRequest, "password must be between 8 and 72 bytes"),
            ("password null", Demo.vet1, ["password": nil], .badRequest, "password cannot be null"),
            ("username changed", Demo.vet1, ["username": "vet9", "full_name": "X"], .badRequest, "username cannot be changed"),
            ("id changed", Demo.vet1, ["id": UUID().uuidString, "full_name": "X"], .badRequest, "id cannot be changed"),
            ("owner link changed", Demo.owner1, ["pet_owner_id": Demo.owner(2).uuidString, "full_name": "X"], .badRequest,
             "pet_owner_id cannot be changed"),
            ("owner link added", Demo.vet1, ["pet_owner_id": Demo.owner(2).uuidString, "full_name": "X"], .badRequest,
             "pet_owner_id cannot be changed"),
            ("to owner", Demo.vet1, ["role": "PET_OWNER", "practice_id": nil], .badRequest,
             "Cannot change role to or from PET_OWNER"),
            ("from owner", Demo.owner1, ["role": "VET", "practice_id": practice], .badRequest,
             "Cannot change role to or from PET_OWNER"),
            ("admin keeps practice", Demo.vet1, ["role": "ADMIN"], .badRequest,
             "practice_id must be null for ADMIN and PET_OWNER users"),
            ("member loses practice", Demo.vet1, ["practice_id": nil], .badRequest,
             "practice_id is required for VET and VET_STAFF users"),
            ("owner gets practice", Demo.owner1, ["practice_id": practice], .badRequest,
             "practice_id must be null for ADMIN and PET_OWNER users"),
            ("unknown practice", Demo.vet1, ["practice_id": UUID().uuidString], .notFound, "Practice not found"),
            ("email taken", Demo.vet1, ["email": "VET2@helppet.ai"], .conflict, "Email already registered"),
            ("own deactivation", Demo.admin, ["is_active": false], .conflict,
             "You cannot deactivate or change the role of your own account"),
            ("own role", Demo.admin, ["role": "VET", "practice_id": practice], .conflict,
             "You cannot deactivate or change the role of your own account"),
        ]
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            for (name, user, body, status, detail) in cases {
                let response = try await app.put(Self.path(user), token: admin, json: body)
                #expect(response.status == status && response.detail == detail, "\(name): \(response)")
            }
            let vet1 = try await app.get(Self.path(Demo.vet1), token: admin)
            #expect(vet1.json["email"].string == "vet1@helppet.ai", "nothing was changed")
            #expect(vet1.json["role"].string == "VET_STAFF")
        }
    }

    @Test func ownEmailInAnotherCaseIsNotAConflict() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let response = try await app.put(Self.path(Demo.vet1), token: admin, json: ["email": "VET1@helppet.ai"])
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["email"].string == "VET1@helppet.ai")
        }
    }

    @Test func adminMayEditOtherFieldsOfTheirOwnAccount() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let response = try await app.put(Self.path(Demo.admin), token: admin, json: [
                "full_name": "Root", "is_active": true, "role": "ADMIN",
            ])
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["full_name"].string == "Root")
        }
    }

    @Test func malformedAndUnknownIDs() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let malformed = try await app.put("/api/v1/users/nope", token: admin, json: ["full_name": "X"])
            expectError(malformed, .badRequest, "Invalid user ID format")
            let unknown = try await app.put("/api/v1/users/\(UUID().uuidString)", token: admin, json: ["full_name": "X"])
            expectError(unknown, .notFound, "User not found")
            // Syntax (400) comes before existence (404).
            let invalidBody = try await app.put("/api/v1/users/\(UUID().uuidString)", token: admin, json: [:])
            expectError(invalidBody, .badRequest, "At least one updatable field is required")
            let plain = try await app.sendRaw(
                .PUT, Self.path(Demo.vet1), token: admin, body: #"{"full_name":"X"}"#, contentType: .plainText)
            expectError(plain, .badRequest, "Content-Type must be application/json")
        }
    }

    /// Converts a response value back into a literal for a request body.
    static func any(_ node: JSONNode) -> Any? {
        switch node.value {
        case .string(let s)?: return s
        case .bool(let b)?: return b
        case .integer(let i)?: return Int(i)
        case .number(let d)?: return d
        default: return nil
        }
    }
}
