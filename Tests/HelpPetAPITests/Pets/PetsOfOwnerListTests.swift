import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/v1/pets/owner/{owner_id}` (contract §4.7): order `name`, `id`; `include_inactive`; pagination;
/// visibility.
@Suite struct PetsOfOwnerListTests {
    static let john = "/api/v1/pets/owner/\(Demo.owner(1).lowercased)"

    @Test func activePetsInNameOrderWithFullObjects() async throws {
        try await withTestApp { app in
            let response = try await app.get(Self.john, token: try await app.token(for: Demo.vet1))
            #expect(response.status == .ok)
            #expect(response.json.ids == [Demo.pet(1), Demo.pet(2), Demo.pet(3)].lowercasedIDs)
            #expect(response.totalCount == "3")
            for pet in response.json.array ?? [] {
                #expect(pet.keys == ClinicalKeys.pet)
                #expect(pet["owner"]["id"].string == Demo.owner(1).lowercased)
            }
        }
    }

    @Test func equalNamesAreOrderedById() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let apollo = try await PetFixtures.create(app, token: vet, ["name": "Apollo"])
            let bellas = [
                try await PetFixtures.create(app, token: vet, ["name": "Bella"]),
                try await PetFixtures.create(app, token: vet, ["name": "Bella"]),
                Demo.pet(1).lowercased,
            ].sorted()
            let zeus = try await PetFixtures.create(app, token: vet, ["name": "Zeus"])
            let response = try await app.get(Self.john, token: vet)
            #expect(response.json.ids == [apollo] + bellas + [Demo.pet(2).lowercased, Demo.pet(3).lowercased, zeus])
            #expect(response.totalCount == "7")
            let page = try await app.get(Self.john + "?limit=3&offset=1", token: vet)
            #expect(page.json.ids == bellas)
            #expect(page.totalCount == "7")
        }
    }

    @Test func inactivePetsOnlyOnRequest() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            #expect(try await app.delete(PetFixtures.path(2), token: vet).status == .ok)
            let active = [Demo.pet(1), Demo.pet(3)].lowercasedIDs
            let all = [Demo.pet(1), Demo.pet(2), Demo.pet(3)].lowercasedIDs
            for (query, expected) in [
                ("", active), ("?include_inactive=false", active), ("?include_inactive=0", active),
                ("?include_inactive=FALSE", active), ("?include_inactive=true", all), ("?include_inactive=1", all),
                ("?include_inactive=True", all),
            ] {
                let response = try await app.get(Self.john + query, token: vet)
                #expect(response.status == .ok, "\(query)")
                #expect(response.json.ids == expected, "\(query)")
                #expect(response.totalCount == String(expected.count), "\(query)")
            }
            for bad in ["yes", "", "2", "on"] {
                expectError(
                    try await app.get(Self.john + "?include_inactive=\(bad)", token: vet),
                    .badRequest, "include_inactive must be true or false")
            }
        }
    }

    @Test func paginationErrors() async throws {
        try await withTestApp { app in
            try await PaginationCases.expectRefused(app, Self.john, token: try await app.token(for: Demo.vet1))
        }
    }

    @Test func anOwnerWithoutPetsHasAnEmptyList() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await PetOwnerFixtures.create(app, token: vet)
            let response = try await app.get("/api/v1/pets/owner/\(owner)", token: vet)
            #expect(response.status == .ok)
            #expect(response.text == "[]")
            #expect(response.totalCount == "0")
        }
    }

    @Test func idsAndVisibility() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(try await app.get("/api/v1/pets/owner/nope", token: vet), .badRequest, "Invalid pet owner ID format")
            expectError(
                try await app.get("/api/v1/pets/owner/nope?include_inactive=maybe", token: vet),
                .badRequest, "Invalid pet owner ID format")
            expectError(
                try await app.get("/api/v1/pets/owner/\(UUID().lowercased)", token: vet), .notFound, "Pet owner not found")
            // Query errors come before the lookup.
            expectError(
                try await app.get("/api/v1/pets/owner/\(UUID().lowercased)?include_inactive=maybe", token: vet),
                .badRequest, "include_inactive must be true or false")
            let other = try await OtherPractice.create(app)
            expectError(try await app.get(Self.john, token: other.vetToken), .notFound, "Pet owner not found")
            let upper = try await app.get("/api/v1/pets/owner/\(Demo.owner(1).uuidString)/", token: vet)
            #expect(upper.json.ids.count == 3)
        }
    }

    @Test func petOwnersListOnlyTheirOwnPets() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            let own = try await app.get(Self.john, token: owner)
            #expect(own.status == .ok)
            #expect(own.json.ids.count == 3)
            expectError(
                try await app.get("/api/v1/pets/owner/\(Demo.owner(2).lowercased)", token: owner), .notFound, "Pet owner not found")
            let admin = try await app.get("/api/v1/pets/owner/\(Demo.owner(2).lowercased)", token: try await app.token(for: Demo.admin))
            #expect(admin.json.ids == [Demo.pet(4).lowercased])
        }
    }
}
