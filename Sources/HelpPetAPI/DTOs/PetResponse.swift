import AppCore
import Foundation

struct PetOwnerBrief: Encodable, Sendable {
    let id: String
    let first_name: String
    let last_name: String
    let email: String
    @NullEncodable var phone: String?
}

struct PetResponse: Encodable, Sendable {
    let id: String
    let owner_id: String
    let name: String
    let species: String
    @NullEncodable var breed: String?
    @NullEncodable var color: String?
    @NullEncodable var gender: String?
    @NullEncodable var date_of_birth: String?
    @NullEncodable var weight: Double?
    @NullEncodable var microchip_number: String?
    @NullEncodable var allergies: String?
    let is_active: Bool
    let registration_date: String
    let owner: PetOwnerBrief
    let created_at: Date
    let updated_at: Date

    init(_ p: Pet, owner o: PetOwner) {
        id = p.id!.lowercased
        owner_id = p.ownerID.lowercased
        name = p.name
        species = p.species
        breed = p.breed
        color = p.color
        gender = p.gender
        date_of_birth = p.dateOfBirth
        weight = p.weight
        microchip_number = p.microchipNumber
        allergies = p.allergies
        is_active = p.isActive
        registration_date = p.registrationDate
        owner = PetOwnerBrief(id: o.id!.lowercased, first_name: o.firstName, last_name: o.lastName, email: o.email, phone: o.phone)
        created_at = p.createdAt
        updated_at = p.updatedAt
    }
}
