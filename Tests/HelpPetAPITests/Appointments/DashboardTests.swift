import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /dashboard/vet/{id}` and `/dashboard/vet/{id}/today` (contract §4.4) on the contract's example day.
@Suite struct DashboardTests {
    /// 2025-01-15T17:25:00Z = 09:25 in Los Angeles, the contract's example instant.
    static func exampleClock() -> ManualClock { ManualClock(Date(timeIntervalSince1970: 1_736_961_900)) }

    @Test func todayMatchesTheContractExample() async throws {
        try await withTestApp(clock: Self.exampleClock()) { app in
            let vet = try await app.token(for: Demo.vet1)
            let first = "840e37f2-3ad7-5df5-99bb-63311ab0eb6e"
            #expect(Demo.appointmentID(1, app).lowercased == first, "seed ids are UUIDv5 of the day")
            let started = try await app.put("/api/v1/appointments/\(first)", token: vet, json: ["status": "in_progress"])
            #expect(started.status == .ok)

            let today = try await app.get("/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today", token: vet)
            #expect(today.status == .ok, "\(today)")
            let json = today.json
            // `availability_windows` is an additive field for the iPhone app (none in the demo data).
            #expect(json.keys == ["date", "timezone", "appointments_today", "next_appointment", "current_appointment",
                                  "completed_count", "remaining_count", "availability_windows"])
            #expect(json["availability_windows"].array?.isEmpty == true)
            #expect(json["date"].string == "2025-01-15")
            #expect(json["timezone"].string == "America/Los_Angeles")
            #expect(json["appointments_today"].ids == [first, "74b6089d-94c3-5e5d-98b1-0956c48da9f5",
                                                        "2989900e-3212-5d54-903b-4c7102c3590a"])
            #expect(json["current_appointment"]["id"].string == first)
            #expect(json["next_appointment"]["id"].string == "74b6089d-94c3-5e5d-98b1-0956c48da9f5")
            #expect(json["completed_count"].int == 0)
            #expect(json["remaining_count"].int == 3)
            #expect(json["appointments_today"][0]["appointment_date"].string == "2025-01-15T17:00:00Z")
        }
    }

    @Test func scheduleCarriesStatsAndIncludesCancelled() async throws {
        try await withTestApp(clock: Self.exampleClock()) { app in
            let vet = try await app.token(for: Demo.vet1)
            let rocky = Demo.appointmentID(3, app).lowercased
            _ = try await app.delete("/api/v1/appointments/\(rocky)", token: vet)
            let schedule = try await app.get("/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)", token: vet)
            #expect(schedule.status == .ok)
            #expect(schedule.json.keys == ["date", "timezone", "today_appointments", "stats", "availability_windows"])
            #expect(schedule.json["today_appointments"].count == 3)
            #expect(schedule.json["stats"]["appointments_today"].int == 3)
            #expect(schedule.json["stats"]["completed_visits"].int == 0)
            let today = try await app.get("/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today", token: vet)
            #expect(today.json["remaining_count"].int == 2)
        }
    }

    @Test func currentFallsBackToARunningScheduledSlotAndNextSkipsStarted() async throws {
        // 10:40 local: appointment 2 (10:30, 30 min, confirmed) is running by the clock; 3 (14:00) is next.
        try await withTestApp(clock: ManualClock(Date(timeIntervalSince1970: 1_736_966_400))) { app in
            let vet = try await app.token(for: Demo.vet1)
            let today = try await app.get("/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today", token: vet)
            #expect(today.json["current_appointment"]["id"].string == Demo.appointmentID(2, app).lowercased)
            #expect(today.json["next_appointment"]["id"].string == Demo.appointmentID(3, app).lowercased)
        }
    }

    @Test func dateParameterSelectsAnotherLocalDay() async throws {
        try await withTestApp(clock: Self.exampleClock()) { app in
            let vet = try await app.token(for: Demo.vet1)
            let base = "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today"
            let next = try await app.get(base + "?date=2025-01-16", token: vet)
            #expect(next.json["date"].string == "2025-01-16")
            #expect(next.json["appointments_today"].count == 0)
            #expect(next.json["next_appointment"].isNull && next.json["current_appointment"].isNull)
            let bad = try await app.get(base + "?date=01/15/2025", token: vet)
            #expect(bad.status == .badRequest)
            #expect(bad.detail == "Invalid date format. Use YYYY-MM-DD")
        }
    }

    @Test func appointmentsBelongToTheirPracticeLocalDayAcrossDST() async throws {
        try await withTestApp(clock: Self.exampleClock()) { app in
            let vet = try await app.token(for: Demo.vet1)
            // 2025-03-09 lasts 23 hours in Los Angeles: [08:00Z, 07:00Z next day).
            let late = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                date: "2025-03-10T06:30:00Z"))  // 23:30 PDT on the 9th
            let nextDay = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                date: "2025-03-10T07:00:00Z"))  // 00:00 PDT on the 10th
            let base = "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)"
            #expect(try await app.get(base + "?date=2025-03-09", token: vet).json["today_appointments"].ids == [late])
            #expect(try await app.get(base + "?date=2025-03-10", token: vet).json["today_appointments"].ids == [nextDay])
            // 2025-11-02 lasts 25 hours: 07:30Z on the 3rd is still 23:30 PST on the 2nd.
            let fallBack = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                date: "2025-11-03T07:30:00Z"))
            #expect(try await app.get(base + "?date=2025-11-02", token: vet).json["today_appointments"].ids == [fallBack])
        }
    }

    @Test func accessRules() async throws {
        try await withTestApp { app in
            let vet1 = try await app.token(for: Demo.vet1)
            let vet2 = try await app.token(for: Demo.vet2)
            let admin = try await app.token(for: Demo.admin)
            let owner = try await app.token(for: Demo.owner1)
            let path = "/api/v1/dashboard/vet/\(Demo.vet1.id.lowercased)/today"

            let ownerResponse = try await app.get(path, token: owner)
            #expect(ownerResponse.status == .forbidden)
            #expect(ownerResponse.detail == "Veterinary staff or administrator access required")
            let otherVet = try await app.get(path, token: vet2)
            #expect(otherVet.status == .forbidden)
            #expect(otherVet.detail == "Access denied. Can only view your own dashboard.")
            let unknownForMember = try await app.get("/api/v1/dashboard/vet/\(UUID().lowercased)", token: vet2)
            #expect(unknownForMember.detail == "Access denied. Can only view your own dashboard.")
            #expect(try await app.get("/api/v1/dashboard/vet/abc/today", token: vet1).detail == "Invalid vet user ID format")

            #expect(try await app.get(path, token: admin).json["appointments_today"].count == 3)
            let notVet = try await app.get("/api/v1/dashboard/vet/\(Demo.admin.id.lowercased)/today", token: admin)
            #expect(notVet.status == .notFound)
            #expect(notVet.detail == "Vet not found")
            let unknown = try await app.get("/api/v1/dashboard/vet/\(UUID().lowercased)", token: admin)
            #expect(unknown.detail == "Vet not found")
            #expect(try await app.get("/api/v1/dashboard/vet/\(Demo.vet2.id.lowercased)", token: vet2)
                .json["today_appointments"].count == 2)
        }
    }
}
