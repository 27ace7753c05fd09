import AppCore
import Foundation
import Testing
import VaporTesting

/// The booking rules of contract §6 through `POST /api/client/appointments` and the admin variant (rule 16).
@Suite struct BookingRulesTests {
    @Test func slotValidation() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            func expectInvalid(_ start: String, _ extra: [String: Any?] = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let response = try await app.post("/api/client/appointments", key: key, Fixture.booking(start, extra))
                expectError(response, .badRequest, "Invalid time slot", sourceLocation: sourceLocation)
            }
            try await expectInvalid("2025-03-14T07:30:00Z")  // 10:30 local: inside the lead time
            try await expectInvalid("2025-03-14T05:00:00Z")  // past
            try await expectInvalid("2025-03-14T08:10:00Z")  // between grid points
            try await expectInvalid("2025-03-14T08:00:00.250Z")  // fractional second
            try await expectInvalid("2025-03-14T17:30:00Z")  // 20:30 local: would run past 21:00
            try await expectInvalid("2025-03-14T18:00:00Z")  // 21:00 local: closing time
            try await expectInvalid("2025-03-14T03:00:00Z")  // 06:00 local: before opening
            try await expectInvalid("2025-04-14T06:00:00Z")  // beyond the 30-day window
            try await expectInvalid("2025-03-14T13:00:00Z", ["serviceName": "Ceramic Coating"])  // 16:00 + 8 h > 21:00

            let accepted = try await app.post(
                "/api/client/appointments", key: key, Fixture.booking("2025-03-14T11:00:00+03:00"))
            #expect(accepted.status == .created, "\(accepted)")
            #expect(accepted.json["startIso"].string == "2025-03-14T08:00:00Z")
            let fractionZero = try await app.post(
                "/api/client/appointments", key: key, Fixture.booking("2025-03-14T08:00:00.000Z"))
            #expect(fractionZero.status == .created, "\(fractionZero)")
            try await app.book("2025-04-13T17:00:00Z", key: key)  // 20:00 local on the last day of the window

            // Closed day.
            var hours = everyDay("09:00", "21:00")
            hours.updateValue(nil, forKey: "sun")
            try await app.setSettings(["workingHours": hours])
            try await expectInvalid("2025-03-16T08:00:00Z")
        }
    }

    @Test func capacityAndRelease() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let key = app.orgKey
            let first = try await app.book("2025-03-14T08:00:00Z", key: key)
            try await app.book("2025-03-14T08:00:00Z", key: key)
            let full = try await app.post("/api/client/appointments", key: key, Fixture.booking("2025-03-14T08:00:00Z"))
            expectError(full, .conflict, "Time slot is no longer available")
            // An overlapping slot is full too; a touching one is free.
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking("2025-03-14T08:30:00Z")), .conflict,
                "Time slot is no longer available")
            try await app.book("2025-03-14T09:00:00Z", key: key)

            // Rule 14: cancelling frees the bay at once.
            let cancelled = try await app.send(.POST, "/api/client/appointments/\(first)/cancel", key: key)
            #expect(cancelled.status == .ok)
            let availability = try await app.availability(date: "2025-03-14")
            #expect((availability.json["slots"].array ?? []).first { $0["startTime"].string == "11:00" }?["remaining"].int == 1)
            try await app.book("2025-03-14T08:00:00Z", key: key)

            // Rule 15: reducing the capacity never moves or cancels existing bookings; they keep occupying bays.
            try await app.setSettings(["capacity": 1])
            let admin = try await app.adminToken()
            let list = try await app.get("/api/admin/appointments?date=2025-03-14", bearer: admin)
            #expect(list.json.array?.filter { $0["status"].string != "cancelled" }.count == 3)
            expectError(
                try await app.post("/api/client/appointments", key: key, Fixture.booking("2025-03-14T09:00:00Z")), .conflict,
                "Time slot is no longer available")
        }
    }

    @Test func adminBookingsSkipLeadTimeAndWindowButNotTheGrid() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let admin = try await app.adminToken()
            func adminBook(_ start: String, _ extra: [String: Any?] = [:]) async throws -> TestResponse {
                var body: [String: Any?] = ["startIso": start, "clientName": "Walk In", "serviceName": "Car Washing"]
                for (k, v) in extra { body[k] = v }
                return try await app.post("/api/admin/appointments", bearer: admin, body)
            }
            // Earlier today (inside the lead time, even past) is allowed for the console.
            let past = try await adminBook("2025-03-14T06:00:00Z")
            #expect(past.status == .created, "\(past)")
            #expect(past.json["source"].string == "admin")
            #expect(past.json["installId"].isNull && !past.json["installId"].isAbsent)
            #expect(past.json["phone"].isNull && past.json["carMake"].isNull && past.json["carPlate"].isNull)
            #expect(past.headers.first(name: .location) == "/api/admin/appointments/\(past.json["id"].string ?? "")")
            let confirmed = try await adminBook("2025-06-14T06:00:00Z", ["status": "confirmed"])  // beyond 30 days
            #expect(confirmed.status == .created && confirmed.json["status"].string == "confirmed", "\(confirmed)")
            expectError(try await adminBook("2025-03-13T06:00:00Z"), .badRequest, "Invalid time slot")  // yesterday
            expectError(try await adminBook("2026-03-15T06:00:00Z"), .badRequest, "Invalid time slot")  // > 365 days
            expectError(try await adminBook("2025-03-14T06:10:00Z"), .badRequest, "Invalid time slot")  // off the grid
            expectError(
                try await adminBook("2025-03-15T06:00:00Z", ["status": "done"]), .badRequest,
                "Invalid field: status (must be one of: new, confirmed)")
            expectError(
                try await app.post("/api/admin/appointments", bearer: admin, [:]), .badRequest,
                "Missing required fields: startIso, clientName, serviceName")
            // Capacity applies to the console as well.
            _ = try await adminBook("2025-03-14T06:00:00Z")
            expectError(try await adminBook("2025-03-14T06:00:00Z"), .conflict, "Time slot is no longer available")
        }
    }
}
