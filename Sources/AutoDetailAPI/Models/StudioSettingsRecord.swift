import Fluent
import Foundation

/// The one row of `ad_studio_settings` (contract §3.2).
final class StudioSettingsRecord: Model, @unchecked Sendable {
    static let schema = "ad_studio_settings"

    @ID(custom: "id", generatedBy: .user) var id: Int?
    @Field(key: "studio_name") var studioName: String
    @Field(key: "timezone") var timezone: String
    @Field(key: "working_hours") var workingHours: String
    @Field(key: "slot_step_minutes") var slotStepMinutes: Int
    @Field(key: "capacity") var capacity: Int
    @Field(key: "booking_window_days") var bookingWindowDays: Int
    @Field(key: "lead_time_minutes") var leadTimeMinutes: Int
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var settings: StudioSettings {
        StudioSettings(
            studioName: studioName, timezone: timezone, hours: WorkingHoursCoding.decode(workingHours),
            slotStepMinutes: slotStepMinutes, capacity: capacity, bookingWindowDays: bookingWindowDays,
            leadTimeMinutes: leadTimeMinutes, updatedAt: updatedAt)
    }
}
