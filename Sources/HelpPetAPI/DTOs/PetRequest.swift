import AppCore
import Foundation

/// The validated body of a pet create or update, in the contract's field order (`owner_id` is read by the caller
/// first on create and is immutable afterwards).
struct PetRequest {
    static let updatableKeys = [
        "name", "species", "breed", "color", "gender", "date_of_birth", "weight", "microchip_number", "allergies",
        "registration_date", "is_active",
        // The iPhone app's fields (docs/iphone-app-compatibility.md).
        "microchip_id", "spayed_neutered", "medications", "medical_notes", "emergency_contact", "emergency_phone",
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
    var spayedNeutered: FieldPatch<Bool>
    var medications: FieldPatch<String>
    var medicalNotes: FieldPatch<String>
    var emergencyContact: FieldPatch<String>
    var emergencyPhone: FieldPatch<String>
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
        weight = try Self.weight(fields)
        microchipNumber = try Self.microchip(fields)
        if case .value(let chip) = microchipNumber, !chip.unicodeScalars.allSatisfy(Self.isMicrochipCharacter) {
            throw APIError.badRequest("microchip_number contains invalid characters")
        }
        allergies = try fields.optionalString("allergies", trim: false, max: 1000)
        spayedNeutered = try fields.optionalNullableBool("spayed_neutered")
        // The app omits empty fields, but `""` still means "clear it" here (as for a pet owner's optional texts).
        medications = try fields.optionalString("medications", trim: false, max: 2000).emptyAsNull
        medicalNotes = try fields.optionalString("medical_notes", trim: false, max: 10_000).emptyAsNull
        emergencyContact = try fields.optionalString("emergency_contact", max: 100).emptyAsNull
        emergencyPhone = try fields.optionalString("emergency_phone", max: 32).emptyAsNull
        registrationDate = try fields.optionalDay("registration_date", nullable: false).valueIfPresent?.description
        isActive = creating ? nil : try fields.optionalBool("is_active")
    }

    /// `weight: 0` is the app's "not weighed" and clears the weight; anything else keeps the contract's bounds.
    static func weight(_ fields: FieldReader) throws -> FieldPatch<Double> {
        switch fields.object["weight"] {
        case .integer(0)?: return .null
        case .number(let d)? where d == 0: return .null
        default: return try fields.optionalPositiveNumber("weight", max: 1000)
        }
    }

    /// `microchip_id` is the app's name of `microchip_number`; both may be sent only with the same value.
    static func microchip(_ fields: FieldReader) throws -> FieldPatch<String> {
        let number = try fields.optionalString("microchip_number", min: 1, max: 50)
        let alias = try fields.optionalString("microchip_id", min: 1, max: 50)
        switch (number, alias) {
        case (_, .absent): return number
        case (.absent, _): return alias
        default:
            guard number.valueIfPresent == alias.valueIfPresent else {
                throw APIError.badRequest("microchip_id and microchip_number must be the same when both are given")
            }
            return number
        }
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
        pet.spayedNeutered = spayedNeutered.valueIfPresent
        pet.medications = medications.valueIfPresent
        pet.medicalNotes = medicalNotes.valueIfPresent
        pet.emergencyContact = emergencyContact.valueIfPresent
        pet.emergencyPhone = emergencyPhone.valueIfPresent
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
        pet.setIfChanged(\.spayedNeutered, spayedNeutered.applied(to: pet.spayedNeutered))
        pet.setIfChanged(\.medications, medications.applied(to: pet.medications))
        pet.setIfChanged(\.medicalNotes, medicalNotes.applied(to: pet.medicalNotes))
        pet.setIfChanged(\.emergencyContact, emergencyContact.applied(to: pet.emergencyContact))
        pet.setIfChanged(\.emergencyPhone, emergencyPhone.applied(to: pet.emergencyPhone))
        if let registrationDate { pet.setIfChanged(\.registrationDate, registrationDate) }
        if let isActive { pet.setIfChanged(\.isActive, isActive) }
    }
}
