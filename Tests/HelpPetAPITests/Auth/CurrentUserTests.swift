import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/auth/me`: the User representation of §4.0 for every role.
@Suite struct CurrentUserTests {
    static let userKeys: Set<String> = [
        "id", "username", "email", "full_name", "role", "is_active", "practice_id", "pet_owner_id", "created_at",
        "updated_at",
    ]

    @Test func memberShape() async throws {
        try await withTestApp { app in
            let token = try await app.login(Demo.vet1)
            let me = try await app.get("/api/v1/auth/me", token: token)
            #expect(me.status == .ok)
            #expect(me.headers.first(name: .contentType) == "application/json; charset=utf-8")
            #expect(me.json.keys == Self.userKeys)
            #expect(me.json["id"].string == "d1000000-0000-4000-8000-000000000002")
            #expect(me.json["username"].string == "vet1")
            #expect(me.json["email"].string == "vet1@helppet.ai")
            #expect(me.json["full_name"].string == "Dr. Sarah Johnson")
            #expect(me.json["role"].string == "VET_STAFF")
            #expect(me.json["is_active"].bool == true)
            #expect(me.json["practice_id"].string == "d0000000-0000-4000-8000-000000000001")
            #expect(me.json["pet_owner_id"].isNull)
            let seeded = WireTime.format(app.testSeedTime)
            #expect(me.json["created_at"].string == seeded)
            #expect(me.json["updated_at"].string == seeded)
        }
    }

    @Test func ownerShape() async throws {
        try await withTestApp { app in
            let me = try await app.get("/api/v1/auth/me", token: try await app.token(for: Demo.owner1))
            #expect(me.status == .ok)
            #expect(me.json.keys == Self.userKeys)
            #expect(me.json["role"].string == "PET_OWNER")
            #expect(me.json["practice_id"].isNull)
            #expect(me.json["pet_owner_id"].string == "d2000000-0000-4000-8000-000000000001")
            #expect(me.json["email"].string == "john.smith@email.com")
        }
    }

    @Test func adminShape() async throws {
        try await withTestApp { app in
            let me = try await app.get("/api/v1/auth/me", token: try await app.token(for: Demo.admin))
            #expect(me.status == .ok)
            #expect(me.json["role"].string == "ADMIN")
            #expect(me.json["practice_id"].isNull)
            #expect(me.json["pet_owner_id"].isNull)
            #expect(me.json["full_name"].string == "System Administrator")
        }
    }

    @Test func datetimesUseTheWireFormat() async throws {
        try await withTestApp { app in
            let me = try await app.get("/api/v1/auth/me", token: try await app.token(for: Demo.vet2))
            for key in ["created_at", "updated_at"] {
                let value = try #require(me.json[key].string)
                #expect(value.count == 20 && value.hasSuffix("Z"), "\(key) = \(value)")
                #expect(WireTime.parse(value) != .invalid)
            }
        }
    }

    @Test func contentTypeOfAGetIsIgnored() async throws {
        try await withTestApp { app in
            // The seed 003 client sends Content-Type: application/json (and sometimes a body) on every GET.
            let me = try await app.send(
                .GET, "/api/v1/auth/me", token: try await app.token(for: Demo.vet1), body: "not json",
                contentType: .json)
            #expect(me.status == .ok, "\(me)")
        }
    }
}
