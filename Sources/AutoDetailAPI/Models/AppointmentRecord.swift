import Fluent
import Foundation

/// A row of `ad_appointments` (contract §3.3). Rows are inserted only by `BookingTransaction`.
final class AppointmentRecord: Model, @unchecked Sendable {
    static let schema = "ad_appointments"

    @ID(key: .id) var id: UUID?
    @Field(key: "source") var source: String
    @Field(key: "status") var status: String
    @Field(key: "start_at") var startAt: Date
    @Field(key: "end_at") var endAt: Date
    @Field(key: "client_name") var clientName: String
    @OptionalField(key: "phone") var phone: String?
    @OptionalField(key: "telegram") var telegram: String?
    @OptionalField(key: "car_make") var carMake: String?
    @OptionalField(key: "car_plate") var carPlate: String?
    @Field(key: "service_id") var serviceID: UUID
    @Field(key: "service_name") var serviceName: String
    @Field(key: "price_rub") var priceRub: Int
    @OptionalField(key: "notes") var notes: String?
    @OptionalField(key: "install_id") var installID: UUID?
    @OptionalField(key: "created_by_key_id") var createdByKeyID: UUID?
    @Field(key: "search_text") var searchText: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var statusValue: AppointmentStatus { AppointmentStatus(rawValue: status) ?? .new }

    /// What the admin's `search` matches: client name, plate, phone and service name, lower-cased.
    static func searchText(clientName: String, carPlate: String?, phone: String?, serviceName: String) -> String {
        [clientName, carPlate, phone, serviceName].compactMap { $0 }.joined(separator: "\n").lowercased()
    }
}
