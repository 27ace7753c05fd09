import Foundation

/// The columns of the one `ad_studio_settings` row (contract §3.2).
struct SettingsRow: Decodable, Sendable {
    static let columns = """
        st.studio_name, st.timezone, st.working_hours, st.slot_step_minutes, st.capacity, st.booking_window_days,
        st.lead_time_minutes, st.admin_email, st.updated_at
        """

    let studioName: String
    let timezone: String
    let workingHours: String
    let slotStepMinutes: Int
    let capacity: Int
    let bookingWindowDays: Int
    let leadTimeMinutes: Int
    let adminEmail: String?
    let updatedAt: Date

    var settings: StudioSettings {
        StudioSettings(
            studioName: studioName, timezone: timezone, hours: WorkingHoursCoding.decode(workingHours),
            slotStepMinutes: slotStepMinutes, capacity: capacity, bookingWindowDays: bookingWindowDays,
            leadTimeMinutes: leadTimeMinutes, adminEmail: adminEmail, updatedAt: updatedAt)
    }
}
