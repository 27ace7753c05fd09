import Foundation

/// The status of an appointment (seed 003). Transitions: contract §5.2.
public enum AppointmentStatus: String, Codable, Sendable, Hashable, CaseIterable {
    case scheduled = "scheduled"
    case confirmed = "confirmed"
    case inProgress = "in_progress"
    case completed = "completed"
    case cancelled = "cancelled"
}

/// An appointment with its pets (seed 003 `Appointment`). One appointment may have several pets; each pet gets its
/// own recording and its own visit.
public struct Appointment: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let practiceId: String
    public let petOwnerId: String
    public let assignedVetUserId: String?
    /// Start instant.
    public let appointmentDate: Date
    public let durationMinutes: Int
    /// `checkup`, `vaccination`, `surgery`, `emergency`, `follow_up` or `consultation`.
    public let appointmentType: String
    public let status: AppointmentStatus
    public let title: String
    public let description: String?
    public let notes: String?
    /// At least one pet, in the appointment's order.
    public let pets: [PetSummary]
    public let createdAt: Date
    public let updatedAt: Date

    public init(
        id: String, practiceId: String, petOwnerId: String, assignedVetUserId: String?, appointmentDate: Date,
        durationMinutes: Int, appointmentType: String, status: AppointmentStatus, title: String, description: String?,
        notes: String?, pets: [PetSummary], createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.practiceId = practiceId
        self.petOwnerId = petOwnerId
        self.assignedVetUserId = assignedVetUserId
        self.appointmentDate = appointmentDate
        self.durationMinutes = durationMinutes
        self.appointmentType = appointmentType
        self.status = status
        self.title = title
        self.description = description
        self.notes = notes
        self.pets = pets
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

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

    /// The pet with `id` (compared case-insensitively), if it is part of this appointment.
    public func pet(withId id: String) -> PetSummary? {
        pets.first { $0.id.caseInsensitiveCompare(id) == .orderedSame }
    }
}

/// A pet as listed inside an appointment (seed 003 `PetSummary`, plus the contract's `recording`).
public struct PetSummary: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let name: String
    public let species: String
    public let breed: String?
    /// This pet's recorded visit for the appointment, or nil when none exists yet (or it is still pending).
    public let recording: Recording?

    public init(id: String, name: String, species: String, breed: String?, recording: Recording? = nil) {
        self.id = id
        self.name = name
        self.species = species
        self.breed = breed
        self.recording = recording
    }

    /// The visit holding a pet's recording for one appointment.
    public struct Recording: Codable, Sendable, Hashable {
        public let visitId: String
        public let state: VisitState

        public init(visitId: String, state: VisitState) {
            self.visitId = visitId
            self.state = state
        }

        enum CodingKeys: String, CodingKey {
            case visitId = "visit_id"
            case state
        }
    }
}

/// A partial update of an appointment (`PUT /api/v1/appointments/{id}`); nil fields are left unchanged.
public struct AppointmentUpdateRequest: Codable, Sendable, Hashable {
    public var status: AppointmentStatus?
    public var title: String?
    public var description: String?
    public var notes: String?
    public var appointmentDate: Date?
    public var durationMinutes: Int?
    public var appointmentType: String?
    public var assignedVetUserId: String?
    public var petIds: [String]?

    public init(
        status: AppointmentStatus? = nil, title: String? = nil, description: String? = nil, notes: String? = nil,
        appointmentDate: Date? = nil, durationMinutes: Int? = nil, appointmentType: String? = nil,
        assignedVetUserId: String? = nil, petIds: [String]? = nil
    ) {
        self.status = status
        self.title = title
        self.description = description
        self.notes = notes
        self.appointmentDate = appointmentDate
        self.durationMinutes = durationMinutes
        self.appointmentType = appointmentType
        self.assignedVetUserId = assignedVetUserId
        self.petIds = petIds
    }

    enum CodingKeys: String, CodingKey {
        case status, title, description, notes
        case appointmentDate = "appointment_date"
        case durationMinutes = "duration_minutes"
        case appointmentType = "appointment_type"
        case assignedVetUserId = "assigned_vet_user_id"
        case petIds = "pet_ids"
    }
}
