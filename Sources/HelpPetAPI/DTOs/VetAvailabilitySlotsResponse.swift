import AppCore
import Foundation

/// The app's `VetAvailabilitySlotsResponse` (its `date` decodes with its date-only format), plus the zone and the slot
/// length the grid was computed with.
struct VetAvailabilitySlotsResponse: Encodable, Sendable {
    let vetUserID: String
    let practiceID: String
    let date: String
    let timezone: String
    let slotMinutes: Int
    let slots: [VetAvailabilitySlotResponse]
    let totalSlots: Int
    let availableSlots: Int

    enum CodingKeys: String, CodingKey {
        case vetUserID = "vet_user_id"
        case practiceID = "practice_id"
        case date, timezone
        case slotMinutes = "slot_minutes"
        case slots
        case totalSlots = "total_slots"
        case availableSlots = "available_slots"
    }
}

/// The app's `TimeSlot`: `conflicting_appointment` is the id of the appointment that occupies the slot.
struct VetAvailabilitySlotResponse: Encodable, Sendable {
    let startTime: Date
    let endTime: Date
    let available: Bool
    let availabilityType: String
    @NullEncodable var conflictingAppointment: String?
    @NullEncodable var notes: String?

    enum CodingKeys: String, CodingKey {
        case startTime = "start_time"
        case endTime = "end_time"
        case available
        case availabilityType = "availability_type"
        case conflictingAppointment = "conflicting_appointment"
        case notes
    }

    init(_ slot: AvailabilitySlotGrid.Slot) {
        startTime = slot.start
        endTime = slot.end
        available = slot.available
        availabilityType = slot.type.rawValue
        conflictingAppointment = slot.conflictingAppointment?.lowercased
        notes = slot.notes
    }
}
