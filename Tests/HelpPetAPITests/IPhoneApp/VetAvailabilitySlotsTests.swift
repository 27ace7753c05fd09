import AppCore
import Foundation
import Testing
import VaporTesting

/// `GET /scheduling-unix/vet-availability/{vet_id}?date=…&timezone=…&slots=true`: the app's `getAvailableSlotsUnix`,
/// decoded with its `VetAvailabilitySlotsResponse`.
@Suite struct VetAvailabilitySlotsTests {
    static func slots(_ client: AppClient, _ date: String, zone: String = "America/Los_Angeles") async throws
        -> App.VetAvailabilitySlotsResponse
    {
        try await client.get(
            "\(VetAvailabilityTests.base)/\(Demo.vet1.id.lowercased)?date=\(date)&timezone=\(zone)&slots=true",
            as: App.VetAvailabilitySlotsResponse.self)
    }

    static func at(_ text: String) throws -> Date { try VetAvailabilityTests.instant(text) }

    @Test(arguments: ClientKind.allCases)
    func slotsAreHalfHoursOfAvailableWindowsMinusTheVetsAppointments(_ kind: ClientKind) async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let client = AppClient(app: app, token: vet, kind: kind)
            // 2030-06-03 in Los Angeles is UTC-7: 09:00–12:00 local is 16:00Z–19:00Z.
            _ = try await VetAvailabilityTests.create(
                client, from: try Self.at("2030-06-03T16:00:00Z"), to: try Self.at("2030-06-03T19:00:00Z"), notes: "Clinic")
            _ = try await VetAvailabilityTests.create(
                client, from: try Self.at("2030-06-03T20:00:00Z"), to: try Self.at("2030-06-03T21:00:00Z"), type: .surgeryBlock)
            _ = try await VetAvailabilityTests.create(
                client, from: try Self.at("2030-06-03T21:00:00Z"), to: try Self.at("2030-06-03T22:00:00Z"), type: .emergencyOnly)
            let booked = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                date: "2030-06-03T17:00:00Z", extra: ["duration_minutes": 45]))
            let cancelled = try await AppointmentFixtures.create(app, token: vet, body: AppointmentFixtures.body(
                date: "2030-06-03T18:00:00Z"))
            try await AppointmentFixtures.drive(app, token: vet, id: cancelled, to: "cancelled")

            let day = try await Self.slots(client, "2030-06-03")
            #expect(day.vetUserId == Demo.vet1.id.lowercased && day.practiceId == Demo.practiceID.lowercased)
            #expect(day.date == AppCoding.formatter("yyyy-MM-dd", utc: true).date(from: "2030-06-03"))
            let starts = day.slots.map { WireTime.format($0.startTime) }
            #expect(starts == [
                "2030-06-03T16:00:00Z", "2030-06-03T16:30:00Z", "2030-06-03T17:00:00Z", "2030-06-03T17:30:00Z",
                "2030-06-03T18:00:00Z", "2030-06-03T18:30:00Z", "2030-06-03T21:00:00Z", "2030-06-03T21:30:00Z",
            ], "no slots in the surgery block")
            #expect(day.slots.allSatisfy { $0.endTime.timeIntervalSince($0.startTime) == 1800 })
            #expect(day.slots.map(\.available) == [true, true, false, false, true, true, false, false])
            #expect(day.slots[2].conflictingAppointment == booked && day.slots[3].conflictingAppointment == booked)
            #expect(day.slots[4].conflictingAppointment == nil, "a cancelled appointment frees its time")
            #expect(day.slots[6].availabilityType == .emergencyOnly && day.slots[6].conflictingAppointment == nil)
            #expect(day.slots[0].notes == "Clinic")
            #expect(day.totalSlots == 8 && day.availableSlots == 4)

            // Without `slots` the same call is still the plain list of windows.
            let windows = try await VetAvailabilityTests.day(client, "2030-06-03", zone: "America/Los_Angeles")
            #expect(windows.count == 3)
            let bad = try await client.raw(.GET, "\(VetAvailabilityTests.base)/\(Demo.vet1.id.lowercased)?slots=maybe")
            #expect(bad.status == .badRequest, "\(bad)")
        }
    }

    /// 8 March 2026 in Los Angeles has 23 hours: local 00:00–04:00 is three hours of real time, six slots; a window
    /// across the next midnight gives each day the slots that start on it, on the window's own half-hour grid.
    @Test func slotsAreDSTCorrectAndSplitAtLocalMidnight() async throws {
        try await withTestApp { app in
            let client = AppClient(app: app, token: try await app.token(for: Demo.vet1), kind: .legacy)
            _ = try await VetAvailabilityTests.create(
                client, from: try Self.at("2026-03-08T08:00:00Z"), to: try Self.at("2026-03-08T11:00:00Z"))
            // 23:15 local on the 8th (PDT, UTC-7) to 00:45 local on the 9th.
            _ = try await VetAvailabilityTests.create(
                client, from: try Self.at("2026-03-09T06:15:00Z"), to: try Self.at("2026-03-09T07:45:00Z"))

            let spring = try await Self.slots(client, "2026-03-08")
            #expect(spring.slots.map { WireTime.format($0.startTime) } == [
                "2026-03-08T08:00:00Z", "2026-03-08T08:30:00Z", "2026-03-08T09:00:00Z", "2026-03-08T09:30:00Z",
                "2026-03-08T10:00:00Z", "2026-03-08T10:30:00Z", "2026-03-09T06:15:00Z", "2026-03-09T06:45:00Z",
            ])
            let next = try await Self.slots(client, "2026-03-09")
            #expect(next.slots.map { WireTime.format($0.startTime) } == ["2026-03-09T07:15:00Z"])
            #expect(next.totalSlots == 1 && next.availableSlots == 1)
            // Berlin's 9 March (23:00Z on the 8th to 23:00Z on the 9th) holds the whole second window and nothing else.
            let berlin = try await Self.slots(client, "2026-03-09", zone: "Europe/Berlin")
            #expect(berlin.slots.count == 3)
        }
    }
}
