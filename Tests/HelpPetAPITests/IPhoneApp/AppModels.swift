import Foundation

/// The shipped iPhone app's response models (fogonthedowns/helppetai-website, iphone/HelpPetAI/HelpPetAI/Models and
/// Services), written to their exact key names, types and optionality; only UI helpers are left out. Namespaced so
/// they do not collide with the server's types.
enum App {
    // Models/User.swift
    struct LoginResponse: Codable {
        let accessToken: String
        let tokenType: String
        enum CodingKeys: String, CodingKey { case accessToken = "access_token", tokenType = "token_type" }
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
        case practiceAdmin = "PRACTICE_ADMIN"
        case systemAdmin = "SYSTEM_ADMIN"
        case petOwner = "PET_OWNER"
        case pendingInvite = "PENDING_INVITE"
    }

    // Models/Appointment.swift
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

    enum AppointmentStatus: String, Codable, CaseIterable {
        case scheduled, confirmed
        case inProgress = "in_progress"
        case completed, complete, cancelled
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

    struct Practice: Codable {
        let id: String
        let name: String
        let address: String?
    }

    // Models/Pet.swift
    struct Pet: Codable {
        let id: String
        let name: String
        let species: String
        let breed: String?
        let color: String?
        let gender: String?
        let weight: Double?
        let dateOfBirth: Date?
        let microchipId: String?
        let spayedNeutered: Bool?
        let allergies: String?
        let medications: String?
        let medicalNotes: String?
        let emergencyContact: String?
        let emergencyPhone: String?
        let ownerId: String
        let isActive: Bool
        let createdAt: Date
        let updatedAt: Date
        let ageYears: Int?
        let displayName: String?
        let owner: PetOwner?
        enum CodingKeys: String, CodingKey {
            case id, name, species, breed, color, gender, weight, owner
            case dateOfBirth = "date_of_birth"
            case microchipId = "microchip_id"
            case spayedNeutered = "spayed_neutered"
            case allergies, medications
            case medicalNotes = "medical_notes"
            case emergencyContact = "emergency_contact"
            case emergencyPhone = "emergency_phone"
            case ownerId = "owner_id"
            case isActive = "is_active"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case ageYears = "age_years"
            case displayName = "display_name"
        }
    }

    struct PetSummary: Codable {
        let id: String
        let name: String
        let species: String
        let breed: String?
    }

    struct PetOwner: Codable {
        let id: String
        let userId: String?
        let fullName: String
        let email: String
        let phone: String?
        enum CodingKeys: String, CodingKey {
            case id, email, phone
            case userId = "user_id"
            case fullName = "full_name"
        }
    }

    struct PetOwnerResponse: Codable {
        let uuid: String
        let fullName: String
        let email: String
        let phone: String?
        enum CodingKeys: String, CodingKey {
            case uuid, email, phone
            case fullName = "full_name"
        }
    }

    struct PetOwnerDetails: Codable {
        let uuid: String
        let userId: String?
        let fullName: String
        let email: String
        let phone: String?
        let secondaryPhone: String?
        let address: String?
        let emergencyContact: String?
        let preferredCommunication: String?
        let notificationsEnabled: Bool
        let createdAt: Date
        let updatedAt: Date
        enum CodingKeys: String, CodingKey {
            case uuid, email, phone, address
            case userId = "user_id"
            case fullName = "full_name"
            case secondaryPhone = "secondary_phone"
            case emergencyContact = "emergency_contact"
            case preferredCommunication = "preferred_communication"
            case notificationsEnabled = "notifications_enabled"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }
    }

    // Models/MedicalRecord.swift
    struct MedicalRecord: Codable {
        let id: String
        let petId: String
        let recordType: String
        let title: String
        let description: String?
        let medicalData: MedicalData?
        let visitDate: Date
        let veterinarianName: String?
        let clinicName: String?
        let diagnosis: String?
        let treatment: String?
        let medications: String?
        let followUpRequired: Bool
        let followUpDate: Date?
        let weight: Double?
        let temperature: Double?
        let cost: Double?
        let version: Int
        let isCurrent: Bool
        let createdByUserId: String
        let createdAt: Date
        let updatedAt: Date
        let isFollowUpDue: Bool
        let daysSinceVisit: Int
        enum CodingKeys: String, CodingKey {
            case id, title, description, diagnosis, treatment, medications, weight, temperature, cost, version
            case petId = "pet_id"
            case recordType = "record_type"
            case medicalData = "medical_data"
            case visitDate = "visit_date"
            case veterinarianName = "veterinarian_name"
            case clinicName = "clinic_name"
            case followUpRequired = "follow_up_required"
            case followUpDate = "follow_up_date"
            case isCurrent = "is_current"
            case createdByUserId = "created_by_user_id"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case isFollowUpDue = "is_follow_up_due"
            case daysSinceVisit = "days_since_visit"
        }
    }

    struct MedicalData: Codable {
        let heartRate: String?
        let respiratoryRate: String?
        let bloodPressure: String?
        let bodyConditionScore: String?
        let dentalCondition: String?
        let skinCondition: String?
        let eyeCondition: String?
        let earCondition: String?
        enum CodingKeys: String, CodingKey {
            case heartRate = "heart_rate"
            case respiratoryRate = "respiratory_rate"
            case bloodPressure = "blood_pressure"
            case bodyConditionScore = "body_condition_score"
            case dentalCondition = "dental_condition"
            case skinCondition = "skin_condition"
            case eyeCondition = "eye_condition"
            case earCondition = "ear_condition"
        }
    }

    struct MedicalRecordsResponse: Codable {
        let records: [MedicalRecord]
        let total: Int
        let currentRecordsCount: Int
        let historicalRecordsCount: Int
        enum CodingKeys: String, CodingKey {
            case records, total
            case currentRecordsCount = "current_records_count"
            case historicalRecordsCount = "historical_records_count"
        }
    }

    // Models/AudioModels.swift
    enum VisitState: String, Codable { case new, processing, processed, failed }

    struct VisitTranscriptListItem: Codable {
        let uuid: String
        let visitDate: Int
        let state: VisitState
        let hasAudio: Bool
        let summary: String?
        let createdAt: String
        let createdBy: String
        let chiefComplaint: String?
        enum CodingKeys: String, CodingKey {
            case uuid, state, summary
            case visitDate = "visit_date"
            case hasAudio = "has_audio"
            case createdAt = "created_at"
            case createdBy = "created_by"
            case chiefComplaint = "chief_complaint"
        }
    }

    // Services/PushNotificationService.swift
    struct DeviceTokenResponse: Codable {
        let id: String
        let deviceToken: String
        let deviceType: String
        let isActive: Bool
        let createdAt: String
        let updatedAt: String
    }
}
