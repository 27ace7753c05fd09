import Foundation

/// The app's request bodies (Views/AddPetOwnerView.swift, AddPetView.swift, EditAppointmentView.swift,
/// Models/Pet.swift, MedicalRecord.swift, Appointment.swift, Services/PushNotificationService.swift), encoded with
/// the encoders APIManager uses for each call (AppCoding).
extension App {
    struct CreatePetOwnerRequest: Codable {
        let fullName: String
        let email: String
        let phone: String?
        let secondaryPhone: String?
        let address: String?
        let emergencyContact: String?
        let preferredCommunication: String
        let notificationsEnabled: Bool
        enum CodingKeys: String, CodingKey {
            case email, phone, address
            case fullName = "full_name"
            case secondaryPhone = "secondary_phone"
            case emergencyContact = "emergency_contact"
            case preferredCommunication = "preferred_communication"
            case notificationsEnabled = "notifications_enabled"
        }
    }

    struct UpdatePetOwnerRequest: Codable {
        let userId: String?
        let fullName: String
        let email: String
        let phone: String
        let emergencyContact: String
        let secondaryPhone: String
        let address: String
        let preferredCommunication: String
        let notificationsEnabled: Bool
        enum CodingKeys: String, CodingKey {
            case userId = "user_id"
            case fullName = "full_name"
            case email, phone
            case emergencyContact = "emergency_contact"
            case secondaryPhone = "secondary_phone"
            case address
            case preferredCommunication = "preferred_communication"
            case notificationsEnabled = "notifications_enabled"
        }
    }

    struct CreatePetRequest: Codable {
        let name: String
        let species: String
        let breed: String?
        let color: String?
        let gender: String
        let weight: Double?
        let dateOfBirth: Date
        let microchipId: String?
        let spayedNeutered: Bool?
        let allergies: String?
        let medications: String?
        let medicalNotes: String?
        let emergencyContact: String?
        let emergencyPhone: String?
        let ownerId: String
        enum CodingKeys: String, CodingKey {
            case name, species, breed, color, gender, weight, allergies, medications
            case dateOfBirth = "date_of_birth"
            case microchipId = "microchip_id"
            case spayedNeutered = "spayed_neutered"
            case medicalNotes = "medical_notes"
            case emergencyContact = "emergency_contact"
            case emergencyPhone = "emergency_phone"
            case ownerId = "owner_id"
        }
    }

    struct UpdatePetRequest: Codable {
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
        enum CodingKeys: String, CodingKey {
            case name, species, breed, color, gender, weight
            case dateOfBirth = "date_of_birth"
            case microchipId = "microchip_id"
            case spayedNeutered = "spayed_neutered"
            case allergies, medications
            case medicalNotes = "medical_notes"
            case emergencyContact = "emergency_contact"
            case emergencyPhone = "emergency_phone"
        }
    }

    struct CreateMedicalRecordRequest: Codable {
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
        let petId: String
        enum CodingKeys: String, CodingKey {
            case title, description, diagnosis, treatment, medications, weight, temperature, cost
            case recordType = "record_type"
            case medicalData = "medical_data"
            case visitDate = "visit_date"
            case veterinarianName = "veterinarian_name"
            case clinicName = "clinic_name"
            case followUpRequired = "follow_up_required"
            case followUpDate = "follow_up_date"
            case petId = "pet_id"
        }
    }

    struct UpdateMedicalRecordRequest: Codable {
        let recordType: String
        let title: String
        let description: String
        let medicalData: MedicalData
        let visitDate: Date
        let veterinarianName: String
        let clinicName: String
        let diagnosis: String
        let treatment: String
        let medications: String
        let followUpRequired: Bool
        let followUpDate: Date?
        let weight: Double?
        let temperature: Double?
        let cost: Double?
        enum CodingKeys: String, CodingKey {
            case title, description, diagnosis, treatment, medications, weight, temperature, cost
            case recordType = "record_type"
            case medicalData = "medical_data"
            case visitDate = "visit_date"
            case veterinarianName = "veterinarian_name"
            case clinicName = "clinic_name"
            case followUpRequired = "follow_up_required"
            case followUpDate = "follow_up_date"
        }
    }

    /// No CodingKeys: APIManager encodes it with `.convertToSnakeCase`.
    struct UpdateAppointmentRequest: Codable {
        let assignedVetUserId: String?
        let appointmentDate: Date
        let durationMinutes: Int
        let appointmentType: String
        let status: AppointmentStatus
        let title: String
        let description: String?
        let notes: String?
        let petIds: [String]
    }

    struct DeviceTokenRegistrationRequest: Codable {
        let deviceToken: String
        let deviceType: String
    }
}
