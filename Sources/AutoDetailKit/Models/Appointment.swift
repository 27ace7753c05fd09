import Foundation

/// A booking, exactly as the seed declares it (every date a string, as the server sends it).
///
/// Extras the server sends that the seed does not declare are optional here, so seed-shaped JSON still decodes:
/// `serviceId`, `priceRub` (snapshots at booking time) and, in the admin representation only, `installId`.
public struct Appointment: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    /// `ios` (install key), `api` (organisation key) or `admin` (console).
    public let source: String
    /// `new`, `confirmed`, `in_progress`, `done` or `cancelled` (see ``AppointmentStatus``).
    public let status: String
    public let startIso: String
    /// Always set by the server (`startIso` + the service's duration); optional because the seed says so.
    public let endIso: String?
    public let clientName: String
    public let phone: String?
    public let telegram: String?
    public let carMake: String?
    public let carPlate: String?
    /// The service name at booking time (later renames do not change it).
    public let serviceName: String
    public let notes: String?
    /// Photos in linking order; `[]` when none.
    public let workPhotos: [Photo]
    public let defectPhotos: [Photo]
    public let createdAt: String
    public let updatedAt: String
    /// Extra (not in the seed): the booked service.
    public let serviceId: String?
    /// Extra (not in the seed): the price at booking time.
    public let priceRub: Int?
    /// Extra, admin representation only: the install that booked it, `nil` for `api`/`admin` bookings.
    public let installId: String?

    /// ``status`` as a typed value (nil for a status this kit does not know).
    public var typedStatus: AppointmentStatus? { AppointmentStatus(rawValue: status) }
}

/// A linked photo, exactly as the seed declares it. `url` is a signed GET URL valid for one hour: fetch the
/// appointment again for a fresh one, never store it.
public struct Photo: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let url: String
    public let createdAt: String
    /// Extra, admin representation only: the stored object no longer matches what was linked.
    public let mismatch: Bool?
}

/// The five appointment statuses (contract §5).
public enum AppointmentStatus: String, Codable, Sendable, CaseIterable {
    case new
    case confirmed
    case inProgress = "in_progress"
    case done
    case cancelled
}

/// The two photo kinds. A struct rather than an enum so a caller can send any value and let the server judge it.
public struct PhotoKind: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    /// Photos of the finished work ("after").
    public static let work = PhotoKind(rawValue: "work")
    /// Photos of defects found at reception ("before").
    public static let defect = PhotoKind(rawValue: "defect")
}
