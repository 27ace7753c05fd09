import Foundation

/// The app's slot view of one local day (`GET /scheduling-unix/vet-availability/{vet_id}?…&slots=true`): fixed
/// 30-minute slots laid from the start of each working window, minus the vet's appointments. Pure, so the DST and
/// midnight cases are tested without a database (docs/iphone-app-compatibility.md, "Vet availability").
///
/// Everything is computed on instants: a slot is 30 minutes of elapsed time, a 23- or 25-hour day has as many slots
/// as its windows hold, and a window that crosses midnight contributes, on each day, the slots that start on it.
enum AvailabilitySlotGrid {
    static let slotLength: TimeInterval = 30 * 60

    struct Window {
        let start: Date
        let end: Date
        let type: AvailabilityType
        let notes: String?
    }

    struct Busy {
        let appointmentID: UUID
        let start: Date
        let end: Date
    }

    struct Slot: Equatable {
        let start: Date
        let end: Date
        let type: AvailabilityType
        let notes: String?
        /// The first appointment (by start) overlapping the slot.
        let conflictingAppointment: UUID?
        /// Bookable: inside an AVAILABLE window and free.
        var available: Bool { type == .available && conflictingAppointment == nil }
    }

    /// Working time is AVAILABLE (bookable) and EMERGENCY_ONLY (shown, never bookable); SURGERY_BLOCK and UNAVAILABLE
    /// windows hold no slots. Windows of one vet never overlap (the API refuses it), so the slots are in order.
    static func slots(windows: [Window], busy: [Busy], day: Range<Date>) -> [Slot] {
        let appointments = busy.sorted { ($0.start, $0.appointmentID.uuidString) < ($1.start, $1.appointmentID.uuidString) }
        var result: [Slot] = []
        for window in windows.sorted(by: { $0.start < $1.start })
        where window.type == .available || window.type == .emergencyOnly {
            var start = window.start
            if start < day.lowerBound {
                // Keep the window's own grid: the first of its slots that starts on this day.
                let skipped = (day.lowerBound.timeIntervalSince(start) / slotLength).rounded(.up)
                start = start.addingTimeInterval(skipped * slotLength)
            }
            while start < day.upperBound {
                let end = start.addingTimeInterval(slotLength)
                if end > window.end { break }
                let conflict = appointments.first { $0.start < end && $0.end > start }
                result.append(Slot(
                    start: start, end: end, type: window.type, notes: window.notes,
                    conflictingAppointment: conflict?.appointmentID))
                start = end
            }
        }
        return result
    }
}
