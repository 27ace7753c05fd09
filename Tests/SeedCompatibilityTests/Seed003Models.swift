import Foundation

// Verbatim copies of the Swift models in seed 003 ("Data Models"). Do not edit: `SeedModelsAreVerbatimTests`
// compares this file with the seed so the decoding tests prove what an app built from the seed would see.
// BEGIN SEED 003 MODELS
struct LoginResponse: Codable {
    let accessToken: String
    let tokenType: String
    
    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
    }
}

struct User: Codable {
    let id: String
    let username: String
    let email: String
    let fullName: String
    let role: UserRole
    let isActive: Bool
    let practiceId: String?
    
    enum CodingKeys: String, CodingKey {
        case id, username, email, role
        case fullName = "full_name"
        case isActive = "is_active"
        case practiceId = "practice_id"
    }
}

enum UserRole: String, Codable {
    case vetStaff = "VET_STAFF"
    case vet = "VET"
    case admin = "ADMIN"
    case petOwner = "PET_OWNER"
}

enum AppointmentStatus: String, Codable {
    case scheduled = "scheduled"
    case confirmed = "confirmed"
    case inProgress = "in_progress"
    case completed = "completed"
    case cancelled = "cancelled"
}

struct Appointment: Codable {
    let id: String
    let practiceId: String
    let petOwnerId: String
    let assignedVetUserId: String?
    let appointmentDate: Date
    let durationMinutes: Int
    let appointmentType: String
    let status: AppointmentStatus
    let title: String
    let description: String?
    let notes: String?
    let pets: [PetSummary]
    let createdAt: Date
    let updatedAt: Date
    
    enum CodingKeys: String, CodingKey {
        case id
        case practiceId = "practice_id"
        case petOwnerId = "pet_owner_id"
        case assignedVetUserId = "assigned_vet_user_id"
        case appointmentDate = "appointment_date"
        case durationMinutes = "duration_minutes"
        case appointmentType = "appointment_type"
        case status, title, description, notes, pets
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

struct PetSummary: Codable {
    let id: String
    let name: String
    let species: String
    let breed: String?
}

struct DashboardResponse: Codable {
    let appointmentsToday: [Appointment]
    let nextAppointment: Appointment?
    let currentAppointment: Appointment?
    let completedCount: Int
    let remainingCount: Int
    
    enum CodingKeys: String, CodingKey {
        case appointmentsToday = "appointments_today"
        case nextAppointment = "next_appointment"
        case currentAppointment = "current_appointment"
        case completedCount = "completed_count"
        case remainingCount = "remaining_count"
    }
}
// END SEED 003 MODELS
