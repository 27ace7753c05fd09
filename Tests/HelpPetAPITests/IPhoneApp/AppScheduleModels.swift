import Foundation

/// The app's work-schedule models (Models/VetAvailability.swift, "CLEAN Unix Timestamp Implementation") and the
/// practice search result of its onboarding (Services/APIManager.swift), with their exact keys and optionality.
extension App {
    enum AvailabilityType: String, Codable, CaseIterable {
        case available = "AVAILABLE"
        case surgeryBlock = "SURGERY_BLOCK"
        case unavailable = "UNAVAILABLE"
        case emergencyOnly = "EMERGENCY_ONLY"
    }

    struct VetAvailability: Codable {
        let id: String
        let vetUserId: String
        let practiceId: String
        let startAt: Date
        let endAt: Date
        let availabilityType: AvailabilityType
        let notes: String?
        let isActive: Bool
        let createdAt: Date
        let updatedAt: Date
        enum CodingKeys: String, CodingKey {
            case id
            case vetUserId = "vet_user_id"
            case practiceId = "practice_id"
            case startAt = "start_at"
            case endAt = "end_at"
            case availabilityType = "availability_type"
            case notes
            case isActive = "is_active"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }
    }

    struct VetAvailabilityCreateRequest: Codable {
        let vetUserId: String
        let practiceId: String
        let startAt: Date
        let endAt: Date
        let availabilityType: AvailabilityType
        let notes: String?
        enum CodingKeys: String, CodingKey {
            case vetUserId = "vet_user_id"
            case practiceId = "practice_id"
            case startAt = "start_at"
            case endAt = "end_at"
            case availabilityType = "availability_type"
            case notes
        }
    }

    struct VetAvailabilityUpdateRequest: Codable {
        let startAt: Date?
        let endAt: Date?
        let availabilityType: AvailabilityType?
        let notes: String?
        let isActive: Bool?
        enum CodingKeys: String, CodingKey {
            case startAt = "start_at"
            case endAt = "end_at"
            case availabilityType = "availability_type"
            case notes
            case isActive = "is_active"
        }
    }
}

extension AppCoding {
    /// createVetAvailabilityUnix / updateVetAvailabilityUnix: `.convertToSnakeCase` and `.iso8601` dates.
    static let availabilityEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()
}
