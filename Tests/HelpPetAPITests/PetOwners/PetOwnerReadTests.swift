import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/pet-owners/{owner_id}` (contract §4.6, §4.0 PetOwner): shape, ids, visibility.
@Suite struct PetOwnerReadTests {
    static let john = Demo.owner(1).lowercased

    @Test func johnSmithMatchesTheContractExample() async throws {
        try await withTestApp { app in
            let response = try await app.get("/api/v1/pet-owners/\(Self.john)", token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: .contentType) == "application/json; charset=utf-8")
            let seeded = WireTime.format(app.testSeedTime)
            let expected = """
                {"id": "d2000000-0000-4000-8000-000000000001", "first_name": "John", "last_name": "Smith",
                 "full_name": "John Smith", "email": "john.smith@email.com", "phone": "+1-555-123-4567",
                 "address": "742 Evergreen Terrace, San Mateo, CA 94401", "user_id": "d1000000-0000-4000-8000-000000000004",
                 "practice_ids": ["d0000000-0000-4000-8000-000000000001"],
                 "pets": [
                   {"id": "d3000000-0000-4000-8000-000000000001", "name": "Bella", "species": "dog", "breed": "Golden Retriever"},
                   {"id": "d3000000-0000-4000-8000-000000000002", "name": "Max", "species": "dog", "breed": "Labrador Retriever"},
                   {"id": "d3000000-0000-4000-8000-000000000003", "name": "Mittens", "species": "cat", "breed": "Siamese"}
                 ],
                 "created_at": "\(seeded)", "updated_at": "\(seeded)"}
                """
            #expect(response.json["uuid"].string == Self.john)
            #expect(response.json["notifications_enabled"].bool == true)
            let contractShape = ContractExample.withoutAppKeys(response.json.value, ContractExample.petOwnerAppKeys)
            #expect(contractShape == (try JSONNode(data: Data(expected.utf8))).value, "\(response)")
        }
    }

    @Test func ownerWithoutLoginHasNullUserID() async throws {
        try await withTestApp { app in
            let response = try await app.get(
                "/api/v1/pet-owners/\(Demo.owner(2).lowercased)", token: try await app.token(for: Demo.admin))
            #expect(response.json.keys == ClinicalKeys.petOwner)
            #expect(response.json["user_id"].isNull)
            #expect(response.json["pets"].ids == [Demo.pet(4).lowercased])
        }
    }

    @Test func idsAreAcceptedInAnyCaseAndEmittedLowercase() async throws {
        try await withTestApp { app in
            let response = try await app.get(
                "/api/v1/pet-owners/\(Demo.owner(1).uuidString.uppercased())", token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok)
            #expect(response.json["id"].string == Self.john)
        }
    }

    @Test(arguments: [
        "nope", "d2000000000040008000000000000001", "%7Bd2000000-0000-4000-8000-000000000001%7D",
        "urn:uuid:d2000000-0000-4000-8000-000000000001", "d2000000-0000-4000-8000-00000000000g",
        "d2000000-0000-4000-8000-0000000000011",
    ])
    func malformedIDsAre400(_ id: String) async throws {
        try await withTestApp { app in
            for token in [try await app.token(for: Demo.vet1), try await app.token(for: Demo.owner1)] {
                expectError(try await app.get("/api/v1/pet-owners/\(id)", token: token), .badRequest, "Invalid pet owner ID format")
            }
        }
    }

    @Test func unknownAndInvisibleOwnersAre404() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(try await app.get("/api/v1/pet-owners/\(UUID().lowercased)", token: vet), .notFound, "Pet owner not found")
            let other = try await AppointmentFixtures.otherPractice(app)
            expectError(try await app.get("/api/v1/pet-owners/\(Self.john)", token: other.vetToken), .notFound, "Pet owner not found")

            // Once John is also a client of the other practice, its member sees him — with only its own link.
            try await PetOwnerFixtures.link(app, owner: Self.john, practice: other.practiceID)
            let visible = try await app.get("/api/v1/pet-owners/\(Self.john)", token: other.vetToken)
            #expect(visible.status == .ok)
            #expect(visible.json["practice_ids"].array?.map(\.string) == [other.practiceID])
            let asAdmin = try await app.get("/api/v1/pet-owners/\(Self.john)", token: try await app.token(for: Demo.admin))
            #expect(asAdmin.json["practice_ids"].array?.compactMap(\.string)
                == [PetOwnerFixtures.demoPractice, other.practiceID].sorted())
        }
    }

    @Test func petOwnerSeesOnlyThemselves() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            let own = try await app.get("/api/v1/pet-owners/\(Self.john)", token: owner)
            #expect(own.status == .ok)
            #expect(own.json["practice_ids"].array?.map(\.string) == [PetOwnerFixtures.demoPractice])
            expectError(
                try await app.get("/api/v1/pet-owners/\(Demo.owner(2).lowercased)", token: owner), .notFound, "Pet owner not found")
            expectError(try await app.get("/api/v1/pet-owners/\(UUID().lowercased)", token: owner), .notFound, "Pet owner not found")
        }
    }

    @Test func aliasAndTrailingSlash() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let plain = try await app.get("/api/v1/pet-owners/\(Self.john)", token: vet)
            for path in ["/api/v1/pet-owners/\(Self.john)/", "/api/v1/pet_owners/\(Self.john)", "/api/v1/pet_owners/\(Self.john)/"] {
                let response = try await app.get(path, token: vet)
                #expect(response.status == .ok, "\(path)")
                #expect(response.json.value == plain.json.value, "\(path)")
            }
            expectError(try await app.get("/api/v1/pet_owners/nope/", token: vet), .badRequest, "Invalid pet owner ID format")
        }
    }
}
