import AppCore
import Foundation
import Testing
import VaporTesting

/// `POST /api/client/appointments` (contract §4.4.1): the answer's shape, normalisation, every error of its table,
/// and `Idempotency-Key`.
@Suite struct AppointmentCreateTests {
    static let start = "2025-03-14T08:00:00Z"

    @Test func createdAppointmentHasTheFullShape() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let install = try await app.newInstall()
            let response = try await app.post("/api/client/appointments", key: install.key, Fixture.booking(Self.start))
            #expect(response.status == .created, "\(response)")
            let json = response.json
            #expect(json.keys == [
                "id", "source", "status", "startIso", "endIso", "clientName", "phone", "telegram", "carMake", "carPlate",
                "serviceId", "serviceName", "priceRub", "notes", "workPhotos", "defectPhotos", "createdAt", "updatedAt",
            ])
            let id = try #require(json["id"].string)
            #expect(id == id.lowercased() && UUID(uuidString: id) != nil)
            #expect(json["source"].string == "ios")
            #expect(json["status"].string == "new")
            #expect(json["startIso"].string == "2025-03-14T08:00:00Z")
            #expect(json["endIso"].string == "2025-03-14T09:00:00Z")
            #expect(json["clientName"].string == "Ivan Petrov")
            #expect(json["phone"].string == "+79161234567")
            #expect(json["telegram"].isNull)
            #expect(json["carMake"].string == "Toyota Camry")
            #expect(json["carPlate"].string == "А123ВС 777")
            #expect(json["serviceId"].string == (try await app.serviceID()))
            #expect(json["serviceName"].string == "Car Washing")
            #expect(json["priceRub"].int == 1500)
            #expect(json["notes"].isNull)
            #expect(json["workPhotos"].array?.isEmpty == true && json["defectPhotos"].array?.isEmpty == true)
            #expect(json["createdAt"].string == "2025-03-14T06:40:00Z" && json["updatedAt"].string == "2025-03-14T06:40:00Z")
            #expect(response.headers.first(name: .location) == "/api/client/appointments/\(id)")
            #expect(response.headers.first(name: .cacheControl) == "no-store")
            #expect(try response.decode(Appointment.self).id == id)

            // serviceId instead of serviceName; the name case-insensitively; telegram with @; notes kept.
            let byID = try await app.post("/api/client/appointments", key: app.orgKey, Fixture.booking(Self.start, [
                "serviceName": nil, "serviceId": (try await app.serviceID()).uppercased(), "telegram": "@ivan_petrov",
                "notes": "  Please call first.\nThanks  ",
            ]))
            #expect(byID.status == .created, "\(byID)")
            #expect(byID.json["source"].string == "api")
            #expect(byID.json["telegram"].string == "ivan_petrov")
            #expect(byID.json["notes"].string == "Please call first.\nThanks")
            let both = try await app.post("/api/client/appointments", key: app.orgKey, Fixture.booking("2025-03-14T09:00:00Z", [
                "serviceName": "  car WASHING ", "serviceId": try await app.serviceID(),
            ]))
            #expect(both.status == .created, "\(both)")
            #expect(both.json["serviceName"].string == "Car Washing", "a snapshot of the service's own name")
        }
    }

    @Test func missingFieldsListEveryMissingOne() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            expectError(
                try await app.send(.POST, "/api/client/appointments", key: key, json: "{}"), .badRequest,
                "Missing required fields: startIso, clientName, phone, carMake, carPlate, serviceName")
            expectError(
                try await app.send(.POST, "/api/client/appointments", key: key), .badRequest,
                "Missing required fields: startIso, clientName, phone, carMake, carPlate, serviceName")
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking(Self.start, [
                    "clientName": "   ", "phone": nil, "serviceName": "",
                ])), .badRequest, "Missing required fields: clientName, phone, serviceName")
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking(Self.start, ["carPlate": "\n"])),
                .badRequest, "Missing required fields: carPlate")
        }
    }

    nonisolated(unsafe) static let invalidCases: [([String: Any?], String)] = [
        (["startIso": 1741939200], "Invalid field: startIso (must be a string)"),
        (["startIso": "2025-03-14T11:00:00"], "Invalid field: startIso (must be an ISO-8601 date-time with Z or an offset)"),
        (["startIso": "2025-03-14 08:00:00Z"], "Invalid field: startIso (must be an ISO-8601 date-time with Z or an offset)"),
        (["startIso": "2025-03-14T08:00Z"], "Invalid field: startIso (must be an ISO-8601 date-time with Z or an offset)"),
        (["startIso": "2025-03-14"], "Invalid field: startIso (must be an ISO-8601 date-time with Z or an offset)"),
        (["startIso": "1741939200"], "Invalid field: startIso (must be an ISO-8601 date-time with Z or an offset)"),
        (["startIso": "2025-03-14T11:00:00+0300"], "Invalid field: startIso (must be an ISO-8601 date-time with Z or an offset)"),
        (["startIso": "2025-02-30T08:00:00Z"], "Invalid field: startIso (must be an ISO-8601 date-time with Z or an offset)"),
        (["clientName": "I"], "Invalid field: clientName (must be 2-100 characters)"),
        (["clientName": String(repeating: "я", count: 101)], "Invalid field: clientName (must be 2-100 characters)"),
        (["clientName": "Ivan\u{7}Petrov"], "Invalid field: clientName (must not contain control characters)"),
        (["clientName": 42], "Invalid field: clientName (must be a string)"),
        (["phone": "12-34"], "Invalid field: phone (invalid format)"),
        (["phone": "+7 916 abc"], "Invalid field: phone (invalid format)"),
        (["carMake": "B"], "Invalid field: carMake (must be 2-50 characters)"),
        (["carPlate": "A"], "Invalid field: carPlate (must be 2-20 characters)"),
        (["carPlate": "AB#123"], "Invalid field: carPlate (invalid format)"),
        (["carPlate": String(repeating: "A", count: 21)], "Invalid field: carPlate (must be 2-20 characters)"),
        (["serviceName": String(repeating: "x", count: 101)], "Invalid field: serviceName (must be at most 100 characters)"),
        (["serviceId": "not-a-uuid"], "Invalid field: serviceId (invalid format)"),
        (["notes": String(repeating: "n", count: 501)], "Invalid field: notes (must be at most 500 characters)"),
        (["notes": "bell\u{7}"], "Invalid field: notes (must not contain control characters)"),
        (["telegram": "abc"], "Invalid field: telegram (invalid format)"),
        (["serviceName": "Teleportation"], "Unknown or inactive service"),
        (["serviceName": nil, "serviceId": "94529c37-d794-4f2c-9e94-faac8d686aa8"], "Unknown or inactive service"),
    ]

    @Test func invalidFields() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            for (overrides, message) in Self.invalidCases {
                let response = try await app.post("/api/client/appointments", key: app.orgKey, Fixture.booking(Self.start, overrides))
                expectError(response, .badRequest, message)
            }
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_appointments") == 0)
        }
    }

    @Test func firstInvalidFieldInTableOrderAndOtherChecks() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking("bad", ["phone": "1", "carMake": "B"])),
                .badRequest, "Invalid field: startIso (must be an ISO-8601 date-time with Z or an offset)")
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking(Self.start, ["phone": "1", "carMake": "B"])),
                .badRequest, "Invalid field: phone (invalid format)")
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking(Self.start, [
                    "serviceId": try await app.serviceID("Ceramic Coating"),
                ])), .badRequest, "serviceId and serviceName do not match")
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking(Self.start), headers: [
                    "Idempotency-Key": "has space",
                ]), .badRequest, "Invalid header: Idempotency-Key")
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking(Self.start), headers: [
                    "Idempotency-Key": String(repeating: "k", count: 101),
                ]), .badRequest, "Invalid header: Idempotency-Key")
            // An inactive service cannot be booked.
            let admin = try await app.adminToken()
            let washing = try await app.serviceID()
            #expect(try await app.delete("/api/admin/services/\(washing)", bearer: admin).status == .noContent)
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking(Self.start)), .badRequest,
                "Unknown or inactive service")
            // Unknown fields are ignored; null in a create body is absent.
            let ok = try await app.post("/api/client/appointments", key: key, Fixture.booking(Self.start, [
                "serviceName": "Engine Bay Cleaning", "telegram": nil, "extra": ["x": 1], "installId": UUID().uuidString,
            ]))
            #expect(ok.status == .created, "\(ok)")
        }
    }

    @Test func idempotencyKey() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            let body = JSONBody.encode(Fixture.booking(Self.start))
            let headers: HTTPHeaders = ["Idempotency-Key": "booking-1:retry.A_b"]
            let first = try await app.send(.POST, "/api/client/appointments", key: key, headers: headers, json: body)
            #expect(first.status == .created, "\(first)")
            #expect(first.headers.first(name: "Idempotent-Replayed") == nil)
            let id = try #require(first.json["id"].string)
            let replay = try await app.send(.POST, "/api/client/appointments", key: key, headers: headers, json: body)
            #expect(replay.status == .created)
            #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(replay.json["id"].string == id)
            #expect(replay.headers.first(name: .location) == "/api/client/appointments/\(id)")
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_appointments") == 1)

            // The replay shows the current state.
            #expect(try await app.send(.POST, "/api/client/appointments/\(id)/cancel", key: key).status == .ok)
            let afterCancel = try await app.send(.POST, "/api/client/appointments", key: key, headers: headers, json: body)
            #expect(afterCancel.json["status"].string == "cancelled")

            let different = try await app.send(
                .POST, "/api/client/appointments", key: key, headers: headers,
                json: JSONBody.encode(Fixture.booking("2025-03-14T09:00:00Z")))
            expectError(different, .conflict, "Idempotency-Key was already used with a different request")

            // Keys are per credential; failed requests are not remembered.
            let other = try await app.newInstall()
            let otherFirst = try await app.send(.POST, "/api/client/appointments", key: other.key, headers: headers, json: body)
            #expect(otherFirst.status == .created && otherFirst.json["id"].string != id)
            let failing = JSONBody.encode(Fixture.booking("2025-03-14T08:10:00Z"))
            let failed = try await app.send(.POST, "/api/client/appointments", key: key, headers: ["Idempotency-Key": "k2"], json: failing)
            expectError(failed, .badRequest, "Invalid time slot")
            let retried = try await app.send(
                .POST, "/api/client/appointments", key: key, headers: ["Idempotency-Key": "k2"],
                json: JSONBody.encode(Fixture.booking("2025-03-14T10:00:00Z")))
            #expect(retried.status == .created, "\(retried)")

            // Concurrent requests with one key: DoubleBookingRaceTests (two server processes).
        }
    }

    /// Idempotency records count for 24 hours; after that the same key books again (and the cleanup purges them).
    @Test func idempotencyRecordsExpireAfter24Hours() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let body = JSONBody.encode(Fixture.booking("2025-03-20T08:00:00Z"))
            let headers: HTTPHeaders = ["Idempotency-Key": "daily"]
            let first = try await app.send(.POST, "/api/client/appointments", key: app.orgKey, headers: headers, json: body)
            clock.advance(by: 86_399)
            let replay = try await app.send(.POST, "/api/client/appointments", key: app.orgKey, headers: headers, json: body)
            #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(replay.json["id"].string == first.json["id"].string)
            clock.advance(by: 2)
            let fresh = try await app.send(.POST, "/api/client/appointments", key: app.orgKey, headers: headers, json: body)
            #expect(fresh.status == .created && fresh.headers.first(name: "Idempotent-Replayed") == nil)
            #expect(fresh.json["id"].string != first.json["id"].string)
            clock.advance(by: 86_401)
            try await UploadCleanupProbe.run(app)
            #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_idempotency_records") == 0)
        }
    }
}
