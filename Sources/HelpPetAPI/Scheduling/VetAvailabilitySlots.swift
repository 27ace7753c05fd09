import AppCore
import Fluent
import Foundation

/// Loads what AvailabilitySlotGrid needs for one vet and local day and shapes the app's
/// `VetAvailabilitySlotsResponse` (`vet_user_id`, `date`, `practice_id`, `slots`, `total_slots`, `available_slots`).
enum VetAvailabilitySlots {
    /// The longest appointment (`duration_minutes` ≤ 480): an appointment starting this long before the day can
    /// still overlap its first slot.
    static let longestAppointment: TimeInterval = 480 * 60

    static func response(
        vetID: UUID, practice: Practice, day: CalendarDay, zone: TimeZone, windows: [VetAvailability],
        on db: any Database
    ) async throws -> VetAvailabilitySlotsResponse {
        let range = LocalDay.window(of: day, in: zone)
        // Every appointment of the vet that is not cancelled occupies its time (a completed one did).
        let appointments = try await Appointment.query(on: db)
            .filter(\.$practiceID == practice.id!)
            .filter(\.$assignedVetUserID == vetID)
            .filter(\.$statusValue != AppointmentStatus.cancelled.rawValue)
            .filter(\.$appointmentDate > range.lowerBound.addingTimeInterval(-longestAppointment))
            .filter(\.$appointmentDate < range.upperBound.addingTimeInterval(AvailabilitySlotGrid.slotLength))
            .all()
        let busy = appointments.map {
            AvailabilitySlotGrid.Busy(
                appointmentID: $0.id!, start: $0.appointmentDate,
                end: $0.appointmentDate.addingTimeInterval(TimeInterval($0.durationMinutes * 60)))
        }
        let grid = windows.compactMap { window -> AvailabilitySlotGrid.Window? in
            guard let type = AvailabilityType(rawValue: window.availabilityType) else { return nil }
            return .init(start: window.startAt, end: window.endAt, type: type, notes: window.notes)
        }
        let slots = AvailabilitySlotGrid.slots(windows: grid, busy: busy, day: range)
        return VetAvailabilitySlotsResponse(
            vetUserID: vetID.lowercased, practiceID: practice.id!.lowercased, date: day.description,
            timezone: zone.identifier, slotMinutes: Int(AvailabilitySlotGrid.slotLength / 60),
            slots: slots.map(VetAvailabilitySlotResponse.init), totalSlots: slots.count,
            availableSlots: slots.filter(\.available).count)
    }
}
