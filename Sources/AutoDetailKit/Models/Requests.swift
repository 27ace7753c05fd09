import Foundation

/// `POST /api/client/appointments`: the seed's booking body (`startIso`, `clientName`, `phone`, `carMake`,
/// `carPlate`, `serviceName`, `notes`), plus the optional `serviceId` and `telegram` of the contract.
///
/// `startIso` must be a slot start as returned by ``AutoDetailClient/availability(serviceId:date:)``; the seed's
/// `ISO8601DateFormatter().string(from:)` produces the same form (see ``AutoDetailClient/isoString(_:)``).
public struct BookingRequest: Codable, Sendable, Hashable {
    public var startIso: String
    public var clientName: String
    public var phone: String
    public var carMake: String
    public var carPlate: String
    /// Matched case-insensitively; give this or ``serviceId`` (or both, naming the same service).
    public var serviceName: String?
    public var serviceId: String?
    /// The seed sends `""`; the server stores a blank value as null.
    public var notes: String?
    public var telegram: String?

    public init(
        startIso: String, clientName: String, phone: String, carMake: String, carPlate: String,
        serviceName: String? = nil, serviceId: String? = nil, notes: String? = "", telegram: String? = nil
    ) {
        self.startIso = startIso
        self.clientName = clientName
        self.phone = phone
        self.carMake = carMake
        self.carPlate = carPlate
        self.serviceName = serviceName
        self.serviceId = serviceId
        self.notes = notes
        self.telegram = telegram
    }
}

/// `POST /api/uploads/presign`: the seed's body (`appointmentId`, `kind`, `filename`, `contentType`) plus the
/// optional `sizeBytes`, which makes the server sign `Content-Length` (the kit always sends it for files).
public struct PresignRequest: Codable, Sendable, Hashable {
    public var appointmentId: String
    public var kind: PhotoKind
    public var filename: String
    /// `image/jpeg`, `image/png` or `image/heic`.
    public var contentType: String
    public var sizeBytes: Int64?

    public init(appointmentId: String, kind: PhotoKind, filename: String, contentType: String, sizeBytes: Int64? = nil) {
        self.appointmentId = appointmentId
        self.kind = kind
        self.filename = filename
        self.contentType = contentType
        self.sizeBytes = sizeBytes
    }
}

/// `POST /api/client/appointments/{id}/photos`: the seed's body; `photoUrls` holds `ref` values from presign.
public struct LinkPhotosRequest: Codable, Sendable, Hashable {
    public var kind: PhotoKind
    public var photoUrls: [String]

    public init(kind: PhotoKind, photoUrls: [String]) {
        self.kind = kind
        self.photoUrls = photoUrls
    }
}

/// `POST /api/auth/validate-key`: the seed's body.
public struct ValidateKeyRequest: Codable, Sendable, Hashable {
    public var apiKey: String
    public init(apiKey: String) { self.apiKey = apiKey }
}

/// `POST /api/ios/profile`: creates or replaces the install's profile (absent optional fields become null).
public struct ProfileRequest: Codable, Sendable, Hashable {
    public var name: String
    public var carMake: String
    public var carPlate: String
    public var phone: String?
    public var telegram: String?
    /// An `https` URL or `preset:<name>`.
    public var profilePhotoUrl: String?

    public init(
        name: String, carMake: String, carPlate: String, phone: String? = nil, telegram: String? = nil,
        profilePhotoUrl: String? = nil
    ) {
        self.name = name
        self.carMake = carMake
        self.carPlate = carPlate
        self.phone = phone
        self.telegram = telegram
        self.profilePhotoUrl = profilePhotoUrl
    }
}
