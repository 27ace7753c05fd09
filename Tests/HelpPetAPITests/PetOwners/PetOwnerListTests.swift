import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `GET /api/v1/pet-owners` without `search` (contract §4.6, §1.11): scoping, order, pagination, practice filter,
/// the `/pet_owners` alias and trailing slashes.
@Suite struct PetOwnerListTests {
    /// Demo owners by `lower(last_name)`: Davis, Patel, Rivera, Smith.
    static let demoOrder = [Demo.owner(2), Demo.owner(4), Demo.owner(3), Demo.owner(1)].lowercasedIDs

    @Test func memberListsTheirClientsInNameOrderWithEveryKey() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.get("/api/v1/pet-owners", token: vet)
            #expect(response.status == .ok, "\(response)")
            #expect(response.json.ids == Self.demoOrder)
            #expect(response.totalCount == "4")
            for owner in response.json.array ?? [] {
                #expect(owner.keys == ClinicalKeys.petOwner)
                #expect(owner["practice_ids"].array?.map(\.string) == [PetOwnerFixtures.demoPractice])
            }
            let john = response.json[3]
            #expect(john["full_name"].string == "John Smith")
            #expect(john["pets"].ids == [Demo.pet(1), Demo.pet(2), Demo.pet(3)].lowercasedIDs)
            #expect(john["pets"][0].keys == ClinicalKeys.ownedPet)
            let emily = response.json[0]
            #expect(emily["user_id"].isNull)
        }
    }

    @Test func orderIgnoresCaseAndBreaksTiesById() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            // Binary order would put "Davis" before "adams"; lower() puts "adams" first.
            let adams = try await PetOwnerFixtures.create(app, token: vet, ["first_name": "zoe", "last_name": "adams"])
            // Same lower(last_name), different first names: first name decides.
            let annB = try await PetOwnerFixtures.create(app, token: vet, ["first_name": "Ann", "last_name": "smith"])
            // Two owners identical under lower(): the id decides.
            let twinA = try await PetOwnerFixtures.create(app, token: vet, ["first_name": "john", "last_name": "SMITH"])
            let twinB = try await PetOwnerFixtures.create(app, token: vet, ["first_name": "JOHN", "last_name": "Smith"])
            let johns = [Demo.owner(1).lowercased, twinA, twinB].sorted()

            let response = try await app.get("/api/v1/pet-owners", token: vet)
            #expect(response.json.ids == [adams] + Self.demoOrder.dropLast() + [annB] + johns)
            #expect(response.totalCount == "8")
        }
    }

    @Test func limitAndOffsetPageTheOrderedListWhileTheTotalStays() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let page = try await app.get("/api/v1/pet-owners?limit=2&offset=1", token: vet)
            #expect(page.status == .ok)
            #expect(page.json.ids == Array(Self.demoOrder[1...2]))
            #expect(page.totalCount == "4")
            let beyond = try await app.get("/api/v1/pet-owners?offset=10", token: vet)
            #expect(beyond.status == .ok)
            #expect(beyond.json.array?.isEmpty == true)
            #expect(beyond.totalCount == "4")
        }
    }

    @Test func paginationErrors() async throws {
        try await withTestApp { app in
            try await PaginationCases.expectRefused(app, "/api/v1/pet-owners", token: try await app.token(for: Demo.vet1))
        }
    }

    @Test func adminSeesEveryOwnerAndFiltersByPractice() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let other = try await AppointmentFixtures.otherPractice(app)
            let newcomer = try await PetOwnerFixtures.create(app, token: admin, [
                "last_name": "Newcomer", "practice_id": other.practiceID,
            ])
            let all = try await app.get("/api/v1/pet-owners", token: admin)
            #expect(all.json.ids == [Demo.owner(2).lowercased, newcomer] + Self.demoOrder.dropFirst())
            #expect(all.totalCount == "5")

            let otherClients = try await app.get("/api/v1/pet-owners?practice_id=\(other.practiceID)", token: admin)
            #expect(otherClients.json.ids == [newcomer])
            #expect(otherClients.totalCount == "1")
            let demoClients = try await app.get(
                "/api/v1/pet-owners?practice_id=\(Demo.practiceID.uuidString)", token: admin)
            #expect(demoClients.json.ids == Self.demoOrder, "ids are accepted in upper case too")

            // ADMIN sees every association of an owner, sorted; members only their own practice's.
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            let john = try await app.get("/api/v1/pet-owners?practice_id=\(other.practiceID)", token: admin)
            #expect(john.json.ids == [newcomer, Demo.owner(1).lowercased], "Newcomer before Smith")
            let linked = (john.json.array ?? []).first { $0["id"].string == Demo.owner(1).lowercased }
            #expect(linked?["practice_ids"].array?.compactMap(\.string)
                == [PetOwnerFixtures.demoPractice, other.practiceID].sorted())
            let asVet9 = try await app.get("/api/v1/pet-owners", token: other.vetToken)
            let johnForVet9 = (asVet9.json.array ?? []).first { $0["id"].string == Demo.owner(1).lowercased }
            #expect(johnForVet9?["practice_ids"].array?.compactMap(\.string) == [other.practiceID])
            let asVet1 = try await app.get("/api/v1/pet-owners", token: try await app.token(for: Demo.vet1))
            #expect(asVet1.json[3]["practice_ids"].array?.compactMap(\.string) == [PetOwnerFixtures.demoPractice])
        }
    }

    /// The contract lists no error for an unknown `practice_id` in ADMIN's filter; the implementation answers
    /// 404 `Practice not found` (the member rule), which this test pins.
    @Test func adminFilterWithUnknownPracticeIsNotFound() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let response = try await app.get("/api/v1/pet-owners?practice_id=\(UUID().lowercased)", token: admin)
            expectError(response, .notFound, "Practice not found")
        }
    }

    @Test func memberPracticeFilterMustBeTheirOwn() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let other = try await AppointmentFixtures.otherPractice(app)
            let own = try await app.get("/api/v1/pet-owners?practice_id=\(PetOwnerFixtures.demoPractice)", token: vet)
            #expect(own.json.ids == Self.demoOrder)
            expectError(
                try await app.get("/api/v1/pet-owners?practice_id=\(other.practiceID)", token: vet),
                .notFound, "Practice not found")
            expectError(
                try await app.get("/api/v1/pet-owners?practice_id=\(UUID().lowercased)", token: vet),
                .notFound, "Practice not found")
            for bad in ["nope", "", "d0000000000040008000000000000001", "%7Bd0000000-0000-4000-8000-000000000001%7D"] {
                expectError(
                    try await app.get("/api/v1/pet-owners?practice_id=\(bad)", token: vet),
                    .badRequest, "Invalid practice ID format")
            }
        }
    }

    @Test func memberOfAnotherPracticeSeesOnlyTheirOwnClients() async throws {
        try await withTestApp { app in
            let other = try await AppointmentFixtures.otherPractice(app)
            let empty = try await app.get("/api/v1/pet-owners", token: other.vetToken)
            #expect(empty.status == .ok)
            #expect(empty.json.array?.isEmpty == true)
            #expect(empty.totalCount == "0")
            let own = try await PetOwnerFixtures.create(app, token: other.vetToken)
            let listed = try await app.get("/api/v1/pet-owners", token: other.vetToken)
            #expect(listed.json.ids == [own])
            let vet1 = try await app.get("/api/v1/pet-owners", token: try await app.token(for: Demo.vet1))
            #expect(!vet1.json.ids.contains(own))
        }
    }

    @Test func petOwnersMayNotList() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            for path in ["/api/v1/pet-owners", "/api/v1/pet_owners/", "/api/v1/pet-owners?limit=0"] {
                expectError(try await app.get(path, token: owner), .forbidden, "Veterinary staff or administrator access required")
            }
        }
    }

    @Test func aliasAndTrailingSlashServeTheSameList() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for path in ["/api/v1/pet-owners/", "/api/v1/pet_owners", "/api/v1/pet_owners/", "/api/v1/pet_owners?limit=50"] {
                let response = try await app.get(path, token: vet)
                #expect(response.status == .ok, "\(path): \(response)")
                #expect(response.json.ids == Self.demoOrder, "\(path)")
                #expect(response.totalCount == "4")
                #expect(response.headers.first(name: .location) == nil)
            }
        }
    }

    @Test func ownedPetsAreTheActiveOnesByNameThenId() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            #expect(try await app.delete("/api/v1/pets/\(Demo.pet(2).lowercased)", token: vet).status == .ok)
            var added: [String] = []
            for _ in 0..<2 {
                let pet = try await app.post("/api/v1/pets", token: vet, json: [
                    "owner_id": Demo.owner(1).lowercased, "name": "Bella", "species": "dog", "breed": nil,
                ])
                #expect(pet.status == .created, "\(pet)")
                added.append(try #require(pet.json["id"].string))
            }
            let list = try await app.get("/api/v1/pet-owners", token: vet)
            let john = list.json[3]
            #expect(john["pets"].ids == ([Demo.pet(1).lowercased] + added).sorted() + [Demo.pet(3).lowercased])
            let second = (john["pets"].array ?? []).first { $0["id"].string == added[0] }
            #expect(second?["breed"].isNull == true)
            #expect(second?.keys == ClinicalKeys.ownedPet)
        }
    }
}
