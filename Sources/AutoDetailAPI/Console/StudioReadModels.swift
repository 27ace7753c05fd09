import AppCore
import Foundation

// What the studio console's pages read: plain values copied from the stores' rows (which are internal to this
// target), so the console target sees data, never a store or a controller.

package struct StudioService: Sendable {
    package let id: UUID
    package let name: String
    package let description: String
    package let priceRub: Int
    package let durationMinutes: Int
    package let imageUrl: String?
    package let active: Bool
    package let updatedAt: Date

    init(_ row: ServiceRow) {
        id = row.id
        name = row.name
        description = row.description
        priceRub = row.priceRub
        durationMinutes = row.durationMinutes
        imageUrl = row.imageUrl
        active = row.active
        updatedAt = row.updatedAt
    }
}

package struct StudioKey: Sendable {
    package let id: UUID
    package let name: String
    package let keyPrefix: String
    package let fullAccess: Bool
    package let createdAt: Date
    package let lastUsedAt: Date?
    package let requestCount: Int
    package let revoked: Bool
    package let revokedAt: Date?

    init(_ row: APIKeyRow) {
        id = row.id
        name = row.name
        keyPrefix = row.keyPrefix
        fullAccess = row.fullAccess
        createdAt = row.createdAt
        lastUsedAt = row.lastUsedAt
        requestCount = row.requestCount
        revoked = row.revoked
        revokedAt = row.revokedAt
    }
}

package struct StudioPhoto: Sendable {
    package let id: UUID
    /// `defect` (shown as "Before") or `work` ("After"), docs/web-console.md.
    package let kind: String
    /// A freshly signed GET URL of the original (1 hour).
    package let url: String
    package let createdAt: Date
    package let sizeBytes: Int64
    package let mismatch: Bool
}

package struct StudioBooking: Sendable {
    package let id: UUID
    package let source: String
    package let status: String
    package let start: Date
    package let end: Date
    package let clientName: String
    package let phone: String?
    package let telegram: String?
    package let carMake: String?
    package let carPlate: String?
    package let serviceId: UUID
    package let serviceName: String
    package let priceRub: Int
    package let notes: String?
    package let installId: UUID?
    package let createdAt: Date
    package let updatedAt: Date
    /// Filled on the detail page only.
    package var photos: [StudioPhoto] = []

    init(_ row: AppointmentRow) {
        id = row.id
        source = row.source
        status = row.status
        start = row.startAt
        end = row.endAt
        clientName = row.clientName
        phone = row.phone
        telegram = row.telegram
        carMake = row.carMake
        carPlate = row.carPlate
        serviceId = row.serviceId
        serviceName = row.serviceName
        priceRub = row.priceRub
        notes = row.notes
        installId = row.installId
        createdAt = row.createdAt
        updatedAt = row.updatedAt
    }

    /// The statuses the admin API lets this booking move to (contract §5), in the order a day runs.
    package var nextStatuses: [String] {
        let current = AppointmentStatus(rawValue: status) ?? .new
        return AppointmentStatus.allCases.filter { StatusTransitions.admin(from: current, to: $0) == .allowed }
            .map(\.rawValue)
    }

    package var isTerminal: Bool { status == "done" || status == "cancelled" }
}

/// One weekday's opening hours (`nil` open/close: closed).
package struct StudioDayHours: Sendable {
    package let weekday: String
    package let open: String?
    package let close: String?
}

package struct StudioSettingsValues: Sendable {
    package let studioName: String
    package let timezone: String
    package let hours: [StudioDayHours]
    package let slotStepMinutes: Int
    package let capacity: Int
    package let bookingWindowDays: Int
    package let leadTimeMinutes: Int
    package let adminEmail: String?
    package let updatedAt: Date

    init(_ settings: StudioSettings) {
        studioName = settings.studioName
        timezone = settings.timezone
        hours = Weekday.allCases.map { day in
            let h = settings.hours.hours(on: day)
            return StudioDayHours(weekday: day.rawValue, open: h?.open.text, close: h?.close.text)
        }
        slotStepMinutes = settings.slotStepMinutes
        capacity = settings.capacity
        bookingWindowDays = settings.bookingWindowDays
        leadTimeMinutes = settings.leadTimeMinutes
        adminEmail = settings.adminEmail
        updatedAt = settings.updatedAt
    }
}

/// One studio-local day of the calendar: its real start and end instants (23 or 25 hours long on a DST change)
/// and its opening hours as instants (nil when closed).
package struct StudioDay: Sendable {
    package let day: CalendarDay
    package let weekday: String
    package let start: Date
    package let end: Date
    package let opens: Date?
    package let closes: Date?
}

/// A slot of the reschedule picker: the grid of §6 for the booking's length, with the bays left when the booking
/// itself is not counted.
package struct StudioSlot: Sendable {
    package let start: Date
    package let end: Date
    package let startTime: String
    package let endTime: String
    package let remaining: Int
}

package struct StudioCustomer: Sendable {
    package let id: UUID
    package let keyPrefix: String
    package let name: String?
    package let carMake: String?
    package let carPlate: String?
    package let phone: String?
    package let telegram: String?
    package let priority: String
    package let createdAt: Date
    package let lastSeenAt: Date?
    package let lastActivityPath: String?
    package let requestCount: Int
    package let appointmentCount: Int
    package let unreadMessages: Int

    init(_ row: IosUserRow) {
        id = row.id
        keyPrefix = row.keyPrefix
        name = row.name
        carMake = row.carMake
        carPlate = row.carPlate
        phone = row.phone
        telegram = row.telegram
        priority = row.priority
        createdAt = row.createdAt
        lastSeenAt = row.lastSeenAt
        lastActivityPath = row.lastActivityPath
        requestCount = row.requestCount
        appointmentCount = row.appointmentCount
        unreadMessages = row.unreadCount
    }
}

package struct StudioMessage: Sendable {
    package let id: UUID
    package let text: String
    package let createdAt: Date
    package let readAt: Date?
}

/// The bookings and revenue of one studio-local day (overview chart).
package struct StudioDayTotal: Sendable {
    package let day: CalendarDay
    package let bookings: Int
    package let revenueRub: Int
}
