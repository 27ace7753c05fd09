import AppCore
import Foundation

/// A pet's columns (`pets`), as the read path decodes them.
struct PetRow: Decodable, Sendable {
    let id: UUID
    let ownerID: UUID
    let name: String
    let species: String
    let breed: String?
    let color: String?
    let gender: String?
    let dateOfBirth: String?
    let weight: Double?
    let microchipNumber: String?
    let allergies: String?
    let spayedNeutered: Bool?
    let medications: String?
    let medicalNotes: String?
    let emergencyContact: String?
    let emergencyPhone: String?
    let isActive: Bool
    let registrationDate: String
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case ownerID = "owner_id"
        case name, species, breed, color, gender
        case dateOfBirth = "date_of_birth"
        case weight
        case microchipNumber = "microchip_number"
        case allergies
        case spayedNeutered = "spayed_neutered"
        case medications
        case medicalNotes = "medical_notes"
        case emergencyContact = "emergency_contact"
        case emergencyPhone = "emergency_phone"
        case isActive = "is_active"
        case registrationDate = "registration_date"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// The owner columns a pet's representation embeds (`PetOwnerBrief`), prefixed `owner_` in the joined row.
struct PetOwnerBriefRow: Decodable, Sendable {
    let ownerFirstName: String
    let ownerLastName: String
    let ownerEmail: String
    let ownerPhone: String?
    let ownerUserID: UUID?

    enum CodingKeys: String, CodingKey {
        case ownerFirstName = "owner_first_name"
        case ownerLastName = "owner_last_name"
        case ownerEmail = "owner_email"
        case ownerPhone = "owner_phone"
        case ownerUserID = "owner_user_id"
    }
}

/// `GET /pets/{id}` in one row: the pet, its owner, and the zone its age is counted in (PetAge's rule, computed
/// by the statement: NULL means UTC).
struct PetReadRow: Decodable, Sendable {
    let pet: PetRow
    let owner: PetOwnerBriefRow
    let ageZone: String?

    init(from decoder: any Decoder) throws {
        pet = try PetRow(from: decoder)
        owner = try PetOwnerBriefRow(from: decoder)
        ageZone = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .ageZone)
    }

    private enum Key: String, CodingKey { case ageZone = "age_zone" }
}

extension PetRow {
    init(_ p: Pet) {
        id = p.id!
        ownerID = p.ownerID
        name = p.name
        species = p.species
        breed = p.breed
        color = p.color
        gender = p.gender
        dateOfBirth = p.dateOfBirth
        weight = p.weight
        microchipNumber = p.microchipNumber
        allergies = p.allergies
        spayedNeutered = p.spayedNeutered
        medications = p.medications
        medicalNotes = p.medicalNotes
        emergencyContact = p.emergencyContact
        emergencyPhone = p.emergencyPhone
        isActive = p.isActive
        registrationDate = p.registrationDate
        createdAt = p.createdAt
        updatedAt = p.updatedAt
    }
}
