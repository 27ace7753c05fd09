import AppCore
import Foundation
import Testing
import VaporTesting

/// Studio settings (contract §3.2, §4.7.6).
@Suite struct AdminSettingsTests {
    @Test func readAndUpdate() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let admin = try await app.adminToken()
            let current = try await app.get("/api/admin/settings", bearer: admin)
            #expect(current.json.keys == ["studioName", "timezone", "workingHours", "slotStepMinutes", "capacity", "bookingWindowDays", "leadTimeMinutes", "adminEmail", "updatedAt"])
            #expect(current.json["studioName"].string == "AutoDetail Hub" && current.json["timezone"].string == "Europe/Moscow")
            #expect(current.json["workingHours"].keys == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
            #expect(current.json["workingHours"]["sun"]["open"].string == "09:00")
            #expect(current.json["slotStepMinutes"].int == 30 && current.json["capacity"].int == 2)
            #expect(current.json["bookingWindowDays"].int == 30 && current.json["leadTimeMinutes"].int == 60)

            var hours = everyDay("09:00", "21:00")
            hours["sat"] = ["open": "10:00", "close": "18:00"]
            hours.updateValue(nil, forKey: "sun")
            let updated = try await app.put("/api/admin/settings", bearer: admin, ["workingHours": hours, "capacity": 3])
            #expect(updated.status == .ok, "\(updated)")
            #expect(updated.json["workingHours"]["sun"].isNull && !updated.json["workingHours"]["sun"].isAbsent)
            #expect(updated.json["workingHours"]["sat"]["close"].string == "18:00")
            #expect(updated.json["capacity"].int == 3 && updated.json["updatedAt"].string == "2025-03-14T06:40:00Z")
            let late = try await app.put("/api/admin/settings", bearer: admin, ["workingHours": everyDay("18:00", "24:00"), "timezone": "UTC"])
            #expect(late.json["workingHours"]["mon"]["close"].string == "24:00" && late.json["timezone"].string == "UTC")
            #expect(late.json["capacity"].int == 3, "other fields are left unchanged")
        }
    }

    @Test func validation() async throws {
        try await withTestApp { app in
            let admin = try await app.adminToken()
            func put(_ body: [String: Any?]) async throws -> TestResponse {
                try await app.put("/api/admin/settings", bearer: admin, body)
            }
            var partial: [String: Any?] = ["mon": ["open": "09:00", "close": "21:00"]]
            for day in ["tue", "wed", "thu", "fri"] { partial.updateValue(nil, forKey: day) }
            expectError(try await put([:]), .badRequest, "Nothing to update")
            expectError(try await put(["workingHours": partial]), .badRequest,
                        "Missing required fields: workingHours.sat, workingHours.sun")
            var noClose = everyDay("09:00", "21:00")
            noClose["tue"] = ["open": "09:00"]
            expectError(try await put(["workingHours": noClose]), .badRequest, "Missing required fields: workingHours.tue.close")
            for (body, message) in [
                (["timezone": "MSK"], "Invalid field: timezone (unknown time zone)"),
                (["timezone": "GMT+3"], "Invalid field: timezone (unknown time zone)"),
                (["timezone": "Etc/GMT-3"], "Invalid field: timezone (unknown time zone)"),
                (["timezone": "europe/moscow"], "Invalid field: timezone (unknown time zone)"),
                (["studioName": "A"], "Invalid field: studioName (must be 2-100 characters)"),
                (["studioName": nil], "Invalid field: studioName (must not be null)"),
                (["workingHours": nil], "Invalid field: workingHours (must not be null)"),
                (["workingHours": "always"], "Invalid field: workingHours (must be an object)"),
                (["slotStepMinutes": 4], "Invalid field: slotStepMinutes (must be between 5 and 240)"),
                (["slotStepMinutes": 7], "Invalid field: slotStepMinutes (must be a multiple of 5)"),
                (["capacity": 0], "Invalid field: capacity (must be between 1 and 20)"),
                (["capacity": 21], "Invalid field: capacity (must be between 1 and 20)"),
                (["bookingWindowDays": 366], "Invalid field: bookingWindowDays (must be between 1 and 365)"),
                (["leadTimeMinutes": 10_081], "Invalid field: leadTimeMinutes (must be between 0 and 10080)"),
                (["capacity": 1.5], "Invalid field: capacity (must be an integer)"),
            ] as [([String: Any?], String)] {
                expectError(try await put(body), .badRequest, message)
            }
            for (day, message) in [
                (["open": "9:00", "close": "21:00"], "Invalid field: workingHours.mon.open (must be a time HH:mm)"),
                (["open": "24:00", "close": "24:00"], "Invalid field: workingHours.mon.open (must be a time HH:mm)"),
                (["open": "09:00", "close": "24:30"], "Invalid field: workingHours.mon.close (must be a time HH:mm)"),
                (["open": "09:00", "close": "09:00"], "Invalid field: workingHours.mon.close (must be later than open)"),
                (["open": "21:00", "close": "09:00"], "Invalid field: workingHours.mon.close (must be later than open)"),
            ] {
                var hours = everyDay("09:00", "21:00")
                hours["mon"] = day
                expectError(try await put(["workingHours": hours]), .badRequest, message)
            }
            var notObject = everyDay("09:00", "21:00")
            notObject["wed"] = "closed"
            expectError(try await put(["workingHours": notObject]), .badRequest, "Invalid field: workingHours.wed (must be an object)")
            #expect(try await put(["timezone": "America/New_York"]).status == .ok)
        }
    }
}
