import AppCore
import Foundation

/// A pet's columns (`pets`), as the read path decodes them.
struct PetRow: Decodable, Sendable {
    let id: UUID
    let owner_id: UUID
    let name: String
    let species: String
    let breed: String?
    let color: String?
    let gender: String?
    let date_of_birth: String?
    let weight: Double?
    let microchip_number: String?
    let allergies: String?
    let spayed_neutered: Bool?
    let medications: String?
    let medical_notes: String?
    let emergency_contact: String?
    let emergency_phone: String?
    let is_active: Bool
    let registration_date: String
    let created_at: Date
    let updated_at: Date
}

/// The owner columns a pet's representation embeds (`PetOwnerBrief`), prefixed `owner_` in the joined row.
struct PetOwnerBriefRow: Decodable, Sendable {
    let owner_first_name: String
    let owner_last_name: String
    let owner_email: String
    let owner_phone: String?
    let owner_user_id: UUID?
}

/// `GET /pets/{id}` in one row: the pet, its owner, and the zone its age is counted in (PetAge's rule, computed
/// by the statement: NULL means UTC).
struct PetReadRow: Decodable, Sendable {
    let pet: PetRow
    let owner: PetOwnerBriefRow
    let age_zone: String?

    init(from decoder: any Decoder) throws {
        pet = try PetRow(from: decoder)
        owner = try PetOwnerBriefRow(from: decoder)
        age_zone = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .age_zone)
    }

    private enum Key: String, CodingKey { case age_zone }
}

extension PetRow {
    init(_ p: Pet) {
        id = p.id!
        owner_id = p.ownerID
        name = p.name
        species = p.species
        breed = p.breed
        color = p.color
        gender = p.gender
        date_of_birth = p.dateOfBirth
        weight = p.weight
        microchip_number = p.microchipNumber
        allergies = p.allergies
        spayed_neutered = p.spayedNeutered
        medications = p.medications
        medical_notes = p.medicalNotes
        emergency_contact = p.emergencyContact
        emergency_phone = p.emergencyPhone
        is_active = p.isActive
        registration_date = p.registrationDate
        created_at = p.createdAt
        updated_at = p.updatedAt
    }
}
