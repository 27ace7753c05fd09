/// Enum values in the order the contract lists them (error messages list them in this order).
public enum UserRole: String, CaseIterable, Codable, Sendable {
    case vetStaff = "VET_STAFF", vet = "VET", admin = "ADMIN", petOwner = "PET_OWNER"
    /// A self-registered user (`POST /auth/signup`) whom no ADMIN has admitted to a practice yet (M0116). Sees no
    /// practice's data: PendingMembershipGate refuses every practice route before any controller's role branch runs.
    case pending = "PENDING"

    /// The roles a request may name (`POST /users`, `PUT /users/{id}`) and the contract's error messages list.
    /// `PENDING` is reached only by signing up, never assigned (docs/iphone-app-compatibility.md, "Onboarding").
    public static var allCases: [UserRole] { [.vetStaff, .vet, .admin, .petOwner] }

    /// VET and VET_STAFF have identical permissions ("member" in the contract).
    public var isMember: Bool { self == .vet || self == .vetStaff }
    public var isStaff: Bool { isMember || self == .admin }
}

public enum AppointmentStatus: String, CaseIterable, Codable, Sendable {
    case scheduled, confirmed
    case inProgress = "in_progress"
    case completed, cancelled
}

public enum AppointmentType: String, CaseIterable, Codable, Sendable {
    case checkup, vaccination, surgery, emergency
    case followUp = "follow_up"
    case consultation
    /// Offered by the iPhone app's edit picker (M0113).
    case grooming
}

public enum VisitState: String, CaseIterable, Codable, Sendable {
    case new, processing, processed, failed
}

public enum VisitSource: String, Codable, Sendable {
    case recording, manual
}

public enum MedicalRecordType: String, CaseIterable, Codable, Sendable {
    case checkup, vaccination, surgery, emergency, dental, diagnostic, treatment
    case followUp = "follow_up"
    case labResult = "lab_result"
    case visitSummary = "visit_summary"
    case other
    /// Offered by the iPhone app (M0113).
    case grooming
}
