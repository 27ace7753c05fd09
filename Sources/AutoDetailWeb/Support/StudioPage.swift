import Foundation
import WebConsole

/// Every page of the studio console, the one place its paths are written (`ConsolePage`): pages register their
/// routes with `routes.get(StudioPage.booking(.key), …)` and link with `context.url(.booking(.value(id)))`.
enum StudioPage: ConsolePage {
    case overview
    case bookingsWeek
    case bookingsList
    case booking(PageParameter<UUID>)
    /// The free slots a booking can move to, which the reschedule picker loads.
    case bookingSlots(PageParameter<UUID>)
    case rescheduleBooking(PageParameter<UUID>)
    case photoThumbnail(booking: PageParameter<UUID>, photo: PageParameter<UUID>)
    case services
    case newService
    case service(PageParameter<UUID>)
    case customers
    case customer(PageParameter<UUID>)
    case settings
    case studioSettings
    case apiKeys
    case account

    /// Every page in its route form, for the test that the console registers exactly these pages.
    static let routes: [StudioPage] = [
        .overview, .bookingsWeek, .bookingsList, .booking(.key), .bookingSlots(.key), .rescheduleBooking(.key),
        .photoThumbnail(booking: .key, photo: .key), .services, .newService, .service(.key), .customers, .customer(.key),
        .settings, .studioSettings, .apiKeys, .account,
    ]

    /// The names pages read their parameters by.
    enum Key {
        static let id = "id"
        static let photo = "photoId"
    }

    var segments: [ConsolePathSegment] {
        switch self {
        case .overview: []
        case .bookingsWeek: ["bookings"]
        case .bookingsList: ["bookings", "list"]
        case .booking(let id): ["bookings", .id(Key.id, id)]
        case .bookingSlots(let id): ["bookings", .id(Key.id, id), "slots"]
        case .rescheduleBooking(let id): ["bookings", .id(Key.id, id), "reschedule"]
        case .photoThumbnail(let booking, let photo):
            ["bookings", .id(Key.id, booking), "photos", .id(Key.photo, photo), "thumbnail"]
        case .services: ["services"]
        case .newService: ["services", "new"]
        case .service(let id): ["services", .id(Key.id, id)]
        case .customers: ["customers"]
        case .customer(let id): ["customers", .id(Key.id, id)]
        case .settings: ["settings"]
        case .studioSettings: ["settings", "studio"]
        case .apiKeys: ["settings", "api-keys"]
        case .account: ["account"]
        }
    }
}
