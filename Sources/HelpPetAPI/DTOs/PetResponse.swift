import AppCore
import Foundation

struct PetOwnerBrief: Encodable, Sendable {
    let id: String
    let first_name: String
    let last_name: String
    let full_name: String
    let email: String
    @NullEncodable var phone: String?
    @NullEncodable var user_id: String?

    init(_ o: PetOwner) {
        id = o.id!.lowercased
        first_name = o.firstName
        last_name = o.lastName
        full_name = o.fullName
        email = o.email
        phone = o.phone
        user_id = o.userID?.lowercased
    }

    init(_ o: PetOwnerBriefRow, id ownerID: UUID) {
        id = ownerID.lowercased
        first_name = o.owner_first_name
        last_name = o.owner_last_name
        // PetOwner.fullName's rule.
        full_name = o.owner_last_name.isEmpty ? o.owner_first_name : o.owner_first_name + " " + o.owner_last_name
        email = o.owner_email
        phone = o.owner_phone
        user_id = o.owner_user_id?.lowercased
    }
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
    /// The same stored value as `microchip_number`, under the iPhone app's name.
    @NullEncodable var microchip_id: String?
    @NullEncodable var allergies: String?
    @NullEncodable var spayed_neutered: Bool?
    @NullEncodable var medications: String?
    @NullEncodable var medical_notes: String?
    @NullEncodable var emergency_contact: String?
    @NullEncodable var emergency_phone: String?
    @NullEncodable var age_years: Int?
    let display_name: String
    let is_active: Bool
    let registration_date: String
    let owner: PetOwnerBrief
    let created_at: Date
    let updated_at: Date

    /// - Parameter today: today in the zone the pet's age is counted in (PetAge).
    init(_ p: Pet, owner o: PetOwner, today: CalendarDay) {
        self.init(PetRow(p), owner: PetOwnerBrief(o), today: today)
    }

    init(_ p: PetRow, owner o: PetOwnerBrief, today: CalendarDay) {
        id = p.id.lowercased
        owner_id = p.owner_id.lowercased
        name = p.name
        species = p.species
        breed = p.breed
        color = p.color
        gender = p.gender
        date_of_birth = p.date_of_birth
        weight = p.weight
        microchip_number = p.microchip_number
        microchip_id = p.microchip_number
        allergies = p.allergies
        spayed_neutered = p.spayed_neutered
        medications = p.medications
        medical_notes = p.medical_notes
        emergency_contact = p.emergency_contact
        emergency_phone = p.emergency_phone
        age_years = p.date_of_birth.flatMap(CalendarDay.init).map { PetAge.wholeYears(born: $0, today: today) }
        // As the original backend forms it.
        display_name = "\(p.name) (\(p.species))"
        is_active = p.is_active
        registration_date = p.registration_date
        owner = o
        created_at = p.created_at
        updated_at = p.updated_at
    }
}
