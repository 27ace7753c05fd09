import Foundation

/// A row of `ad_appointments` (contract §3.3) as the stores return it.
struct AppointmentRow: Decodable, Sendable {
    static let columnNames = [
        "id", "source", "status", "start_at", "end_at", "client_name", "phone", "telegram", "car_make", "car_plate",
        "service_id", "service_name", "price_rub", "notes", "install_id", "created_by_key_id", "created_at", "updated_at",
    ]
    /// The column list of every appointment read, qualified with the alias `a`, in this struct's order.
    static let columns = columnNames.map { "a." + $0 }.joined(separator: ", ")
    /// The same columns unqualified (`RETURNING` of an insert: SQLite does not accept a qualified name there).
    static let bareColumns = columnNames.joined(separator: ", ")

    let id: UUID
    let source: String
    let status: String
    let startAt: Date
    let endAt: Date
    let clientName: String
    let phone: String?
    let telegram: String?
    let carMake: String?
    let carPlate: String?
    let serviceId: UUID
    let serviceName: String
    let priceRub: Int
    let notes: String?
    let installId: UUID?
    let createdByKeyId: UUID?
    let createdAt: Date
    let updatedAt: Date

    var statusValue: AppointmentStatus { AppointmentStatus(rawValue: status) ?? .new }

    /// What the admin's `search` matches: client name, plate, phone and service name, lower-cased.
    static func searchText(clientName: String, carPlate: String?, phone: String?, serviceName: String) -> String {
        [clientName, carPlate, phone, serviceName].compactMap { $0 }.joined(separator: "\n").lowercased()
    }
}

/// An appointment with its linked photos (ordered by position, then id): what every Appointment response needs.
struct AppointmentWithPhotos: Sendable {
    let appointment: AppointmentRow
    var photos: [PhotoRow]
}

/// Which appointments a caller may see (contract §2.8), applied inside the SQL.
enum AppointmentScope: Sendable {
    /// The console and organisation keys with `fullAccess`.
    case everything
    /// Appointments created with this key.
    case createdBy(UUID)
}
