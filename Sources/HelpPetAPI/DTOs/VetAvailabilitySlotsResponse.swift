import AppCore
import Foundation

/// The app's `VetAvailabilitySlotsResponse` (its `date` decodes with its date-only format), plus the zone and the slot
/// length the grid was computed with.
struct VetAvailabilitySlotsResponse: Encodable, Sendable {
    let vet_user_id: String
    let practice_id: String
    let date: String
    let timezone: String
    let slot_minutes: Int
    let slots: [VetAvailabilitySlotResponse]
    let total_slots: Int
    let available_slots: Int
}

/// The app's `TimeSlot`: `conflicting_appointment` is the id of the appointment that occupies the slot.
struct VetAvailabilitySlotResponse: Encodable, Sendable {
    let start_time: Date
    let end_time: Date
    let available: Bool
    let availability_type: String
    @NullEncodable var conflicting_appointment: String?
    @NullEncodable var notes: String?

    init(_ slot: AvailabilitySlotGrid.Slot) {
        start_time = slot.start
        end_time = slot.end
        available = slot.available
        availability_type = slot.type.rawValue
        conflicting_appointment = slot.conflictingAppointment?.lowercased
        notes = slot.notes
    }
}
