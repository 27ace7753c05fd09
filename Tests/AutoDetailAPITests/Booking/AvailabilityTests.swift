import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /api/client/availability` (contract §4.3) with the worked examples of §6.
@Suite struct AvailabilityTests {
    @Test func workedExampleWithLeadTimeFullAndRemaining() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let key = app.orgKey
            // One booking 11:00–12:00, two starting 12:00 (12:00–13:00 and 12:00–15:00), capacity 2.
            try await app.book("2025-03-14T08:00:00Z", key: key)
            try await app.book("2025-03-14T09:00:00Z", key: key)
            try await app.book("2025-03-14T09:00:00Z", key: key, ["serviceName": "Interior Detailing"])

            let response = try await app.availability(date: "2025-03-14")
            #expect(response.status == .ok, "\(response)")
            #expect(response.headers.first(name: .cacheControl) == "no-store")
            let json = response.json
            #expect(json.keys == ["date", "serviceId", "timezone", "durationMinutes", "capacity", "workingHours", "slots"])
            #expect(json["date"].string == "2025-03-14")
            #expect(json["timezone"].string == "Europe/Moscow")
            #expect(json["durationMinutes"].int == 60)
            #expect(json["capacity"].int == 2)
            #expect(json["workingHours"]["open"].string == "09:00" && json["workingHours"]["close"].string == "21:00")
            let slots = json["slots"].array ?? []
            #expect(slots.count == 23)
            func slot(_ time: String) -> JSONNode { slots.first { $0["startTime"].string == time } ?? JSONNode(nil) }
            #expect(slot("09:00")["startIso"].string == "2025-03-14T06:00:00Z")
            #expect(slot("09:00")["endIso"].string == "2025-03-14T07:00:00Z")
            #expect(slot("09:00")["available"].bool == false)
            #expect(slot("09:00")["remaining"].int == 2)
            #expect(slot("09:00")["unavailableReason"].string == "lead_time")
            #expect(slot("10:30")["unavailableReason"].string == "lead_time")
            #expect(slot("11:00")["available"].bool == true)
            #expect(slot("11:00")["remaining"].int == 1)
            #expect(slot("11:00")["unavailableReason"].isNull)
            #expect(slot("11:30")["remaining"].int == 0)
            #expect(slot("11:30")["unavailableReason"].string == "full")
            #expect(slot("12:00")["unavailableReason"].string == "full")
            #expect(slot("13:00")["remaining"].int == 1, "only the 12:00–15:00 booking still runs")
            #expect(slot("20:00")["endTime"].string == "21:00")
            #expect(slot("20:00")["remaining"].int == 2 && slot("20:00")["available"].bool == true)
            #expect(slots.allSatisfy { $0.keys == ["startIso", "endIso", "startTime", "endTime", "available", "remaining", "unavailableReason"] })
        }
    }

    @Test func bookingWindowAndClosedDays() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let last = try await app.availability(date: "2025-04-13")
            #expect((last.json["slots"].array ?? []).allSatisfy { $0["available"].bool == true })
            let beyond = try await app.availability(date: "2025-04-14")
            #expect((beyond.json["slots"].array ?? []).allSatisfy { $0["unavailableReason"].string == "outside_window" })
            let past = try await app.availability(date: "2025-03-13")
            #expect((past.json["slots"].array ?? []).allSatisfy { $0["unavailableReason"].string == "outside_window" })
            #expect(past.json["slots"].count == 23, "past dates list their grid, unavailable")

            var hours = everyDay("09:00", "21:00")
            hours.updateValue(nil, forKey: "sun")
            try await app.setSettings(["workingHours": hours])
            let sunday = try await app.availability(date: "2025-03-16")
            #expect(sunday.json["workingHours"].isNull)
            #expect(sunday.json["slots"].array?.isEmpty == true)
        }
    }

    @Test func dstDaysInBerlin() async throws {
        try await withTestApp(clock: Fixture.clock("2025-03-20T12:00:00Z")) { app in
            try await app.setSettings([
                "timezone": "Europe/Berlin", "workingHours": everyDay("00:00", "24:00"), "slotStepMinutes": 60,
                "bookingWindowDays": 365, "leadTimeMinutes": 0,
            ])
            let spring = try await app.availability("Engine Bay Cleaning", date: "2025-03-30")
            let springSlots = spring.json["slots"].array ?? []
            #expect(springSlots.count == 23)
            #expect(!springSlots.contains { $0["startTime"].string == "02:00" })
            #expect(springSlots.first { $0["startTime"].string == "01:00" }?["startIso"].string == "2025-03-30T00:00:00Z")
            #expect(springSlots.first { $0["startTime"].string == "03:00" }?["startIso"].string == "2025-03-30T01:00:00Z")
            #expect(springSlots.last?["startIso"].string == "2025-03-30T21:00:00Z")
            #expect(springSlots.last?["endTime"].string == "00:00")

            let autumn = try await app.availability("Engine Bay Cleaning", date: "2025-10-26")
            let autumnSlots = autumn.json["slots"].array ?? []
            #expect(autumnSlots.count == 24)
            #expect(autumnSlots.first { $0["startTime"].string == "02:00" }?["startIso"].string == "2025-10-26T00:00:00Z")

            // Booking the second (later) 02:00 is not a grid start; the earlier one is.
            let later = try await app.post(
                "/api/client/appointments", key: app.orgKey,
                Fixture.booking("2025-10-26T01:00:00Z", ["serviceName": "Engine Bay Cleaning"]))
            expectError(later, .badRequest, "Invalid time slot")
            try await app.book("2025-10-26T00:00:00Z", key: app.orgKey, ["serviceName": "Engine Bay Cleaning"])
            try await app.book("2025-03-30T01:00:00Z", key: app.orgKey, ["serviceName": "Engine Bay Cleaning"])

            // 09:00 local across both changes (09:00–21:00 hours).
            try await app.setSettings(["workingHours": everyDay("09:00", "21:00"), "slotStepMinutes": 30])
            for (date, nine) in [
                ("2025-03-29", "2025-03-29T08:00:00Z"), ("2025-03-30", "2025-03-30T07:00:00Z"),
                ("2025-10-25", "2025-10-25T07:00:00Z"), ("2025-10-26", "2025-10-26T08:00:00Z"),
            ] {
                let day = try await app.availability(date: date)
                #expect(day.json["slots"][0]["startIso"].string == nine, "\(date)")
                #expect(day.json["slots"][0]["startTime"].string == "09:00")
            }
        }
    }

    @Test func parameterErrors() async throws {
        try await withTestApp { app in
            let id = try await app.serviceID()
            expectError(try await app.get("/api/client/availability"), .badRequest, "Missing required parameters: serviceId, date")
            expectError(
                try await app.get("/api/client/availability?serviceId=&date=2025-03-14"), .badRequest,
                "Missing required parameters: serviceId")
            expectError(
                try await app.get("/api/client/availability?serviceId=abc&date=2025-03-14"), .badRequest,
                "Invalid parameter: serviceId (invalid format)")
            for bad in ["2025-02-30", "14.03.2025", "2025-3-14"] {
                expectError(
                    try await app.get("/api/client/availability?serviceId=\(id)&date=\(bad)"), .badRequest,
                    "Invalid parameter: date (must be a date YYYY-MM-DD)")
            }
            expectError(
                try await app.get("/api/client/availability?serviceId=\(UUID().uuidString)&date=2025-03-14"), .notFound,
                "Service not found")
            let ok = try await app.get("/api/client/availability?serviceId=\(id.uppercased())&date=2025-03-14&tzOffsetMinutes=180")
            #expect(ok.status == .ok)
            #expect(ok.json["serviceId"].string == id, "the id is echoed in canonical form")
        }
    }
}
