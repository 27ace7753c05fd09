import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/users` and `GET /api/v1/users/{user_id}` (contract §4.2, §1.11).
@Suite struct UsersListTests {
    static func ids(_ logins: [Demo.Login]) -> [String] { logins.map { $0.id.uuidString.lowercased() } }

    @Test func listsEveryUserOrderedByLowercaseUsername() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let response = try await app.get("/api/v1/users", token: admin)
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "X-Total-Count") == "4")
            #expect(response.json.ids == Self.ids([Demo.admin, Demo.owner1, Demo.vet1, Demo.vet2]))
            #expect(response.json[0].keys == CurrentUserTests.userKeys)
            #expect(response.json[1]["pet_owner_id"].string == Demo.owner(1).uuidString.lowercased())

            // A capitalised username sorts by its lowercase form.
            let created = try await app.post("/api/v1/users", token: admin, json: [
                "username": "Alice", "password": "password123", "email": "alice@example.com",
                "full_name": "Alice", "role": "ADMIN",
            ])
            #expect(created.status == .created)
            let again = try await app.get("/api/v1/users", token: admin)
            #expect(again.json.array?.map { $0["username"].string ?? "" } == ["admin", "Alice", "owner1", "vet1", "vet2"])
        }
    }

    @Test func filters() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let practice = Demo.practiceID.uuidString.lowercased()
            let byPractice = try await app.get("/api/v1/users?practice_id=\(practice)", token: admin)
            #expect(byPractice.json.ids == Self.ids([Demo.vet1, Demo.vet2]))
            #expect(byPractice.headers.first(name: "X-Total-Count") == "2")
            let upper = try await app.get("/api/v1/users?practice_id=\(practice.uppercased())", token: admin)
            #expect(upper.json.ids == Self.ids([Demo.vet1, Demo.vet2]))

            let owners = try await app.get("/api/v1/users?role=PET_OWNER", token: admin)
            #expect(owners.json.ids == Self.ids([Demo.owner1]))
            let staff = try await app.get("/api/v1/users?role=VET_STAFF&practice_id=\(practice)", token: admin)
            #expect(staff.json.ids == Self.ids([Demo.vet1, Demo.vet2]))
            let vets = try await app.get("/api/v1/users?role=VET", token: admin)
            #expect(vets.json.count == 0)

            let active = try await app.get("/api/v1/users?is_active=true", token: admin)
            #expect(active.json.count == 4)
            for value in ["false", "0", "FALSE"] {
                let inactive = try await app.get("/api/v1/users?is_active=\(value)", token: admin)
                #expect(inactive.status == .ok)
                #expect(inactive.json.count == 0)
                #expect(inactive.headers.first(name: "X-Total-Count") == "0")
            }

            let unknownPractice = try await app.get("/api/v1/users?practice_id=\(UUID().uuidString)", token: admin)
            #expect(unknownPractice.status == .ok)
            #expect(unknownPractice.text == "[]")
        }
    }

    @Test func pagination() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let page = try await app.get("/api/v1/users?limit=2&offset=1", token: admin)
            #expect(page.json.ids == Self.ids([Demo.owner1, Demo.vet1]))
            #expect(page.headers.first(name: "X-Total-Count") == "4")
            let past = try await app.get("/api/v1/users?offset=10", token: admin)
            #expect(past.json.count == 0)
            #expect(past.headers.first(name: "X-Total-Count") == "4")
            let max = try await app.get("/api/v1/users?limit=200", token: admin)
            #expect(max.json.count == 4)
            // offset + limit used to overflow (a trap that took the whole process down).
            let largest = try await app.get("/api/v1/users?offset=9223372036854775807&limit=200", token: admin)
            #expect(largest.status == .ok)
            #expect(largest.json.count == 0)
            #expect(largest.headers.first(name: "X-Total-Count") == "4")
        }
    }

    @Test(arguments: [
        ("practice_id=nope", "Invalid practice ID format"),
        ("practice_id=", "Invalid practice ID format"),
        ("practice_id={d0000000-0000-4000-8000-000000000001}", "Invalid practice ID format"),
        ("role=DOCTOR", "Invalid role: 'DOCTOR'. Allowed: VET_STAFF, VET, ADMIN, PET_OWNER"),
        ("role=vet", "Invalid role: 'vet'. Allowed: VET_STAFF, VET, ADMIN, PET_OWNER"),
        ("is_active=yes", "is_active must be true or false"),
        ("limit=0", "limit must be between 1 and 200"),
        ("limit=201", "limit must be between 1 and 200"),
        ("limit=abc", "limit must be an integer"),
        ("limit=1.5", "limit must be an integer"),
        ("offset=-1", "offset must be at least 0"),
        ("offset=x", "offset must be an integer"),
        ("offset=9223372036854775808", "offset must be an integer"),
    ])
    func queryErrors(_ query: String, _ detail: String) async throws {
        try await withTestApp { app in
            let response = try await app.get("/api/v1/users?\(query)", token: try await app.token(for: Demo.admin))
            expectError(response, .badRequest, detail)
        }
    }

    @Test func showsOneUser() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let owner = try await app.get("/api/v1/users/\(Demo.owner1.id.uuidString.lowercased())", token: admin)
            #expect(owner.status == .ok)
            #expect(owner.json.keys == CurrentUserTests.userKeys)
            #expect(owner.json["username"].string == "owner1")
            #expect(owner.json["pet_owner_id"].string == Demo.owner(1).uuidString.lowercased())
            // Hex digits in any case on input.
            let upper = try await app.get("/api/v1/users/\(Demo.vet1.id.uuidString.uppercased())", token: admin)
            #expect(upper.json["id"].string == Demo.vet1.id.uuidString.lowercased())
            let trailing = try await app.get("/api/v1/users/\(Demo.vet1.id.uuidString.lowercased())/", token: admin)
            #expect(trailing.json["id"].string == Demo.vet1.id.uuidString.lowercased())
        }
    }

    @Test(arguments: [
        "nope", "d1000000000040008000000000000001", "urn:uuid:d1000000-0000-4000-8000-000000000001",
        "%7Bd1000000-0000-4000-8000-000000000001%7D", "d1000000-0000-4000-8000-00000000000g",
    ])
    func malformedUserID(_ id: String) async throws {
        try await withTestApp { app in
            let response = try await app.get("/api/v1/users/\(id)", token: try await app.token(for: Demo.admin))
            expectError(response, .badRequest, "Invalid user ID format")
        }
    }

    @Test func unknownUser() async throws {
        try await withTestApp { app in
            let response = try await app.get("/api/v1/users/\(UUID().uuidString)", token: try await app.token(for: Demo.admin))
            expectError(response, .notFound, "User not found")
        }
    }
}
