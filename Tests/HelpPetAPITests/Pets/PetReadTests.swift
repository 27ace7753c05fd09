import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `GET /api/v1/pets/{pet_id}` (contract §4.7, §4.0 Pet): shape, ids, visibility, inactive pets.
@Suite struct PetReadTests {
    @Test func bellaMatchesTheContractExample() async throws {
        try await withTestApp { app in
            let response = try await app.get(PetFixtures.path(1), token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok)
            let seeded = WireTime.format(app.testSeedTime)
            let expected = """
                {"id": "d3000000-0000-4000-8000-000000000001", "owner_id": "d2000000-0000-4000-8000-000000000001",
                 "name": "Bella", "species": "dog", "breed": "Golden Retriever", "color": "golden", "gender": "female",
                 "date_of_birth": "2020-03-15", "weight": 65.5, "microchip_number": "123456789012345", "allergies": null,
                 "is_active": true, "registration_date": "2020-04-01",
                 "owner": {"id": "d2000000-0000-4000-8000-000000000001", "first_name": "John", "last_name": "Smith",
                           "email": "john.smith@email.com", "phone": "+1-555-123-4567"},
                 "created_at": "\(seeded)", "updated_at": "\(seeded)"}
                """
            #expect(response.json["microchip_id"].string == "123456789012345")
            #expect(response.json["display_name"].string == "Bella (dog)")
            #expect(response.json["owner"]["full_name"].string == "John Smith")
            let contractShape = ContractExample.withoutAppKeys(
                response.json.value, ContractExample.petAppKeys, nested: ["owner": ["full_name", "user_id"]])
            #expect(contractShape == (try JSONNode(data: Data(expected.utf8))).value, "\(response)")
        }
    }

    @Test func nullsAreExplicitAndWeightsAreNumbers() async throws {
        try await withTestApp { app in
            let response = try await app.get(PetFixtures.path(3), token: try await app.token(for: Demo.admin))
            #expect(response.json.keys == ClinicalKeys.pet)
            #expect(response.json["microchip_number"].isNull)
            #expect(response.json["allergies"].isNull)
            #expect(response.json["weight"].double == 9.2)
            let max = try await app.get(PetFixtures.path(2), token: try await app.token(for: Demo.admin))
            #expect(max.json["weight"].double == 72.0)
        }
    }

    @Test func inactivePetsAreStillReturned() async throws {
        try await withTestApp { app in
            try await app.db.sql.raw("UPDATE pets SET is_active = \(bind: false) WHERE id = \(bind: Demo.pet(4))").run()
            for user in [Demo.vet1, Demo.admin] {
                let response = try await app.get(PetFixtures.path(4), token: try await app.token(for: user))
                #expect(response.status == .ok)
                #expect(response.json["is_active"].bool == false)
            }
        }
    }

    @Test func idsAreAcceptedInAnyCaseWithOrWithoutATrailingSlash() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for path in [
                "/api/v1/pets/\(Demo.pet(1).uuidString)", "/api/v1/pets/\(Demo.pet(1).lowercased)/",
                "/api/v1/pets/\(Demo.pet(1).uuidString)/",
            ] {
                let response = try await app.get(path, token: vet)
                #expect(response.status == .ok, "\(path)")
                #expect(response.json["id"].string == Demo.pet(1).lowercased)
            }
        }
    }

    @Test(arguments: ["nope", "d3000000000040008000000000000001", "urn:uuid:d3000000-0000-4000-8000-000000000001",
                      "%7Bd3000000-0000-4000-8000-000000000001%7D", "d3000000-0000-4000-8000-00000000000z"])
    func malformedIDsAre400(_ id: String) async throws {
        try await withTestApp { app in
            for user in [Demo.vet1, Demo.owner1, Demo.admin] {
                expectError(
                    try await app.get("/api/v1/pets/\(id)", token: try await app.token(for: user)), .badRequest, "Invalid pet ID format")
            }
        }
    }

    @Test func unknownAndInvisiblePetsAre404() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(try await app.get("/api/v1/pets/\(UUID().lowercased)", token: vet), .notFound, "Pet not found")
            let other = try await OtherPractice.create(app)
            expectError(try await app.get(PetFixtures.path(1), token: other.vetToken), .notFound, "Pet not found")
            let admin = try await app.get(PetFixtures.path(1), token: try await app.token(for: Demo.admin))
            #expect(admin.status == .ok)
        }
    }

    @Test func petOwnersSeeOnlyTheirOwnPets() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            for n in 1...3 {
                #expect(try await app.get(PetFixtures.path(n), token: owner).status == .ok)
            }
            for n in 4...7 {
                expectError(try await app.get(PetFixtures.path(n), token: owner), .notFound, "Pet not found")
            }
        }
    }
}
