import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `GET /api/v1/practices` and `GET /api/v1/practices/{id}`: role scoping (contract §4.3, §2.5, §2.7).
@Suite struct PracticeVisibilityTests {
    static let demo = Demo.practiceID.uuidString.lowercased()
    static let practiceKeys: Set<String> = [
        "id", "name", "timezone", "phone", "email", "address", "is_active", "created_at", "updated_at",
        // The iPhone app's keys.
        "uuid", "specialties", "accepts_new_patients", "description", "website", "license_number", "admin_user_id",
        // The recording-consent setting, and which emails the practice sends.
        "recording_consent_required", "appointment_reminder_hours", "appointment_emails_enabled",
        "discharge_emails_enabled",
    ]

    /// Adds two practices (one inactive) and returns their ids: ["Aardvark Animal Hospital", "Zebra Vets"].
    static func addPractices(_ app: Application, admin: String) async throws -> [String] {
        var ids: [String] = []
        for (name, active) in [("Zebra Vets", false), ("Aardvark Animal Hospital", true)] {
            let response = try await app.post("/api/v1/practices", token: admin, json: [
                "name": name, "timezone": "Europe/Paris", "is_active": active,
            ])
            #expect(response.status == .created, "\(response)")
            ids.append(try #require(response.json["id"].string))
        }
        return ids.reversed()
    }

    @Test func demoPracticeShape() async throws {
        try await withTestApp { app in
            let response = try await app.get("/api/v1/practices/\(Self.demo)", token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok)
            let p = response.json
            #expect(p.keys == Self.practiceKeys)
            #expect(p["id"].string == Self.demo)
            #expect(p["name"].string == "HelpPet Demo Clinic")
            #expect(p["timezone"].string == "America/Los_Angeles")
            #expect(p["phone"].string == "+1-555-010-0100")
            #expect(p["email"].string == "frontdesk@helppet.ai")
            #expect(p["address"].string == "100 Market Street, San Francisco, CA 94105")
            #expect(p["is_active"].bool == true)
            #expect(p["created_at"].string == WireTime.format(app.testSeedTime))
        }
    }

    @Test func adminSeesAllOrderedByName() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let added = try await Self.addPractices(app, admin: admin)
            let all = try await app.get("/api/v1/practices", token: admin)
            #expect(all.status == .ok)
            #expect(all.json.ids == [added[0], Self.demo, added[1]])
            #expect(all.headers.first(name: "X-Total-Count") == "3")
            let active = try await app.get("/api/v1/practices?is_active=true", token: admin)
            #expect(active.json.ids == [added[0], Self.demo])
            let inactive = try await app.get("/api/v1/practices?is_active=false", token: admin)
            #expect(inactive.json.ids == [added[1]])
            let page = try await app.get("/api/v1/practices?limit=1&offset=1", token: admin)
            #expect(page.json.ids == [Self.demo])
            #expect(page.headers.first(name: "X-Total-Count") == "3")
            for id in added + [Self.demo] {
                #expect(try await app.get("/api/v1/practices/\(id)", token: admin).status == .ok)
            }
        }
    }

    @Test func memberSeesOnlyTheirPractice() async throws {
        try await withTestApp { app in
            let added = try await Self.addPractices(app, admin: try await app.token(for: Demo.admin))
            let vet = try await app.token(for: Demo.vet1)
            let list = try await app.get("/api/v1/practices", token: vet)
            #expect(list.json.ids == [Self.demo])
            #expect(list.headers.first(name: "X-Total-Count") == "1")
            #expect(try await app.get("/api/v1/practices/\(Self.demo)", token: vet).status == .ok)
            for id in added {
                expectError(try await app.get("/api/v1/practices/\(id)", token: vet), .notFound, "Practice not found")
            }
        }
    }

    @Test func ownerSeesPracticesTheyAreAClientOf() async throws {
        try await withTestApp { app in
            let added = try await Self.addPractices(app, admin: try await app.token(for: Demo.admin))
            let owner = try await app.token(for: Demo.owner1)
            let list = try await app.get("/api/v1/practices", token: owner)
            #expect(list.json.ids == [Self.demo])
            #expect(try await app.get("/api/v1/practices/\(Self.demo)", token: owner).status == .ok)
            for id in added {
                expectError(try await app.get("/api/v1/practices/\(id)", token: owner), .notFound, "Practice not found")
            }
            // Once John Smith is also a client of the new practice, he sees it.
            let t = WireTime.truncated(Date())
            try await app.db.sql.raw("""
                INSERT INTO pet_owner_practices (pet_owner_id, practice_id, created_at)
                VALUES (\(bind: Demo.owner(1)), \(bind: UUID(uuidString: added[0])!), \(bind: t))
                """).run()
            let again = try await app.get("/api/v1/practices", token: owner)
            #expect(again.json.ids == [added[0], Self.demo])
            #expect(try await app.get("/api/v1/practices/\(added[0])", token: owner).status == .ok)
        }
    }

    @Test func malformedAndUnknownIDs() async throws {
        try await withTestApp { app in
            for user in [Demo.admin, Demo.vet1, Demo.owner1] {
                let token = try await app.token(for: user)
                expectError(try await app.get("/api/v1/practices/nope", token: token), .badRequest, "Invalid practice ID format")
                expectError(
                    try await app.get("/api/v1/practices/\(UUID().uuidString)", token: token), .notFound, "Practice not found")
            }
        }
    }

    @Test func listQueryErrors() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(try await app.get("/api/v1/practices?is_active=maybe", token: vet), .badRequest, "is_active must be true or false")
            expectError(try await app.get("/api/v1/practices?limit=0", token: vet), .badRequest, "limit must be between 1 and 200")
            expectError(try await app.get("/api/v1/practices?offset=-5", token: vet), .badRequest, "offset must be at least 0")
        }
    }
}
