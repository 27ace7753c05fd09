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

/// The app's slot view (Models/VetAvailability.swift: `VetAvailabilitySlotsResponse`, `TimeSlot`; decoded with
/// APIManager's decoder, so `date` is read with its date-only format) and its onboarding request
/// (Services/APIManager.swift: `CreatePracticeRequest`, encoded with `.convertToSnakeCase`).
extension App {
    struct VetAvailabilitySlotsResponse: Codable {
        let vetUserId: String
        let date: Date
        let practiceId: String
        let slots: [TimeSlot]
        let totalSlots: Int
        let availableSlots: Int
        enum CodingKeys: String, CodingKey {
            case vetUserId = "vet_user_id"
            case date
            case practiceId = "practice_id"
            case slots
            case totalSlots = "total_slots"
            case availableSlots = "available_slots"
        }
    }

    struct TimeSlot: Codable {
        let startTime: Date
        let endTime: Date
        let available: Bool
        let availabilityType: AvailabilityType
        let conflictingAppointment: String?
        let notes: String?
        enum CodingKeys: String, CodingKey {
            case startTime = "start_time"
            case endTime = "end_time"
            case available
            case availabilityType = "availability_type"
            case conflictingAppointment = "conflicting_appointment"
            case notes
        }
    }

    struct CreatePracticeRequest: Codable {
        let name: String
        let address: String?
        let phone: String?
        let email: String?
        let website: String?
        let licenseNumber: String?
        let specialties: [String]
        let description: String?
        let acceptsNewPatients: Bool
        enum CodingKeys: String, CodingKey {
            case name, address, phone, email, website, description, specialties
            case licenseNumber = "license_number"
            case acceptsNewPatients = "accepts_new_patients"
        }
    }
}
