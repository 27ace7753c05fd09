import AppCore
@testable import AutoDetailAPI
import Foundation
import Testing
import VaporTesting

/// `BookingStore`'s statements against a real database (both engines): availability inputs, the scoped
/// appointment read with photos, pages with their totals, and the studio calendar.
@Suite struct BookingStoreTests {
    static let saturday = CalendarDay("2025-03-15")!

    @Test func availabilityInputsOfAnEmptyDayHaveNoOccupiedIntervals() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let service = try #require(UUID(uuidString: try await app.serviceID()))
            let inputs = try #require(try await BookingStore(db: app.db).availabilityInputs(serviceID: service, day: Self.saturday))
            #expect(inputs.occupied.isEmpty)
            #expect(inputs.durationMinutes == 60)
            #expect(inputs.settings.timezone == "Europe/Moscow" && inputs.settings.capacity == 2)
        }
    }

    @Test func cancelledBookingsDoNotOccupyAndOtherDaysAreOutsideTheSpan() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let kept = try await app.book("2025-03-15T07:00:00Z", key: app.orgKey)
            let cancelled = try await app.book("2025-03-15T08:00:00Z", key: app.orgKey)
            #expect(try await app.post("/api/client/appointments/\(cancelled)/cancel", key: app.orgKey).status == .ok)
            try await app.book("2025-03-18T07:00:00Z", key: app.orgKey)  // three days later: outside the span

            let service = try #require(UUID(uuidString: try await app.serviceID()))
            let inputs = try #require(try await BookingStore(db: app.db).availabilityInputs(serviceID: service, day: Self.saturday))
            #expect(inputs.occupied == [Fixture.instant("2025-03-15T07:00:00Z")..<Fixture.instant("2025-03-15T08:00:00Z")],
                    "only \(kept) occupies")
        }
    }

    @Test func availabilityInputsOfAnInactiveOrUnknownServiceAreNil() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let id = try await app.serviceID()
            let admin = try await app.adminToken()
            #expect(try await app.delete("/api/admin/services/\(id)", bearer: admin).status == .noContent)
            let store = BookingStore(db: app.db)
            #expect(try await store.availabilityInputs(serviceID: try #require(UUID(uuidString: id)), day: Self.saturday) == nil)
            #expect(try await store.availabilityInputs(serviceID: UUID(), day: Self.saturday) == nil)
        }
    }

    @Test func appointmentReadIsScopedInsideTheSQL() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let other = try await app.newOrgKey()
            let id = try #require(UUID(uuidString: try await app.book("2025-03-15T07:00:00Z", key: app.orgKey)))
            let store = BookingStore(db: app.db)
            let creator = try #require(try await store.appointment(id, scope: .everything)).appointment.createdByKeyId
            #expect(try await store.appointment(id, scope: .createdBy(try #require(creator))) != nil)
            #expect(try await store.appointment(id, scope: .createdBy(try #require(UUID(uuidString: other.id)))) == nil)
            #expect(try await store.appointment(UUID(), scope: .everything) == nil)
            let item = try #require(try await store.appointment(id, scope: .everything))
            #expect(item.photos.isEmpty, "an appointment without photos comes back once, with no photo")
        }
    }

    @Test func pageCountsEveryMatchEvenBeyondTheLastPage() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            for hour in ["06", "07", "08"] { try await app.book("2025-03-15T\(hour):00:00Z", key: app.orgKey) }
            let store = BookingStore(db: app.db)
            let first = try await store.page(AppointmentFilter(), ascending: true, limit: 2, offset: 0)
            #expect(first.total == 3 && first.items.count == 2)
            #expect(first.items.map { $0.appointment.startAt } == [
                Fixture.instant("2025-03-15T06:00:00Z"), Fixture.instant("2025-03-15T07:00:00Z"),
            ])
            let beyond = try await store.page(AppointmentFilter(), ascending: true, limit: 2, offset: 10)
            #expect(beyond.total == 3 && beyond.items.isEmpty)
            let none = try await store.page(AppointmentFilter(status: "done"), ascending: true, limit: 2, offset: 0)
            #expect(none.total == 0 && none.items.isEmpty)
        }
    }

    @Test func calendarJoinsServiceAndCustomerAndHidesCancelled() async throws {
        try await withTestApp(clock: Fixture.clock()) { app in
            let install = try await app.newInstall()
            #expect(try await app.post("/api/ios/profile", key: install.key, [
                "name": "Anna Smirnova", "carMake": "Kia Rio", "carPlate": "a001aa77", "phone": "+7 900 000-00-01",
            ]).status == .ok)
            try await app.book("2025-03-15T07:00:00Z", key: install.key)
            try await app.book("2025-03-15T06:00:00Z", key: app.orgKey, ["serviceName": "Interior Detailing"])
            let cancelled = try await app.book("2025-03-15T09:00:00Z", key: app.orgKey)
            #expect(try await app.post("/api/client/appointments/\(cancelled)/cancel", key: app.orgKey).status == .ok)

            let store = BookingStore(db: app.db)
            let day = (Fixture.instant("2025-03-14T21:00:00Z"), Fixture.instant("2025-03-15T21:00:00Z"))
            let entries = try await store.calendar(from: day.0, to: day.1)
            #expect(entries.map(\.appointment.serviceName) == ["Interior Detailing", "Car Washing"])
            #expect(entries[0].customer.customerName == nil, "booked with an organisation key: no customer")
            #expect(entries[1].customer.customerName == "Anna Smirnova")
            #expect(entries[1].customer.customerPriority == "normal")
            #expect(entries[0].service.serviceDurationMinutes == 180 && entries[0].service.serviceActive)
            #expect(try await store.calendar(from: day.0, to: day.1, includeCancelled: true).count == 3)
            #expect(try await store.calendar(from: day.1, to: day.1.addingTimeInterval(86_400)).isEmpty)
        }
    }
}
