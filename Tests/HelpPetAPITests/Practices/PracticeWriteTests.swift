import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /api/v1/practices` and `PUT /api/v1/practices/{id}` (ADMIN; contract §4.3, §1.6 time zones).
@Suite struct PracticeWriteTests {
    static let demoPath = "/api/v1/practices/\(Demo.practiceID.uuidString.lowercased())"

    @Test func createWithEveryField() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let response = try await app.post("/api/v1/practices", token: admin, json: [
                "name": "  Second Clinic ", "timezone": " Europe/Paris ", "phone": "+33 (1) 23.45-67",
                "email": " desk@second.example ", "address": "  1 Rue de Rivoli  ", "is_active": false,
                "id": Demo.practiceID.uuidString.lowercased(),
            ])
            #expect(response.status == .created, "\(response)")
            let p = response.json
            #expect(p.keys == PracticeVisibilityTests.practiceKeys)
            #expect(p["id"].string != Demo.practiceID.uuidString.lowercased())
            #expect(p["name"].string == "Second Clinic")
            #expect(p["timezone"].string == "Europe/Paris")
            #expect(p["phone"].string == "+33 (1) 23.45-67")
            #expect(p["email"].string == "desk@second.example")
            #expect(p["address"].string == "1 Rue de Rivoli")
            #expect(p["is_active"].bool == false)
            #expect(p["created_at"].string == p["updated_at"].string)
            let fetched = try await app.get("/api/v1/practices/\(p["id"].string ?? "")", token: admin)
            #expect(fetched.json.value == response.json.value)
        }
    }

    @Test func createWithRequiredFieldsOnly() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let response = try await app.post("/api/v1/practices", token: admin, json: ["name": "Tiny", "timezone": "UTC"])
            #expect(response.status == .created, "\(response)")
            #expect(response.json["phone"].isNull && response.json["email"].isNull && response.json["address"].isNull)
            #expect(response.json["is_active"].bool == true)
            let nulls = try await app.post("/api/v1/practices", token: admin, json: [
                "name": "Nulls", "timezone": "Asia/Tokyo", "phone": nil, "email": nil, "address": nil,
            ])
            #expect(nulls.status == .created, "\(nulls)")
        }
    }

    /// Accepted: listed in `TimeZone.knownTimeZoneIdentifiers` (not `Etc/…`), or exactly `UTC` (contract §1.6).
    /// Note: Foundation's list has `Asia/Calcutta` but not `Asia/Kolkata`, and no `UTC`.
    @Test(arguments: ["UTC", "America/Los_Angeles", "Europe/London", "Asia/Calcutta", "Australia/Lord_Howe", "Pacific/Chatham"])
    func acceptedTimeZones(_ zone: String) async throws {
        try await withTestApp(seed: false) { app in
            // No demo data: the admin is inserted by hand below, which also checks the app works unseeded.
            let admin = try await TestUsers.insertAdmin(app)
            let response = try await app.post("/api/v1/practices", token: admin, json: ["name": "Z", "timezone": zone])
            #expect(response.status == .created, "\(zone): \(response)")
            #expect(response.json["timezone"].string == zone)
        }
    }

    @Test func refusedTimeZones() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            for zone in ["Mars/Olympus_Mons", "Etc/GMT+5", "Etc/UTC", "america/los_angeles", "utc", "GMT+1", "+01:00", " Mars/Base "] {
                let response = try await app.post("/api/v1/practices", token: admin, json: ["name": "Z", "timezone": zone])
                let shown = zone.trimmingCharacters(in: .whitespaces)
                #expect(response.status == .badRequest && response.detail == "Invalid timezone: '\(shown)'",
                        "\(zone): \(response)")
            }
        }
    }

    @Test func createFieldErrors() async throws {
        let cases: [(String, [String: Any?], String)] = [
            ("empty", [:], "name is required"),
            ("name absent", ["timezone": "UTC"], "name is required"),
            ("name null", ["name": nil, "timezone": "UTC"], "name cannot be null"),
            ("name number", ["name": 5, "timezone": "UTC"], "name must be a string"),
            ("name blank", ["name": "  ", "timezone": "UTC"], "name must not be empty"),
            ("name long", ["name": String(repeating: "n", count: 201), "timezone": "UTC"], "name must be at most 200 characters"),
            ("name NUL", ["name": "a\u{0}b", "timezone": "UTC"], "name contains invalid characters"),
            ("timezone absent", ["name": "N"], "timezone is required"),
            ("timezone null", ["name": "N", "timezone": nil], "timezone cannot be null"),
            ("timezone number", ["name": "N", "timezone": 1], "timezone must be a string"),
            ("timezone blank", ["name": "N", "timezone": " "], "timezone must not be empty"),
            ("phone letters", ["name": "N", "timezone": "UTC", "phone": "555-CALL-NOW"], "phone contains invalid characters"),
            ("phone slash", ["name": "N", "timezone": "UTC", "phone": "555/123"], "phone contains invalid characters"),
            ("phone long", ["name": "N", "timezone": "UTC", "phone": String(repeating: "1", count: 33)],
             "phone must be at most 32 characters"),
            ("phone number", ["name": "N", "timezone": "UTC", "phone": 5_551_234], "phone must be a string"),
            ("email invalid", ["name": "N", "timezone": "UTC", "email": "desk"], "email must be a valid email address"),
            ("email number", ["name": "N", "timezone": "UTC", "email": 1], "email must be a string"),
            ("address long", ["name": "N", "timezone": "UTC", "address": String(repeating: "a", count: 501)],
             "address must be at most 500 characters"),
            ("is_active string", ["name": "N", "timezone": "UTC", "is_active": "true"], "is_active must be a boolean"),
            ("is_active null", ["name": "N", "timezone": "UTC", "is_active": nil], "is_active cannot be null"),
            ("order", ["name": "", "timezone": "Nowhere", "phone": "x"], "name must not be empty"),
        ]
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            for (label, body, detail) in cases {
                let response = try await app.post("/api/v1/practices", token: admin, json: body)
                #expect(response.status == .badRequest && response.detail == detail, "\(label): \(response)")
            }
            let phone32 = try await app.post("/api/v1/practices", token: admin, json: [
                "name": "N", "timezone": "UTC", "phone": String(repeating: "1", count: 32),
            ])
            #expect(phone32.status == .created, "\(phone32)")
            let list = try await app.get("/api/v1/practices", token: admin)
            #expect(list.headers.first(name: "X-Total-Count") == "2", "only the valid practice was created")
        }
    }

    @Test func onlyAdminsWrite() async throws {
        try await withTestApp { app in
            for user in [Demo.vet1, Demo.owner1] {
                let token = try await app.token(for: user)
                let create = try await app.post("/api/v1/practices", token: token, json: ["name": "N", "timezone": "UTC"])
                expectError(create, .forbidden, "Administrator access required")
                let invalidCreate = try await app.sendRaw(.POST, "/api/v1/practices", token: token, body: "[", contentType: .json)
                expectError(invalidCreate, .forbidden, "Administrator access required")
                let update = try await app.put(Self.demoPath, token: token, json: ["name": "Mine now"])
                expectError(update, .forbidden, "Administrator access required")
                let updateOther = try await app.put("/api/v1/practices/\(UUID().uuidString)", token: token, json: [:])
                expectError(updateOther, .forbidden, "Administrator access required")
            }
            let demo = try await app.get(Self.demoPath, token: try await app.token(for: Demo.admin))
            #expect(demo.json["name"].string == "HelpPet Demo Clinic")
        }
    }

    @Test func partialUpdate() async throws {
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            let before = try await app.get(Self.demoPath, token: admin)
            let response = try await app.put(Self.demoPath, token: admin, json: [
                "name": " Renamed Clinic ", "phone": nil, "timezone": "America/New_York",
            ])
            #expect(response.status == .ok, "\(response)")
            #expect(response.json["name"].string == "Renamed Clinic")
            #expect(response.json["phone"].isNull)
            #expect(response.json["timezone"].string == "America/New_York")
            for key in ["id", "email", "address", "is_active", "created_at"] {
                #expect(response.json[key].value == before.json[key].value, "\(key)")
            }
            let deactivated = try await app.put(Self.demoPath, token: admin, json: ["is_active": false])
            #expect(deactivated.json["is_active"].bool == false)
            #expect(deactivated.json["name"].string == "Renamed Clinic")
            // Whole object sent back, id repeated with its current value.
            let whole = try await app.put(Self.demoPath, token: admin, json: [
                "id": Demo.practiceID.uuidString.uppercased(), "name": "Renamed Clinic", "timezone": "America/New_York",
                "phone": nil, "email": "frontdesk@helppet.ai", "address": before.json["address"].string,
                "is_active": true, "created_at": "2000-01-01T00:00:00Z", "updated_at": "2000-01-01T00:00:00Z",
            ])
            #expect(whole.status == .ok, "\(whole)")
            #expect(whole.json["created_at"].value == before.json["created_at"].value)
        }
    }

    @Test func updateErrors() async throws {
        let cases: [(String, String, [String: Any?], HTTPStatus, String)] = [
            ("empty", Self.demoPath, [:], .badRequest, "At least one updatable field is required"),
            ("unknown only", Self.demoPath, ["color": "blue"], .badRequest, "At least one updatable field is required"),
            ("name null", Self.demoPath, ["name": nil], .badRequest, "name cannot be null"),
            ("name blank", Self.demoPath, ["name": ""], .badRequest, "name must not be empty"),
            ("timezone null", Self.demoPath, ["timezone": nil], .badRequest, "timezone cannot be null"),
            ("timezone invalid", Self.demoPath, ["timezone": "Etc/GMT-3"], .badRequest, "Invalid timezone: 'Etc/GMT-3'"),
            ("phone invalid", Self.demoPath, ["phone": "call me"], .badRequest, "phone contains invalid characters"),
            ("email invalid", Self.demoPath, ["email": "x@y"], .badRequest, "email must be a valid email address"),
            ("is_active null", Self.demoPath, ["is_active": nil], .badRequest, "is_active cannot be null"),
            ("id changed", Self.demoPath, ["id": UUID().uuidString, "name": "X"], .badRequest, "id cannot be changed"),
            ("malformed id", "/api/v1/practices/nope", ["name": "X"], .badRequest, "Invalid practice ID format"),
            ("unknown", "/api/v1/practices/\(UUID().uuidString)", ["name": "X"], .notFound, "Practice not found"),
            ("syntax before existence", "/api/v1/practices/\(UUID().uuidString)", ["timezone": "Nowhere"], .badRequest,
             "Invalid timezone: 'Nowhere'"),
        ]
        try await withTestApp { app in
            let admin = try await app.token(for: Demo.admin)
            for (label, path, body, status, detail) in cases {
                let response = try await app.put(path, token: admin, json: body)
                #expect(response.status == status && response.detail == detail, "\(label): \(response)")
            }
            let plain = try await app.sendRaw(.PUT, Self.demoPath, token: admin, body: #"{"name":"X"}"#, contentType: .plainText)
            expectError(plain, .badRequest, "Content-Type must be application/json")
            let demo = try await app.get(Self.demoPath, token: admin)
            #expect(demo.json["name"].string == "HelpPet Demo Clinic", "nothing was changed")
        }
    }
}
