import Foundation

/// A pet with its owner (`GET /api/v1/pets/{id}`, seed 003 shape plus `owner_id`, `color`, `gender`, `allergies`).
///
/// Calendar days (`date_of_birth`, `registration_date`) are kept as `YYYY-MM-DD` strings: they name a day, not an
/// instant, and must not shift with the device's time zone.
public struct Pet: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let ownerId: String
    public let name: String
    public let species: String
    public let breed: String?
    public let color: String?
    public let gender: String?
    /// `YYYY-MM-DD` or nil.
    public let dateOfBirth: String?
    /// Pounds.
    public let weight: Double?
    public let microchipNumber: String?
    public let allergies: String?
    public let isActive: Bool
    /// `YYYY-MM-DD`.
    public let registrationDate: String
    public let owner: Owner
    public let createdAt: Date
    public let updatedAt: Date

    /// The pet's owner as embedded in a pet.
    public struct Owner: Codable, Sendable, Hashable, Identifiable {
        public let id: String
        public let firstName: String
        public let lastName: String
        public let email: String
        public let phone: String?

        public var fullName: String { "\(firstName) \(lastName)" }

        enum CodingKeys: String, CodingKey {
            case id, email, phone
            case firstName = "first_name"
            case lastName = "last_name"
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, name, species, breed, color, gender, weight, allergies, owner
        case ownerId = "owner_id"
        case dateOfBirth = "date_of_birth"
        case microchipNumber = "microchip_number"
        case isActive = "is_active"
        case registrationDate = "registration_date"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
