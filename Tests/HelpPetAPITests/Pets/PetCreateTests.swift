import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /api/v1/pets` (contract §4.7): shape, defaults, field rules, the microchip rule (C6), visibility.
@Suite struct PetCreateTests {
    @Test func memberCreatesAPetWithEveryField() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 45)
            let response = try await app.post("/api/v1/pets", token: vet, json: [
                "owner_id": Demo.owner(1).uuidString, "name": "  Biscuit ", "species": " Dog ", "breed": " Beagle ",
                "color": " brown ", "gender": " male ", "date_of_birth": "2021-02-28", "weight": 22.5,
                "microchip_number": " AB-12cd-3 ", "allergies": "chicken", "registration_date": "2021-03-01",
                "is_active": false,
            ])
            #expect(response.status == .created, "\(response)")
            let pet = response.json
            #expect(pet.keys == ClinicalKeys.pet)
            let id = try #require(pet["id"].string)
            #expect(id == id.lowercased() && Array(id)[14] == "4")
            #expect(pet["owner_id"].string == Demo.owner(1).lowercased, "ids are emitted in lower case")
            #expect(pet["name"].string == "Biscuit")
            #expect(pet["species"].string == "Dog", "species is free text, stored as sent (trimmed)")
            #expect(pet["breed"].string == "Beagle")
            #expect(pet["color"].string == "brown")
            #expect(pet["gender"].string == "male")
            #expect(pet["date_of_birth"].string == "2021-02-28")
            #expect(pet["weight"].double == 22.5)
            #expect(pet["microchip_number"].string == "AB-12cd-3")
            #expect(pet["allergies"].string == "chicken")
            #expect(pet["registration_date"].string == "2021-03-01")
            #expect(pet["is_active"].bool == true, "new pets are active; is_active is not a create field")
            #expect(pet["owner"].keys == ClinicalKeys.petOwnerBrief)
            #expect(pet["owner"]["id"].string == Demo.owner(1).lowercased)
            #expect(pet["owner"]["first_name"].string == "John")
            #expect(pet["owner"]["last_name"].string == "Smith")
            #expect(pet["owner"]["email"].string == "john.smith@email.com")
            #expect(pet["owner"]["phone"].string == "+1-555-123-4567")
            #expect(pet["created_at"].string == WireTime.format(clock.now()))
            #expect(pet["updated_at"].string == WireTime.format(clock.now()))
            #expect(try await app.get("/api/v1/pets/\(id)", token: vet).json.value == pet.value)
        }
    }

    @Test func optionalFieldsAreExplicitNullsAndRegistrationDefaultsToThePracticeDay() async throws {
        try await withTestApp(clock: ManualClock(PetFixtures.eveningInCalifornia)) { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body())
            #expect(response.status == .created, "\(response)")
            let pet = response.json
            #expect(pet.keys == ClinicalKeys.pet)
            for key in ["breed", "color", "gender", "date_of_birth", "weight", "microchip_number", "allergies"] {
                #expect(pet[key].isNull, "\(key) must be an explicit null")
            }
            #expect(pet["registration_date"].string == "2025-01-15", "today in America/Los_Angeles, not in UTC")
            let nulls = try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body([
                "breed": nil, "color": nil, "gender": nil, "date_of_birth": nil, "weight": nil, "microchip_number": nil,
                "allergies": nil,
            ]))
            #expect(nulls.status == .created, "\(nulls)")
        }
    }

    @Test func adminRegistrationDefaultUsesTheOwnersOnlyPracticeElseUTC() async throws {
        try await withTestApp(clock: ManualClock(PetFixtures.eveningInCalifornia)) { app in
            let admin = try await app.token(for: Demo.admin)
            let single = try await app.post("/api/v1/pets", token: admin, json: PetFixtures.body())
            #expect(single.json["registration_date"].string == "2025-01-15", "John's only practice is in Los Angeles")

            let other = try await OtherPractice.create(app)
            try await PetOwnerFixtures.link(app, owner: Demo.owner(1).lowercased, practice: other.practiceID)
            let several = try await app.post("/api/v1/pets", token: admin, json: PetFixtures.body())
            #expect(several.json["registration_date"].string == "2025-01-16", "two practices: UTC")

            let byOtherMember = try await app.post("/api/v1/pets", token: other.vetToken, json: PetFixtures.body())
            #expect(byOtherMember.status == .created, "\(byOtherMember)")
            #expect(byOtherMember.json["registration_date"].string == "2025-01-15", "22:00 in New York")
        }
    }

    @Test func dateOfBirthRunsFrom1900ToTodayInUTC() async throws {
        try await withTestApp(clock: ManualClock(PetFixtures.eveningInCalifornia)) { app in
            let vet = try await app.token(for: Demo.vet1)
            for day in ["1900-01-01", "2025-01-16"] {
                let response = try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body(["date_of_birth": day]))
                #expect(response.status == .created, "\(day): \(response)")
                #expect(response.json["date_of_birth"].string == day)
            }
            for day in ["1899-12-31", "2025-01-17", "2999-01-01"] {
                expectError(
                    try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body(["date_of_birth": day])),
                    .badRequest, "date_of_birth must be between 1900-01-01 and today")
            }
        }
    }

    @Test(arguments: [FieldCase]([
        FieldCase("owner_id", "nope", "Invalid pet owner ID format"),
        FieldCase("owner_id", "", "Invalid pet owner ID format"),
        FieldCase("owner_id", "d2000000000040008000000000000001", "Invalid pet owner ID format"),
        FieldCase("owner_id", nil, "owner_id cannot be null"),
        FieldCase("name", "", "name must not be empty"),
        FieldCase("name", "  ", "name must not be empty"),
        FieldCase("name", .string(String(repeating: "n", count: 101)), "name must be at most 100 characters"),
        FieldCase("name", nil, "name cannot be null"),
        FieldCase("name", 3, "name must be a string"),
        FieldCase("name", "Rex\u{0}", "name contains invalid characters"),
        FieldCase("species", "", "species must not be empty"),
        FieldCase("species", .string(String(repeating: "s", count: 51)), "species must be at most 50 characters"),
        FieldCase("species", nil, "species cannot be null"),
        FieldCase("breed", .string(String(repeating: "b", count: 101)), "breed must be at most 100 characters"),
        FieldCase("breed", 1, "breed must be a string"),
        FieldCase("color", .string(String(repeating: "c", count: 51)), "color must be at most 50 characters"),
        FieldCase("gender", .string(String(repeating: "g", count: 21)), "gender must be at most 20 characters"),
        FieldCase("date_of_birth", "2021-02-30", "date_of_birth must be a date in YYYY-MM-DD format"),
        FieldCase("date_of_birth", "2021-2-3", "date_of_birth must be a date in YYYY-MM-DD format"),
        FieldCase("date_of_birth", "15/01/2020", "date_of_birth must be a date in YYYY-MM-DD format"),
        FieldCase("date_of_birth", "2020-01-15T00:00:00Z", "date_of_birth must be a date in YYYY-MM-DD format"),
        FieldCase("date_of_birth", "2020-01-15T00:00:00", "date_of_birth must be a date in YYYY-MM-DD format"),
        FieldCase("date_of_birth", "", "date_of_birth must be a date in YYYY-MM-DD format"),
        FieldCase("date_of_birth", 20200115, "date_of_birth must be a string"),
        FieldCase("weight", -1, "weight must be greater than 0 and at most 1000"),
        FieldCase("weight", -3.5, "weight must be greater than 0 and at most 1000"),
        FieldCase("weight", 1000.01, "weight must be greater than 0 and at most 1000"),
        FieldCase("weight", "65", "weight must be a number"),
        FieldCase("microchip_number", "AB 123", "microchip_number contains invalid characters"),
        FieldCase("microchip_number", "ab_123", "microchip_number contains invalid characters"),
        FieldCase("microchip_number", "123.456", "microchip_number contains invalid characters"),
        FieldCase("microchip_number", "   ", "microchip_number must not be empty"),
        FieldCase("microchip_number", .string(String(repeating: "1", count: 51)), "microchip_number must be at most 50 characters"),
        FieldCase("microchip_number", 123456, "microchip_number must be a string"),
        FieldCase("allergies", .string(String(repeating: "a", count: 1001)), "allergies must be at most 1000 characters"),
        FieldCase("registration_date", "2021-13-01", "registration_date must be a date in YYYY-MM-DD format"),
        FieldCase("registration_date", nil, "registration_date cannot be null"),
    ]))
    func invalidFieldsAnswer400(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body([field.key: field.any])),
                .badRequest, field.detail)
            let pets = try await app.get("/api/v1/pets/owner/\(Demo.owner(1).lowercased)", token: vet)
            #expect(pets.totalCount == "3", "nothing was created")
        }
    }

    @Test func boundaryValuesAreAccepted() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body([
                "name": String(repeating: "n", count: 100), "species": String(repeating: "s", count: 50),
                "breed": String(repeating: "b", count: 100), "color": String(repeating: "c", count: 50),
                "gender": String(repeating: "g", count: 20), "weight": 1000,
                "microchip_number": String(repeating: "9", count: 49) + "-", "allergies": String(repeating: "a", count: 1000),
            ]))
            #expect(response.status == .created, "\(response)")
            #expect(response.json["weight"].double == 1000)
            let light = try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body(["weight": 0.01]))
            #expect(light.json["weight"].double == 0.01)
        }
    }

    @Test func requiredFieldsAreNamedInTableOrder() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for key in ["owner_id", "name", "species"] {
                var body = PetFixtures.body()
                body.removeValue(forKey: key)
                expectError(try await app.post("/api/v1/pets", token: vet, json: body), .badRequest, "\(key) is required")
            }
            expectError(try await app.post("/api/v1/pets", token: vet, json: [:]), .badRequest, "owner_id is required")
            expectError(
                try await app.post("/api/v1/pets", token: vet, json: ["owner_id": "nope", "name": ""]),
                .badRequest, "Invalid pet owner ID format")
        }
    }

    @Test func microchipNumbersAreUniqueIgnoringCaseAcrossPractices() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let taken = "A pet with this microchip number already exists"
            expectError(
                try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body(["microchip_number": "123456789012345"])),
                .conflict, taken)
            try await PetFixtures.create(app, token: vet, ["microchip_number": "AB-12cd"])
            for variant in ["ab-12CD", "AB-12CD", " ab-12cd "] {
                expectError(
                    try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body(["microchip_number": variant])),
                    .conflict, taken)
            }
            // Another practice's client cannot reuse it either.
            let other = try await OtherPractice.create(app)
            let owner = try await PetOwnerFixtures.create(app, token: other.vetToken)
            expectError(
                try await app.post("/api/v1/pets", token: other.vetToken, json: PetFixtures.body([
                    "owner_id": owner, "microchip_number": "ab-12cd",
                ])),
                .conflict, taken)
            expectError(
                try await app.post("/api/v1/pets", token: try await app.token(for: Demo.admin), json: PetFixtures.body([
                    "microchip_number": "985112003456789",
                ])),
                .conflict, taken)
            let pets = try await app.get("/api/v1/pets/owner/\(Demo.owner(1).lowercased)", token: vet)
            #expect(pets.totalCount == "4", "only the first AB-12cd pet was created")
        }
    }

    /// C6 decides races the pre-check cannot see: exactly one creation wins, the others get the 409, never a 500 (§3.3).
    @Test func concurrentCreationsWithOneMicrochipNumberLetOneWin() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            async let a = app.post("/api/v1/pets", token: vet, json: PetFixtures.body(["microchip_number": "RACE-1"]))
            async let b = app.post("/api/v1/pets", token: admin, json: PetFixtures.body(["microchip_number": "race-1"]))
            async let c = app.post("/api/v1/pets", token: vet, json: PetFixtures.body(["microchip_number": "Race-1"]))
            async let d = app.post("/api/v1/pets", token: admin, json: PetFixtures.body([
                "owner_id": Demo.owner(2).lowercased, "microchip_number": "rAcE-1",
            ]))
            let results = try await [a, b, c, d]
            #expect(results.filter { $0.status == .created }.count == 1, "\(results.map(\.status.code))")
            for loser in results where loser.status != .created {
                expectError(loser, .conflict, "A pet with this microchip number already exists")
            }
        }
    }

    @Test func fieldErrorsComeBeforeTheOwnerLookupAndTheOwnerMustBeVisible() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body(["owner_id": UUID().lowercased])),
                .notFound, "Pet owner not found")
            expectError(
                try await app.post("/api/v1/pets", token: vet, json: PetFixtures.body([
                    "owner_id": UUID().lowercased, "weight": -1,
                ])),
                .badRequest, "weight must be greater than 0 and at most 1000")
            let other = try await OtherPractice.create(app)
            expectError(
                try await app.post("/api/v1/pets", token: other.vetToken, json: PetFixtures.body()),
                .notFound, "Pet owner not found")
            // Visibility (404) comes before the microchip conflict (409).
            expectError(
                try await app.post("/api/v1/pets", token: other.vetToken, json: PetFixtures.body([
                    "microchip_number": "123456789012345",
                ])),
                .notFound, "Pet owner not found")
        }
    }

    @Test func petOwnersMayNotCreatePets() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await app.post("/api/v1/pets", token: owner, json: PetFixtures.body()),
                .forbidden, "Veterinary staff or administrator access required")
            expectError(
                try await app.sendRaw(.POST, "/api/v1/pets", token: owner, body: "[]", contentType: .json),
                .forbidden, "Veterinary staff or administrator access required")
            let pets = try await app.get("/api/v1/pets/owner/\(Demo.owner(1).lowercased)", token: owner)
            #expect(pets.totalCount == "3")
        }
    }

    @Test func adminCreatesForAnyOwner() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let other = try await OtherPractice.create(app)
            let owner = try await PetOwnerFixtures.create(app, token: other.vetToken)
            let response = try await app.post("/api/v1/pets", token: admin, json: PetFixtures.body(["owner_id": owner]))
            #expect(response.status == .created, "\(response)")
            #expect(response.json["owner"]["id"].string == owner)
        }
    }

    @Test func bodySyntaxErrorsAndTrailingSlash() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await BodySyntaxChecks.expectRefused(app, .POST, "/api/v1/pets", token: vet)
            let slashed = try await app.post("/api/v1/pets/", token: vet, json: PetFixtures.body())
            #expect(slashed.status == .created, "\(slashed)")
        }
    }
}
