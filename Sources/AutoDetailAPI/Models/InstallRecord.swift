import Fluent
import Foundation

/// A row of `ad_install_profiles` (contract §3.6): one app installation, identified by its install key.
final class InstallRecord: Model, @unchecked Sendable {
    static let schema = "ad_install_profiles"

    @ID(key: .id) var id: UUID?
    @Field(key: "api_key_id") var apiKeyID: UUID
    @OptionalField(key: "name") var name: String?
    @OptionalField(key: "car_make") var carMake: String?
    @OptionalField(key: "car_plate") var carPlate: String?
    @OptionalField(key: "phone") var phone: String?
    @OptionalField(key: "telegram") var telegram: String?
    @OptionalField(key: "profile_photo_url") var profilePhotoURL: String?
    @Field(key: "priority") var priority: String
    @Field(key: "search_text") var searchText: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    @OptionalField(key: "last_seen_at") var lastSeenAt: Date?
    @OptionalField(key: "last_activity_path") var lastActivityPath: String?

    init() {}

    /// What the admin's `search` matches: name, plate, phone and the key prefix, lower-cased.
    static func searchText(name: String?, carPlate: String?, phone: String?, keyPrefix: String) -> String {
        [name, carPlate, phone, keyPrefix].compactMap { $0 }.joined(separator: "\n").lowercased()
    }
}
