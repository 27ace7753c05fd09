/// Appointment statuses (contract §3.3, §5).
enum AppointmentStatus: String, CaseIterable, Sendable {
    case new, confirmed, in_progress, done, cancelled

    static let allowedList = allCases.map(\.rawValue).joined(separator: ", ")
}

/// Who booked an appointment: an install key, an organisation key or the console (contract §3.3).
enum AppointmentSource: String, Sendable {
    case ios, api, admin
}

/// The two photo lists of an appointment (contract §3.4).
enum PhotoKind: String, CaseIterable, Sendable {
    case work, defect
}

/// The kind of an API key (contract §2.2).
enum APIKeyKind: String, Sendable {
    case org, ios
}

/// Install priorities (contract §3.6); `blocked` makes the install's key answer 403.
enum InstallPriority: String, CaseIterable, Sendable {
    case normal, high, blocked
}

/// The accepted photo content types and their object-key extensions (contract §4.5.1, §7.2).
enum PhotoContentType: String, CaseIterable, Sendable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case heic = "image/heic"

    var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .heic: return "heic"
        }
    }
}
