import AppCore
import Foundation
import Testing
import VaporTesting

/// `PUT /api/v1/pet-owners/{owner_id}` (contract §4.6, PUT semantics of §1.7).
@Suite struct PetOwnerUpdateTests {
    static let john = "/api/v1/pet-owners/\(Demo.owner(1).lowercased)"
    static let emily = "/api/v1/pet-owners/\(Demo.owner(2).lowercased)"

    @Test func absentKeysStayAndSentKeysChange() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            clock.advance(by: 90)
            let response = try await app.put(Self.john, token: vet, json: ["first_name": "  Jonathan ", "phone": "555 0100"])
            #expect(response.status == .ok, "\(response)")
            let owner = response.json
            #expect(owner.keys == ClinicalKeys.petOwner)
            #expect(owner["first_name"].string == "Jonathan")
            #expect(owner["full_name"].string == "Jonathan Smith")
            #expect(owner["last_name"].string == "Smith")
            #expect(owner["email"].string == "john.smith@email.com")
            #expect(owner["phone"].string == "555 0100")
            #expect(owner["address"].string == "742 Evergreen Terrace, San Mateo, CA 94401")
            #expect(owner["user_id"].string == Demo.owner1.id.lowercased)
            #expect(owner["pets"].count == 3)
            #expect(owner["created_at"].string == WireTime.format(app.testSeedTime))
            #expect(owner["updated_at"].string == WireTime.format(clock.now()))
            let fetched = try await app.get(Self.john, token: vet)
            #expect(fetched.json.value == owner.value)
        }
    }

    @Test func nullClearsNullableFieldsOnly() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let cleared = try await app.put(Self.john, token: vet, json: ["phone": nil, "address": nil])
            #expect(cleared.status == .ok)
            #expect(cleared.json["phone"].isNull && cleared.json["address"].isNull)
            #expect(cleared.json.keys == ClinicalKeys.petOwner)
            for key in ["first_name", "last_name", "email"] {
                expectError(try await app.put(Self.john, token: vet, json: [key: nil]), .badRequest, "\(key) cannot be null")
            }
        }
    }

    @Test(arguments: [FieldCase]([
        FieldCase("first_name", "", "first_name must not be empty"),
        FieldCase("first_name", .string(String(repeating: "f", count: 101)), "first_name must be at most 100 characters"),
        FieldCase("last_name", 1, "last_name must be a string"),
        FieldCase("email", "nope", "email must be a valid email address"),
        FieldCase("phone", "555#0100", "phone contains invalid characters"),
        FieldCase("address", .string(String(repeating: "a", count: 501)), "address must be at most 500 characters"),
    ]))
    func invalidFieldsAnswer400AndChangeNothing(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(Self.john, token: vet)
            expectError(try await app.put(Self.john, token: vet, json: [field.key: field.any]), .badRequest, field.detail)
            // Field errors come before the lookup (§1.10): an unknown id gets the same 400.
            expectError(
                try await app.put("/api/v1/pet-owners/\(UUID().lowercased)", token: vet, json: [field.key: field.any]),
                .badRequest, field.detail)
            #expect(try await app.get(Self.john, token: vet).json.value == before.json.value)
        }
    }

    @Test func immutableFieldsMayBeRepeatedButNotChanged() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let same = try await app.put(Self.john, token: vet, json: [
                "id": Demo.owner(1).uuidString, "user_id": Demo.owner1.id.uuidString, "first_name": "John",
            ])
            #expect(same.status == .ok, "current values (any case) are accepted: \(same)")
            expectError(
                try await app.put(Self.john, token: vet, json: ["id": UUID().lowercased, "first_name": "X"]),
                .badRequest, "id cannot be changed")
            expectError(
                try await app.put(Self.john, token: vet, json: ["user_id": Demo.vet1.id.lowercased, "first_name": "X"]),
                .badRequest, "user_id cannot be changed")
            expectError(
                try await app.put(Self.john, token: vet, json: ["user_id": nil, "first_name": "X"]),
                .badRequest, "user_id cannot be changed")
            // Emily has no login: null is her current value.
            let emily = try await app.put(Self.emily, token: vet, json: ["user_id": nil, "first_name": "Em"])
            #expect(emily.status == .ok, "\(emily)")
            expectError(
                try await app.put(Self.emily, token: vet, json: ["user_id": Demo.owner1.id.lowercased, "first_name": "Em"]),
                .badRequest, "user_id cannot be changed")
            #expect(try await app.get(Self.john, token: vet).json["first_name"].string == "John")
        }
    }

    @Test func aBodyWithoutUpdatableFieldsIsRefused() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for body: [String: Any?] in [
                // (`full_name` alone renames: the iPhone app's edit screen sends only it.)
                [:], ["practice_ids": [], "pets": [], "created_at": "2030-01-01T00:00:00Z"],
                ["id": Demo.owner(1).lowercased], ["unknown": 1],
            ] {
                expectError(try await app.put(Self.john, token: vet, json: body), .badRequest, "At least one updatable field is required")
            }
        }
    }

    @Test func serverComputedFieldsAreIgnored() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.put(Self.john, token: vet, json: [
                "last_name": "Smythe", "full_name": "Nobody", "practice_ids": [], "pets": [],
                "created_at": "2001-01-01T00:00:00Z",
            ])
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["full_name"].string == "John Smythe")
            #expect(response.json["practice_ids"].count == 1)
            #expect(response.json["pets"].count == 3)
            #expect(response.json["created_at"].string == WireTime.format(app.testSeedTime))
        }
    }

    @Test func aNoOpKeepsUpdatedAt() async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let before = try await app.get(Self.john, token: vet)
            clock.advance(by: 120)
            let same = try await app.put(Self.john, token: vet, json: ["first_name": " John ", "phone": "+1-555-123-4567"])
            #expect(same.status == .ok)
            #expect(same.json["updated_at"].string == before.json["updated_at"].string)

            // The whole object sent back unchanged is a no-op too.
            let echoed = try await app.sendRaw(.PUT, Self.john, token: vet, body: before.text, contentType: .json)
            #expect(echoed.status == .ok, "\(echoed)")
            #expect(echoed.json.value == before.json.value)

            let changed = try await app.put(Self.john, token: vet, json: ["address": "1 New Street"])
            #expect(changed.json["updated_at"].string == WireTime.format(clock.now()))
        }
    }

    @Test func visibilityGatesAndIds() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let body: [String: Any?] = ["first_name": "Jo"]
            expectError(
                try await app.put("/api/v1/pet-owners/\(UUID().lowercased)", token: vet, json: body), .notFound, "Pet owner not found")
            expectError(try await app.put("/api/v1/pet-owners/nope", token: vet, json: body), .badRequest, "Invalid pet owner ID format")
            let other = try await AppointmentFixtures.otherPractice(app)
            expectError(try await app.put(Self.john, token: other.vetToken, json: body), .notFound, "Pet owner not found")
            let owner = try await app.token(for: Demo.owner1)
            expectError(
                try await app.put(Self.john, token: owner, json: body), .forbidden, "Veterinary staff or administrator access required")
            expectError(
                try await app.put("/api/v1/pet-owners/nope", token: owner, json: body),
                .forbidden, "Veterinary staff or administrator access required")
            #expect(try await app.get(Self.john, token: vet).json["first_name"].string == "John")
            let admin = try await app.put(Self.john, token: try await app.token(for: Demo.admin), json: body)
            #expect(admin.status == .ok)
        }
    }

    @Test func bodySyntaxErrors() async throws {
        try await withTestApp { app in
            try await BodySyntaxChecks.expectRefused(app, .PUT, Self.john, token: try await app.token(for: Demo.vet1))
        }
    }

    @Test func aliasAndTrailingSlash() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for (path, name) in [
                ("/api/v1/pet_owners/\(Demo.owner(1).lowercased)", "A"), ("\(Self.john)/", "B"),
                ("/api/v1/pet_owners/\(Demo.owner(1).lowercased)/", "C"),
            ] {
                let response = try await app.put(path, token: vet, json: ["first_name": name])
                #expect(response.status == .ok, "\(path): \(response)")
                #expect(response.json["first_name"].string == name)
            }
        }
    }
}
