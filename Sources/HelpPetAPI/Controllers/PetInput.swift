import AppCore
import Foundation

/// The validated body of a pet create or update, in the contract's field order (`owner_id` is read by the caller
/// first on create and is immutable afterwards).
struct PetInput {
    static let updatableKeys = [
        "name", "species", "breed", "color", "gender", "date_of_birth", "weight", "microchip_number", "allergies",
        "registration_date", "is_active",
    ]
    static let earliestBirthDay = CalendarDay(year: 1900, month: 1, day: 1)!

    var name: String?
    var species: String?
    var breed: FieldPatch<String>
    var color: FieldPatch<String>
    var gender: FieldPatch<String>
    /// Stored as `YYYY-MM-DD` text.
    var dateOfBirth: FieldPatch<String>
    var weight: FieldPatch<Double>
    var microchipNumber: FieldPatch<String>
    var allergies: FieldPatch<String>
    var registrationDate: String?
    var isActive: Bool?

    /// - Parameter todayUTC: the last accepted birth day (the contract bounds it by today in UTC).
    init(_ fields: FieldReader, creating: Bool, todayUTC: CalendarDay) throws {
        name = creating
            ? try fields.requiredString("name", max: 100)
            : try fields.optionalString("name", min: 1, max: 100, nullable: false).valueIfPresent
        species = creating
            ? try fields.requiredString("species", max: 50)
            : try fields.optionalString("species", min: 1, max: 50, nullable: false).valueIfPresent
        breed = try fields.optionalString("breed", max: 100)
        color = try fields.optionalString("color", max: 50)
        gender = try fields.optionalString("gender", max: 20)
        let birth = try fields.optionalDay("date_of_birth")
        if case .value(let day) = birth, day < Self.earliestBirthDay || day > todayUTC {
            throw APIError.badRequest("date_of_birth must be between 1900-01-01 and today")
        }
        dateOfBirth = birth.map(\.description)
        weight = try fields.optionalPositiveNumber("weight", max: 1000)
        microchipNumber = try fields.optionalString("microchip_number", min: 1, max: 50)
        if case .value(let chip) = microchipNumber, !chip.unicodeScalars.allSatisfy(Self.isMicrochipCharacter) {
            throw APIError.badRequest("microchip_number contains invalid characters")
        }
        allergies = try fields.optionalString("allergies", trim: false, max: 1000)
        registrationDate = try fields.optionalDay("registration_date", nullable: false).valueIfPresent?.description
        isActive = creating ? nil : try fields.optionalBool("is_active")
    }

    static func isMicrochipCharacter(_ c: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(c) || ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "-"
    }

    /// A new active pet from a create body; `registrationDate` is the body's or the contract's default.
    func makePet(ownerID: UUID, registrationDate: String) -> Pet {
        let pet = Pet()
        pet.ownerID = ownerID
        pet.name = name!
        pet.species = species!
        pet.breed = breed.valueIfPresent
        pet.color = color.valueIfPresent
        pet.gender = gender.valueIfPresent
        pet.dateOfBirth = dateOfBirth.valueIfPresent
        pet.weight = weight.valueIfPresent
        pet.microchipNumber = microchipNumber.valueIfPresent
        pet.allergies = allergies.valueIfPresent
        pet.isActive = true
        pet.registrationDate = registrationDate
        return pet
    }

    func apply(to pet: Pet) {
        if let name { pet.setIfChanged(\.name, name) }
        if let species { pet.setIfChanged(\.species, species) }
        pet.setIfChanged(\.breed, breed.applied(to: pet.breed))
        pet.setIfChanged(\.color, color.applied(to: pet.color))
        pet.setIfChanged(\.gender, gender.applied(to: pet.gender))
        pet.setIfChanged(\.dateOfBirth, dateOfBirth.applied(to: pet.dateOfBirth))
        pet.setIfChanged(\.weight, weight.applied(to: pet.weight))
        pet.setIfChanged(\.microchipNumber, microchipNumber.applied(to: pet.microchipNumber))
        pet.setIfChanged(\.allergies, allergies.applied(to: pet.allergies))
        if let registrationDate { pet.setIfChanged(\.registrationDate, registrationDate) }
        if let isActive { pet.setIfChanged(\.isActive, isActive) }
    }
}
