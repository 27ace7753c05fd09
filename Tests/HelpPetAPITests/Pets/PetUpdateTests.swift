import AppCore
import Foundation
import Testing
import VaporTesting

/// `PUT /api/v1/pets/{pet_id}` (contract §4.7, PUT semantics of §1.7).
@Suite struct PetUpdateTests {
    static let bella = PetFixtures.path(1)
    static let max = PetFixtures.path(2)

    @Test func absentKeysStayAndSentKeysChange() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(Self.bella, token: vet)
            clock.advance(by: 75)
            let response = try await app.put(Self.bella, token: vet, json: [
                "name": " Bella Rose ", "weight": 66, "allergies": "pollen", "registration_date": "2020-04-02",
            ])
            #expect(response.status == .ok, "\(response)")
            let pet = response.json
            #expect(pet.keys == ClinicalKeys.pet)
            #expect(pet["name"].string == "Bella Rose")
            #expect(pet["weight"].double == 66)
            #expect(pet["allergies"].string == "pollen")
            #expect(pet["registration_date"].string == "2020-04-02")
            for key in ["owner_id", "species", "breed", "color", "gender", "date_of_birth", "microchip_number",
                        "is_active", "owner", "created_at"] {
                #expect(pet[key].value == before.json[key].value, "\(key) is unchanged")
            }
            #expect(pet["updated_at"].string == WireTime.format(clock.now()))
            #expect(try await app.get(Self.bella, token: vet).json.value == pet.value)
        }
    }

    @Test func nullClearsNullableFieldsAndIsRefusedForTheOthers() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let nullable = ["breed", "color", "gender", "date_of_birth", "weight", "microchip_number", "allergies"]
            let cleared = try await app.put(Self.bella, token: vet, json: Dictionary(uniqueKeysWithValues: nullable.map { ($0, nil) }))
            #expect(cleared.status == .ok, "\(cleared)")
            for key in nullable { #expect(cleared.json[key].isNull, "\(key)") }
            #expect(cleared.json.keys == ClinicalKeys.pet)
            for key in ["name", "species", "registration_date", "is_active"] {
                expectError(try await app.put(Self.bella, token: vet, json: [key: nil]), .badRequest, "\(key) cannot be null")
            }
        }
    }

    @Test(arguments: [FieldCase]([
        FieldCase("name", "", "name must not be empty"),
        FieldCase("species", .string(String(repeating: "s", count: 51)), "species must be at most 50 characters"),
        FieldCase("date_of_birth", "2020-02-30", "date_of_birth must be a date in YYYY-MM-DD format"),
        FieldCase("date_of_birth", "1899-12-31", "date_of_birth must be between 1900-01-01 and today"),
        FieldCase("weight", 1001, "weight must be greater than 0 and at most 1000"),
        FieldCase("weight", -1, "weight must be greater than 0 and at most 1000"),
        FieldCase("microchip_number", "12 34", "microchip_number contains invalid characters"),
        FieldCase("registration_date", "2020/04/01", "registration_date must be a date in YYYY-MM-DD format"),
        FieldCase("is_active", "false", "is_active must be a boolean"),
        FieldCase("is_active", 0, "is_active must be a boolean"),
    ]))
    func invalidFieldsAnswer400AndChangeNothing(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(Self.bella, token: vet)
            expectError(try await app.put(Self.bella, token: vet, json: [field.key: field.any]), .badRequest, field.detail)
            expectError(
                try await app.put("/api/v1/pets/\(UUID().lowercased)", token: vet, json: [field.key: field.any]),
                .badRequest, field.detail)
            #expect(try await app.get(Self.bella, token: vet).json.value == before.json.value)
        }
    }

    @Test func dateOfBirthTodayInUTCIsAccepted() async throws {
        try await withTestApp(clock: ManualClock(PetFixtures.eveningInCalifornia)) { app in
            let vet = try await app.token(for: Demo.vet1)
            #expect(try await app.put(Self.bella, token: vet, json: ["date_of_birth": "2025-01-16"]).status == .ok)
            expectError(
                try await app.put(Self.bella, token: vet, json: ["date_of_birth": "2025-01-17"]),
                .badRequest, "date_of_birth must be between 1900-01-01 and today")
        }
    }

    @Test func immutableFieldsMayBeRepeatedButNotChanged() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let same = try await app.put(Self.bella, token: vet, json: [
                "id": Demo.pet(1).uuidString, "owner_id": Demo.owner(1).uuidString, "name": "Bella",
            ])
            #expect(same.status == .ok, "\(same)")
            for (key, value) in [
                ("owner_id", Demo.owner(2).lowercased as String?), ("owner_id", nil), ("id", Demo.pet(2).lowercased),
            ] {
                expectError(
                    try await app.put(Self.bella, token: vet, json: [key: value, "name": "Changed"]),
                    .badRequest, "\(key) cannot be changed")
            }
            #expect(try await app.get(Self.bella, token: vet).json["name"].string == "Bella")
        }
    }

    @Test func aBodyWithoutUpdatableFieldsIsRefused() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for body: [String: Any?] in [
                [:], ["owner_id": Demo.owner(1).lowercased], ["owner": ["id": "x"], "created_at": "2020-01-01T00:00:00Z"],
                ["id": Demo.pet(1).lowercased, "updated_at": nil],
            ] {
                expectError(try await app.put(Self.bella, token: vet, json: body), .badRequest, "At least one updatable field is required")
            }
        }
    }

    @Test func aNoOpKeepsUpdatedAt() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(Self.bella, token: vet)
            clock.advance(by: 300)
            let same = try await app.put(Self.bella, token: vet, json: [
                "name": "Bella", "weight": 65.5, "is_active": true, "allergies": nil, "microchip_number": "123456789012345",
            ])
            #expect(same.status == .ok, "\(same)")
            #expect(same.json["updated_at"].string == before.json["updated_at"].string)
            let echoed = try await app.sendRaw(.PUT, Self.bella, token: vet, body: before.text, contentType: .json)
            #expect(echoed.status == .ok, "the whole object sent back: \(echoed)")
            #expect(echoed.json.value == before.json.value)
        }
    }

    @Test func microchipConflictsIgnoreCaseButNotThePetItself() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let taken = "A pet with this microchip number already exists"
            try await PetFixtures.create(app, token: vet, ["microchip_number": "XY-77ab"])
            expectError(try await app.put(Self.max, token: vet, json: ["microchip_number": "xy-77AB"]), .conflict, taken)
            expectError(try await app.put(Self.max, token: vet, json: ["microchip_number": "123456789012345"]), .conflict, taken)
            #expect(try await app.get(Self.max, token: vet).json["microchip_number"].string == "985112003456789")

            // A pet may change the case of its own number.
            let own = try await app.put(Self.max, token: vet, json: ["microchip_number": "MX-1"])
            #expect(own.status == .ok)
            let recased = try await app.put(Self.max, token: vet, json: ["microchip_number": "mx-1"])
            #expect(recased.status == .ok, "\(recased)")
            #expect(recased.json["microchip_number"].string == "mx-1")

            // Clearing a number frees it.
            #expect(try await app.put(Self.bella, token: vet, json: ["microchip_number": nil]).status == .ok)
            let reuse = try await app.put(Self.max, token: vet, json: ["microchip_number": "123456789012345"])
            #expect(reuse.status == .ok, "\(reuse)")
        }
    }

    @Test func concurrentUpdatesToOneMicrochipNumberLetOneWin() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            async let a = app.put(PetFixtures.path(3), token: vet, json: ["microchip_number": "SAME-9"])
            async let b = app.put(PetFixtures.path(6), token: vet, json: ["microchip_number": "same-9"])
            async let c = app.put(PetFixtures.path(7), token: vet, json: ["microchip_number": "Same-9"])
            let results = try await [a, b, c]
            #expect(results.filter { $0.status == .ok }.count == 1, "\(results.map(\.status.code))")
            for loser in results where loser.status != .ok {
                expectError(loser, .conflict, "A pet with this microchip number already exists")
            }
        }
    }

    @Test func isActiveDeactivatesAndReactivates() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let off = try await app.put(Self.max, token: vet, json: ["is_active": false])
            #expect(off.json["is_active"].bool == false)
            #expect(try await app.get(PetsOfOwnerListTests.john, token: vet).json.ids.count == 2)
            let on = try await app.put(Self.max, token: vet, json: ["is_active": true])
            #expect(on.json["is_active"].bool == true)
            #expect(try await app.get(PetsOfOwnerListTests.john, token: vet).json.ids.count == 3)
        }
    }

    @Test func visibilityGatesAndIds() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let body: [String: Any?] = ["name": "Renamed"]
            expectError(try await app.put("/api/v1/pets/nope", token: vet, json: body), .badRequest, "Invalid pet ID format")
            expectError(try await app.put("/api/v1/pets/\(UUID().lowercased)", token: vet, json: body), .notFound, "Pet not found")
            let other = try await OtherPractice.create(app)
            expectError(try await app.put(Self.bella, token: other.vetToken, json: body), .notFound, "Pet not found")
            // Visibility (404) comes before the microchip conflict (409).
            expectError(
                try await app.put(Self.bella, token: other.vetToken, json: ["microchip_number": "985112003456789"]),
                .notFound, "Pet not found")
            let owner = try await app.token(for: Demo.owner1)
            expectError(try await app.put(Self.bella, token: owner, json: body), .forbidden, "Veterinary staff or administrator access required")
            #expect(try await app.get(Self.bella, token: vet).json["name"].string == "Bella")
            let admin = try await app.put(Self.bella, token: try await app.token(for: Demo.admin), json: body)
            #expect(admin.status == .ok)
            let slashed = try await app.put("/api/v1/pets/\(Demo.pet(1).uuidString)/", token: vet, json: ["name": "Slash"])
            #expect(slashed.json["name"].string == "Slash")
        }
    }

    @Test func bodySyntaxErrors() async throws {
        try await withTestApp { app in
            try await BodySyntaxChecks.expectRefused(app, .PUT, Self.bella, token: try await app.token(for: Demo.vet1))
        }
    }
}
