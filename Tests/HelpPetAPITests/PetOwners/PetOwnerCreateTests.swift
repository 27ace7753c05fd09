import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /api/v1/pet-owners` (contract §4.6): shape, trimming, field rules, practice resolution (§2.5), gates.
@Suite struct PetOwnerCreateTests {
    @Test func memberCreatesAClientOfTheirPractice() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 30)
            let response = try await app.post("/api/v1/pet-owners", token: vet, json: PetOwnerFixtures.body([
                "first_name": "  Grace ", "last_name": "\tHopper\n", "email": " grace.hopper@example.com ",
            ]))
            #expect(response.status == .created, "\(response)")
            let owner = response.json
            #expect(owner.keys == ClinicalKeys.petOwner)
            let id = try #require(owner["id"].string)
            #expect(id == id.lowercased() && UUID(uuidString: id) != nil && Array(id)[14] == "4", "a random v4 id: \(id)")
            #expect(owner["first_name"].string == "Grace")
            #expect(owner["last_name"].string == "Hopper")
            #expect(owner["full_name"].string == "Grace Hopper")
            #expect(owner["email"].string == "grace.hopper@example.com")
            #expect(owner["phone"].string == "+1 (555) 010-9999")
            #expect(owner["address"].string == "1 Navy Way")
            #expect(owner["user_id"].isNull)
            #expect(owner["practice_ids"].array?.map(\.string) == [PetOwnerFixtures.demoPractice])
            #expect(owner["pets"].array?.isEmpty == true)
            #expect(owner["created_at"].string == WireTime.format(clock.now()))
            #expect(owner["updated_at"].string == WireTime.format(clock.now()))

            // The association makes the owner visible to the practice's members.
            let fetched = try await app.get("/api/v1/pet-owners/\(id)", token: vet)
            #expect(fetched.status == .ok)
            #expect(fetched.json.value == owner.value)
            #expect(try await app.get("/api/v1/pet-owners", token: vet).json.ids.contains(id))
        }
    }

    @Test func optionalFieldsAreExplicitNulls() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/pet-owners", token: vet, json: [
                "first_name": "Min", "last_name": "Imal", "email": "min@example.com",
            ])
            #expect(response.status == .created, "\(response)")
            #expect(response.json.keys == ClinicalKeys.petOwner)
            #expect(response.json["phone"].isNull && response.json["address"].isNull && response.json["user_id"].isNull)
            let nulls = try await app.post("/api/v1/pet-owners", token: vet, json: PetOwnerFixtures.body([
                "phone": nil, "address": nil,
            ]))
            #expect(nulls.status == .created)
            #expect(nulls.json["phone"].isNull && nulls.json["address"].isNull)
        }
    }

    @Test func emailsNeedNotBeUniqueAndUnknownKeysAreIgnored() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/pet-owners", token: vet, json: PetOwnerFixtures.body([
                "email": "john.smith@email.com", "favourite_colour": "blue", "full_name": "Ignored Name",
                "user_id": Demo.owner1.id.lowercased, "pets": [], "practice_ids": [],
            ]))
            #expect(response.status == .created, "\(response)")
            #expect(response.json["full_name"].string == "Grace Hopper")
            #expect(response.json["user_id"].isNull, "server-computed and link fields are not taken from the body")
            #expect(response.json["practice_ids"].array?.count == 1)
        }
    }

    @Test(arguments: [FieldCase]([
        FieldCase("first_name", "", "first_name must not be empty"),
        FieldCase("first_name", "   ", "first_name must not be empty"),
        FieldCase("first_name", .string(String(repeating: "f", count: 101)), "first_name must be at most 100 characters"),
        FieldCase("first_name", nil, "first_name cannot be null"),
        FieldCase("first_name", 7, "first_name must be a string"),
        FieldCase("first_name", "a\u{0}b", "first_name contains invalid characters"),
        FieldCase("last_name", " ", "last_name must not be empty"),
        FieldCase("last_name", .string(String(repeating: "l", count: 101)), "last_name must be at most 100 characters"),
        FieldCase("last_name", nil, "last_name cannot be null"),
        FieldCase("last_name", ["x"], "last_name must be a string"),
        FieldCase("email", "not-an-email", "email must be a valid email address"),
        FieldCase("email", "a@localhost", "email must be a valid email address"),
        FieldCase("email", "a@b@example.com", "email must be a valid email address"),
        FieldCase("email", "@example.com", "email must be a valid email address"),
        FieldCase("email", .string(String(repeating: "e", count: 243) + "@example.com"),
                  "email must be a valid email address"),
        FieldCase("email", "", "email must not be empty"),
        FieldCase("email", nil, "email cannot be null"),
        FieldCase("email", .bool(true), "email must be a string"),
        FieldCase("phone", "call me", "phone contains invalid characters"),
        FieldCase("phone", "+1-555-0100 ext. 7", "phone contains invalid characters"),
        FieldCase("phone", .string(String(repeating: "5", count: 33)), "phone must be at most 32 characters"),
        FieldCase("phone", 5550100, "phone must be a string"),
        FieldCase("address", .string(String(repeating: "a", count: 501)), "address must be at most 500 characters"),
        FieldCase("address", "x\u{0}", "address contains invalid characters"),
        FieldCase("practice_id", "nope", "Invalid practice ID format"),
        FieldCase("practice_id", "", "Invalid practice ID format"),
        FieldCase("practice_id", 12, "Invalid practice ID format"),
    ]))
    func invalidFieldsAnswer400(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/pet-owners", token: vet, json: PetOwnerFixtures.body([
                field.key: field.any,
            ]))
            expectError(response, .badRequest, field.detail)
            #expect(try await app.get("/api/v1/pet-owners", token: vet).totalCount == "4", "nothing was created")
        }
    }

    @Test func boundaryLengthsAreAccepted() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/pet-owners", token: vet, json: PetOwnerFixtures.body([
                "first_name": String(repeating: "é", count: 100), "last_name": String(repeating: "l", count: 100),
                "email": String(repeating: "e", count: 242) + "@example.com",
                "phone": String(repeating: "5", count: 32), "address": String(repeating: "a", count: 500),
            ]))
            #expect(response.status == .created, "\(response)")
        }
    }

    @Test func requiredFieldsAreNamedInTableOrder() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for key in ["first_name", "last_name", "email"] {
                var body = PetOwnerFixtures.body()
                body.removeValue(forKey: key)
                expectError(try await app.post("/api/v1/pet-owners", token: vet, json: body), .badRequest, "\(key) is required")
            }
            expectError(try await app.post("/api/v1/pet-owners", token: vet, json: [:]), .badRequest, "first_name is required")
            expectError(
                try await app.post("/api/v1/pet-owners", token: vet, json: ["first_name": "A", "email": "bad"]),
                .badRequest, "last_name is required")
        }
    }

    @Test func bodySyntaxErrors() async throws {
        try await withTestApp { app in
            try await BodySyntaxChecks.expectRefused(app, .POST, "/api/v1/pet-owners", token: try await app.token(for: Demo.vet1))
        }
    }

    @Test func petOwnersMayNotCreateEvenWithABadBody() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await app.post("/api/v1/pet-owners", token: owner, json: PetOwnerFixtures.body()),
                .forbidden, "Veterinary staff or administrator access required")
            expectError(
                try await app.sendRaw(.POST, "/api/v1/pet-owners", token: owner, body: "{", contentType: .json),
                .forbidden, "Veterinary staff or administrator access required")
        }
    }

    @Test func adminMustNameAnExistingPractice() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            expectError(
                try await app.post("/api/v1/pet-owners", token: admin, json: PetOwnerFixtures.body()),
                .badRequest, "practice_id is required")
            expectError(
                try await app.post("/api/v1/pet-owners", token: admin, json: PetOwnerFixtures.body(["practice_id": nil])),
                .badRequest, "practice_id is required")
            expectError(
                try await app.post("/api/v1/pet-owners", token: admin, json: PetOwnerFixtures.body(["email": "x"])),
                .badRequest, "email must be a valid email address")
            expectError(
                try await app.post("/api/v1/pet-owners", token: admin, json: PetOwnerFixtures.body([
                    "practice_id": UUID().lowercased,
                ])),
                .notFound, "Practice not found")

            let other = try await AppointmentFixtures.otherPractice(app)
            let created = try await app.post("/api/v1/pet-owners", token: admin, json: PetOwnerFixtures.body([
                "practice_id": other.practiceID.uppercased(),
            ]))
            #expect(created.status == .created, "\(created)")
            #expect(created.json["practice_ids"].array?.map(\.string) == [other.practiceID])
            let id = try #require(created.json["id"].string)
            #expect(try await app.get("/api/v1/pet-owners/\(id)", token: other.vetToken).status == .ok)
            expectError(
                try await app.get("/api/v1/pet-owners/\(id)", token: try await app.token(for: Demo.vet1)),
                .notFound, "Pet owner not found")
        }
    }

    @Test func memberPracticeIsAlwaysTheirOwn() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let own = try await app.post("/api/v1/pet-owners", token: vet, json: PetOwnerFixtures.body([
                "practice_id": Demo.practiceID.uuidString,
            ]))
            #expect(own.status == .created, "repeating their own practice is fine: \(own)")
            let other = try await AppointmentFixtures.otherPractice(app)
            expectError(
                try await app.post("/api/v1/pet-owners", token: vet, json: PetOwnerFixtures.body([
                    "practice_id": other.practiceID,
                ])),
                .notFound, "Practice not found")
            expectError(
                try await app.post("/api/v1/pet-owners", token: vet, json: PetOwnerFixtures.body([
                    "practice_id": UUID().lowercased,
                ])),
                .notFound, "Practice not found")
            let byOther = try await app.post("/api/v1/pet-owners", token: other.vetToken, json: PetOwnerFixtures.body())
            #expect(byOther.status == .created)
            #expect(byOther.json["practice_ids"].array?.map(\.string) == [other.practiceID])
        }
    }

    @Test func aliasAndTrailingSlashCreateToo() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for path in ["/api/v1/pet-owners/", "/api/v1/pet_owners", "/api/v1/pet_owners/"] {
                let response = try await app.post(path, token: vet, json: PetOwnerFixtures.body())
                #expect(response.status == .created, "\(path): \(response)")
                #expect(response.headers.first(name: .location) == nil)
            }
            #expect(try await app.get("/api/v1/pet-owners", token: vet).totalCount == "7")
        }
    }
}
