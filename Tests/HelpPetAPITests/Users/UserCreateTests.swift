import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `POST /api/v1/users` (contract §4.2): success, every field error in table order, then the relationship,
/// existence and uniqueness checks in their documented order.
@Suite struct UserCreateTests {
    static let practice = Demo.practiceID.uuidString.lowercased()

    /// A valid VET body with `changes` applied (a `nil` value sends `null`; `Absent.key` removes the key).
    static func body(_ changes: [String: Any?] = [:]) -> [String: Any?] {
        var body: [String: Any?] = [
            "username": "newvet", "password": "password123", "email": "newvet@example.com",
            "full_name": "Dr. New Vet", "role": "VET", "practice_id": practice,
        ]
        for (key, value) in changes {
            if let marker = value as? Absent, marker == .key { body.removeValue(forKey: key) } else { body[key] = value }
        }
        return body
    }

    @Test func createsAMember() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let response = try await app.post("/api/v1/users", token: admin, json: Self.body([
                "username": "  NewVet ", "email": " NewVet@Example.com ", "full_name": "  Dr. New Vet  ",
                "id": Demo.vet1.id.uuidString.lowercased(), "created_at": "2001-01-01T00:00:00Z", "unknown": true,
            ]))
            #expect(response.status == .created, "\(response)")
            let json = response.json
            #expect(json.keys == CurrentUserTests.userKeys)
            let id = try #require(json["id"].string)
            #expect(UUID(canonical: id) != nil && id == id.lowercased())
            #expect(id != Demo.vet1.id.uuidString.lowercased(), "a client-sent id is ignored")
            #expect(json["username"].string == "NewVet")
            #expect(json["email"].string == "NewVet@Example.com")
            #expect(json["full_name"].string == "Dr. New Vet")
            #expect(json["role"].string == "VET")
            #expect(json["practice_id"].string == Self.practice)
            #expect(json["pet_owner_id"].isNull)
            #expect(json["is_active"].bool == true)
            #expect(json["created_at"].string == json["updated_at"].string)
            #expect(json["created_at"].string != "2001-01-01T00:00:00Z")

            let fetched = try await app.get("/api/v1/users/\(id)", token: admin)
            #expect(fetched.json.value == response.json.value)
            // The new user can log in (password hashed with BCRYPT_COST), case-insensitively.
            let token = try await app.login("newvet", "password123")
            let me = try await app.get("/api/v1/auth/me", token: token)
            #expect(me.json["id"].string == id)
        }
    }

    @Test func createsAnAdminAndAnInactiveUser() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let second = try await app.post("/api/v1/users", token: admin, json: Self.body([
                "username": "admin2", "email": "admin2@example.com", "role": "ADMIN", "practice_id": nil,
            ]))
            #expect(second.status == .created, "\(second)")
            #expect(second.json["practice_id"].isNull)
            let withoutKey = try await app.post("/api/v1/users", token: admin, json: Self.body([
                "username": "admin3", "email": "admin3@example.com", "role": "ADMIN", "practice_id": Absent.key,
            ]))
            #expect(withoutKey.status == .created, "\(withoutKey)")

            let inactive = try await app.post("/api/v1/users", token: admin, json: Self.body([
                "username": "sleepy", "email": "sleepy@example.com", "role": "VET_STAFF", "is_active": false,
            ]))
            #expect(inactive.status == .created, "\(inactive)")
            #expect(inactive.json["is_active"].bool == false)
            let login = try await app.post("/api/v1/auth/token", json: ["username": "sleepy", "password": "password123"])
            expectError(login, .unauthorized, "Incorrect username or password")
        }
    }

    @Test func createsAPetOwnerLoginAndLinksTheOwnerRecord() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let emily = Demo.owner(2)
            let response = try await app.post("/api/v1/users", token: admin, json: Self.body([
                "username": "emily", "email": "emily.davis@email.com", "full_name": "Emily Davis",
                "role": "PET_OWNER", "practice_id": nil, "pet_owner_id": emily.uuidString.uppercased(),
            ]))
            #expect(response.status == .created, "\(response)")
            #expect(response.json["pet_owner_id"].string == emily.uuidString.lowercased())
            let id = try #require(response.json["id"].string.flatMap { UUID(canonical: $0) })

            let row = try await app.db.sql.raw("SELECT user_id FROM pet_owners WHERE id = \(bind: emily)").first()
            #expect(try row?.decode(column: "user_id", as: UUID?.self) == id)

            let me = try await app.get("/api/v1/auth/me", token: try await app.login("emily", "password123"))
            #expect(me.json["pet_owner_id"].string == emily.uuidString.lowercased())
            let listed = try await app.get("/api/v1/users/\(id.uuidString)", token: admin)
            #expect(listed.json["pet_owner_id"].string == emily.uuidString.lowercased())
        }
    }

    @Test func passwordOf72BytesIsAccepted() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let password = String(repeating: "€", count: 24)  // 72 bytes
            let response = try await app.post("/api/v1/users", token: admin, json: Self.body(["password": password]))
            #expect(response.status == .created, "\(response)")
            _ = try await app.login("newvet", password)
        }
    }

    /// Field validation, one error per response, in the order of the field table.
    @Test func fieldErrors() async throws {
        let longName = String(repeating: "n", count: 51)
        let cases: [(String, [String: Any?], String)] = [
            ("empty object", ["__all__": Absent.key], "username is required"),
            ("username absent", ["username": Absent.key], "username is required"),
            ("username null", ["username": nil], "username cannot be null"),
            ("username number", ["username": 5], "username must be a string"),
            ("username blank", ["username": "   "], "username must not be empty"),
            ("username short", ["username": "ab"], "username must be at least 3 characters"),
            ("username long", ["username": longName], "username must be at most 50 characters"),
            ("username space", ["username": "new vet"], "username may only contain letters, digits, '.', '_' and '-'"),
            ("username slash", ["username": "new/vet"], "username may only contain letters, digits, '.', '_' and '-'"),
            ("username accent", ["username": "josé"], "username may only contain letters, digits, '.', '_' and '-'"),
            ("username NUL", ["username": "new\u{0}vet"], "username contains invalid characters"),
            ("username before others", ["username": Absent.key, "email": "bad", "role": "X"], "username is required"),
            ("password absent", ["password": Absent.key], "password is required"),
            ("password null", ["password": nil], "password cannot be null"),
            ("password number", ["password": 12_345_678], "password must be a string"),
            ("password short", ["password": "1234567"], "password must be between 8 and 72 bytes"),
            ("password long", ["password": String(repeating: "p", count: 73)], "password must be between 8 and 72 bytes"),
            ("password long bytes", ["password": String(repeating: "é", count: 37)], "password must be between 8 and 72 bytes"),
            ("email absent", ["email": Absent.key], "email is required"),
            ("email null", ["email": nil], "email cannot be null"),
            ("email invalid", ["email": "nope"], "email must be a valid email address"),
            ("email no dot", ["email": "a@localhost"], "email must be a valid email address"),
            ("email two at", ["email": "a@b@example.com"], "email must be a valid email address"),
            ("email no local part", ["email": "@example.com"], "email must be a valid email address"),
            ("email blank", ["email": "  "], "email must not be empty"),
            ("full_name absent", ["full_name": Absent.key], "full_name is required"),
            ("full_name blank", ["full_name": " "], "full_name must not be empty"),
            ("full_name long", ["full_name": String(repeating: "f", count: 101)], "full_name must be at most 100 characters"),
            ("role absent", ["role": Absent.key], "role is required"),
            ("role unknown", ["role": "DOCTOR"], "Invalid role: 'DOCTOR'. Allowed: VET_STAFF, VET, ADMIN, PET_OWNER"),
            ("role lowercase", ["role": "vet"], "Invalid role: 'vet'. Allowed: VET_STAFF, VET, ADMIN, PET_OWNER"),
            ("role number", ["role": 1], "role must be a string"),
            ("practice malformed", ["practice_id": "nope"], "Invalid practice ID format"),
            ("practice empty", ["practice_id": ""], "Invalid practice ID format"),
            ("owner malformed", ["pet_owner_id": "nope"], "Invalid pet owner ID format"),
            ("is_active string", ["is_active": "yes"], "is_active must be a boolean"),
            ("is_active null", ["is_active": nil], "is_active cannot be null"),
        ]
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            for (name, changes, detail) in cases {
                let body = changes["__all__"] != nil ? [:] : Self.body(changes)
                let response = try await app.post("/api/v1/users", token: admin, json: body)
                #expect(response.status == .badRequest && response.detail == detail, "\(name): \(response)")
            }
            let count = try await app.get("/api/v1/users", token: admin)
            #expect(count.headers.first(name: "X-Total-Count") == "4", "no user was created")
        }
    }

    /// Checks after field validation, in the documented order (§4.2).
    @Test func relationshipExistenceAndUniquenessChecks() async throws {
        let owner1 = Demo.owner(1).uuidString.lowercased()
        let owner2 = Demo.owner(2).uuidString.lowercased()
        let cases: [(String, [String: Any?], HTTPStatus, String)] = [
            ("member without practice", ["practice_id": Absent.key], .badRequest,
             "practice_id is required for VET and VET_STAFF users"),
            ("staff with null practice", ["role": "VET_STAFF", "practice_id": nil], .badRequest,
             "practice_id is required for VET and VET_STAFF users"),
            ("admin with practice", ["role": "ADMIN"], .badRequest, "practice_id must be null for ADMIN and PET_OWNER users"),
            ("owner with practice", ["role": "PET_OWNER", "pet_owner_id": owner2], .badRequest,
             "practice_id must be null for ADMIN and PET_OWNER users"),
            ("owner without owner record", ["role": "PET_OWNER", "practice_id": nil], .badRequest,
             "pet_owner_id is required for PET_OWNER users"),
            ("member with owner record", ["pet_owner_id": owner2], .badRequest,
             "pet_owner_id is only allowed for PET_OWNER users"),
            ("admin with owner record", ["role": "ADMIN", "practice_id": nil, "pet_owner_id": owner2], .badRequest,
             "pet_owner_id is only allowed for PET_OWNER users"),
            ("unknown practice", ["practice_id": UUID().uuidString], .notFound, "Practice not found"),
            ("unknown owner", ["role": "PET_OWNER", "practice_id": nil, "pet_owner_id": UUID().uuidString], .notFound,
             "Pet owner not found"),
            ("username taken", ["username": "VET1"], .conflict, "Username already registered"),
            ("username taken trimmed", ["username": " vet1 ", "email": "vet1@helppet.ai"], .conflict,
             "Username already registered"),
            ("email taken", ["email": "VET1@HELPPET.AI"], .conflict, "Email already registered"),
            ("owner linked", ["username": "john2", "email": "john2@example.com", "role": "PET_OWNER", "practice_id": nil,
                              "pet_owner_id": owner1], .conflict, "Pet owner is already linked to a user"),
        ]
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            for (name, changes, status, detail) in cases {
                let response = try await app.post("/api/v1/users", token: admin, json: Self.body(changes))
                #expect(response.status == status && response.detail == detail, "\(name): \(response)")
            }
            let count = try await app.get("/api/v1/users", token: admin)
            #expect(count.headers.first(name: "X-Total-Count") == "4", "no user was created")
        }
    }

    @Test func bodyErrors() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let json = JSONBody.encode(Self.body())
            let plain = try await app.sendRaw(.POST, "/api/v1/users", token: admin, body: json, contentType: .plainText)
            expectError(plain, .badRequest, "Content-Type must be application/json")
            let none = try await app.sendRaw(.POST, "/api/v1/users", token: admin, body: json, contentType: nil)
            expectError(none, .badRequest, "Content-Type must be application/json")
            let form = try await app.sendRaw(
                .POST, "/api/v1/users", token: admin, body: "username=x", contentType: .urlEncodedForm)
            expectError(form, .badRequest, "Content-Type must be application/json")
            let malformed = try await app.sendRaw(.POST, "/api/v1/users", token: admin, body: "{", contentType: .json)
            expectError(malformed, .badRequest, "Malformed JSON body")
            let array = try await app.sendRaw(.POST, "/api/v1/users", token: admin, body: "[]", contentType: .json)
            expectError(array, .badRequest, "Request body must be a JSON object")
            let empty = try await app.sendRaw(.POST, "/api/v1/users", token: admin, body: "", contentType: .json)
            expectError(empty, .badRequest, "Request body is required")
        }
    }
}

/// Marks a key to remove from a test body.
enum Absent: Equatable { case key }
