import Foundation

/// `POST /api/admin/services`.
public struct ServiceCreateRequest: Codable, Sendable, Hashable {
    public var name: String
    public var description: String?
    public var priceRub: Int
    public var durationMinutes: Int
    public var imageUrl: String?
    public var active: Bool?

    public init(
        name: String, description: String? = nil, priceRub: Int, durationMinutes: Int, imageUrl: String? = nil,
        active: Bool? = nil
    ) {
        self.name = name
        self.description = description
        self.priceRub = priceRub
        self.durationMinutes = durationMinutes
        self.imageUrl = imageUrl
        self.active = active
    }
}

/// A value of a partial update: left unchanged, set, or (for nullable fields) cleared with an explicit `null`.
public enum FieldUpdate<Value: Codable & Sendable & Hashable>: Sendable, Hashable {
    case unchanged
    case set(Value)
    case clear
}

/// `PUT /api/admin/services/{id}`: only the fields that are not `.unchanged` are sent.
public struct ServiceUpdateRequest: Encodable, Sendable, Hashable {
    public var name: String?
    /// `.clear` stores `""`.
    public var description: FieldUpdate<String>
    public var priceRub: Int?
    public var durationMinutes: Int?
    /// `.clear` removes the image.
    public var imageUrl: FieldUpdate<String>
    /// `true` re-activates a soft-deleted service.
    public var active: Bool?

    public init(
        name: String? = nil, description: FieldUpdate<String> = .unchanged, priceRub: Int? = nil,
        durationMinutes: Int? = nil, imageUrl: FieldUpdate<String> = .unchanged, active: Bool? = nil
    ) {
        self.name = name
        self.description = description
        self.priceRub = priceRub
        self.durationMinutes = durationMinutes
        self.imageUrl = imageUrl
        self.active = active
    }

    /// True when nothing would be sent (the server would answer `400 Nothing to update`).
    public var isEmpty: Bool {
        name == nil && description == .unchanged && priceRub == nil && durationMinutes == nil && imageUrl == .unchanged
            && active == nil
    }

    enum CodingKeys: String, CodingKey { case name, description, priceRub, durationMinutes, imageUrl, active }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(name, forKey: .name)
        try description.encode(into: &c, forKey: .description)
        try c.encodeIfPresent(priceRub, forKey: .priceRub)
        try c.encodeIfPresent(durationMinutes, forKey: .durationMinutes)
        try imageUrl.encode(into: &c, forKey: .imageUrl)
        try c.encodeIfPresent(active, forKey: .active)
    }
}

extension FieldUpdate {
    func encode<Key: CodingKey>(into container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        switch self {
        case .unchanged: break
        case let .set(value): try container.encode(value, forKey: key)
        case .clear: try container.encodeNil(forKey: key)
        }
    }
}

/// `PUT /api/admin/appointments/{id}`: a status change and/or new notes.
public struct AppointmentUpdateRequest: Encodable, Sendable, Hashable {
    public var status: AppointmentStatus?
    /// `.clear` removes the notes.
    public var notes: FieldUpdate<String>

    public init(status: AppointmentStatus? = nil, notes: FieldUpdate<String> = .unchanged) {
        self.status = status
        self.notes = notes
    }

    enum CodingKeys: String, CodingKey { case status, notes }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(status, forKey: .status)
        try notes.encode(into: &c, forKey: .notes)
    }
}

/// `PUT /api/admin/settings`: top-level partial update. `workingHours`, when given, replaces all seven days
/// (a day mapped to nil is closed).
public struct SettingsUpdateRequest: Encodable, Sendable, Hashable {
    public var studioName: String?
    public var timezone: String?
    public var workingHours: [String: DayHours?]?
    public var slotStepMinutes: Int?
    public var capacity: Int?
    public var bookingWindowDays: Int?
    public var leadTimeMinutes: Int?
    /// An address, or "" to remove it.
    public var adminEmail: String?

    public init(
        studioName: String? = nil, timezone: String? = nil, workingHours: [String: DayHours?]? = nil,
        slotStepMinutes: Int? = nil, capacity: Int? = nil, bookingWindowDays: Int? = nil, leadTimeMinutes: Int? = nil,
        adminEmail: String? = nil
    ) {
        self.studioName = studioName
        self.timezone = timezone
        self.workingHours = workingHours
        self.slotStepMinutes = slotStepMinutes
        self.capacity = capacity
        self.bookingWindowDays = bookingWindowDays
        self.leadTimeMinutes = leadTimeMinutes
        self.adminEmail = adminEmail
    }

    public var isEmpty: Bool {
        studioName == nil && timezone == nil && workingHours == nil && slotStepMinutes == nil && capacity == nil
            && bookingWindowDays == nil && leadTimeMinutes == nil && adminEmail == nil
    }

    enum CodingKeys: String, CodingKey {
        case studioName, timezone, workingHours, slotStepMinutes, capacity, bookingWindowDays, leadTimeMinutes,
            adminEmail
    }

    struct DayKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(studioName, forKey: .studioName)
        try c.encodeIfPresent(timezone, forKey: .timezone)
        if let workingHours {
            // Closed days must be sent as explicit nulls: an absent day key is an error on the server.
            var days = c.nestedContainer(keyedBy: DayKey.self, forKey: .workingHours)
            for (day, hours) in workingHours.sorted(by: { $0.key < $1.key }) {
                if let hours { try days.encode(hours, forKey: DayKey(stringValue: day)) } else {
                    try days.encodeNil(forKey: DayKey(stringValue: day))
                }
            }
        }
        try c.encodeIfPresent(slotStepMinutes, forKey: .slotStepMinutes)
        try c.encodeIfPresent(capacity, forKey: .capacity)
        try c.encodeIfPresent(bookingWindowDays, forKey: .bookingWindowDays)
        try c.encodeIfPresent(leadTimeMinutes, forKey: .leadTimeMinutes)
        try c.encodeIfPresent(adminEmail, forKey: .adminEmail)
    }
}

/// `POST /api/admin/api-keys`.
struct APIKeyCreateRequest: Encodable, Sendable {
    let name: String
    let fullAccess: Bool
}

/// `POST /api/admin/login`.
struct AdminLoginRequest: Encodable, Sendable {
    let username: String
    let password: String
}
