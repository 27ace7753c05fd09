import AppCore
import Foundation

/// The validated body of a pet-owner create or update, in the contract's field order, plus the iPhone app's fields
/// (`full_name` instead of the two name parts, the contact preferences). `""` for an optional text clears it.
struct PetOwnerRequest {
    static let updatableKeys = [
        "first_name", "last_name", "email", "phone", "address",
        "full_name", "secondary_phone", "emergency_contact", "preferred_communication", "notifications_enabled",
    ]
    static let communicationChannels = ["email", "sms", "phone"]

    var firstName: String?
    var lastName: String?
    var email: String?
    var phone: FieldPatch<String>
    var address: FieldPatch<String>
    var secondaryPhone: FieldPatch<String>
    var emergencyContact: FieldPatch<String>
    var preferredCommunication: FieldPatch<String>
    var notificationsEnabled: Bool?

    init(_ fields: FieldReader, creating: Bool) throws {
        let names = try Self.names(fields, creating: creating)
        firstName = names.first
        lastName = names.last
        email = try fields.email("email", required: creating).valueIfPresent
        phone = try fields.phone("phone").emptyAsNull
        address = try fields.optionalString("address", max: 500).emptyAsNull
        secondaryPhone = try fields.phone("secondary_phone").emptyAsNull
        emergencyContact = try fields.optionalString("emergency_contact", max: 200).emptyAsNull
        preferredCommunication = try fields.optionalString("preferred_communication", max: 20).emptyAsNull
        if case .value(let channel) = preferredCommunication, !Self.communicationChannels.contains(channel) {
            throw APIError.badRequest(
                "Invalid preferred_communication: '\(channel)'. Allowed: \(Self.communicationChannels.joined(separator: ", "))")
        }
        notificationsEnabled = try fields.optionalBool("notifications_enabled")
    }

    /// `first_name`/`last_name` as the contract has them, or — only when neither is sent — `full_name` split by
    /// FullNameSplit (the app's create and edit screens send just `full_name`). With either part present,
    /// `full_name` is what the contract says of every server-computed key: ignored.
    private static func names(_ fields: FieldReader, creating: Bool) throws -> (first: String?, last: String?) {
        // Ignored beside the name parts, but it must still be what the contract allows for it.
        _ = try fields.optionalString("full_name", min: 1, max: 201, nullable: false)
        if !fields.contains("first_name"), !fields.contains("last_name"),
            let full = try fields.optionalString("full_name", min: 1, max: 201, nullable: false).valueIfPresent
        {
            let split = try FullNameSplit(full)
            return (split.firstName, split.lastName)
        }
        let first = creating
            ? try fields.requiredString("first_name", max: 100)
            : try fields.optionalString("first_name", min: 1, max: 100, nullable: false).valueIfPresent
        let last = creating
            ? try fields.requiredString("last_name", max: 100)
            : try fields.optionalString("last_name", min: 1, max: 100, nullable: false).valueIfPresent
        return (first, last)
    }

    /// A new owner from a create body (every required field is present).
    func makeOwner() -> PetOwner {
        let owner = PetOwner()
        owner.firstName = firstName!
        owner.lastName = lastName!
        owner.email = email!
        owner.phone = phone.valueIfPresent
        owner.address = address.valueIfPresent
        owner.secondaryPhone = secondaryPhone.valueIfPresent
        owner.emergencyContact = emergencyContact.valueIfPresent
        owner.preferredCommunication = preferredCommunication.valueIfPresent
        owner.notificationsEnabled = notificationsEnabled ?? true
        return owner
    }

    func apply(to owner: PetOwner) {
        if let firstName { owner.setIfChanged(\.firstName, firstName) }
        if let lastName { owner.setIfChanged(\.lastName, lastName) }
        if let email { owner.setIfChanged(\.email, email) }
        owner.setIfChanged(\.phone, phone.applied(to: owner.phone))
        owner.setIfChanged(\.address, address.applied(to: owner.address))
        owner.setIfChanged(\.secondaryPhone, secondaryPhone.applied(to: owner.secondaryPhone))
        owner.setIfChanged(\.emergencyContact, emergencyContact.applied(to: owner.emergencyContact))
        owner.setIfChanged(\.preferredCommunication, preferredCommunication.applied(to: owner.preferredCommunication))
        if let notificationsEnabled { owner.setIfChanged(\.notificationsEnabled, notificationsEnabled) }
    }
}

/// The reversible split of a `full_name` into the stored first and last name: the last name is the text after the
/// last space (U+0020), the first name everything before it; a name without a space is all first name and an empty
/// last name. `join` (what `full_name` is answered as) gives back exactly the trimmed text that was sent.
struct FullNameSplit: Equatable {
    let firstName: String
    let lastName: String

    init(_ fullName: String) throws {
        if let space = fullName.lastIndex(of: " ") {
            firstName = String(fullName[..<space])
            lastName = String(fullName[fullName.index(after: space)...])
        } else {
            firstName = fullName
            lastName = ""
        }
        // Both parts keep the contract's 100-character limit of first_name and last_name.
        if firstName.unicodeScalars.count > 100 || lastName.unicodeScalars.count > 100 {
            throw APIError.badRequest("full_name must have at most 100 characters before and after its last space")
        }
    }

    static func join(_ first: String, _ last: String) -> String { last.isEmpty ? first : first + " " + last }
}
