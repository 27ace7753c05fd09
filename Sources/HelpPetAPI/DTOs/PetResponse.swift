import AppCore
import Foundation

struct PetOwnerBrief: Encodable, Sendable {
    let id: String
    let firstName: String
    let lastName: String
    let fullName: String
    let email: String
    @NullEncodable var phone: String?
    @NullEncodable var userID: String?

    enum CodingKeys: String, CodingKey {
        case id
        case firstName = "first_name"
        case lastName = "last_name"
        case fullName = "full_name"
        case email, phone
        case userID = "user_id"
    }

    init(_ o: PetOwner) {
        id = o.id!.lowercased
        firstName = o.firstName
        lastName = o.lastName
        fullName = o.fullName
        email = o.email
        phone = o.phone
        userID = o.userID?.lowercased
    }

    init(_ o: PetOwnerBriefRow, id ownerID: UUID) {
        id = ownerID.lowercased
        firstName = o.ownerFirstName
        lastName = o.ownerLastName
        // PetOwner.fullName's rule.
        fullName = o.ownerLastName.isEmpty ? o.ownerFirstName : o.ownerFirstName + " " + o.ownerLastName
        email = o.ownerEmail
        phone = o.ownerPhone
        userID = o.ownerUserID?.lowercased
    }
}

struct PetResponse: Encodable, Sendable {
    let id: String
    let ownerID: String
    let name: String
    let species: String
    @NullEncodable var breed: String?
    @NullEncodable var color: String?
    @NullEncodable var gender: String?
    @NullEncodable var dateOfBirth: String?
    @NullEncodable var weight: Double?
    @NullEncodable var microchipNumber: String?
    /// The same stored value as `microchip_number`, under the iPhone app's name.
    @NullEncodable var microchipID: String?
    @NullEncodable var allergies: String?
    @NullEncodable var spayedNeutered: Bool?
    @NullEncodable var medications: String?
    @NullEncodable var medicalNotes: String?
    @NullEncodable var emergencyContact: String?
    @NullEncodable var emergencyPhone: String?
    @NullEncodable var ageYears: Int?
    let displayName: String
    let isActive: Bool
    let registrationDate: String
    let owner: PetOwnerBrief
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case ownerID = "owner_id"
        case name, species, breed, color, gender
        case dateOfBirth = "date_of_birth"
        case weight
        case microchipNumber = "microchip_number"
        case microchipID = "microchip_id"
        case allergies
        case spayedNeutered = "spayed_neutered"
        case medications
        case medicalNotes = "medical_notes"
        case emergencyContact = "emergency_contact"
        case emergencyPhone = "emergency_phone"
        case ageYears = "age_years"
        case displayName = "display_name"
        case isActive = "is_active"
        case registrationDate = "registration_date"
        case owner
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// - Parameter today: today in the zone the pet's age is counted in (PetAge).
    init(_ p: Pet, owner o: PetOwner, today: CalendarDay) {
        self.init(PetRow(p), owner: PetOwnerBrief(o), today: today)
    }

    init(_ p: PetRow, owner o: PetOwnerBrief, today: CalendarDay) {
        id = p.id.lowercased
        ownerID = p.ownerID.lowercased
        name = p.name
        species = p.species
        breed = p.breed
        color = p.color
        gender = p.gender
        dateOfBirth = p.dateOfBirth
        weight = p.weight
        microchipNumber = p.microchipNumber
        microchipID = p.microchipNumber
        allergies = p.allergies
        spayedNeutered = p.spayedNeutered
        medications = p.medications
        medicalNotes = p.medicalNotes
        emergencyContact = p.emergencyContact
        emergencyPhone = p.emergencyPhone
        ageYears = p.dateOfBirth.flatMap(CalendarDay.init).map { PetAge.wholeYears(born: $0, today: today) }
        // As the original backend forms it.
        displayName = "\(p.name) (\(p.species))"
        isActive = p.isActive
        registrationDate = p.registrationDate
        owner = o
        createdAt = p.createdAt
        updatedAt = p.updatedAt
    }
}
