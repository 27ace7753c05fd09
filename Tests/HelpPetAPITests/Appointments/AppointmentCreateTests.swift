import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `POST /api/v1/appointments` (contract §4.5).
@Suite struct AppointmentCreateTests {
    @Test func memberCreatesAnAppointmentWithDefaultsAndPetsInOrder() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body(
                pets: [Demo.pet(3), Demo.pet(1)], date: "2030-05-01T09:00:00-07:00"))
            #expect(response.status == .created, "\(response)")
            let json = response.json
            #expect(json["practice_id"].string == Demo.practiceID.lowercased)
            #expect(json["appointment_date"].string == "2030-05-01T16:00:00Z")
            #expect(json["duration_minutes"].int == 30)
            #expect(json["appointment_type"].string == "checkup")
            #expect(json["status"].string == "scheduled")
            #expect(json["description"].isNull && json["notes"].isNull)
            #expect(json["pets"].ids == [Demo.pet(3).lowercased, Demo.pet(1).lowercased])
            #expect(json["pets"][0]["recording"].isNull)
            #expect(json.keys == ["id", "practice_id", "pet_owner_id", "assigned_vet_user_id", "appointment_date",
                                  "duration_minutes", "appointment_type", "status", "title", "description", "notes",
                                  "pets", "created_at", "updated_at"])
            let id = try #require(json["id"].string)
            let fetched = try await app.get("/api/v1/appointments/\(id)", token: vet)
            #expect(fetched.json["pets"].ids == json["pets"].ids)
        }
    }

    @Test func fractionalSecondsAreTruncatedAndOffsetsConverted() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body(
                date: "2030-05-01T16:00:00.987654+00:00"))
            #expect(response.json["appointment_date"].string == "2030-05-01T16:00:00Z")
        }
    }

    @Test(arguments: [FieldCase]([
        FieldCase("appointment_date", "2030-05-01T16:00:00",
         "appointment_date must include a timezone offset (for example 2025-01-15T17:00:00Z)"),
        FieldCase("appointment_date", "tomorrow", "appointment_date must be an ISO-8601 datetime"),
        FieldCase("appointment_date", "1999-12-31T23:59:59Z", "appointment_date is out of range"),
        FieldCase("appointment_date", nil, "appointment_date cannot be null"),
        FieldCase("duration_minutes", 4, "duration_minutes must be between 5 and 480"),
        FieldCase("duration_minutes", 481, "duration_minutes must be between 5 and 480"),
        FieldCase("duration_minutes", 30.5, "duration_minutes must be an integer"),
        FieldCase("appointment_type", "spa",
         "Invalid appointment_type: 'spa'. Allowed: checkup, vaccination, surgery, emergency, follow_up, consultation, grooming"),
        FieldCase("status", "in_progress", "status must be scheduled or confirmed when creating an appointment"),
        FieldCase("title", "   ", "title must not be empty"),
        FieldCase("title", .string(String(repeating: "t", count: 201)), "title must be at most 200 characters"),
        FieldCase("description", .string(String(repeating: "d", count: 2001)), "description must be at most 2000 characters"),
        FieldCase("pet_ids", [], "pet_ids must contain at least 1 item"),
        FieldCase("pet_ids", ["d3000000-0000-4000-8000-000000000001", "D3000000-0000-4000-8000-000000000001"],
         "pet_ids contains duplicate ids"),
        FieldCase("pet_ids", ["not-a-uuid"], "Invalid pet ID format: not-a-uuid"),
        FieldCase("pet_owner_id", "", "Invalid pet owner ID format"),
        FieldCase("pet_owner_id", "{d2000000-0000-4000-8000-000000000001}", "Invalid pet owner ID format"),
        FieldCase("assigned_vet_user_id", "123", "Invalid user ID format"),
        FieldCase("title", "x\u{0}y", "title contains invalid characters"),
    ]))
    func invalidFieldsAnswer400WithTheFieldMessage(_ field: FieldCase) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let response = try await app.post(
                "/api/v1/appointments", token: vet, json: AppointmentFixtures.body(extra: [field.key: field.any]))
            #expect(response.status == .badRequest)
            #expect(response.detail == field.detail)
        }
    }

    @Test func missingRequiredFieldsAreNamed() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            for key in ["pet_owner_id", "appointment_date", "title", "pet_ids"] {
                var body = AppointmentFixtures.body()
                body.removeValue(forKey: key)
                let response = try await app.post("/api/v1/appointments", token: vet, json: body)
                #expect(response.status == .badRequest)
                #expect(response.detail == "\(key) is required")
            }
        }
    }

    @Test func bodySyntaxErrors() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let wrongType = try await app.sendRaw(.POST, "/api/v1/appointments", token: vet, body: "{}", contentType: .plainText)
            #expect(wrongType.detail == "Content-Type must be application/json")
            let malformed = try await app.sendRaw(.POST, "/api/v1/appointments", token: vet, body: "{", contentType: .json)
            #expect(malformed.detail == "Malformed JSON body")
            let array = try await app.sendRaw(.POST, "/api/v1/appointments", token: vet, body: "[]", contentType: .json)
            #expect(array.detail == "Request body must be a JSON object")
            let empty = try await app.sendRaw(.POST, "/api/v1/appointments", token: vet, body: "", contentType: .json)
            #expect(empty.detail == "Request body is required")
        }
    }

    @Test func petOwnerCannotCreate() async throws {
        try await withTestApp { app in
            let owner = try await app.token(for: Demo.owner1)
            let response = try await app.post("/api/v1/appointments", token: owner, json: AppointmentFixtures.body())
            #expect(response.status == .forbidden)
            #expect(response.detail == "Veterinary staff or administrator access required")
        }
    }

    @Test func practiceResolution() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let vet = try await app.token(for: Demo.vet1)
            let withoutPractice = try await app.post("/api/v1/appointments", token: admin, json: AppointmentFixtures.body())
            #expect(withoutPractice.status == .badRequest)
            #expect(withoutPractice.detail == "practice_id is required")

            let adminCreated = try await app.post("/api/v1/appointments", token: admin, json: AppointmentFixtures.body(
                extra: ["practice_id": Demo.practiceID.lowercased]))
            #expect(adminCreated.status == .created, "\(adminCreated)")

            let unknown = try await app.post("/api/v1/appointments", token: admin, json: AppointmentFixtures.body(
                extra: ["practice_id": UUID().lowercased]))
            #expect(unknown.status == .notFound)
            #expect(unknown.detail == "Practice not found")

            let other = try await AppointmentFixtures.otherPractice(app)
            let foreign = try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body(
                extra: ["practice_id": other.practiceID]))
            #expect(foreign.status == .notFound)
            #expect(foreign.detail == "Practice not found")

            let notClient = try await app.post("/api/v1/appointments", token: admin, json: AppointmentFixtures.body(
                extra: ["practice_id": other.practiceID, "assigned_vet_user_id": nil]))
            #expect(notClient.status == .badRequest)
            #expect(notClient.detail == "Pet owner is not a client of this practice")

            // A member of the other practice does not see John Smith at all.
            let memberOfOther = try await app.post("/api/v1/appointments", token: other.vetToken, json: AppointmentFixtures.body(
                extra: ["assigned_vet_user_id": nil]))
            #expect(memberOfOther.status == .notFound)
            #expect(memberOfOther.detail == "Pet owner not found")
        }
    }

    @Test func relationshipsAreChecked() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let unknownOwner = try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body(
                extra: ["pet_owner_id": UUID().lowercased]))
            #expect(unknownOwner.status == .notFound)
            #expect(unknownOwner.detail == "Pet owner not found")

            let foreignPet = try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body(
                pets: [Demo.pet(1), Demo.pet(4)]))
            #expect(foreignPet.status == .badRequest)
            #expect(foreignPet.detail == "One or more pets not found or don't belong to this owner")

            try await app.db.sql.raw("UPDATE pets SET is_active = \(bind: false) WHERE id = \(bind: Demo.pet(2))").run()
            let inactive = try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body())
            #expect(inactive.status == .badRequest)
            #expect(inactive.detail == "Pet \(Demo.pet(2).lowercased) is inactive")

            let ownerAsVet = try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body(
                pets: [Demo.pet(1)], extra: ["assigned_vet_user_id": Demo.owner1.id.lowercased]))
            #expect(ownerAsVet.status == .badRequest)
            #expect(ownerAsVet.detail == "assigned_vet_user_id must reference an active VET or VET_STAFF user of the practice")
        }
    }

    @Test func inactivePracticeTakesNoNewAppointments() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let vet = try await app.token(for: Demo.vet1)
            let deactivated = try await app.put("/api/v1/practices/\(Demo.practiceID.lowercased)", token: admin, json: [
                "is_active": false,
            ])
            #expect(deactivated.status == .ok)
            let response = try await app.post("/api/v1/appointments", token: vet, json: AppointmentFixtures.body())
            #expect(response.status == .conflict)
            #expect(response.detail == "Practice is inactive")
        }
    }
}

/// One invalid field value and the 400 detail it must produce (Sendable, for parameterized tests).
struct FieldCase: Sendable, CustomTestStringConvertible {
    let key: String
    let value: JSONValue
    let detail: String

    init(_ key: String, _ value: JSONValue, _ detail: String) {
        self.key = key
        self.value = value
        self.detail = detail
    }

    var testDescription: String { "\(key)=\(value)" }

    /// The value as the JSON body builder takes it.
    var any: Any? { Self.any(value) }

    static func any(_ value: JSONValue) -> Any? {
        switch value {
        case .null: return nil
        case .bool(let b): return b
        case .integer(let i): return Int(i)
        case .number(let d): return d
        case .string(let s): return s
        case .array(let a): return a.map { any($0) }
        case .object(let o): return o.mapValues { any($0) }
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}
