import AppCore
import Foundation
import Vapor

/// `GET /api/client/availability?serviceId=&date=` (contract §4.3, §6): every grid slot of one studio-local date with
/// its remaining bays and the first reason it cannot be booked. Advisory only: bookings re-check under the lock.
/// One statement (`BookingStore.availabilityInputs`).
struct AvailabilityController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("client", "availability", use: availability)
    }

    @Sendable func availability(req: Request) async throws -> Response {
        let query = req.autodetailQuery
        try query.requireAll(["serviceId", "date"])
        let serviceID = try query.uuid("serviceId")!
        let date = try query.day("date")!
        guard let inputs = try await req.bookings.availabilityInputs(serviceID: serviceID, day: date) else {
            throw APIError.serviceNotFound
        }
        let settings = inputs.settings
        let grid = SlotGrid(settings: settings, durationMinutes: inputs.durationMinutes)
        let (hours, slots) = grid.slots(on: date)
        let now = req.now
        let insideWindow = grid.isInsideWindow(date, now: now)
        let items = slots.map { slot -> AvailabilityResponse.Slot in
            let remaining = Occupancy.remaining(
                start: slot.start, end: slot.end, capacity: settings.capacity, occupied: inputs.occupied)
            let reason: String? =
                !insideWindow ? "outside_window"
                : !grid.respectsLeadTime(slot, now: now) ? "lead_time"
                : remaining == 0 ? "full" : nil
            return AvailabilityResponse.Slot(
                startIso: slot.start, endIso: slot.end, startTime: slot.startTime.text, endTime: slot.endTime.text,
                available: reason == nil, remaining: remaining, unavailableReason: reason)
        }
        return try JSONResponse.make(AvailabilityResponse(
            date: date.description, serviceId: serviceID.lowercased, timezone: settings.timezone,
            durationMinutes: inputs.durationMinutes, capacity: settings.capacity,
            workingHours: hours.map(DayHoursResponse.init), slots: items))
    }
}
