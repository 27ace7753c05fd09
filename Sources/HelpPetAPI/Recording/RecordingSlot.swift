import AppCore
import Foundation

/// The one place a recording belongs (contract §4.10): per (appointment, pet), or, without an appointment, per (pet,
/// practice, the practice's local day). One visit per slot, guarded by a unique index on each form.
enum RecordingSlot: Sendable, Equatable {
    case appointment(UUID, petID: UUID)
    case day(petID: UUID, practiceID: UUID, day: CalendarDay)

    /// The slot a recording of `petID` made at `now` goes into.
    init(petID: UUID, appointmentID: UUID?, practiceID: UUID, zone: TimeZone, now: Date) {
        if let appointmentID {
            self = .appointment(appointmentID, petID: petID)
        } else {
            self = .day(petID: petID, practiceID: practiceID, day: LocalDay.day(containing: now, in: zone))
        }
    }

    /// The pet recorded in this slot.
    var petID: UUID {
        switch self {
        case .appointment(_, let petID), .day(let petID, _, _): petID
        }
    }

    var appointmentID: UUID? {
        if case .appointment(let id, _) = self { return id }
        return nil
    }

    /// `visits.recording_day` of a day slot (nil for an appointment's).
    var recordingDay: String? {
        if case .day(_, _, let day) = self { return day.description }
        return nil
    }
}
