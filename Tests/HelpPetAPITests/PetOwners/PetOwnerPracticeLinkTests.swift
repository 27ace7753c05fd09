import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `POST /api/v1/pet-owners/{owner_id}/practices` (ADMIN, contract §4.6).
@Suite struct PetOwnerPracticeLinkTests {
    static let path = "/api/v1/pet-owners/\(Demo.owner(1).lowercased)/practices"

    static func linkCount(_ app: Application) async throws -> Int {
        let row = try await app.db.sql.raw("SELECT COUNT(*) AS n FROM pet_owner_practices").first()
        return try row?.decode(column: "n", as: Int.self) ?? -1
    }

    @Test func adminMakesAnOwnerAClientOfAnotherPracticeOnce() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let other = try await AppointmentFixtures.otherPractice(app)
            let before = try await Self.linkCount(app)
            let response = try await app.post(Self.path, token: admin, json: ["practice_id": other.practiceID])
            #expect(response.status == .ok, "\(response)")
            #expect(response.json.keys == ClinicalKeys.petOwner)
            #expect(response.json["id"].string == Demo.owner(1).lowercased)
            let both = [PetOwnerFixtures.demoPractice, other.practiceID].sorted()
            #expect(response.json["practice_ids"].array?.compactMap(\.string) == both)

            let again = try await app.post(Self.path, token: admin, json: ["practice_id": other.practiceID.uppercased()])
            #expect(again.status == .ok, "repeating is a no-op: \(again)")
            #expect(again.json["practice_ids"].array?.compactMap(\.string) == both)
            #expect(try await Self.linkCount(app) == before + 1)

            // The association is what makes the owner and their pets visible to the other practice's members.
            #expect(try await app.get("/api/v1/pets/\(Demo.pet(1).lowercased)", token: other.vetToken).status == .ok)
            #expect(try await app.get("/api/v1/pet-owners", token: other.vetToken).json.ids == [Demo.owner(1).lowercased])
        }
    }

    @Test func concurrentLinksToOnePracticeAreAllNoOpSuccesses() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let other = try await OtherPractice.create(app)
            let before = try await Self.linkCount(app)
            async let a = app.post(Self.path, token: admin, json: ["practice_id": other.practiceID])
            async let b = app.post(Self.path, token: admin, json: ["practice_id": other.practiceID])
            async let c = app.post(Self.path, token: admin, json: ["practice_id": other.practiceID.uppercased()])
            let results = try await [a, b, c]
            #expect(results.allSatisfy { $0.status == .ok }, "\(results.map(\.status.code))")
            #expect(try await Self.linkCount(app) == before + 1)
        }
    }

    @Test func onlyAdministratorsMayLink() async throws {
        try await withTestApp { app in
            let other = try await AppointmentFixtures.otherPractice(app)
            let before = try await Self.linkCount(app)
            for token in [try await app.token(for: Demo.vet1), other.vetToken, try await app.token(for: Demo.owner1)] {
                expectError(
                    try await app.post(Self.path, token: token, json: ["practice_id": other.practiceID]),
                    .forbidden, "Administrator access required")
                expectError(
                    try await app.post("/api/v1/pet-owners/nope/practices", token: token, json: [:]),
                    .forbidden, "Administrator access required")
            }
            #expect(try await Self.linkCount(app) == before)
        }
    }

    @Test func idAndBodyErrors() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            expectError(
                try await app.post("/api/v1/pet-owners/nope/practices", token: admin, json: ["practice_id": PetOwnerFixtures.demoPractice]),
                .badRequest, "Invalid pet owner ID format")
            expectError(try await app.post(Self.path, token: admin, json: [:]), .badRequest, "practice_id is required")
            expectError(try await app.post(Self.path, token: admin, json: ["practice_id": nil]), .badRequest, "practice_id cannot be null")
            expectError(try await app.post(Self.path, token: admin, json: ["practice_id": "nope"]), .badRequest, "Invalid practice ID format")
            expectError(
                try await app.post(
                    "/api/v1/pet-owners/\(UUID().lowercased)/practices", token: admin, json: ["practice_id": PetOwnerFixtures.demoPractice]),
                .notFound, "Pet owner not found")
            expectError(
                try await app.post(Self.path, token: admin, json: ["practice_id": UUID().lowercased]), .notFound, "Practice not found")
            try await BodySyntaxChecks.expectRefused(app, .POST, Self.path, token: admin)
        }
    }

    @Test func aliasAndTrailingSlash() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let other = try await AppointmentFixtures.otherPractice(app)
            for path in [
                "/api/v1/pet_owners/\(Demo.owner(2).lowercased)/practices", "\(Self.path)/",
                "/api/v1/pet_owners/\(Demo.owner(3).lowercased)/practices/",
            ] {
                let response = try await app.post(path, token: admin, json: ["practice_id": other.practiceID])
                #expect(response.status == .ok, "\(path): \(response)")
                #expect(response.json["practice_ids"].count == 2)
            }
        }
    }
}
